"""Lesson 16: the course's MCP server under the official client (stdio, streamable HTTP, in memory), and the
bridge (helpers.mcp_tools) in the course's loop on made-up servers no lesson uses."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from typing import TypedDict

import pytest
from mcp import Client
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as ServerToolError

from helpers.loop import agent_loop
from helpers.mcp_server import (
    BackgroundHTTPServer,
    build_server,
    faq_documents,
    free_port,
    running_http_server,
    stdio_parameters,
)
from helpers.mcp_tools import (
    MCPConnection,
    MCPTools,
    annotations_of,
    function_schema,
    prefixed_name,
    result_text,
)
from helpers.offline import OFFLINE_MODEL, neutral_client
from helpers.search import SEARCH_TOOL, search
from helpers.tools import serialize

DOCS = [{"id": "t1", "course": "llm-zoomcamp", "section": "General", "question": "Can I join after the start?",
         "answer": "Yes, the videos stay online."}]


async def _exercise_course_server(target) -> dict:
    """What a client sees of the course's server: its tools, one search, a write, a repeated write."""
    async with Client(target) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        found = await client.call_tool("search", {"query": "join late"})
        added = await client.call_tool("add_faq_entry", {"question": "Is there a Discord server for it?",
                                                         "answer": "No, the course chat is on Slack."})
        again = await client.call_tool("add_faq_entry", {"question": "Is there a Discord server for it?",
                                                         "answer": "No, the course chat is on Slack."})
        short = await client.call_tool("add_faq_entry", {"question": "Discord?"})
        after = await client.call_tool("search", {"query": "Discord server"})
        return {"name": client.server_info.name, "tools": tools, "found": found, "added": added, "again": again,
                "short": short, "after": after}


def _assert_course_server(seen: dict, first_hit: str) -> None:
    assert seen["name"] == "course-faq"
    assert list(seen["tools"]) == ["search", "add_faq_entry"]
    search_tool = seen["tools"]["search"]
    # The course's own words: the same description and parameter as lesson 03's SEARCH_TOOL.
    assert search_tool.description == SEARCH_TOOL["description"]
    assert search_tool.input_schema["required"] == ["query"]
    assert (search_tool.input_schema["properties"]["query"]["description"]
            == SEARCH_TOOL["parameters"]["properties"]["query"]["description"])
    adding = seen["tools"]["add_faq_entry"].input_schema["properties"]["question"]
    assert (adding["minLength"], adding["maxLength"]) == (10, 200)
    assert not seen["found"].is_error and json.loads(seen["found"].content[0].text)[0]["id"] == first_hit
    assert json.loads(seen["added"].content[0].text) == {"added": "agent-1"}
    assert seen["again"].is_error and "already exists" in seen["again"].content[0].text
    assert seen["short"].is_error and "question" in seen["short"].content[0].text
    assert json.loads(seen["after"].content[0].text)[0]["section"] == "Added by the agent"


def test_course_server_in_memory():
    seen = asyncio.run(_exercise_course_server(build_server(DOCS)))
    _assert_course_server(seen, "t1")


def test_course_server_search_is_the_course_search():
    seen = asyncio.run(_exercise_course_server(build_server()))
    assert seen["found"].content[0].text == serialize(search("join late"))


def test_course_server_over_stdio():
    seen = asyncio.run(_exercise_course_server(stdio_parameters()))
    _assert_course_server(seen, search("join late")[0]["id"])


def test_course_server_over_streamable_http():
    with running_http_server() as url:
        seen = asyncio.run(_exercise_course_server(url))
    _assert_course_server(seen, search("join late")[0]["id"])


def test_course_server_over_http_in_a_background_thread():
    with BackgroundHTTPServer(build_server(DOCS)) as http:
        seen = asyncio.run(_exercise_course_server(http.url))
        with MCPConnection(http.url) as second:  # any number of clients, one server (its state is shared)
            assert "Discord" in second.call_tool("search", {"query": "Discord server"}).content[0].text
    _assert_course_server(seen, "t1")


def test_background_http_server_on_a_busy_port_is_a_clear_error():
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", free_port()))
        busy.listen()
        with pytest.raises(RuntimeError, match="in use"):
            BackgroundHTTPServer(build_server(DOCS), port=busy.getsockname()[1])


