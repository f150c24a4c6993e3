"""Lesson 09's exercise check: a `my_tool` decorator that builds a Responses tool schema from a typed function.
The right decorator passes, the stub is not done yet, and each plausible mistake fails with a hint that does
not hand over the schema."""

import inspect
from typing import get_type_hints

import hints
from hints import stub
from pydantic import create_model

from helpers.checks.lessons.lesson09 import check_my_tool


def fields_of(fn, typed=True, required=True):
    """pydantic fields for `fn`'s parameters: the hinted type (or str) and the default (or `...`)."""
    annotations = get_type_hints(fn)
    fields = {}
    for name, parameter in inspect.signature(fn).parameters.items():
        missing = parameter.default is inspect.Parameter.empty
        default = ... if missing and required else (None if missing else parameter.default)
        fields[name] = (annotations[name] if typed else str, default)
    return fields


def make_tool(fn, *, typed=True, required=True, description=lambda fn: inspect.getdoc(fn).splitlines()[0],
              give_back=lambda fn, schema: fn):
    model = create_model(f"{fn.__name__}_arguments", **fields_of(fn, typed, required))
    schema = {"type": "function", "name": fn.__name__, "description": description(fn),
              "parameters": model.model_json_schema()}
    fn.schema = schema
    return give_back(fn, schema)


def right(fn):
    return make_tool(fn)


def assert_fails(result, *secrets):
    hints.assert_fails(result, leaks=secrets)


# What the hints must never contain: the solution's key lines.
SECRETS = ("create_model(", "get_type_hints(", "splitlines()[0]", "Parameter.empty")


def test_the_right_decorator_passes():
    result = check_my_tool(right)
    assert result.status == "pass", result


def test_a_stub_is_not_done_yet():
    assert check_my_tool(stub).status == "todo"
    assert check_my_tool(None).status == "todo"


def test_every_parameter_optional_fails():
    result = check_my_tool(lambda fn: make_tool(fn, required=False))
    assert_fails(result, *SECRETS)
    assert "required" in result.hint


def test_a_required_list_that_is_missing_fails():
    def no_required(fn):
        decorated = make_tool(fn)
        decorated.schema["parameters"].pop("required")
        return decorated

    result = check_my_tool(no_required)
    assert_fails(result, *SECRETS)
    assert "'required'" in result.hint


def test_every_parameter_required_fails():
    def all_required(fn):
        decorated = make_tool(fn)
        decorated.schema["parameters"]["required"] = list(inspect.signature(fn).parameters)
        return decorated

    assert_fails(check_my_tool(all_required), *SECRETS)


def test_no_description_fails():
    result = check_my_tool(lambda fn: make_tool(fn, description=lambda fn: ""))
    assert_fails(result, *SECRETS)
    assert "no description" in result.hint


def test_the_whole_docstring_as_description_fails():
    result = check_my_tool(lambda fn: make_tool(fn, description=inspect.getdoc))
    assert_fails(result, *SECRETS)
    assert "whole docstring" in result.hint


def test_the_raw_docstring_as_description_fails():
    result = check_my_tool(lambda fn: make_tool(fn, description=lambda fn: fn.__doc__))
    assert_fails(result, *SECRETS)


def test_type_hints_ignored_fails():
    result = check_my_tool(lambda fn: make_tool(fn, typed=False))
    assert_fails(result, *SECRETS)
    assert "type hint" in result.hint


def test_returning_the_schema_fails():
    result = check_my_tool(lambda fn: make_tool(fn, give_back=lambda fn, schema: schema))
    assert_fails(result, *SECRETS)
    assert "can no longer be called" in result.hint


def test_returning_nothing_is_not_done_yet():
    assert check_my_tool(lambda fn: make_tool(fn, give_back=lambda fn, schema: None)).status == "todo"


def test_a_wrapper_that_changes_the_result_fails():
    def wrapped(fn):
        make_tool(fn)

        def call(*args, **kwargs):
            return str(fn(*args, **kwargs)).upper()

        call.schema = fn.schema
        return call

    assert_fails(check_my_tool(wrapped), *SECRETS)


def test_the_course_tool_is_not_this_decorator():
    from helpers.tools import tool

    result = check_my_tool(tool)
    assert_fails(result, *SECRETS)
    assert ".schema" in result.hint
