"""Lesson 12 · Evaluating the agent: the checks of its two exercises, hit rate and MRR (E12) and a judge (E12b).

The student writes `hit_rate(results)` and `mrr(results)`. `results` holds one list per question, the search's
results in order, each True where that result is a right entry for the question (a question may have more than
one right entry: the FAQ has near-duplicates). Hit rate is the share of questions with at least one right entry
among their results; MRR the mean over questions of 1/rank of the first right entry (rank 1 for the first
result), counting 0 for a question with none.

The check calls both on small hand-made cases (a question with two right entries, one with no results at all)
and names the usual mistakes when it sees their value: ranks counted from 0, every right entry summed, right
results counted instead of questions, a division by the number of results instead of the number of questions.
Left out on purpose: the search itself (the lesson builds the lists) and other metrics (precision, nDCG).

The student also writes `judge_answer(client, model, question, entry, answer)`: one Responses API call with no
tools that shows a judge model the question, the FAQ entry's text and the answer, asks for JSON whose `verdict`
is PASS or FAIL, and returns the parsed dict, or `{"error": ...}` when the reply holds no such verdict. The
check runs it on two answers through the offline model (`judge_client`, so the verdict is the same whatever model
the student uses), wrapped in a SpyClient: one call each, no tools, all three texts in the request, and a PASS or
FAIL read from the reply; what the student's own model replied is said beside the PASS. Then on a scripted model whose replies
are not the verdict asked for (free text that mentions PASS, JSON with another label), which the judge must
report, not guess. Any way to ask for the shape counts: structured output (`text.format`) or JSON with named
keys in the instructions; the offline model honours both, and a real model meets either. Left out on purpose:
whether the verdict is *right* (the offline model fills the labels by rules, and a real one must be checked
against people's verdicts, as the lesson says) and Chat Completions (the lesson's judge uses the Responses API).
"""

from __future__ import annotations

import json

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    SpyClient,
    always_says,
    judge_client,
    on_your_model,
    request_text,
    wire_double,
)
from helpers.tools import preview

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


# Two answers to judge, each with its question and FAQ entry: one the entry supports, one it contradicts. No double
# quotes or accents, so that the texts read the same in a request whichever way it is sent (JSON escapes both).
JUDGE_CASES = [
    ("Can I still join the course after it has started?",
     {"id": "join-late", "section": "General course questions", "question": "I found the course late. Can I join now?",
      "answer": "Yes, you can join at any time. Some homework deadlines may have passed, but the projects still "
                "count for the certificate."},
     "Yes: you can join at any time [join-late], and the projects still count for the certificate."),
    ("Do I need a paid OpenAI account for the homework?",
     {"id": "free-model", "section": "Module 2: Open-source LLMs", "question": "Is an API key required?",
      "answer": "No. Every homework runs with a free local model through Ollama, so no key is needed."},
     "Yes, you need a paid account with at least 10 dollars of credit [free-model]."),
]
LABELS = ("PASS", "FAIL")
# Replies a judge can get that hold no verdict to read: free text that names a label, JSON with another label.
BAD_REPLIES = ["Looks right to me, so PASS.", json.dumps({"verdict": "good", "reason": "It answers the question."})]


def _judged(result, what: str):
    fail_if(not isinstance(result, dict), f"judge_answer returned a {type(result).__name__} for {what}; return "
            "the parsed verdict as a dict.")
    return read_field(result, "verdict")


def _check_request(spy: SpyClient, before: int, question: str, entry: dict, answer: str) -> None:
    calls = spy.calls[before:]
    fail_if(not calls, "judge_answer made no model call through client.responses.create (a call through another "
            "method or another client can't be seen); the judge is one call to the model it is given.")
    fail_if(len(calls) > 1, f"judge_answer called the model {len(calls)} times for one answer; a judge makes one "
            "call per answer and asks for the whole verdict in it.")
    request = calls[0][0]
    fail_if(bool(request.get("tools")), "judge_answer sends tools with its call; a judge reads what it is given "
            "and searches nothing, so send no tools.")
    sent = request_text(request)
    for text, name in [(question, "the question"), (entry["answer"], "the FAQ entry's text (its answer field)"),
                       (answer, "the answer to judge")]:
        fail_if(text not in sent, f"the judge's request does not contain {name}, so the judge can't weigh it; "
                "put the question, the entry and the answer in the instructions or the input.")


def _check_reports_bad_replies(judge_answer) -> None:
    for reply in BAD_REPLIES:
        scripted = wire_double(always_says(reply))  # a real client whose model replies this, every time
        question, entry, answer = JUDGE_CASES[0]
        try:
            result = run_student_code(judge_answer, scripted, "scripted", question, entry, answer,
                                      what="judge_answer")
        except CheckFailed as failed:
            raise CheckFailed(f"on a reply that holds no verdict, {failed} A reply you can't read is a result "
                              "to report: return a dict with an error key.") from None
        fail_if(not isinstance(result, dict) or "error" not in result or read_field(result, "verdict") in LABELS,
                "on a reply that is not JSON with a PASS or FAIL verdict (free text that mentions PASS, or JSON "
                "with another label), judge_answer still returned a verdict. Report it instead: return a dict "
                "with an error key, as the lesson's judge does, and no verdict.")


@task_check("12-evaluation", "E12b", title="A judge prompt")
def check_judge(judge_answer, client, model):
    """Check `judge_answer(client, model, question, entry, answer)` on two answers through `client`, then on
    replies that hold no verdict.

    Example:
        >>> check_judge(None, None, "offline-rules-v1")
        [NOT DONE YET] Task E12b · A judge prompt: define the function in the cell above, then run this cell
        again.
    """
    if judge_answer is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    fail_if(client is None, "check_judge needs the lesson's client to run your judge on: "
            "check_judge(judge_answer, client, model).")
    from helpers.offline import OFFLINE_MODEL

    # The judge prompt is the student's work, so a model reads it; the verdict comes from the offline model
    # (deterministic, and it follows a JSON-shape instruction by general rules), not from the student's model.
    spy = SpyClient(judge_client())
    for question, entry, answer in JUDGE_CASES:
        before = len(spy.calls)
        verdict = _judged(run_student_code(judge_answer, spy, OFFLINE_MODEL, question, entry, answer,
                                           what="judge_answer"), "an answer")
        _check_request(spy, before, question, entry, answer)
        fail_if(verdict not in LABELS, "judge_answer returned no PASS or FAIL under the key verdict: the reply did "
                "not parse into the verdict you asked for. Ask the model for JSON in a fixed shape, naming the key "
                "and its two labels, and read the verdict from it.")
    _check_reports_bad_replies(judge_answer)

    def what_your_model_did(client, model) -> str:
        question, entry, answer = JUDGE_CASES[0]
        seen = run_student_code(judge_answer, client, model, question, entry, answer, what="judge_answer")
        return f"your judge returned {preview(str(seen), 100)}."

    return (f"one call with no tools per answer, the question, entry and answer in it, and a verdict parsed on "
            f"{len(JUDGE_CASES)} answers; replies that hold no verdict are reported." + on_your_model(
                client, model, what_your_model_did))
