"""Homework 08, task 8.1 (helpers.checks.homework.hw08_mcp): an agent that answers through an MCP server's tools.

The right solutions (the course's loop, PydanticAI, the Agents SDK) pass, the stubs are not done, and the
mistakes students make fail with a hint that names neither the answer nor the code that gives it."""

from __future__ import annotations

import json

import pytest

from helpers.checks.homework.hw08_mcp import check_mcp_agent, ferry_server, seed_server
from helpers.loop import agent_loop
from helpers.mcp_tools import MCPConnection, MCPTools

# What a hint must never give away: the facts only the servers know, and the pieces of a solution.
ANSWER_WORDS = ("14:35", "6 to 10", "MCPConnection", "MCPTools", "agent_loop", "MCPToolset", "Brindisi", "basil")


def assert_fails_without_leaking(result, *expected_words):
    assert result.status == "fail", result
    for word in ANSWER_WORDS:
        assert word not in result.hint, (word, result.hint)
    for word in expected_words:
        assert word in result.hint, (word, result.hint)


# --- right solutions ----------------------------------------------------------------------------------------


def course_loop(server_url, question, client, model):
    with MCPConnection(server_url) as connection:
        return agent_loop(client, model, question, MCPTools(connection), verbose=False).answer


async def pydantic_ai_agent(server_url, question, client, model):
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.models.openai import OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    agent = Agent(OpenAIResponsesModel(model, provider=OpenAIProvider(openai_client=client)),
                  toolsets=[MCPToolset(server_url)])
    return (await agent.run(question)).output


async def agents_sdk_agent(server_url, question, client, model):
    from agents import Agent, OpenAIResponsesModel, Runner, set_tracing_disabled
    from agents.mcp import MCPServerStreamableHttp

    set_tracing_disabled(True)
    async with MCPServerStreamableHttp(params={"url": server_url}) as server:
        agent = Agent(name="helper", mcp_servers=[server], model=OpenAIResponsesModel(model, client))
        return (await Runner.run(agent, question)).final_output


def own_loop(server_url, question, client, model, *, parameters=True, send_output=True):
    """A hand-written bridge and loop (lesson 16's exercise); the flags make two of the wrong solutions."""
    with MCPConnection(server_url) as connection:
        schemas = [{"type": "function", "name": tool.name, "description": tool.description or "",
                    "parameters": tool.input_schema if parameters else {"type": "object", "properties": {}}}
                   for tool in connection.list_tools()]
        items: list = [{"role": "user", "content": question}]
        for _ in range(4):
            response = client.responses.create(model=model, input=items, tools=schemas)
            items += [item.model_dump(exclude_none=True) for item in response.output]
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text
            for call in calls:
                result = connection.call_tool(call.name, json.loads(call.arguments or "{}"))
                text = "\n".join(block.text for block in result.content if block.type == "text")
                items.append({"type": "function_call_output", "call_id": call.call_id,
                              "output": text if send_output else "done"})
    return ""


@pytest.mark.parametrize("solution", [course_loop, own_loop, pydantic_ai_agent, agents_sdk_agent])
def test_right_solutions_pass(solution):
    result = check_mcp_agent(solution)
    assert result.status == "pass", result


# --- stubs --------------------------------------------------------------------------------------------------


def test_stub_is_not_done_yet():
    def answer_with_mcp(server_url, question, client, model):
        # your code here
        raise NotImplementedError

    assert check_mcp_agent(answer_with_mcp).status == "todo"


def test_async_stub_is_not_done_yet():
    async def answer_with_mcp(server_url, question, client, model):
        raise NotImplementedError

    assert check_mcp_agent(answer_with_mcp).status == "todo"


# --- plausible wrong solutions ------------------------------------------------------------------------------


def test_the_model_alone_without_the_servers_tools_fails():
    def answer_with_mcp(server_url, question, client, model):
        return client.responses.create(model=model, input=question).output_text

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "never asked the server")


def test_connecting_to_another_server_fails():
    from helpers.mcp_server import build_server

    docs = [{"id": "x1", "course": "c", "section": "s", "question": "When does it start?", "answer": "In June."}]

    def answer_with_mcp(server_url, question, client, model):
        with MCPConnection(build_server(docs, writable=False)) as connection:  # not the server it was given
            return agent_loop(client, model, question, MCPTools(connection), verbose=False).answer

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "never asked the server")


def test_schemas_without_the_tools_parameters_fail():
    def answer_with_mcp(server_url, question, client, model):
        return own_loop(server_url, question, client, model, parameters=False)

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "without the argument")


def test_returning_the_tools_output_instead_of_the_answer_fails():
    def answer_with_mcp(server_url, question, client, model):
        with MCPConnection(server_url) as connection:
            run = agent_loop(client, model, question, MCPTools(connection), verbose=False)
        return run.tool_calls[-1]["output"]

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "the tool's output itself")


def test_not_sending_the_tools_output_back_fails():
    def answer_with_mcp(server_url, question, client, model):
        return own_loop(server_url, question, client, model, send_output=False)

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "does not use what the tool returned")


def test_code_written_for_one_server_fails_on_the_other():
    def answer_with_mcp(server_url, question, client, model):
        with MCPConnection(server_url) as connection:  # only the ferry tool: the seed server's never reaches the model
            tools = MCPTools(connection, only=["next_ferry"])
            return agent_loop(client, model, question, tools, verbose=False).answer

    result = check_mcp_agent(answer_with_mcp)
    assert_fails_without_leaking(result, "the seed server", "never able to call")


def test_a_framework_run_not_awaited_fails():
    def answer_with_mcp(server_url, question, client, model):  # a plain function around async code
        return pydantic_ai_agent(server_url, question, client, model)

    assert_fails_without_leaking(check_mcp_agent(answer_with_mcp), "coroutine")


def test_servers_answer_their_own_questions_only():
    ferry, ferry_case = ferry_server()
    seeds, seed_case = seed_server()
    with MCPConnection(ferry) as a, MCPConnection(seeds) as b:
        assert ferry_case["fact"] in a.call_tool("next_ferry", {"port": "port of Brindisi"}).content[0].text
        assert a.call_tool("next_ferry", {"port": "Atlantis"}).is_error
        assert seed_case["fact"] in b.call_tool("germination_time", {"plant": "Basil seeds"}).content[0].text
        assert b.call_tool("germination_time", {}).is_error  # a missing argument is the SDK's error result
    # Every call is recorded, the one the SDK refused for its missing argument too.
    assert [name for name, _ in ferry.calls] == ["next_ferry"] * 2 and seeds.calls[-1] == ("germination_time", {})
