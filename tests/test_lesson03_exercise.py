"""Lesson 03's exercise check (helpers.homework.lesson03): the right answer_call passes, the stub is not done yet,
and the mistakes students make with a function_call_output fail with a hint that doesn't hand over the answer."""

import json

from helpers.homework.lesson03 import check_answer_call


def _fields(call):
    """name, arguments, call_id and id of an SDK item or a dict (what a right solution reads)."""
    get = call.get if isinstance(call, dict) else lambda key: getattr(call, key)
    return get("name"), get("arguments"), get("call_id"), get("id")


def right(call, tools):
    name, arguments, call_id, _ = _fields(call)
    result = tools[name](**json.loads(arguments))
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(result)}


def _assert_fails_without_answer(result):
    assert result.status == "fail", result
    # The answer's pieces: the call ids the check uses, and the JSON of a result.
    for secret in ("call_7Qx2", "call_Kd81", "json.dumps", '"output":'):
        assert secret not in result.hint, result.hint


def test_the_right_solution_passes():
    assert check_answer_call(right).status == "pass"


def test_the_stub_is_not_done_yet():
    def stub(call, tools):
        # your code here
        raise NotImplementedError

    assert check_answer_call(stub).status == "todo"
    assert check_answer_call(None).status == "todo"


def test_the_items_id_instead_of_call_id_fails():
    def uses_id(call, tools):
        name, arguments, _, item_id = _fields(call)
        return {"type": "function_call_output", "call_id": item_id,
                "output": json.dumps(tools[name](**json.loads(arguments)))}

    result = check_answer_call(uses_id)
    _assert_fails_without_answer(result)
    assert "`id`" in result.hint


def test_the_raw_python_result_fails():
    def raw(call, tools):
        name, arguments, call_id, _ = _fields(call)
        return {"type": "function_call_output", "call_id": call_id, "output": tools[name](**json.loads(arguments))}

    result = check_answer_call(raw)
    _assert_fails_without_answer(result)
    assert "string" in result.hint


def test_the_result_as_str_instead_of_json_fails():
    def as_str(call, tools):
        name, arguments, call_id, _ = _fields(call)
        return {"type": "function_call_output", "call_id": call_id, "output": str(tools[name](**json.loads(arguments)))}

    result = check_answer_call(as_str)
    _assert_fails_without_answer(result)
    assert "not JSON" in result.hint


def test_unparsed_arguments_fail():
    def unparsed(call, tools):
        name, arguments, call_id, _ = _fields(call)
        return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(tools[name](arguments))}

    result = check_answer_call(unparsed)
    _assert_fails_without_answer(result)
    assert "JSON string" in result.hint


def test_arguments_unpacked_from_the_string_fail_with_a_hint():
    def star_star_string(call, tools):
        name, arguments, call_id, _ = _fields(call)
        return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(tools[name](**arguments))}

    _assert_fails_without_answer(check_answer_call(star_star_string))


def test_a_wrong_type_fails():
    def wrong_type(call, tools):
        item = right(call, tools)
        return {**item, "type": "function_call"}

    result = check_answer_call(wrong_type)
    _assert_fails_without_answer(result)
    assert "type" in result.hint and "function_call_output" not in result.hint


def test_sdk_objects_only_fails_on_a_dict():
    def attributes_only(call, tools):
        result = tools[call.name](**json.loads(call.arguments))
        return {"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(result)}

    result = check_answer_call(attributes_only)
    _assert_fails_without_answer(result)
    assert "dict" in result.hint


def test_always_the_same_tool_fails():
    def always_search(call, tools):
        _, arguments, call_id, _ = _fields(call)
        return {"type": "function_call_output", "call_id": call_id,
                "output": json.dumps(tools["search"](**json.loads(arguments)))}

    _assert_fails_without_answer(check_answer_call(always_search))