def test_faq_documents_from_the_cache_equal_the_pinned_faq():
    from helpers.ingest import load_faq_data

    assert faq_documents() == load_faq_data(progress=False)


def test_course_server_tools_say_what_they_do_in_annotations():
    async def listed():
        async with Client(build_server(DOCS)) as client:
            return {tool.name: annotations_of(tool) for tool in (await client.list_tools()).tools}
    seen = asyncio.run(listed())
    assert seen["search"]["readOnlyHint"] is True and seen["search"]["openWorldHint"] is False
    assert seen["add_faq_entry"]["readOnlyHint"] is False and seen["add_faq_entry"]["destructiveHint"] is False


def test_annotations_read_back_over_http_unchanged():
    with BackgroundHTTPServer(build_server(DOCS)) as http, MCPConnection(http.url) as connection:
        tools = MCPTools(connection)
        assert annotations_of(tools["add_faq_entry"]) == {"title": "Add a FAQ entry", "readOnlyHint": False,
                                                          "destructiveHint": False, "idempotentHint": True,
                                                          "openWorldHint": False}


def test_read_only_server_has_no_writing_tool():
    async def names():
        async with Client(build_server(DOCS, writable=False)) as client:
            return [tool.name for tool in (await client.list_tools()).tools]
    assert asyncio.run(names()) == ["search"]


# --- the bridge, on made-up servers in domains no lesson uses --------------------------------------------


def weather_server() -> MCPServer:
    server = MCPServer("weather-stub")

    @server.tool(description="The forecast for a city on a given day (a stub with fixed values).")
    def forecast(city: str, day: str = "today") -> str:
        if city.lower() == "atlantis":
            raise ServerToolError(f"no weather station in {city}")
        return json.dumps({"city": city, "day": day, "sky": "light rain", "high_c": 14})

    return server


def units_server() -> MCPServer:
    server = MCPServer("unit-converter")

    @server.tool(description="Convert a distance in miles to kilometres.")
    def miles_to_km(miles: float) -> str:
        return f"{miles} miles = {round(miles * 1.609344, 2)} km"

    @server.tool(description="Convert a temperature from Fahrenheit to Celsius.")
    def fahrenheit_to_celsius(fahrenheit: float) -> str:
        raise RuntimeError("thermometer table missing")  # a crash inside the server

    return server


def library_server() -> MCPServer:
    server = MCPServer("library-catalogue")

    @server.tool(description="Look up a book in the town library's catalogue by its title; "
                             "says whether it is on the shelf and where.")
    def find_book(title: str) -> str:
        return f"{title}: on the shelf, B-12 (second floor)."

    return server


@pytest.fixture
def connections():
    opened = [MCPConnection(make()) for make in (weather_server, units_server, library_server)]
    yield opened
    for connection in opened:
        connection.close()


def test_function_schema_both_apis(connections):
    tool = connections[2].list_tools()[0]
    responses, chat = function_schema(tool), function_schema(tool, api="chat")
    assert responses["type"] == chat["type"] == "function"
    assert responses["name"] == chat["function"]["name"] == "find_book"
    assert responses["parameters"] == chat["function"]["parameters"] == tool.input_schema
    assert "parameters" not in chat and "input_schema" not in responses
    with pytest.raises(ValueError):
        function_schema(tool, api="completions")


def test_registry_knows_each_tools_server(connections):
    tools = MCPTools(*connections)
    assert tools.servers == {"forecast": "weather-stub", "miles_to_km": "unit-converter",
                             "fahrenheit_to_celsius": "unit-converter", "find_book": "library-catalogue"}
    assert tools.server_of("find_book") == "library-catalogue" and tools.server_of("nope") is None
    assert [s["name"] for s in tools.responses_schemas()] == tools.names()
    assert [s["function"]["name"] for s in tools.chat_schemas()] == tools.names()


def test_same_tool_name_on_two_servers_is_refused(connections):
    with MCPConnection(library_server()) as twin, pytest.raises(ValueError, match="library-catalogue"):
        MCPTools(connections[2], twin)


