"""Homework 7.3's check: `fit_budget(items, budget)` keeps every history within the budget, valid for the API,
and the follow-up about the user's first message answered. The right policy passes, the stub is not done yet,
and each plausible mistake fails with a hint that does not hand over the code."""

import hints
from hints import stub

from helpers.billing.tokens import request_tokens
from helpers.checks.homework.hw07_memory import check_fit_budget
from helpers.history import drop_stale_outputs, keep_last_turns, user_turns

SECRETS = ("del turns", "user_turns(", "drop_stale_outputs(")


def flat(head, turns):
    return head + [item for turn in turns for item in turn]


def right(items, budget):
    """Old tool outputs go first; then the oldest turns after the first one, until the history fits."""
    items = drop_stale_outputs(items, keep_turns=1)
    head, turns = user_turns(items)
    while len(turns) > 2 and request_tokens({"input": flat(head, turns)}) > budget:
        del turns[1]
    return flat(head, turns)


def test_the_right_policy_passes():
    result = check_fit_budget(right)
    assert result.status == "pass", result


def test_a_stub_is_not_done_yet():
    hints.assert_todo(check_fit_budget(stub))
    hints.assert_todo(check_fit_budget(None))


def test_keeping_everything_goes_over_the_budget():
    hints.assert_fails(check_fit_budget(lambda items, budget: items), leaks=SECRETS, says=("over the budget",))


def test_dropping_stale_outputs_alone_still_goes_over():
    hints.assert_fails(check_fit_budget(lambda items, budget: drop_stale_outputs(items)), leaks=SECRETS,
                       says=("over the budget",))


def test_keeping_only_the_last_turn_forgets_the_user():
    hints.assert_fails(check_fit_budget(lambda items, budget: keep_last_turns(items, 1)), leaks=SECRETS,
                       says=("first turn",))


def test_deleting_the_tool_outputs_leaves_calls_without_outputs():
    def no_outputs(items, budget):  # the outputs are what is big, so delete them (their calls stay behind)
        return [item for item in items if item.get("type") != "function_call_output"]
    hints.assert_fails(check_fit_budget(no_outputs), leaks=SECRETS, says=("refused",))


def test_forgetting_everything_fits_but_forgets():
    hints.assert_fails(check_fit_budget(lambda items, budget: []), leaks=SECRETS, says=("first turn",))
