"""Lesson 16's exercise: the bridge from an MCP server's tools to the course's loop, in two functions.

The student writes `to_schema(tool)`, one tool from `list_tools()` as a Responses API function-tool schema,
and `run_mcp_call(call, connection)`, one `function_call` item answered by `connection.call_tool(...)` as a
`function_call_output` item whose output is the tool's text. The check runs both on a made-up server of its own
(tide tables, a domain no lesson uses), in memory: the schemas must carry the tool's name, description and
input schema where the API reads them; a call must reach the server with the model's arguments as a dict; the
output must be text; an error result, a crashing connection and an unknown tool must come back as an output the
model can read, never as an exception. Last, the offline model runs one question through both functions.

Left out on purpose: Chat Completions (the same bridge with another shape, as lesson 08 showed), the wording of
an error output (any text that says what failed passes), and pagination of `list_tools`.
"""

from __future__ import annotations

import json

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from helpers.checks.core import fail_if, read_field, run_student_code, task_check
from helpers.mcp_tools import MCPConnection

HIGH_TIDE = "High tide at Brest: 06:12 and 18:40, 6.9 m."


def tide_server() -> MCPServer:
    """The check's made-up MCP server: tide times for a harbour, an error for one it doesn't know.

    Example:
        >>> with MCPConnection(tide_server()) as connection:
        ...     [tool.name for tool in connection.list_tools()]
        ['tide_times']
    """
    server = MCPServer("tide-tables")

    # structured_output=False: text only, as the course's server sends. An output schema would make the client
    # validate each result with jsonschema, whose first import takes seconds (its format checkers' grammars).
    @server.tool(description="Today's high tides for a harbour, with their heights.", structured_output=False)
    def tide_times(harbour: str) -> str:
        if harbour.strip().lower() != "brest":
            raise ToolError(f"no tide table for the harbour {harbour!r}")
        return HIGH_TIDE

    return server


class _SpyConnection:
    """A connection that records the arguments each call_tool gets; `broken` makes every call raise."""

    def __init__(self, connection, broken: bool = False):
        self.connection, self.broken, self.arguments = connection, broken, []
        self.name = connection.name

    def list_tools(self):
        return self.connection.list_tools()

    def call_tool(self, name, arguments=None):
        self.arguments.append(arguments)
        if self.broken:
            raise ConnectionError("the MCP server went away")
        return self.connection.call_tool(name, arguments)


def _call(name: str, arguments: dict, call_id: str) -> dict:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name,
            "arguments": json.dumps(arguments)}


def _output(item, call_id: str, what: str) -> str:
    """The output text of the student's item, after checking its shape."""
    fail_if(not isinstance(item, dict), f"run_mcp_call returned {type(item).__name__} for {what}; return a dict, "
                                        "the item that goes back into the conversation.")
    fail_if(item.get("type") != "function_call_output", f"the item returned for {what} has type "
            f"{item.get('type')!r}; look at lesson 04: which item type answers a function call?")
    fail_if(item.get("call_id") != call_id, f"the item returned for {what} does not answer that call: its "
                                            "call_id must be the call's own call_id.")
    output = item.get("output")
    fail_if(not isinstance(output, str), f"the output for {what} is a {type(output).__name__}, not text. The API "
            "takes a string: take the text out of the result's content blocks.")
    return output