def test_prefix_names_each_tool_after_its_server_and_calls_it_by_its_own_name(connections):
    with MCPConnection(library_server(), name="branch library") as twin:
        tools = MCPTools(connections[2], twin, prefix=True)
        assert tools.names() == ["library-catalogue__find_book", "branch_library__find_book"]
        assert tools.servers["branch_library__find_book"] == "branch library"
        assert "B-12" in tools["branch_library__find_book"](title="Emma")  # reached as find_book
        assert [s["name"] for s in tools.responses_schemas()] == tools.names()
        assert MCPTools(connections[2], twin, prefix=True, only=["find_book"]).names() == tools.names()
        with pytest.raises(ValueError, match="another name"):
            MCPTools(connections[2], connections[2], prefix=True)


def test_prefixed_names_are_valid_function_names():
    import re

    for server, tool in [("course-faq", "search"), ("Ünïcode server", "naïve tool"), ("x" * 80, "y" * 10),
                         ("", "")]:
        name = prefixed_name(server, tool)
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name), name


def test_annotations_of_a_tool_without_any():
    assert annotations_of({"name": "t", "inputSchema": {}, "annotations": None}) == {}


@pytest.mark.parametrize("api", ["responses", "chat"])
@pytest.mark.parametrize(("question", "tool", "expected"), [
    ("What is the forecast for Lisbon tomorrow?", "forecast", "light rain"),
    ("How many kilometres are 26.2 miles?", "miles_to_km", "42.16"),
    ("Is the book 'The Dispossessed' on the shelf at the library?", "find_book", "B-12"),
])
def test_bridge_in_the_course_loop(connections, api, question, tool, expected):
    result = agent_loop(neutral_client(), OFFLINE_MODEL, question, MCPTools(*connections), api=api,
                        verbose=False)
    assert result.stop_reason == "answered"
    assert [call["name"] for call in result.tool_calls][:1] == [tool]
    assert expected in result.tool_calls[0]["output"] and expected in result.answer


def test_errors_become_outputs_not_exceptions(connections):
    tools = MCPTools(*connections)
    refused = json.loads(tools["forecast"](city="Atlantis"))  # the tool raised ToolError: is_error
    assert "no weather station in Atlantis" in refused["error"] and refused["hint"]
    crashed = json.loads(tools["fahrenheit_to_celsius"](fahrenheit=50))  # a crash inside the server
    assert "reported an error" in crashed["error"]
    invalid = json.loads(tools["miles_to_km"](miles="far"))  # the server's own argument check
    assert "miles" in invalid["error"]
    run = agent_loop(neutral_client(), OFFLINE_MODEL, "What is the forecast for Atlantis?", tools, verbose=False)
    assert run.stop_reason == "answered" and "error" in run.tool_calls[0]["output"]


def test_unknown_tool_and_dropped_connection_are_outputs(connections):
    from helpers.tools import run_tool

    tools = MCPTools(*connections)
    assert "unknown tool 'weather'" in run_tool("weather", '{"city": "Oslo"}', tools)
    connections[0].close()
    dropped = json.loads(run_tool("forecast", '{"city": "Oslo"}', tools))
    assert "closed" in dropped["error"]


def test_result_text_joins_text_and_notes_other_content():
    from mcp.types import CallToolResult, ImageContent, TextContent

    result = CallToolResult(content=[TextContent(type="text", text="a"), TextContent(type="text", text="b"),
                                     ImageContent(type="image", data="", mime_type="image/png")])
    assert result_text(result) == "a\nb\n[image content left out]"
    assert result_text(CallToolResult(content=[], structured_content={"n": 1})) == '{"n":1}'
    assert result_text({"content": [{"type": "text", "text": "x"}], "isError": True}).startswith('{"error"')


def test_a_server_that_is_not_there_gets_a_clear_connection_error():
    with pytest.raises(ConnectionError, match=r"Could not connect to the MCP server 'http://127\.0\.0\.1:9/mcp': "
                                              r"ConnectError"):
        MCPConnection("http://127.0.0.1:9/mcp", timeout=30)


# --- what lesson 16 says about the pinned SDKs (openai-agents 0.24.0, pydantic-ai-slim 2.68.0, mcp 2.3.0) -------


def _sdk_tool_names(servers, **agent_options):
    """The tool names an Agents SDK agent offers for these in-memory servers, over streamable HTTP."""
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPServerStreamableHttp

    async def names():
        async with contextlib.AsyncExitStack() as stack:
            opened = [await stack.enter_async_context(MCPServerStreamableHttp(params={"url": http.url}, name=name))
                      for name, http in servers]
            agent = Agent(name="a", mcp_servers=opened, **agent_options)
            return [tool.name for tool in await agent.get_all_tools(RunContextWrapper(None))]

    return asyncio.run(names())


