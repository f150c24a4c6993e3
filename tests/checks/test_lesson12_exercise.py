"""Lesson 12's exercise, `hit_rate(results)` and `mrr(results)` over one list of booleans per question: the right
functions pass, the stubs are not done yet, and the mistakes students really make fail with a hint that gives no
expected figure. No search, no kernel: the check runs the functions on its own hand-made lists."""

import hints
from hints import stub

from helpers.checks.lessons.lesson12 import CASES, check_hit_rate_and_mrr
from helpers.evaluate import scores


def hit_rate(results):
    return sum(any(row) for row in results) / len(results)


def mrr(results):
    total = 0.0
    for row in results:
        for rank, right in enumerate(row, start=1):
            if right:
                total += 1 / rank
                break
    return total / len(results)


def assert_fails(result, *words):
    hit, reciprocal = scores([row.index(True) + 1 if True in row else None for row in CASES])
    # The expected figures never appear in a hint, in any usual rounding.
    hints.assert_fails(result, leaks=[f"{figure:{form}}" for figure in (hit, reciprocal) for form in (".2f", ".3f")],
                       says=words)


def test_the_right_functions_pass_and_agree_with_the_course_helper():
    assert check_hit_rate_and_mrr(hit_rate, mrr).status == "pass"
    assert (hit_rate(CASES), mrr(CASES)) == scores([row.index(True) + 1 if True in row else None for row in CASES])


def test_the_stubs_are_not_done_yet():
    assert check_hit_rate_and_mrr(stub, stub).status == "todo"
    assert check_hit_rate_and_mrr(hit_rate, stub).status == "todo"
    assert check_hit_rate_and_mrr(None, None).status == "todo"


def test_mrr_with_ranks_from_zero_fails():
    def mrr_from_zero(results):
        total = 0.0
        for row in results:
            for i, right in enumerate(row):
                if right:
                    total += 1 / i
                    break
        return total / len(results)

    assert_fails(check_hit_rate_and_mrr(hit_rate, mrr_from_zero), "ranks start at 1")


def test_mrr_off_by_one_the_other_way_fails():
    def mrr_one_too_far(results):
        total = 0.0
        for row in results:
            for i, right in enumerate(row, start=1):
                if right:
                    total += 1 / (i + 1)
                    break
        return total / len(results)

    assert_fails(check_hit_rate_and_mrr(hit_rate, mrr_one_too_far), "off by one")


def test_mrr_summing_every_right_entry_fails():
    def mrr_every_right(results):
        return sum(1 / i for row in results for i, right in enumerate(row, start=1) if right) / len(results)

    assert_fails(check_hit_rate_and_mrr(hit_rate, mrr_every_right), "only the first")


def test_hit_rate_counting_right_results_fails():
    def hit_rate_counts_results(results):
        return sum(sum(row) for row in results) / len(results)

    assert_fails(check_hit_rate_and_mrr(hit_rate_counts_results, mrr), "counts twice")


def test_dividing_by_the_number_of_results_fails():
    def hit_rate_per_result(results):
        return sum(any(row) for row in results) / sum(len(row) for row in results)

    def mrr_per_result(results):
        return mrr(results) * len(results) / sum(len(row) for row in results)

    assert_fails(check_hit_rate_and_mrr(hit_rate_per_result, mrr), "number of results")
    assert_fails(check_hit_rate_and_mrr(hit_rate, mrr_per_result), "number of results")


def test_mrr_leaving_misses_out_of_the_mean_fails():
    def mrr_of_hits(results):
        found = [next(1 / i for i, right in enumerate(row, start=1) if right) for row in results if any(row)]
        return sum(found) / len(found)

    assert_fails(check_hit_rate_and_mrr(hit_rate, mrr_of_hits), "misses")


def test_hit_rate_as_a_percentage_fails():
    assert_fails(check_hit_rate_and_mrr(lambda results: 100 * hit_rate(results), mrr), "between 0 and 1")
