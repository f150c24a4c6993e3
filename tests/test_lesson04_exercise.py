"""Lesson 04's exercise check (helpers.homework.lesson04): the right loop passes on the scripted and the offline
model, the stub is not done yet, and the loops students really write wrong fail with a hint that doesn't hand over
the answer."""

import json

import pytest

from helpers.homework.lesson04 import check_run_agent
from helpers.offline import OFFLINE_MODEL, offline_client


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
    return check_run_agent(loop, offline_client(), OFFLINE_MODEL)


def assert_fails_without_answer(result):
    assert result.status == "fail", result
    for code in ("extend(", "output_text", "while ", "call_1_0", "make_call(", "Install Docker Desktop"):
        assert code not in result.hint, result.hint


def test_the_right_loop_passes():
    result = check(right)
    assert result.status == "pass", result
    # The offline model searches before it answers, so the history rules were checked on a real round trip.
    assert "in 1 model call" not in result.hint


def test_the_stub_is_not_done_yet():
    def stub(client, model, question, tools, tool_schemas):
        # your code here
        raise NotImplementedError

    assert check(stub).status == "todo"
    assert check(None).status == "todo"


def test_a_loop_that_never_stops_fails():
    def never_stops(client, model, question, tools, tool_schemas):
        messages = [{"role": "user", "content": question}]
        while True:
            response = client.responses.create(model=model, input=messages, tools=tool_schemas)
            messages.extend(response.output)
            for item in response.output:
                if item.type == "function_call":
                    messages.append(make_call(item, tools))

    result = check(never_stops)
    assert_fails_without_answer(result)
    assert "again" in result.hint


def test_stopping_after_the_first_call_fails():
    def one_round(client, model, question, tools, tool_schemas):
        messages = [{"role": "user", "content": question}]
        response = client.responses.create(model=model, input=messages, tools=tool_schemas)
        for item in response.output:
            if item.type == "function_call":
                messages.append(make_call(item, tools))
        return response.output_text

    result = check(one_round)
    assert_fails_without_answer(result)
    assert "stopped after the first response" in result.hint


def test_dropping_the_models_output_from_the_history_fails():
    def forgets_output(client, model, question, tools, tool_schemas):
        messages = [{"role": "user", "content": question}]
        while True:
            response = client.responses.create(model=model, input=messages, tools=tool_schemas)
            calls = [item for item in response.output if item.type == "function_call"]
            for call in calls:
                messages.append(make_call(call, tools))
            if not calls:
                return response.output_text

    result = check(forgets_output)
    assert_fails_without_answer(result)
    assert "stateless" in result.hint


def test_running_only_the_first_call_fails():
    def first_call_only(client, model, question, tools, tool_schemas):
        messages = [{"role": "user", "content": question}]
        while True:
            response = client.responses.create(model=model, input=messages, tools=tool_schemas)
            messages.extend(response.output)
            call = next((item for item in response.output if item.type == "function_call"), None)
            if call is None:
                return response.output_text
            messages.append(make_call(call, tools))

    result = check(first_call_only)
    assert_fails_without_answer(result)
    assert "not only the first" in result.hint


def test_returning_the_whole_response_fails():
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

    result = check(returns_response)
    assert_fails_without_answer(result)
    assert "whole response" in result.hint


def test_a_loop_without_the_tools_fails():
    def no_tools(client, model, question, tools, tool_schemas):
        return right(client, model, question, tools, [])

    assert_fails_without_answer(check(no_tools))


@pytest.mark.parametrize("answer", ["", "Done."])
def test_returning_other_text_fails(answer):
    def wrong_text(client, model, question, tools, tool_schemas):
        right(client, model, question, tools, tool_schemas)
        return answer

    assert_fails_without_answer(check(wrong_text))


def test_a_loop_that_stops_checking_on_a_real_run_is_capped():
    """A loop right on the script but endless on the model (it stops only on the scripted model's name)."""
    def endless_on_real_models(client, model, question, tools, tool_schemas):
        if model == "scripted":
            return right(client, model, question, tools, tool_schemas)
        messages = [{"role": "user", "content": question}]
        while True:
            client.responses.create(model=model, input=messages, tools=tool_schemas)

    result = check(endless_on_real_models)
    assert_fails_without_answer(result)
    assert "12 times" in result.hint
