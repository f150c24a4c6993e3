"""Lesson 16's exercise check: a right server passes however it is written; plausible wrong servers fail, and
no hint gives the answer away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel

from helpers.checks.lessons.lesson16 import check_mcp_server


class Deadline(TypedDict):
    homework: str
    due: str


def make_server(deadlines):
    server = MCPServer("deadlines")

    @server.tool(description="The due date of a homework of the course.",
                 annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def homework_deadline(homework: str) -> Deadline:
        if homework not in deadlines:
            raise ToolError(f"no homework {homework!r}")
        return {"homework": homework, "due": deadlines[homework]}

    return server


def _assert_fails(result, *leaks):
    assert result.status == "fail", result
    for leak in ["ToolAnnotations", "read_only_hint", "readOnlyHint=True", "TypedDict", "BaseModel", "ToolError",
                 "structured_output", *leaks]:
        assert leak not in result.hint, (leak, result.hint)


READ_ONLY = ToolAnnotations(read_only_hint=True)


def _server(*, annotations=READ_ONLY, returns=Deadline, name="homework_deadline",
            body=None, description="When a homework is due."):
    """A server like the right one with one thing changed."""
    def make(deadlines):
        server = MCPServer("variant")

        def homework_deadline(homework: str):
            if body is not None:
                return body(deadlines, homework)
            if homework not in deadlines:
                raise ToolError(f"no homework {homework!r}")
            return {"homework": homework, "due": deadlines[homework]}

        homework_deadline.__annotations__["return"] = returns
        server.add_tool(homework_deadline, name=name, description=description, annotations=annotations)
        return server

    return make


def test_right_server_passes():
    assert check_mcp_server(make_server).status == "pass"


class Due(BaseModel):
    homework: str
    due: str


@dataclass
class DueDate:
    homework: str
    due: str
    note: str = ""


def test_right_servers_written_differently_pass():
    def pydantic_one(deadlines):  # add_tool, a pydantic model, an async tool, wire-named hints
        server = MCPServer("course-dates", instructions="Deadlines.")

        async def lookup(homework: str) -> Due:
            """Look up when a homework has to be submitted."""
            return Due(homework=homework, due=deadlines[homework]) if homework in deadlines else _missing(homework)

        server.add_tool(lookup, name="homework_deadline",
                        annotations=ToolAnnotations.model_validate({"readOnlyHint": True, "idempotentHint": True}))
        return server

    def _missing(homework):
        raise ToolError(f"unknown homework: {homework}")

    def dataclass_one(deadlines):  # a dataclass with an extra field, and a second tool
        server = MCPServer("two-tools")

        @server.tool(description="Due date of one homework.", annotations=ToolAnnotations(read_only_hint=True))
        def homework_deadline(homework: str) -> DueDate:
            if homework not in deadlines:
                raise ToolError(f"{homework} is not a homework")
            return DueDate(homework, deadlines[homework], note="submit before midnight")

        @server.tool(description="All homework names.", annotations=ToolAnnotations(read_only_hint=True))
        def homework_names() -> list[str]:
            return sorted(deadlines)

        return server

    result = check_mcp_server(pydantic_one)
    assert result.status == "pass", result
    result = check_mcp_server(dataclass_one)
    assert result.status == "pass", result


def test_stub_is_not_done():
    def stub(deadlines):
        raise NotImplementedError

    assert check_mcp_server(stub).status == "todo"


def test_no_annotations_fails():
    result = check_mcp_server(_server(annotations=None))
    _assert_fails(result)
    assert "only reads" in result.hint


def test_read_only_and_destructive_at_once_fails():
    _assert_fails(check_mcp_server(_server(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=True))))


def test_wrong_tool_name_fails():
    result = check_mcp_server(_server(name="deadline"))
    _assert_fails(result)
    assert "exact name" in result.hint


def test_text_result_without_output_schema_fails():
    result = check_mcp_server(_server(returns=str, body=lambda d, h: f"{h} is due on {d[h]}"))
    _assert_fails(result)
    assert "output schema" in result.hint


def test_plain_dict_return_type_fails():
    for returns in (dict, dict[str, str]):  # no fields named: no schema, or one without properties
        result = check_mcp_server(_server(returns=returns))
        _assert_fails(result)
        assert "output schema" in result.hint


def test_tool_raising_on_a_homework_it_has_fails():
    def crash(deadlines, homework):
        return {"homework": homework, "due": deadlines[homework.upper()]}  # KeyError: "CAPSTONE"

    result = check_mcp_server(_server(body=crash))
    _assert_fails(result)
    assert "reported an error" in result.hint


def test_unknown_homework_answered_as_if_all_was_well_fails():
    result = check_mcp_server(_server(body=lambda d, h: {"homework": h, "due": d.get(h, "")}))
    _assert_fails(result)
    assert "tell apart" in result.hint


def test_hard_coded_deadlines_fail():
    lesson = {"05": "2026-12-08", "capstone": "2027-01-12"}
    result = check_mcp_server(_server(body=lambda d, h: {"homework": h, "due": lesson[h]}))
    _assert_fails(result)
    assert "deadlines" in result.hint


def test_wrong_parameter_fails():
    def make(deadlines):
        server = MCPServer("x")

        @server.tool(description="Due date.", annotations=ToolAnnotations(read_only_hint=True))
        def homework_deadline(number: int) -> Deadline:
            return {"homework": str(number), "due": deadlines[str(number)]}

        return server

    _assert_fails(check_mcp_server(make))


def test_returning_the_function_instead_of_the_server_fails():
    _assert_fails(check_mcp_server(lambda deadlines: make_server))


def test_an_unexpected_exception_for_an_unknown_homework_fails():
    def key_error(deadlines, homework):
        return {"homework": homework, "due": deadlines[homework]}  # KeyError: the SDK hides its text

    result = check_mcp_server(_server(body=key_error))
    _assert_fails(result)
    assert "unexpected exception" in result.hint
