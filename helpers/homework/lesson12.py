"""Lesson 12 · Evaluating the agent: the check of its exercise, hit rate and MRR.

The student writes `hit_rate(results)` and `mrr(results)`. `results` holds one list per question, the search's
results in order, each True where that result is a right entry for the question (a question may have more than
one right entry: the FAQ has near-duplicates). Hit rate is the share of questions with at least one right entry
among their results; MRR the mean over questions of 1/rank of the first right entry (rank 1 for the first
result), counting 0 for a question with none.

The check calls both on small hand-made cases (a question with two right entries, one with no results at all)
and names the usual mistakes when it sees their value: ranks counted from 0, every right entry summed, right
results counted instead of questions, a division by the number of results instead of the number of questions.
Left out on purpose: the search itself (the lesson builds the lists) and other metrics (precision, nDCG).
"""

from __future__ import annotations

from helpers.homework.core import CheckFailed, fail_if, run_student_code, task_check

# One list per question: a hit in first place, one in third, a miss, two right entries (the first in second
# place), and a question whose search returned nothing.
CASES = [[True, False, False], [False, False, True], [False, False, False], [False, True, True], []]


def _first_ranks(results: list[list[bool]]) -> list[int | None]:
    return [next((i for i, right in enumerate(row, start=1) if right), None) for row in results]


def _close(got, want: float) -> bool:
    return isinstance(got, (int, float)) and not isinstance(got, bool) and abs(got - want) < 1e-9


def _number(got, name: str) -> float:
    fail_if(isinstance(got, bool) or not isinstance(got, (int, float)), f"{name} returned a "
            f"{type(got).__name__}; return one number, a share between 0 and 1.")
    return got


def _check_hit_rate(hit_rate) -> None:
    questions, results = len(CASES), sum(len(row) for row in CASES)
    hits = sum(rank is not None for rank in _first_ranks(CASES))
    right = sum(sum(row) for row in CASES)
    got = _number(run_student_code(hit_rate, [[True]], what="hit_rate"), "hit_rate")
    fail_if(not _close(got, 1.0), "hit_rate([[True]]) should be a share between 0 and 1: one question, found.")
    got = _number(run_student_code(hit_rate, CASES, what="hit_rate"), "hit_rate")
    if _close(got, hits / questions):
        return
    fail_if(_close(got, right / questions), "hit_rate counts right results, so a question with two right "
            "entries counts twice; count each question once, when it has at least one.")
    fail_if(_close(got, hits / results) or _close(got, right / results), "hit_rate divides by the number of "
            "results; it is a share of questions.")
    fail_if(_close(got, sum(bool(row) and row[0] for row in CASES) / questions), "hit_rate counts only the "
            "questions whose first result is right; a right entry anywhere in the results is a hit.")
    fail_if(_close(got, 100 * hits / questions), "hit_rate returned a percentage; return a share between 0 and 1.")
    raise CheckFailed("hit_rate is off on five questions (a hit in first place, one in third, a miss, two right "
                      "entries, no results at all). Count the questions with at least one right result.")


def _check_mrr(mrr) -> None:
    questions, results = len(CASES), sum(len(row) for row in CASES)
    ranks = _first_ranks(CASES)
    want = sum(1 / rank for rank in ranks if rank) / questions
    try:
        got = _number(run_student_code(mrr, [[True]], what="mrr"), "mrr")
    except CheckFailed as failed:
        fail_if("ZeroDivisionError" in str(failed), "mrr divided by zero on a right entry in first place: "
                "ranks start at 1 (the first result), not at 0.")
        raise
    fail_if(_close(got, 0.5), "mrr's ranks are off by one: the first result has rank 1, the second rank 2.")
    fail_if(not _close(got, 1.0), "mrr([[True]]) should be 1: the right entry is the first result.")
    got = _number(run_student_code(mrr, CASES, what="mrr"), "mrr")
    if _close(got, want):
        return
    every_right = sum(1 / i for row in CASES for i, right in enumerate(row, start=1) if right) / questions
    fail_if(_close(got, every_right), "mrr adds 1/rank for every right entry of a question; only the first "
            "right entry counts.")
    fail_if(_close(got, sum(1 / (rank - 1 or 1) for rank in ranks if rank) / questions)
            or _close(got, sum(1 / (rank + 1) for rank in ranks if rank) / questions),
            "mrr's ranks are off by one: the first result has rank 1, the second rank 2.")
    fail_if(_close(got, want * questions / results), "mrr divides by the number of results; it is a mean over "
            "questions.")
    fail_if(_close(got, sum(1 / rank for rank in ranks if rank) / sum(1 for rank in ranks if rank)),
            "mrr leaves the misses out of the mean; a question with no right result counts 0.")
    raise CheckFailed("mrr is off on five questions (a hit in first place, one in third, a miss, two right "
                      "entries, no results at all). Take 1/rank of each question's first right result, 0 for "
                      "none, and average over the questions.")


@task_check("12-evaluation", "E12", title="Hit rate and MRR")
def check_hit_rate_and_mrr(hit_rate, mrr):
    """Check `hit_rate(results)` and `mrr(results)`, where `results` has one list of booleans per question.

    Example:
        >>> check_hit_rate_and_mrr(None, None)
        [NOT DONE YET] Task E12 · Hit rate and MRR: define the function in the cell above, then run this cell
        again.
    """
    _check_hit_rate(hit_rate)
    _check_mrr(mrr)
    return f"right on {len(CASES)} questions, with two right entries in one and no results in another."
