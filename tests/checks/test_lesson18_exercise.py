"""Lesson 18's check: `my_policy(tool)` allows a tool only when its MCP annotations say it only reads. The right
policy passes however it is written; the stub is not done yet; each plausible mistake fails with a hint that
names the tool and never hands over the rule."""

import hints
from hints import stub

from helpers.capstone import policy_from_annotations
from helpers.checks.lessons.lesson18 import check_policy

SECRETS = ("read_only_hint is True", "destructive_hint is not True", "destructive_hint is True")


def right(tool):
    notes = tool.annotations
    if notes and notes.read_only_hint is True and not notes.destructive_hint:
        return "allow"
    return "ask"


def right_as_a_dict(tool):  # written differently: the annotations as the wire's camelCase dict
    notes = tool.annotations.model_dump(by_alias=True) if tool.annotations else {}
    return "allow" if notes.get("readOnlyHint") is True and notes.get("destructiveHint") in (None, False) else "ask"


def test_right_policies_pass():
    for policy in (right, right_as_a_dict, policy_from_annotations):
        assert check_policy(policy).status == "pass", policy


def test_a_stub_is_not_done_yet():
    hints.assert_todo(check_policy(stub))
    hints.assert_todo(check_policy(None))


def test_asking_for_everything_fails():
    hints.assert_fails(check_policy(lambda tool: "ask"), leaks=SECRETS, says=("every tool",))


def test_allowing_everything_fails():
    hints.assert_fails(check_policy(lambda tool: "allow"), leaks=SECRETS, says=("should be asked",))


def test_guessing_from_the_name_fails():
    def by_name(tool):
        return "allow" if tool.name.startswith(("get", "find", "list", "search")) else "ask"
    hints.assert_fails(check_policy(by_name), leaks=SECRETS, says=("not its name",))


def test_trusting_read_only_over_destructive_fails():
    def read_only_wins(tool):
        return "allow" if tool.annotations and tool.annotations.read_only_hint else "ask"
    hints.assert_fails(check_policy(read_only_wins), leaks=SECRETS, says=("clear_shelf",))


def test_allowing_a_tool_without_annotations_fails():
    def fail_open(tool):
        notes = tool.annotations
        return "ask" if notes and (notes.read_only_hint is False or notes.destructive_hint) else "allow"
    hints.assert_fails(check_policy(fail_open), leaks=SECRETS, says=("no annotations",))


def test_a_boolean_answer_fails():
    hints.assert_fails(check_policy(lambda tool: True), leaks=SECRETS, says=("'allow' or 'ask'",))
