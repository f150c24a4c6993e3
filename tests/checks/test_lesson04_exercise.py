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


def keeps_only_calls(client, model, question, tools, tool_schemas):
    """Keeps the function calls and their outputs but drops the rest of each response (its reasoning items)."""
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        calls = [item for item in response.output if item.type == "function_call"]
        messages.extend(calls)
        for call in calls:
            messages.append(make_call(call, tools))
        if not calls:
            return response.output_text


def stops_on_text(client, model, question, tools, tool_schemas):
    """Takes any text as the answer, even text written beside a function call."""
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        messages.extend(response.output)
        if response.output_text:
            return response.output_text
        for item in response.output:
            if item.type == "function_call":
                messages.append(make_call(item, tools))


# (a loop students really write wrong, words its hint must contain)
MISTAKES = [
    pytest.param(keeps_only_calls, ["reasoning item"], id="keeping only the calls of each response"),
    pytest.param(stops_on_text, ["whatever else it holds"], id="stopping on text beside a call"),
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


def right_written_differently(client, model, question, tools, tool_schemas):
    """A right loop in another style: a for loop with a bound, the outputs gathered first, then appended."""
    history = [{"role": "user", "content": question}]
    for _ in range(50):
        response = client.responses.create(model=model, input=history, tools=tool_schemas)
        history += list(response.output)
        outputs = [make_call(item, tools) for item in response.output if item.type == "function_call"]
        if not outputs:
            return response.output_text
        history += outputs
    return ""


def test_a_right_loop_written_differently_passes():
    assert check(right_written_differently).status == "pass"


@pytest.mark.parametrize("reply", ["", "I can't help with that."])
def test_the_verdict_does_not_depend_on_the_students_model(reply):
    """A model that never calls a tool and answers with an empty or unhelpful text: right code still passes, as
    the verdict comes from the scripted and offline models."""
    from helpers.checks.doubles import always_says, wire_double

    result = check_run_agent(right, wire_double(always_says(reply)), "weak-model")
    assert result.status == "pass", result
