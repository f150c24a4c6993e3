"""MCP servers' tools in the course's own loop (lesson 16): the bridge between `list_tools`/`call_tool` and
function calling.

What it does:
- `function_schema(tool, api)` turns one tool from an MCP server's `list_tools()` into the function-tool
  schema of either API (Responses or Chat Completions): the MCP tool's `inputSchema` is the function's
  `parameters`.
- `result_text(result)` turns a `CallToolResult` into the text the model reads: its text content, joined; a
  result with `is_error` becomes the same `{"error": ..., "hint": ...}` payload as helpers.tools' errors.
- `MCPConnection` keeps one `mcp.Client` open in a background thread, so plain (sync) code, such as the
  course's loop or a notebook cell, can call `list_tools()` and `call_tool()` (a kernel already runs an event
  loop in its own thread, so `asyncio.run` can't be called there).
- `stdio_transport(params)` is the SDK's `stdio_client` with a stderr the subprocess can inherit in any
  kernel: a kernel's `sys.stderr` may have no file descriptor, and the SDK's default then fails with
  `UnsupportedOperation: fileno` (python-sdk#1103). MCPConnection uses it for `StdioServerParameters`.
- `MCPTools(*connections)` is a tool registry for helpers.loop.AgentRun / agent_loop: it maps each tool's
  name to a callable that calls the server, gives `responses_schemas()` / `chat_schemas()`, and knows which
  server each tool came from (`server_of(name)`, `servers`), e.g. for a chat view to show it. A failing call
  (an `is_error` result, an exception, a dropped connection) never raises into the loop: helpers.tools'
  `run_tool` and `result_text` turn each into an error output; an unknown name is run_tool's as always.
  Two servers with a tool of the same name are refused, unless `prefix=True` names every tool
  `<server>__<tool>` (`prefixed_name`); the call still reaches the server under the tool's own name.
- `annotations_of(tool)` reads a tool's MCP annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
  `openWorldHint`, `title`) as a dict of the fields the server set, for an approval policy to read. They are
  hints a server makes about itself: trust them only as far as you trust the server.

Left out on purpose: resources, prompts, sampling, elicitation and notifications (the loop needs tools only);
images and other non-text content (replaced by a short note); re-listing tools when a server's list changes;
the approval policy itself (lesson 13's, helpers.approval, reads what annotations_of returns).

Why one module of about 470 lines: the schemas, the result text, the connection's thread and the registry are
one bridge that lesson 16 reads as one piece; split, the registry's error handling would sit apart from the
connection whose failures it turns into outputs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import sys
import threading
from collections.abc import Iterable

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from helpers.apis.adapter import flavour_of
from helpers.approval import given_hints  # lesson 13
from helpers.tools import ToolError, serialize
from helpers.tools.registry import ToolMapping

DEFAULT_TIMEOUT_S = 60.0
# The MCP annotation fields, as the wire (and the spec) names them, and as the Python SDK does.
MAX_NAME_LENGTH = 64  # the longest function name the OpenAI APIs take


def function_schema(tool, api: str = "responses") -> dict:
    """The function-tool schema of one MCP tool (an `mcp.types.Tool` or a dict in the wire's camelCase).

    Example:
        >>> tool = {"name": "convert", "description": "Convert a length.",
        ...         "inputSchema": {"type": "object", "properties": {"metres": {"type": "number"}}}}
        >>> function_schema(tool)
        {'type': 'function', 'name': 'convert', 'description': 'Convert a length.', 'parameters': {'type': 'object', 'properties': {'metres': {'type': 'number'}}}}
        >>> function_schema(tool, api="chat")["function"]["name"]
        'convert'
    """
    name, description, parameters = _field(tool, "name"), _field(tool, "description"), _input_schema(tool)
    # MCP allows a tool with no description; the function-calling APIs want a string.
    return flavour_of(api).function_tool({"type": "function", "name": name, "description": description or "",
                                          "parameters": parameters})


def annotations_of(tool) -> dict:
    """The MCP annotations a server set on `tool` (an `mcp.types.Tool`, an `MCPTool`, or a wire dict), under
    their wire names; a field the server left out is absent (the spec's defaults are the policy's business:
    a tool that says nothing may write, destroy, and reach the open world).

    Example:
        >>> from mcp.types import Tool, ToolAnnotations
        >>> annotations_of(Tool(name="search", input_schema={"type": "object"},
        ...                     annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False)))
        {'readOnlyHint': True, 'openWorldHint': False}
        >>> annotations_of({"name": "drop", "inputSchema": {}, "annotations": {"destructiveHint": True}})
        {'destructiveHint': True}
        >>> annotations_of({"name": "quiet", "inputSchema": {}})
        {}
    """
    annotations = getattr(tool, "annotations", None) if not isinstance(tool, dict) else tool.get("annotations")
    if annotations is None:
        return {}
    # The title is lesson 16's to show; the four hints are read as lesson 13's policy reads them, in either
    # spelling (an SDK object's snake_case attributes, the wire's camelCase keys).
    title = _field(annotations, "title")
    return ({"title": title} if title is not None else {}) | given_hints(annotations)


def prefixed_name(server: str, tool: str) -> str:
    """`<server>__<tool>`, with any character a function name can't hold (outside a-z, A-Z, 0-9, _ and -)
    made `_`, cut to the APIs' 64 characters.

    Example:
        >>> prefixed_name("course-faq", "search")
        'course-faq__search'
        >>> prefixed_name("My Files (local)", "read.file")
        'My_Files_local__read_file'
    """
    def safe(part: str) -> str:
        return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_-]", "_", part)).strip("_") or "mcp"

    return f"{safe(server)}__{safe(tool)}"[:MAX_NAME_LENGTH]


def result_text(result, tool_name: str = "tool") -> str:
    """The text a model reads for one `CallToolResult`: its text blocks joined by newlines; an error result
    (`is_error`) as an error payload, never an exception.

    Example:
        >>> from mcp.types import CallToolResult, TextContent
        >>> result_text(CallToolResult(content=[TextContent(type="text", text="12.5 km")]))
        '12.5 km'
        >>> print(result_text(CallToolResult(content=[TextContent(type="text", text="no such unit")],
        ...                                  is_error=True), "convert"))
        {"error":"tool 'convert' reported an error: no such unit","hint":"Check the arguments against the tool's description and call it again, or answer without it."}
    """
    parts = []
    for block in _field(result, "content") or []:
        kind = _field(block, "type")
        parts.append(_field(block, "text") if kind == "text" else f"[{kind} content left out]")
    text = "\n".join(parts)
    if not parts and _field(result, "structured_content", "structuredContent") is not None:
        text = serialize(_field(result, "structured_content", "structuredContent"))
    if _field(result, "is_error", "isError"):
        return ToolError(f"tool {tool_name!r} reported an error: {text or '(no details)'}",
                         "Check the arguments against the tool's description and call it again, "
                         "or answer without it.").payload()
    return text


def stdio_transport(params: StdioServerParameters):
    """The SDK's stdio transport for `params`, its server's stderr sent where a subprocess can write it: this
    process's stderr when it is a real file, else the process's original stderr (a notebook kernel's terminal).

    Pass it to `mcp.Client` instead of the parameters: `Client(stdio_transport(params))`.
    Example:
        >>> import asyncio
        >>> from mcp import Client
        >>> async def tools_of(params):
        ...     async with Client(stdio_transport(params)) as client:
        ...         return [tool.name for tool in (await client.list_tools()).tools]
        >>> asyncio.run(tools_of(StdioServerParameters(command=sys.executable, args=["-m", "mcp_server_git"])))[:2]
        ['git_status', 'git_diff_unstaged']
    """
    return stdio_client(params, errlog=_inheritable_stderr())


def _inheritable_stderr():
    try:
        sys.stderr.fileno()  # a kernel's OutStream raises here when it doesn't capture the real descriptor
        return sys.stderr
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__ if sys.__stderr__ is not None else open(os.devnull, "w")  # noqa: SIM115


def root_cause(exc: BaseException) -> str:
    """The innermost error of an exception group (anyio's task groups wrap the one that matters), as text.

    Example:
        >>> root_cause(ExceptionGroup("unhandled errors", [OSError("connection refused")]))
        'OSError: connection refused'
    """
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {str(exc).rstrip('.')}" if str(exc) else type(exc).__name__


def describe_server(server) -> str:
    """How an error names a server: its URL, its command, or its in-memory object's name.

    Example:
        >>> describe_server("http://127.0.0.1:8000/mcp")
        "'http://127.0.0.1:8000/mcp'"
    """
    if isinstance(server, StdioServerParameters):
        return repr(" ".join([server.command, *server.args]))
    return repr(server) if isinstance(server, str) else repr(getattr(server, "name", type(server).__name__))


class MCPConnection:
    """One open `mcp.Client`, usable from sync code: its event loop runs in a background thread.

    `server` is anything `mcp.Client` takes: an `MCPServer` object (in memory), a URL of a streamable HTTP
    server, or `StdioServerParameters` (a subprocess). Close it with `close()` or a `with` block.
    Example:
        >>> from mcp.server import MCPServer
        >>> server = MCPServer("units")
        >>> @server.tool(description="Kilometres in a number of miles.")
        ... def miles_to_km(miles: float) -> float:
        ...     return round(miles * 1.609344, 3)
        >>> with MCPConnection(server) as connection:
        ...     print(connection.name, [tool.name for tool in connection.list_tools()],
        ...           connection.call_tool("miles_to_km", {"miles": 10}).content[0].text)
        units ['miles_to_km'] 16.093
    """

    def __init__(self, server, *, name: str | None = None, timeout: float = DEFAULT_TIMEOUT_S):
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-connection", daemon=True)
        self._thread.start()
        self._stop: asyncio.Event | None = None
        ready: concurrent.futures.Future = concurrent.futures.Future()
        self._held = asyncio.run_coroutine_threadsafe(self._hold(server, ready), self._loop)
        try:
            self._client: Client = ready.result(timeout)
        except Exception as exc:
            self._shut_down_loop()
            raise ConnectionError(f"Could not connect to the MCP server {describe_server(server)}: "
                                  f"{root_cause(exc)}. Is it running, and is that its address (HTTP servers "
                                  f"usually end in /mcp) or its command?") from exc
        except BaseException:
            self._shut_down_loop()
            raise
        info = self._client.server_info
        self.name = name or (info.name if info is not None else "mcp")

    async def _hold(self, server, ready: concurrent.futures.Future) -> None:
        # The client's task group must be entered and left in one task: this one, which waits for close().
        self._stop = asyncio.Event()
        try:
            # StdioServerParameters go through stdio_transport: the SDK's default stderr fails in some kernels.
            target = stdio_transport(server) if isinstance(server, StdioServerParameters) else server
            async with Client(target) as client:
                ready.set_result(client)
                await self._stop.wait()
        except BaseException as exc:
            if ready.done():
                raise
            ready.set_exception(exc)

    def _run(self, coroutine):
        if self._stop is None or self._stop.is_set():
            coroutine.close()
            raise RuntimeError(f"The connection to the MCP server {self.name!r} is closed.")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(self.timeout)

    def list_tools(self) -> list:
        """The server's tools (`mcp.types.Tool` objects), every page.

        Example:
            >>> from mcp.server import MCPServer
            >>> with MCPConnection(MCPServer("empty")) as connection:
            ...     connection.list_tools()
            []
        """
        tools, cursor = [], None
        while True:
            page = self._run(self._client.list_tools(cursor=cursor))
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                return tools

    def call_tool(self, name: str, arguments: dict | None = None):
        """Call one tool with a dict of arguments; return the `CallToolResult` (errors are results with
        `is_error`, not exceptions, unless the connection itself fails).

        Example:
            >>> from mcp.server import MCPServer
            >>> with MCPConnection(MCPServer("empty")) as connection:
            ...     connection.call_tool("nothing", {}).is_error
            True
        """
        return self._run(self._client.call_tool(name, arguments or {}))

    def close(self) -> None:
        """Close the client (a stdio server's subprocess ends with it) and stop the background thread.

        Example:
            >>> from mcp.server import MCPServer
            >>> connection = MCPConnection(MCPServer("empty"))
            >>> connection.close(); connection.close()  # closing twice is fine
        """
        if self._stop is not None and not self._stop.is_set():
            self._loop.call_soon_threadsafe(self._stop.set)
            try:
                self._held.result(self.timeout)
            finally:
                self._shut_down_loop()

    def _shut_down_loop(self) -> None:
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(self.timeout)
        if not self._loop.is_running() and not self._loop.is_closed():
            self._loop.close()

    def __enter__(self) -> MCPConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MCPConnection({self.name!r})"


class MCPTool:
    """One tool of an MCP server as a callable for the course's loop: keyword arguments in, text out.

    It has `parameters` and `validate`, like lesson 09's `Tool`, so helpers.tools words its hints from the
    server's schema; the server itself checks the arguments.
    Calling it is shown in MCPTools' example (`tools["on_shelf"](title="Dune")`).
    Example:
        >>> from mcp.types import Tool
        >>> tool = MCPTool(Tool(name="miles_to_km", input_schema={"type": "object", "properties": {
        ...     "miles": {"type": "number"}}}), _Named("units"))
        >>> tool, tool.parameters["properties"], tool.parameters["required"]
        (MCPTool('miles_to_km', server='units'), {'miles': {'type': 'number'}}, [])
    """

    def __init__(self, tool, connection: MCPConnection, *, name: str | None = None):
        # name: what the model calls it (a prefixed name, say); tool_name: what the server calls it.
        self.name, self.tool_name, self.description = name or tool.name, tool.name, tool.description or ""
        self.connection, self.server = connection, connection.name
        self.parameters = {"type": "object", "properties": {}, "required": [], **(tool.input_schema or {})}
        self.annotations = tool.annotations
        self._tool = tool

    def schema(self, api: str = "responses") -> dict:
        """This tool's function schema for `api` ("responses" or "chat"), under the name the model calls.

        Example:
            >>> from mcp.types import Tool
            >>> tool = MCPTool(Tool(name="t", input_schema={"type": "object"}), _Named("s"), name="s__t")
            >>> tool.schema("chat")["function"]["name"], tool.tool_name
            ('s__t', 't')
        """
        return function_schema({"name": self.name, "description": self.description,
                                "inputSchema": self._tool.input_schema}, api)

    def validate(self, arguments: dict) -> dict:
        """The arguments, unchanged: the MCP server validates them and answers a bad call with an error result.

        Example:
            >>> from mcp.types import Tool
            >>> MCPTool(Tool(name="t", input_schema={"type": "object"}), _Named("s")).validate({"a": 1})
            {'a': 1}
        """
        return arguments

    def __call__(self, **arguments) -> str:
        return result_text(self.connection.call_tool(self.tool_name, arguments), self.name)

    def __repr__(self) -> str:
        return f"MCPTool({self.name!r}, server={self.server!r})"


class MCPTools(ToolMapping):
    """The tools of one or more MCP servers as one registry for helpers.loop (AgentRun, agent_loop); `only`
    names the tools to keep (the others are never offered to the model, nor callable through the registry).
    It is a read-only mapping from name to `MCPTool`, like lesson 09's `Tools` (both are `ToolMapping`s).
    `prefix=True` names each tool `<server>__<tool>`, so two servers may both have a `search`; `only` then
    takes either name.

    Example:
        >>> from mcp.server import MCPServer
        >>> catalogue = MCPServer("library")
        >>> @catalogue.tool(description="Whether a book is on the shelf.")
        ... def on_shelf(title: str) -> str:
        ...     return "yes" if title == "Dune" else "lent out"
        >>> with MCPConnection(catalogue) as connection:
        ...     tools = MCPTools(connection)
        ...     print(tools.names(), tools.server_of("on_shelf"), tools["on_shelf"](title="Dune"))
        ['on_shelf'] library yes
        >>> with MCPConnection(catalogue) as one, MCPConnection(catalogue, name="branch") as two:
        ...     both = MCPTools(one, two, prefix=True)
        ...     print(both.names(), both["branch__on_shelf"](title="Emma"))
        ['library__on_shelf', 'branch__on_shelf'] lent out
    """

    def __init__(self, *connections: MCPConnection, only: Iterable[str] | None = None, prefix: bool = False):
        # only: the tools the model may see (least privilege); a server's other tools stay out of reach.
        keep = set(only) if only is not None else None
        self._tools: dict[str, MCPTool] = {}
        for connection in connections:
            for listed in connection.list_tools():
                name = prefixed_name(connection.name, listed.name) if prefix else listed.name
                if keep is not None and not keep & {listed.name, name}:
                    continue
                if name in self._tools:
                    raise ValueError(f"Both {self._tools[name].server!r} and {connection.name!r} have a "
                                     f"tool named {name!r}; the model could not tell them apart. Pass "
                                     "prefix=True to name each tool after its server, or filter the tools of one."
                                     if not prefix else f"Two servers named {connection.name!r} both have a tool "
                                     f"{listed.name!r}; give one connection another name (MCPConnection(..., "
                                     "name=...)).")
                self._tools[name] = MCPTool(listed, connection, name=name)

    @property
    def servers(self) -> dict[str, str]:
        """Each tool's name -> the name of the server it came from.

        Example:
            >>> MCPTools().servers
            {}
        """
        return {name: tool.server for name, tool in self._tools.items()}

    def server_of(self, name: str) -> str | None:
        """The name of the server that serves tool `name` (None if no server here does).

        Example:
            >>> MCPTools().server_of("search") is None
            True
        """
        tool = self._tools.get(name)
        return tool.server if tool is not None else None

    def names(self) -> list[str]:
        """The tools' names, in the servers' order.

        Example:
            >>> MCPTools().names()
            []
        """
        return list(self._tools)

    def responses_schemas(self) -> list[dict]:
        """Function schemas for the Responses API (what AgentRun asks a registry for).

        Example:
            >>> MCPTools().responses_schemas()
            []
        """
        return [tool.schema("responses") for tool in self._tools.values()]

    def chat_schemas(self) -> list[dict]:
        """Function schemas for Chat Completions.

        Example:
            >>> MCPTools().chat_schemas()
            []
        """
        return [tool.schema("chat") for tool in self._tools.values()]

    def __repr__(self) -> str:
        return f"MCPTools({', '.join(f'{n} ({t.server})' for n, t in self._tools.items())})"


class _Named:
    """A stand-in connection with only a name, for examples that never call the server."""

    def __init__(self, name: str):
        self.name = name


def _field(obj, *names):
    # SDK objects use snake_case attributes; the wire (and hand-written dicts) camelCase keys.
    for name in names:
        value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
        if value is not None:
            return value
    return None


def _input_schema(tool) -> dict:
    schema = _field(tool, "input_schema", "inputSchema")
    return dict(schema) if schema else {"type": "object", "properties": {}}
