"""Lesson 05's exercise (helpers.checks.lessons.lesson05): measuring a guard prompt. The right solution passes, the stub
is not done yet, and the mistakes students make (a guard that fails open, a case-sensitive reading, counts for the
wrong label, a call per question too many, tools offered, a prompt without a scope) fail with a hint that names
no held-back question and no expected count."""

import hints
import pytest
from hints import stub

from helpers.checks.lessons.lesson05 import HELD_BACK, SCRIPTED, allows, check_measure_guard
from helpers.llm import make_client

GUARD = """You screen questions for a course assistant of the DataTalksClub courses
(data engineering, machine learning, MLOps, LLMs: homework, certificates, tools, setup errors).
Reply with exactly one word: ALLOW if the question is about these courses or their tools, BLOCK otherwise."""


@pytest.fixture(scope="module")
def offline():
    client, _ = make_client("offline", verbose=False)
    return client


def measure_with(read, *, swap=False, tools=None, calls=1):
    """A measure_guard that reads each reply with `read`; the other arguments give the usual mistakes."""
    def measure_guard(client, model, guard, labelled):
        result = {"on_topic_allowed": 0, "off_topic_let_through": 0}
        for question, on_topic in labelled:
            extra = {"tools": tools} if tools else {}
            for _ in range(calls):
                reply = client.responses.create(model=model, instructions=guard, input=question, **extra).output_text
            if read(reply):
                key = "on_topic_allowed" if on_topic != swap else "off_topic_let_through"
                result[key] += 1
        return result
    return measure_guard


def right(reply):
    return reply.strip().strip(".").upper() == "ALLOW"


def assert_fails(result, *needles):
    # The held-back questions stay held back.
    hints.assert_fails(result, leaks=[question for question, _ in HELD_BACK], says=needles)


def test_right_solution_passes(offline):
    result = check_measure_guard(measure_with(right), GUARD, offline, "offline-rules-v1")
    assert result.passed, result
    assert "held-back" in result.hint


def test_stub_is_not_done_yet(offline):
    result = check_measure_guard(stub, GUARD, offline, "offline-rules-v1")
    hints.assert_todo(result)
    assert check_measure_guard(measure_with(right), "", offline, "offline-rules-v1").status == "todo"


def test_block_not_in_reply_fails_open(offline):
    result = check_measure_guard(measure_with(lambda reply: "BLOCK" not in reply.upper()), GUARD, offline,
                                 "offline-rules-v1")
    assert_fails(result, "Fail closed")


def test_allow_anywhere_in_reply_fails_open(offline):
    result = check_measure_guard(measure_with(lambda reply: "ALLOW" in reply.upper()), GUARD, offline,
                                 "offline-rules-v1")
    assert_fails(result, "Fail closed")


def test_case_sensitive_compare_blocks_allow(offline):
    result = check_measure_guard(measure_with(lambda reply: reply.strip() == "ALLOW"), GUARD, offline,
                                 "offline-rules-v1")
    assert_fails(result, "another case")
    assert ".upper()" not in result.hint and ".lower()" not in result.hint  # where to look, not the code


def test_counts_for_the_wrong_label(offline):
    result = check_measure_guard(measure_with(right, swap=True), GUARD, offline, "offline-rules-v1")
    assert_fails(result, "swapped")


def test_counting_blocked_instead_of_let_through(offline):
    result = check_measure_guard(measure_with(lambda reply: not right(reply)), GUARD, offline, "offline-rules-v1")
    assert_fails(result, "per label")


def test_two_calls_per_question(offline):
    assert_fails(check_measure_guard(measure_with(right, calls=2), GUARD, offline, "offline-rules-v1"),
                 "one guard call per question")


def test_tools_offered(offline):
    from helpers.search import SEARCH_TOOL

    assert_fails(check_measure_guard(measure_with(right, tools=[SEARCH_TOOL]), GUARD, offline, "offline-rules-v1"),
                 "offer tools")


def test_prompt_without_a_scope(offline):
    unscoped = "Reply with exactly one word: ALLOW if the question is fine, BLOCK otherwise."
    assert_fails(check_measure_guard(measure_with(right), unscoped, offline, "offline-rules-v1"), "what is on-topic")


def test_a_guard_that_lets_everything_through(offline):
    loose = "Reply with exactly one word, ALLOW, to any question, about the course or not."
    result = check_measure_guard(measure_with(right), loose, offline, "offline-rules-v1")
    assert result.status == "fail", result
    assert "counts are right" in result.hint


def test_the_scripted_replies_cover_every_mistake():
    replies = [reply for _, _, reply in SCRIPTED]
    assert {"", "I'm not sure.", "allow"} <= set(replies)
    assert [allows(r) for r in replies] == [right(r) for r in replies]
    assert sum(on for _, on in HELD_BACK) >= 8 and sum(not on for _, on in HELD_BACK) >= 8