def test_agents_sdk_refuses_a_shared_tool_name_unless_told_to_prefix():
    # agents/mcp/util.py MCPUtil.get_all_function_tools: UserError, or mcp_<server>__<tool> names.
    from agents.exceptions import UserError

    with BackgroundHTTPServer(build_server(DOCS, writable=False)) as one, \
            BackgroundHTTPServer(build_server(DOCS, writable=False)) as two:
        with pytest.raises(UserError, match="include_server_in_tool_names"):
            _sdk_tool_names([("course-faq", one), ("archive", two)])
        assert _sdk_tool_names([("course-faq", one), ("archive", two)],
                               mcp_config={"include_server_in_tool_names": True}) == [
            "mcp_course-faq__search", "mcp_archive__search"]


def test_agents_sdk_require_approval_function_gets_the_mcp_tool_and_its_annotations():
    # agents/mcp/server.py MCPServer.__init__ (require_approval) and _get_needs_approval_for_tool.
    from agents import Agent, RunContextWrapper
    from agents.mcp import MCPServerStreamableHttp

    seen = []

    def needs(run_context, agent, tool):
        seen.append((tool.name, annotations_of(tool).get("readOnlyHint")))
        return not annotations_of(tool).get("readOnlyHint")

    async def decide():
        with BackgroundHTTPServer(build_server(DOCS)) as http:
            async with MCPServerStreamableHttp(params={"url": http.url}, name="faq", require_approval=needs) as server:
                tools = await Agent(name="a", mcp_servers=[server]).get_all_tools(RunContextWrapper(None))
                return {tool.name: await tool.needs_approval(RunContextWrapper(None), {}, "c1") for tool in tools}

    assert asyncio.run(decide()) == {"search": False, "add_faq_entry": True}
    assert sorted(seen) == [("add_faq_entry", False), ("search", True)]


def test_agents_sdk_server_options_the_lesson_names():
    from agents.mcp import MCPServer, MCPServerStreamableHttp

    parameters = inspect.signature(MCPServer.__init__).parameters
    assert parameters["use_structured_content"].default is False
    assert {"require_approval", "tool_input_guardrails", "tool_output_guardrails"} <= set(parameters)
    assert "tool_filter" in inspect.signature(MCPServerStreamableHttp.__init__).parameters


def test_pydantic_ai_prefixes_with_one_underscore_and_has_approval_required():
    from pydantic_ai.mcp import MCPToolset

    toolset = MCPToolset("http://127.0.0.1:9/mcp")
    assert type(toolset.prefixed("faq")).__name__ == "PrefixedToolset"
    assert hasattr(toolset, "approval_required")
    import pydantic_ai.toolsets.prefixed as prefixed

    assert "f'{self.prefix}_{name}'" in inspect.getsource(prefixed)


def test_the_sdk_hides_an_unexpected_exceptions_text_and_passes_a_tool_errors():
    server = MCPServer("errors", log_level="CRITICAL")

    @server.tool(description="Fails.", structured_output=False)
    def crash(kind: str) -> str:
        if kind == "tool":
            raise ServerToolError("no such homework 'x9'")
        raise KeyError("secret detail")

    with MCPConnection(server) as connection:
        assert "x9" in connection.call_tool("crash", {"kind": "tool"}).content[0].text
        hidden = connection.call_tool("crash", {"kind": "other"})
        assert hidden.is_error and "secret" not in hidden.content[0].text


class Due(TypedDict):
    homework: str
    due: str


def test_a_return_type_gives_an_output_schema_and_structured_content():
    server = MCPServer("dates", log_level="WARNING")

    @server.tool(description="A due date.")
    def due(homework: str) -> Due:
        return {"homework": homework, "due": "2027-01-01"}

    with MCPConnection(server) as connection:
        tool = connection.list_tools()[0]
        result = connection.call_tool("due", {"homework": "h1"})
    assert set(tool.output_schema["properties"]) == {"homework", "due"}
    assert result.structured_content == {"homework": "h1", "due": "2027-01-01"}
    assert json.loads(result.content[0].text) == result.structured_content
