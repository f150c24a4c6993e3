"""Lesson 04's exercise check (helpers.checks.lessons.lesson04): the right loop passes on the scripted and the offline
model, the stub is not done yet, and the loops students really write wrong fail with a hint that doesn't hand over
the answer."""

import json

import hints
import pytest

from helpers.checks.lessons.lesson04 import check_run_agent
from helpers.offline import OFFLINE_MODEL, neutral_client


def make_call(call, tools):  # the lesson's make_call, as the student has it
    arguments = json.loads(call.arguments)
    result = tools[call.name](**arguments)
    return {"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(result)}


def right(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        messages.extend(response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        for call in calls:
            messages.append(make_call(call, tools))
        if not calls:
            return response.output_text


def check(loop):
    return check_run_agent(loop, neutral_client(), OFFLINE_MODEL)


# Pieces of the answer a hint must never show.
SECRETS = ("extend(", "output_text", "while ", "call_1_0", "make_call(", "Install Docker Desktop")


def test_the_right_loop_passes():
    result = check(right)
    assert result.status == "pass", result
    # The offline model searches before it answers, so the history rules were checked on a real round trip.
    assert "in 1 model call" not in result.hint


@pytest.mark.parametrize("run_agent", [hints.stub, None])
def test_the_stub_is_not_done_yet(run_agent):
    hints.assert_todo(check(run_agent))


def never_stops(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        messages.extend(response.output)
        for item in response.output:
            if item.type == "function_call":
                messages.append(make_call(item, tools))


def one_round(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    response = client.responses.create(model=model, input=messages, tools=tool_schemas)
    for item in response.output:
        if item.type == "function_call":
            messages.append(make_call(item, tools))
    return response.output_text


def forgets_output(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        calls = [item for item in response.output if item.type == "function_call"]
        for call in calls:
            messages.append(make_call(call, tools))
        if not calls:
            return response.output_text


def first_call_only(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        messages.extend(response.output)
        call = next((item for item in response.output if item.type == "function_call"), None)
        if call is None:
            return response.output_text
        messages.append(make_call(call, tools))


def returns_response(client, model, question, tools, tool_schemas):
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        messages.extend(response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        for call in calls:
            messages.append(make_call(call, tools))
        if not calls:
            return response


def no_tools(client, model, question, tools, tool_schemas):
    return right(client, model, question, tools, [])


def returns_text(answer):
    """A right loop that returns `answer` instead of the model's text."""
    def wrong_text(client, model, question, tools, tool_schemas):
        right(client, model, question, tools, tool_schemas)
        return answer

    return wrong_text


def endless_on_real_models(client, model, question, tools, tool_schemas):
    """A loop right on the script but endless on the model (it stops only on the scripted model's name)."""
    if model == "scripted":
        return right(client, model, question, tools, tool_schemas)
    messages = [{"role": "user", "content": question}]
    while True:
        client.responses.create(model=model, input=messages, tools=tool_schemas)


# (a loop students really write wrong, words its hint must contain)
MISTAKES = [
    pytest.param(never_stops, ["again"], id="a loop that never stops"),
    pytest.param(one_round, ["stopped after the first response"], id="stopping after the first call"),
    pytest.param(forgets_output, ["stateless"], id="dropping the model's output from the history"),
    pytest.param(first_call_only, ["not only the first"], id="running only the first call"),
    pytest.param(returns_response, ["whole response"], id="returning the whole response"),
    pytest.param(no_tools, [], id="a loop without the tools"),
    pytest.param(returns_text(""), [], id="returning other text: empty"),
    pytest.param(returns_text("Done."), [], id="returning other text: Done."),
    pytest.param(endless_on_real_models, ["12 times"], id="a loop that stops checking on a real run is capped"),
]


@pytest.mark.parametrize(("run_agent", "says"), MISTAKES)
def test_a_wrong_loop_fails_with_a_hint_that_does_not_show_the_answer(run_agent, says):
    hints.assert_fails(check(run_agent), leaks=SECRETS, says=says)
