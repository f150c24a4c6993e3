"""Lesson 16's exercise check: the right bridge passes, the stub is not done, plausible mistakes fail."""

from __future__ import annotations

import json

from helpers.checks.lessons.lesson16 import check_mcp_bridge
from helpers.mcp_tools import result_text


def to_schema(tool):
    return {"type": "function", "name": tool.name, "description": tool.description,
            "parameters": tool.input_schema}


def run_mcp_call(call, connection):
    try:
        result = connection.call_tool(call["name"], json.loads(call["arguments"] or "{}"))
        text = "\n".join(block.text for block in result.content if block.type == "text")
        output = json.dumps({"error": text}) if result.is_error else text
    except Exception as error:  # noqa: BLE001 -- the loop must go on
        output = json.dumps({"error": f"{type(error).__name__}: {error}"})
    return {"type": "function_call_output", "call_id": call["call_id"], "output": output}


def _assert_fails(result, *leaks):
    assert result.status == "fail", result
    for leak in ["parameters", "json.loads", "result.content[0].text", *leaks]:
        assert leak not in result.hint, (leak, result.hint)


def test_right_solution_passes():
    assert check_mcp_bridge(to_schema, run_mcp_call).status == "pass"


def test_the_course_bridge_passes_too():
    def course_call(call, connection):
        try:
            output = result_text(connection.call_tool(call["name"], json.loads(call["arguments"])), call["name"])
        except Exception as error:  # noqa: BLE001
            output = f"error: {error}"
        return {"type": "function_call_output", "call_id": call["call_id"], "output": output}

    assert check_mcp_bridge(to_schema, course_call).status == "pass"


def test_stub_is_not_done():
    def stub(*args):
        raise NotImplementedError

    assert check_mcp_bridge(stub, stub).status == "todo"


def test_input_schema_under_the_wrong_key_fails():
    def wrong_key(tool):
        return {"type": "function", "name": tool.name, "description": tool.description,
                "input_schema": tool.input_schema}

    _assert_fails(check_mcp_bridge(wrong_key, run_mcp_call))


def test_forgotten_function_type_fails():
    def no_type(tool):
        return {"name": tool.name, "description": tool.description, "parameters": tool.input_schema}

    _assert_fails(check_mcp_bridge(no_type, run_mcp_call), '"function"')


def test_chat_shape_fails():
    def chat_shape(tool):
        return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                 "parameters": tool.input_schema}}

    _assert_fails(check_mcp_bridge(chat_shape, run_mcp_call))


def test_result_object_instead_of_text_fails():
    def whole_result(call, connection):
        result = connection.call_tool(call["name"], json.loads(call["arguments"]))
        return {"type": "function_call_output", "call_id": call["call_id"], "output": result}

    def printed_result(call, connection):
        result = connection.call_tool(call["name"], json.loads(call["arguments"]))
        return {"type": "function_call_output", "call_id": call["call_id"], "output": str(result)}

    _assert_fails(check_mcp_bridge(to_schema, whole_result))
    _assert_fails(check_mcp_bridge(to_schema, printed_result))


def test_raising_on_an_error_result_fails():
    def raises(call, connection):
        result = connection.call_tool(call["name"], json.loads(call["arguments"]))
        if result.is_error:
            raise RuntimeError(result.content[0].text)
        return {"type": "function_call_output", "call_id": call["call_id"], "output": result.content[0].text}

    result = check_mcp_bridge(to_schema, raises)
    _assert_fails(result)
    assert "error" in result.hint


def test_arguments_dumped_twice_fail():
    def passes_the_string(call, connection):
        try:
            result = connection.call_tool(call["name"], json.dumps(call["arguments"]))
            output = "\n".join(block.text for block in result.content)
        except Exception as error:  # noqa: BLE001
            output = str(error)
        return {"type": "function_call_output", "call_id": call["call_id"], "output": output}

    _assert_fails(check_mcp_bridge(to_schema, passes_the_string))


def test_uncaught_connection_error_fails():
    def no_try(call, connection):
        result = connection.call_tool(call["name"], json.loads(call["arguments"]))
        text = result.content[0].text
        return {"type": "function_call_output", "call_id": call["call_id"], "output": text}

    result = check_mcp_bridge(to_schema, no_try)
    _assert_fails(result)
    assert "ConnectionError" in result.hint


def test_wrong_call_id_fails():
    def wrong_id(call, connection):
        item = run_mcp_call(call, connection)
        return {**item, "call_id": call["id"]}

    _assert_fails(check_mcp_bridge(to_schema, wrong_id))
