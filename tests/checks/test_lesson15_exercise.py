"""Lesson 15's exercise check: `keep_last_turns(items, n)` keeps the instructions and the last n whole user turns.
The right trim passes, the stub is not done yet, and each plausible mistake fails with a hint that does not hand
over the code."""

import hints
from hints import stub

from helpers.checks.lessons.lesson15 import check_keep_last_turns

INSTRUCTION_ROLES = ("system", "developer")
SECRETS = ("starts[-", "items[:head]", "enumerate(items)", "role\") == \"user\"")


def right(items, n):
    head = 0
    while head < len(items) and items[head].get("role") in INSTRUCTION_ROLES:
        head += 1
    starts = [i for i, item in enumerate(items) if item.get("role") == "user"]
    return items[:head] + items[starts[-min(n, len(starts))]:]


def test_the_right_trim_passes():
    result = check_keep_last_turns(right)
    assert result.status == "pass", result


def test_a_stub_is_not_done_yet():
    hints.assert_todo(check_keep_last_turns(stub))
    hints.assert_todo(check_keep_last_turns(None))


def test_cutting_by_item_count_orphans_a_tool_output():
    def by_items(items, n):  # "keep the last few items": a function_call_output loses its call
        return items[:1] + items[-2 * n:]
    hints.assert_fails(check_keep_last_turns(by_items), leaks=SECRETS, says=("refuses",))


def test_cutting_by_item_count_mid_turn_fails():
    def by_items(items, n):
        return items[:1] + items[-3 * n:]
    hints.assert_fails(check_keep_last_turns(by_items), leaks=SECRETS, says=("middle of a turn",))


def test_dropping_the_instructions_fails():
    def no_head(items, n):
        starts = [i for i, item in enumerate(items) if item.get("role") == "user"]
        return items[starts[-min(n, len(starts))]:]
    hints.assert_fails(check_keep_last_turns(no_head), leaks=SECRETS, says=("instructions",))


def test_keeping_the_first_n_turns_fails():
    def first_n(items, n):
        head = 1
        starts = [i for i, item in enumerate(items) if item.get("role") == "user"]
        end = starts[n] if n < len(starts) else len(items)
        return items[:head] + items[head:end]
    hints.assert_fails(check_keep_last_turns(first_n), leaks=SECRETS, says=("most recent",))


def test_keeping_only_the_user_messages_fails():
    def users_only(items, n):
        users = [m for m in items if m.get("role") == "user"]
        return items[:1] + users[-n:]
    hints.assert_fails(check_keep_last_turns(users_only), leaks=SECRETS)


def test_one_turn_too_few_fails():
    def off_by_one(items, n):
        head = 1
        starts = [i for i, item in enumerate(items) if item.get("role") == "user"]
        if n <= 1:
            return items[:head] + items[starts[-1]:]
        return items[:head] + items[starts[-(n - 1)]:]
    hints.assert_fails(check_keep_last_turns(off_by_one), leaks=SECRETS, says=("counts as a turn",))


def test_trimming_in_place_fails():
    def in_place(items, n):
        kept = right(items, n)
        items[:] = kept
        return items
    hints.assert_fails(check_keep_last_turns(in_place), leaks=SECRETS, says=("changed the list",))
