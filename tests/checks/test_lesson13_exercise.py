"""Lesson 13's exercise check (helpers.checks.lessons.lesson13): the right gate passes, the stub is not done yet, and
the gates students really write wrong fail with a hint that doesn't hand over the answer."""

import json

import hints
import pytest

from helpers.checks.lessons.lesson13 import check_gated_call
from helpers.offline import OFFLINE_MODEL, neutral_client


def output(call, text):
    return {"type": "function_call_output", "call_id": call["call_id"], "output": text}


def run(call, tools):
    return json.dumps(tools[call["name"]](**json.loads(call["arguments"])))


def right(call, tools, needs_approval, ask):
    if call["name"] in needs_approval:
        decision = ask(call["name"], json.loads(call["arguments"]))
        if decision is not True:
            reason = decision if isinstance(decision, str) else "no decision"
            return [output(call, f"Not approved by the user, so it did not run. Reason: {reason}")]
    return [output(call, run(call, tools))]


def check(gate):
    return check_gated_call(gate, neutral_client(), OFFLINE_MODEL)


SECRETS = ("is not True", "isinstance(", "function_call_output\", \"call_id\"", "Reason:")


def test_the_right_gate_passes():
    result = check(right)
    assert result.status == "pass", result


@pytest.mark.parametrize("gate", [hints.stub, None])
def test_the_stub_is_not_done_yet(gate):
    hints.assert_todo(check(gate))


def runs_before_asking(call, tools, needs_approval, ask):
    text = run(call, tools)  # "I'll ask afterwards": the write has happened
    if call["name"] in needs_approval:
        decision = ask(call["name"], json.loads(call["arguments"]))
        if decision is not True:
            return [output(call, f"Not approved: {decision}")]
    return [output(call, text)]


def drops_the_rejected_output(call, tools, needs_approval, ask):
    if call["name"] in needs_approval and ask(call["name"], json.loads(call["arguments"])) is not True:
        return []  # the call is left unanswered: the API answers 400
    return [output(call, run(call, tools))]


def reason_as_user_message(call, tools, needs_approval, ask):
    if call["name"] in needs_approval:
        decision = ask(call["name"], json.loads(call["arguments"]))
        if decision is not True:
            return [{"role": "user", "content": f"I don't approve: {decision}"}]
    return [output(call, run(call, tools))]


def approves_without_a_decision(call, tools, needs_approval, ask):
    if call["name"] in needs_approval:
        decision = ask(call["name"], json.loads(call["arguments"]))
        if isinstance(decision, str):  # only a reason counts as "no"; None slips through as yes
            return [output(call, f"Not approved: {decision}")]
    return [output(call, run(call, tools))]


def asks_about_every_tool(call, tools, needs_approval, ask):
    decision = ask(call["name"], json.loads(call["arguments"]))
    if decision is not True:
        return [output(call, f"Not approved: {decision}")]
    return [output(call, run(call, tools))]


def forgets_the_reason(call, tools, needs_approval, ask):
    if call["name"] in needs_approval and ask(call["name"], json.loads(call["arguments"])) is not True:
        return [output(call, "Not approved.")]
    return [output(call, run(call, tools))]


@pytest.mark.parametrize(("gate", "says"), [
    (runs_before_asking, "before"),
    (drops_the_rejected_output, "400"),
    (reason_as_user_message, "user message"),
    (approves_without_a_decision, "fail closed"),
    (asks_about_every_tool, "needs_approval"),
    (forgets_the_reason, "reason"),
], ids=lambda v: getattr(v, "__name__", v))
def test_wrong_gates_fail_with_a_hint_that_does_not_give_the_answer(gate, says):
    hints.assert_fails(check(gate), leaks=SECRETS, says=(says,))


def test_a_gate_that_crashes_gets_a_hint():
    def crashes(call, tools, needs_approval, ask):
        return tools[call["name"]](call["arguments"]["text"])  # arguments are a JSON string

    hints.assert_fails(check(crashes), leaks=SECRETS, says=("TypeError",))
