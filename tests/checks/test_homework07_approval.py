"""Homework 07, task 7.1 (helpers.checks.homework.hw07_approval): the right loop with an approval gate passes, the stub
is not done yet, and the loops students really write wrong fail with a hint that doesn't give the answer."""

import json

import hints
import pytest

from helpers.checks.homework.hw07_approval import check_approval_loop
from helpers.offline import OFFLINE_MODEL, neutral_client


def output(call, text):
    return {"type": "function_call_output", "call_id": call.call_id, "output": text}


def loop(decide_call):
    """Lesson 04's loop with `decide_call(call, tools, needs_approval, ask) -> list of items` for each call."""
    def run_with_approval(client, model, question, tools, schemas, needs_approval, ask):
        history = [{"role": "user", "content": question}]
        while True:
            response = client.responses.create(model=model, input=history, tools=schemas)
            history += response.output
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text
            for call in calls:
                history += decide_call(call, tools, needs_approval, ask)
    return run_with_approval


def run(call, tools):
    return json.dumps(tools[call.name](**json.loads(call.arguments)))


def gate(call, tools, needs_approval, ask):
    if call.name in needs_approval:
        decision = ask(call.name, json.loads(call.arguments))
        if decision is not True:
            reason = decision if isinstance(decision, str) else "nobody decided"
            return [output(call, f"Not approved by the user, so it did not run. Reason: {reason}")]
    return [output(call, run(call, tools))]


def check(fn):
    return check_approval_loop(fn, neutral_client(), OFFLINE_MODEL)


SECRETS = ("is not True", "isinstance(", "Reason:", "while True", "output_text")


def test_the_right_loop_passes():
    result = check(loop(gate))
    assert result.status == "pass", result


@pytest.mark.parametrize("fn", [hints.stub, None])
def test_the_stub_is_not_done_yet(fn):
    hints.assert_todo(check(fn))


def runs_before_asking(call, tools, needs_approval, ask):
    text = run(call, tools)
    if call.name in needs_approval and ask(call.name, json.loads(call.arguments)) is not True:
        return [output(call, "Not approved.")]
    return [output(call, text)]


def drops_the_rejected_output(call, tools, needs_approval, ask):
    if call.name in needs_approval and ask(call.name, json.loads(call.arguments)) is not True:
        return []
    return [output(call, run(call, tools))]


def reason_as_user_message(call, tools, needs_approval, ask):
    if call.name in needs_approval:
        decision = ask(call.name, json.loads(call.arguments))
        if decision is not True:
            return [output(call, "Not approved."), {"role": "user", "content": f"Reason: {decision}"}]
    return [output(call, run(call, tools))]


def approves_without_a_decision(call, tools, needs_approval, ask):
    if call.name in needs_approval:
        decision = ask(call.name, json.loads(call.arguments))
        if isinstance(decision, str):
            return [output(call, f"Not approved: {decision}")]
    return [output(call, run(call, tools))]


def asks_about_every_tool(call, tools, needs_approval, ask):
    decision = ask(call.name, json.loads(call.arguments))
    if decision is not True:
        return [output(call, f"Not approved: {decision}")]
    return [output(call, run(call, tools))]


def stops_after_a_rejection(client, model, question, tools, schemas, needs_approval, ask):
    history = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=history, tools=schemas)
        history += response.output
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text
        for call in calls:
            if call.name in needs_approval:
                decision = ask(call.name, json.loads(call.arguments))
                if decision is not True:
                    return f"Not done: {decision}"  # the model never hears of it
            history.append(output(call, run(call, tools)))


@pytest.mark.parametrize(("fn", "says"), [
    (loop(runs_before_asking), "before"),
    (loop(drops_the_rejected_output), "400"),
    (loop(reason_as_user_message), "user message"),
    (loop(approves_without_a_decision), "fail"),
    (loop(asks_about_every_tool), "needs_approval"),
    (stops_after_a_rejection, "stopped"),
], ids=["runs_before_asking", "drops_the_rejected_output", "reason_as_user_message", "approves_without_a_decision",
        "asks_about_every_tool", "stops_after_a_rejection"])
def test_wrong_loops_fail_with_a_hint_that_does_not_give_the_answer(fn, says):
    hints.assert_fails(check(fn), leaks=SECRETS, says=(says,))
