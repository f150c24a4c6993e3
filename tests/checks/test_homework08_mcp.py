"""Homework 08, task 8.1 (helpers.checks.homework.hw08_mcp): two MCP servers with a tool of the same name, and a
write behind approval from the tools' annotations.

Right solutions written differently (a hand-written loop, the course's registry with prefixes and agent_loop)
pass; the stub is not done; the mistakes students make (one `search` shadowing the other, asking about every
call, asking by tool name, running a refused call, no output for a refused call, prefixed names sent to the
server) fail with a hint that gives neither the answer nor the code."""

from __future__ import annotations

import json

import hints

from helpers.checks.homework.hw08_mcp import ToolPickingModel, check_servers_with_approval
from helpers.loop import agent_loop
from helpers.mcp_tools import MCPConnection, MCPTools, annotations_of

LEAKS = ("readOnlyHint", "read_only_hint", "annotations_of", "prefix", "MCPTools")


def assert_fails(result, *words):
    hints.assert_fails(result, leaks=LEAKS, says=words)  # tests/hints.py, with this task's words that give it away


def reads_only(tool) -> bool:
    return tool.annotations is not None and tool.annotations.read_only_hint is True


def own_loop(server_urls, question, client, model, approve, *, policy=reads_only, naming="prefix",
             run_refused=False, answer_refused=True, send_model_name=False):
    """A hand-written solution; the keywords turn it into the wrong ones."""
    connections = [MCPConnection(url) for url in server_urls]
    try:
        route, schemas = {}, []
        for connection in connections:
            for tool in connection.list_tools():
                name = {"prefix": f"{connection.name}__{tool.name}", "plain": tool.name}[naming]
                if name in route:
                    continue  # "plain": the second search is dropped
                route[name] = (connection, tool)
                schemas.append({"type": "function", "name": name, "description": tool.description or "",
                                "parameters": tool.input_schema})
        items: list = [{"role": "user", "content": question}]
        for _ in range(6):
            response = client.responses.create(model=model, input=items, tools=schemas)
            items += [item.model_dump(exclude_none=True) for item in response.output]
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text
            for call in calls:
                connection, tool = route[call.name]
                arguments = json.loads(call.arguments or "{}")
                allowed = policy(tool) or approve(connection.name, tool.name, arguments)
                if allowed or run_refused:
                    result = connection.call_tool(call.name if send_model_name else tool.name, arguments)
                    output = "\n".join(block.text for block in result.content if block.type == "text")
                else:
                    output = "The person did not approve this call, so it did not run."
                if allowed or answer_refused:
                    items.append({"type": "function_call_output", "call_id": call.call_id, "output": output})
        return ""
    finally:
        for connection in connections:
            connection.close()


def course_registry(server_urls, question, client, model, approve):
    """Written differently: the course's registry with prefixes, a gate around each tool, agent_loop."""
    connections = [MCPConnection(url) for url in server_urls]
    try:
        tools = MCPTools(*connections, prefix=True)

        def gated(tool):
            def call(**arguments):
                hints = annotations_of(tool)
                if hints.get("readOnlyHint") or approve(tool.server, tool.tool_name, arguments):
                    return tool(**arguments)
                return json.dumps({"error": "not approved by the user"})
            return call

        registry = {name: gated(tools[name]) for name in tools.names()}
        return agent_loop(client, model, question, registry, schemas=tools.responses_schemas(),
                          verbose=False).answer
    finally:
        for connection in connections:
            connection.close()


def test_right_solutions_pass():
    for solution in (own_loop, course_registry):
        result = check_servers_with_approval(solution)
        assert result.status == "pass", (solution.__name__, result)


def test_other_prefix_schemes_pass():
    def dashed(urls, question, client, model, approve):
        return own_loop(urls, question, client, model, approve, policy=lambda t: annotations_of(t).get(
            "readOnlyHint") is True)

    assert check_servers_with_approval(dashed).status == "pass"


def test_stub_is_not_done():
    def stub(server_urls, question, client, model, approve):
        raise NotImplementedError

    assert check_servers_with_approval(stub).status == "todo"


def test_one_search_shadowing_the_other_fails():
    result = check_servers_with_approval(lambda *a: own_loop(*a, naming="plain"))
    assert_fails(result, "five")


def test_asking_about_every_call_fails():
    result = check_servers_with_approval(lambda *a: own_loop(*a, policy=lambda tool: False))
    assert_fails(result, "read-only")


def test_asking_by_tool_name_fails():
    result = check_servers_with_approval(lambda *a: own_loop(*a, policy=lambda tool: tool.name == "search"))
    assert_fails(result, "port_list")


def test_trusting_a_tool_that_says_nothing_fails():
    def not_destructive(tool):  # the spec's default for a missing destructiveHint is true
        return not (tool.annotations and tool.annotations.destructive_hint)

    result = check_servers_with_approval(lambda *a: own_loop(*a, policy=not_destructive))
    assert_fails(result, "says nothing")


def test_running_a_refused_call_fails():
    assert_fails(check_servers_with_approval(lambda *a: own_loop(*a, run_refused=True)), "ran anyway")


def test_no_output_for_a_refused_call_fails():
    assert_fails(check_servers_with_approval(lambda *a: own_loop(*a, answer_refused=False)), "no output")


def test_asking_with_the_prefixed_name_fails():
    def prefixed(urls, question, client, model, approve):
        return course_registry(urls, question, client, model,
                               lambda server, tool, arguments: approve(server, f"{server}__{tool}", arguments))

    assert_fails(check_servers_with_approval(prefixed), "own name")


def test_calling_the_server_with_the_prefixed_name_fails():
    result = check_servers_with_approval(lambda *a: own_loop(*a, send_model_name=True))
    assert_fails(result, "Map the name")


def test_returning_the_tool_output_fails():
    def tool_output(urls, question, client, model, approve):
        own_loop(urls, question, client, model, approve)
        return client.output or ""

    assert_fails(check_servers_with_approval(tool_output), "final answer")


def test_the_scripted_model_finds_a_tool_by_its_description_whatever_its_name():
    model = ToolPickingModel("Count words.", {"text": "a b"})
    first = model.responses.create(input="?", tools=[{"type": "function", "name": "x__count",
                                                      "description": "Count words.", "parameters": {}}])
    assert first.output[0].name == "x__count"
    assert ToolPickingModel("Count words.", {}).responses.create(input="?", tools=[]).output_text == (
        "I have no tool for that.")