@task_check("16-mcp", "E16", title="Bridge an MCP server into your loop")
def check_mcp_bridge(to_schema, run_mcp_call, client=None, model: str | None = None):
    """Check `to_schema(tool) -> dict` and `run_mcp_call(call, connection) -> dict` on a made-up MCP server.

    Example:
        >>> def to_schema(tool):
        ...     raise NotImplementedError
        >>> def run_mcp_call(call, connection):
        ...     raise NotImplementedError
        >>> check_mcp_bridge(to_schema, run_mcp_call)
        [NOT DONE YET] Task E16 · Bridge an MCP server into your loop: replace `raise NotImplementedError` with your code.
    """
    with MCPConnection(tide_server()) as connection:
        tool = connection.list_tools()[0]
        schema = run_student_code(to_schema, tool, what="to_schema")
        fail_if(not isinstance(schema, dict), f"to_schema returned {type(schema).__name__}; return a dict.")
        fail_if(schema.get("type") != "function", "the schema's type is missing or wrong: the API has several "
                "kinds of tools; say which kind this one is (lesson 03).")
        fail_if(schema.get("name") != tool.name or schema.get("description") != tool.description,
                "the schema must carry the MCP tool's own name and description, at the top level of a "
                "Responses API tool (lesson 03's SEARCH_TOOL has the shape).")
        fail_if(schema.get("parameters") != tool.input_schema, "the model can't see the tool's arguments: put "
                "the MCP tool's input schema, unchanged, under the key where a function tool keeps its JSON "
                "schema (lesson 03).")

        spy = _SpyConnection(connection)
        item = run_student_code(run_mcp_call, _call("tide_times", {"harbour": "Brest"}, "call_1"), spy,
                                what="run_mcp_call")
        fail_if(not spy.arguments, "run_mcp_call never called connection.call_tool.")
        fail_if(not isinstance(spy.arguments[-1], dict), "the server got the arguments as "
                f"{type(spy.arguments[-1]).__name__}: the call's arguments are a JSON string; turn that string "
                "into a dict once, and pass the dict.")
        fail_if(spy.arguments[-1] != {"harbour": "Brest"}, "the server did not get the model's arguments.")
        output = _output(item, "call_1", "a successful call")
        fail_if("CallToolResult" in output or "TextContent" in output, "the output is the result object printed "
                "as text; the model needs only the text inside its content blocks.")
        fail_if(output.strip() != HIGH_TIDE, "the output should be exactly the text the tool returned.")

        refused = run_student_code(run_mcp_call, _call("tide_times", {"harbour": "Atlantis"}, "call_2"), spy,
                                   what="run_mcp_call on a tool that reports an error")
        refused_text = _output(refused, "call_2", "an error result")
        fail_if("Atlantis" not in refused_text, "when the server answers with an error result (is_error), the "
                "output should carry the server's error text, so the model can react to it.")
        broken = run_student_code(run_mcp_call, _call("tide_times", {"harbour": "Brest"}, "call_3"),
                                  _SpyConnection(connection, broken=True), what="run_mcp_call with a broken connection")
        fail_if("went away" not in _output(broken, "call_3", "a connection that raises"), "when call_tool raises, "
                "return an output that says what failed (lesson 04's make_call does the same).")
        unknown = run_student_code(run_mcp_call, _call("tidal_range", {"harbour": "Brest"}, "call_4"), spy,
                                   what="run_mcp_call on an unknown tool")
        fail_if("tidal_range" not in _output(unknown, "call_4", "an unknown tool"), "a call to a tool the server "
                "doesn't have should come back as an output naming that tool.")
        answer = _run_offline(schema, run_mcp_call, spy, client, model)
    fail_if("06:12" not in answer, "the model's answer does not use the tool's output; check what your "
            "run_mcp_call puts into the conversation.")
    return "the model called an MCP tool through your bridge and answered from its output."


def _run_offline(schema: dict, run_mcp_call, connection, client, model) -> str:
    """One question through the student's bridge in a short loop (lesson 04's) on the given or offline model."""
    if client is None:
        from helpers.offline import OFFLINE_MODEL, neutral_client

        client, model = neutral_client(), OFFLINE_MODEL
    messages: list = [{"role": "user", "content": "When is high tide at Brest today?"}]
    for _ in range(4):
        response = client.responses.create(model=model, input=messages, tools=[schema])
        calls = [item for item in response.output if read_field(item, "type") == "function_call"]
        messages.extend(item.model_dump(exclude_none=True) for item in response.output)
        if not calls:
            return response.output_text
        for call in calls:
            messages.append(run_student_code(run_mcp_call, call.model_dump(), connection, what="run_mcp_call"))
    return ""
