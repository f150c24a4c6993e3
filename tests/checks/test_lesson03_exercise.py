"""Lesson 03's exercise check (helpers.checks.lessons.lesson03): the right answer_call passes, the stub is not done yet,
and the mistakes students make with a function_call_output fail with a hint that doesn't hand over the answer."""

import json

import hints
import pytest

from helpers.checks.lessons.lesson03 import check_answer_call


def _fields(call):
    """name, arguments, call_id and id of an SDK item or a dict (what a right solution reads)."""
    get = call.get if isinstance(call, dict) else lambda key: getattr(call, key)
    return get("name"), get("arguments"), get("call_id"), get("id")


def right(call, tools):
    name, arguments, call_id, _ = _fields(call)
    result = tools[name](**json.loads(arguments))
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(result)}


# The answer's pieces: the call ids the check uses, and the JSON of a result.
SECRETS = ("call_7Qx2", "call_Kd81", "json.dumps", '"output":')


def test_the_right_solution_passes():
    assert check_answer_call(right).status == "pass"


@pytest.mark.parametrize("answer_call", [hints.stub, None])
def test_the_stub_is_not_done_yet(answer_call):
    hints.assert_todo(check_answer_call(answer_call))


def uses_id(call, tools):
    name, arguments, _, item_id = _fields(call)
    return {"type": "function_call_output", "call_id": item_id,
            "output": json.dumps(tools[name](**json.loads(arguments)))}


def raw(call, tools):
    name, arguments, call_id, _ = _fields(call)
    return {"type": "function_call_output", "call_id": call_id, "output": tools[name](**json.loads(arguments))}


def as_str(call, tools):
    name, arguments, call_id, _ = _fields(call)
    return {"type": "function_call_output", "call_id": call_id, "output": str(tools[name](**json.loads(arguments)))}


def unparsed(call, tools):
    name, arguments, call_id, _ = _fields(call)
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(tools[name](arguments))}


def star_star_string(call, tools):
    name, arguments, call_id, _ = _fields(call)
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(tools[name](**arguments))}


def wrong_type(call, tools):
    item = right(call, tools)
    return {**item, "type": "function_call"}


def attributes_only(call, tools):
    result = tools[call.name](**json.loads(call.arguments))
    return {"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(result)}


def always_search(call, tools):
    _, arguments, call_id, _ = _fields(call)
    return {"type": "function_call_output", "call_id": call_id,
            "output": json.dumps(tools["search"](**json.loads(arguments)))}


# (a mistake students make, words its hint must contain, what else it must not show)
MISTAKES = [
    pytest.param(uses_id, ["`id`"], [], id="the item's id instead of call_id"),
    pytest.param(raw, ["string"], [], id="the raw Python result"),
    pytest.param(as_str, ["not JSON"], [], id="the result as str instead of JSON"),
    pytest.param(unparsed, ["JSON string"], [], id="unparsed arguments"),
    pytest.param(star_star_string, [], [], id="arguments unpacked from the string"),
    pytest.param(wrong_type, ["type"], ["function_call_output"], id="a wrong type"),
    pytest.param(attributes_only, ["dict"], [], id="SDK objects only, on a dict"),
    pytest.param(always_search, [], [], id="always the same tool"),
]


@pytest.mark.parametrize(("answer_call", "says", "also_hidden"), MISTAKES)
def test_a_mistake_fails_with_a_hint_that_does_not_show_the_answer(answer_call, says, also_hidden):
    hints.assert_fails(check_answer_call(answer_call), leaks=(*SECRETS, *also_hidden), says=says)
