"""Lesson 18's check: `my_policy(tool)` allows a tool only when its MCP annotations say it only reads. The right
policy passes however it is written; the stub is not done yet; each plausible mistake fails with a hint that
names the tool and never hands over the rule."""

import hints
from hints import stub

from helpers.capstone import policy_from_annotations
from helpers.checks.lessons.lesson18 import check_policy

SECRETS = ("read_only_hint is True", "destructive_hint is False", "is not False", "== \"deny\"")


def right(tool):
    notes = tool.annotations
    if notes is not None and notes.read_only_hint:
        return "allow"
    if notes is not None and notes.destructive_hint is False:
        return "ask"
    return "deny"


def right_as_a_dict(tool):  # written differently: the annotations as the wire's camelCase dict
    notes = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
    tier = {True: "allow"}.get(notes.get("readOnlyHint"))
    return tier or ("ask" if notes.get("destructiveHint", True) is False else "deny")


def test_right_policies_pass():
    for policy in (right, right_as_a_dict, policy_from_annotations):
        assert check_policy(policy).status == "pass", policy


def test_a_stub_is_not_done_yet():
    hints.assert_todo(check_policy(stub))
    hints.assert_todo(check_policy(None))


def test_two_tiers_fail():
    def two_tiers(tool):
        return "allow" if tool.annotations and tool.annotations.read_only_hint is True else "ask"
    hints.assert_fails(check_policy(two_tiers), leaks=SECRETS, says=("no tool is 'deny'",))


def test_lesson_13s_policy_for_fails():
    """Lesson 13's three tiers ask about a destructive tool that is idempotent; the capstone's never offers it."""
    from helpers.approval import policy_for
    from helpers.mcp_tools import annotations_of

    hints.assert_fails(check_policy(lambda tool: policy_for(annotations_of(tool))), leaks=SECRETS,
                       says=("get_or_create_shift",))


def test_asking_for_everything_fails():
    hints.assert_fails(check_policy(lambda tool: "ask"), leaks=SECRETS, says=("'deny'",))


def test_guessing_from_the_name_fails():
    def by_name(tool):
        if tool.name.startswith(("get", "find", "list")):
            return "allow"
        return "deny" if "remove" in tool.name or "clear" in tool.name else "ask"
    hints.assert_fails(check_policy(by_name), leaks=SECRETS, says=("not its name",))


def test_taking_a_missing_destructive_hint_as_false_fails():
    def default_false(tool):
        notes = tool.annotations
        if notes is not None and notes.read_only_hint:
            return "allow"
        return "deny" if notes is not None and notes.destructive_hint else "ask"
    hints.assert_fails(check_policy(default_false), leaks=SECRETS, says=("defaults",))


def test_letting_destructive_win_over_read_only_fails():
    def destructive_first(tool):
        notes = tool.annotations
        if notes is None or notes.destructive_hint is not False and not notes.read_only_hint:
            return "deny"
        if notes.destructive_hint:
            return "deny"
        return "allow" if notes.read_only_hint else "ask"
    hints.assert_fails(check_policy(destructive_first), leaks=SECRETS, says=("clear_shelf_view",))


def test_a_boolean_answer_fails():
    hints.assert_fails(check_policy(lambda tool: True), leaks=SECRETS, says=("'allow', 'ask' or 'deny'",))
