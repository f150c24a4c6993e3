"""Lesson 16's exercise: serve a tool over MCP, in a server a client can trust to say what it does.

The student writes `make_server(deadlines) -> MCPServer` with one tool, `homework_deadline(homework)`, over the
`deadlines` it is given (homework -> due date): a description, one string parameter `homework`, a structured
result (an output schema that names `homework` and `due`, and `structuredContent` with both), the read-only
annotation, and an error result for a homework it doesn't know. The check builds the server from deadlines of its
own (two calls, so a hard-coded answer fails), serves it over streamable HTTP on 127.0.0.1 (a real transport, the
one a second program would use) and reads it back with the official client, as any MCP client would.

Left out on purpose: the server's name, the tool's title and other tools (anything extra passes), the wording of
the description and of the error, and stdio (a server object in a notebook has no command to start it with).
"""

from __future__ import annotations

from mcp.server import MCPServer

from helpers.checks.core import fail_if, run_student_code, task_check
from helpers.mcp_server import BackgroundHTTPServer
from helpers.mcp_tools import MCPConnection, annotations_of, result_text

TOOL = "homework_deadline"
# The check's own deadlines (not the lesson's), so a server that ignores `deadlines` fails.
DEADLINES = {"02b": "2027-01-18", "05": "2027-02-08", "capstone": "2027-03-29"}
ASKED = ("05", "capstone")
UNKNOWN = "99z"


def _the_tool(connection: MCPConnection):
    listed = {tool.name: tool for tool in connection.list_tools()}
    fail_if(TOOL not in listed, f"the server lists the tools {sorted(listed)}; a client calls a tool by the exact "
                                "name the task gives.")
    return listed[TOOL]


def _check_listing(tool) -> None:
    fail_if(not (tool.description or "").strip(), "the tool has no description: the model chooses a tool by what "
                                                  "its description says. Where does MCPServer take it from?")
    properties = (tool.input_schema or {}).get("properties") or {}
    fail_if(list(properties) != ["homework"], f"the tool's parameters are {sorted(properties)}; the task asks for "
                                              "one parameter, named `homework`.")
    fail_if(properties["homework"].get("type") != "string", "`homework` is not a string in the input schema "
            "(homework names such as '02b' are text): look at its type hint.")
    fail_if("homework" not in ((tool.input_schema or {}).get("required") or []), "`homework` is optional in the "
            "input schema; a deadline can't be found without it. What makes a parameter required?")
    output = tool.output_schema
    fail_if(output is None, "the tool has no output schema, so a client can't know the shape of what it returns. "
                            "How does MCPServer learn what a function returns?")
    named = set((output or {}).get("properties") or {})
    fail_if(not {"homework", "due"} <= named, f"the output schema names the fields {sorted(named)}; a client needs "
            "to see `homework` and `due` in it. A return type of `dict` says nothing about the fields.")
    hints = annotations_of(tool)
    fail_if(hints.get("readOnlyHint") is not True, "the tool doesn't say that it only reads, so a client's approval "
            "policy has to treat it as a write and ask a person every time. MCP has a place for what a tool says "
            "about itself.")
    fail_if(hints.get("destructiveHint") is True, "the tool says it is read-only and destructive at once; a reading "
                                                 "tool destroys nothing.")


def _check_calls(connection: MCPConnection) -> None:
    for homework in ASKED:
        result = connection.call_tool(TOOL, {"homework": homework})
        fail_if(result.is_error, f"the tool reported an error for the homework {homework!r}, which is in the "
                f"deadlines it was given: {result_text(result, TOOL)[:200]}")
        content = result.structured_content
        fail_if(not isinstance(content, dict), "the result has no structured content, only text. Return the "
                                               "fields, not a sentence: the SDK then sends both.")
        fail_if(content.get("homework") != homework, f"asked for {homework!r}, the result's `homework` is "
                f"{content.get('homework')!r}: it should be the homework that was asked for.")
        fail_if(content.get("due") != DEADLINES[homework], f"asked for {homework!r}, the result's `due` is "
                f"{content.get('due')!r}: read the date from the `deadlines` make_server was given.")
    missing = connection.call_tool(TOOL, {"homework": UNKNOWN})
    fail_if(not missing.is_error, f"asked for {UNKNOWN!r}, a homework that isn't in the deadlines, the tool "
                                  "answered as if all was well. A client should get an error result it can tell "
                                  "apart from an answer.")
    text = result_text(missing, TOOL)
    fail_if(UNKNOWN not in text and f"Error executing tool {TOOL}" in text, "for an unknown homework the client "
            f"got only {text[:160]}: the SDK keeps the message of an unexpected exception from the client (it could "
            "hold secrets). The SDK has an exception of its own for an error meant for the caller; the course's "
            "server raises it when a write is refused.")
    fail_if(UNKNOWN not in text, "the error result for an unknown homework doesn't say which homework it couldn't "
                                 "find; the model reads that text to decide what to do next.")


@task_check("16-mcp", "E16", title="Serve a tool over MCP")
def check_mcp_server(make_server):
    """Check `make_server(deadlines) -> MCPServer` over streamable HTTP with the official MCP client.

    Example:
        >>> def make_server(deadlines):
        ...     raise NotImplementedError
        >>> check_mcp_server(make_server)
        [NOT DONE YET] Task E16 · Serve a tool over MCP: replace `raise NotImplementedError` with your code.
    """
    server = run_student_code(make_server, dict(DEADLINES), what="make_server")
    fail_if(not isinstance(server, MCPServer), f"make_server returned a {type(server).__name__}; return the "
                                               "MCPServer object itself, with the tool added to it.")
    with BackgroundHTTPServer(server) as http, MCPConnection(http.url) as connection:
        tool = _the_tool(connection)
        _check_listing(tool)
        _check_calls(connection)
    return ("a client listed your tool over HTTP, read its schemas and its read-only annotation, and got "
            "structured deadlines and an error it could tell apart.")
