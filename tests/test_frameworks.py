"""The agent frameworks students meet next, run against the offline model: the OpenAI Agents SDK, PydanticAI
and toyaikit (lesson 11 uses the first two).

Each framework answers the same question plainly, streamed (where it streams) and with a structured output type,
on both wire APIs, in-process and over HTTP. Every answer must be grounded in the FAQ entry that answers the
question, and a streamed run must end with the same text as the plain one.
"""

from __future__ import annotations

import asyncio
import warnings

import agents
import openai
import pytest
from pydantic import BaseModel, Field

from helpers.ingest import load_faq_data
from helpers.llm import make_async_client, make_client
from helpers.offline import OFFLINE_MODEL, OfflineServer, async_neutral_client, neutral_client
from helpers.search import build_index, search

QUESTION = "I just found out about the course. Can I still join?"


@pytest.fixture(scope="module")
def faq():
    documents = load_faq_data()
    entry = next(d for d in documents if d["question"].startswith("I just discovered the course"))
    return build_index(documents), entry


@pytest.fixture(scope="module")
def server():
    with OfflineServer() as srv:
        yield srv


def search_tool(index):
    def search_faq(query: str) -> list[dict]:
        """Search the course FAQ for entries that match a query."""
        return search(query, index=index)
    return search_faq


class Reply(BaseModel):
    """Field names unlike any the offline model could be keyed to: the schema's descriptions carry the meaning."""

    reply: str = Field(description="What to tell the student")
    reference: str | None = Field(description="Identifier of the FAQ entry the reply is based on")
    covered: bool = Field(description="Whether the FAQ covers the question")


def assert_grounded(text: str, entry: dict) -> None:
    assert entry["id"] in text, text
    assert entry["answer"][:40] in text, text  # quotes the entry's answer, not another one or a repr of it


def assert_structured(reply: Reply, entry: dict) -> None:
    assert isinstance(reply, Reply)
    assert reply.reference == entry["id"], reply
    assert entry["answer"][:40] in reply.reply, reply
    assert reply.covered is True


def async_clients(server):
    """(label, AsyncOpenAI): in-process through make_async_client and async_neutral_client, and over HTTP."""
    yield "make_async_client", make_async_client("offline", verbose=False)[0]
    yield "async_neutral_client", async_neutral_client()
    yield "http", openai.AsyncOpenAI(base_url=server.base_url, api_key="offline")


# --- OpenAI Agents SDK ------------------------------------------------------------------------------------

def sdk_agent(client, api: str, index, **options):
    from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, function_tool

    agents.set_tracing_disabled(True)
    model = (OpenAIResponsesModel if api == "responses" else OpenAIChatCompletionsModel)(OFFLINE_MODEL, client)
    return Agent(name="faq", instructions="Answer from the course FAQ.", tools=[function_tool(search_tool(index))],
                 model=model, **options)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_agents_sdk_plain_streamed_and_structured(faq, server, api):
    from agents import Runner
    from openai.types.responses import ResponseTextDeltaEvent

    index, entry = faq

    async def runs(client):
        plain = await Runner.run(sdk_agent(client, api, index), QUESTION)
        streamed = Runner.run_streamed(sdk_agent(client, api, index), QUESTION)
        deltas = [e.data.delta async for e in streamed.stream_events()
                  if e.type == "raw_response_event" and isinstance(e.data, ResponseTextDeltaEvent)]
        typed = await Runner.run(sdk_agent(client, api, index, output_type=Reply), QUESTION)
        return plain.final_output, streamed.final_output, deltas, typed.final_output

    for label, client in async_clients(server):
        plain, streamed, deltas, typed = asyncio.run(runs(client))
        assert_grounded(plain, entry)
        assert streamed == plain, label
        assert len(deltas) > 1 and "".join(deltas) == plain, label  # really streamed, piece by piece
        assert_structured(typed, entry)
        assert typed.reply in plain, label  # the structured answer says what the text answer said


def test_agents_sdk_reads_python_repr_tool_output(faq):
    """The SDK sends a tool's list[dict] as str(list): the plain and the typed answer must still be grounded."""
    from agents import Runner

    index, entry = faq
    for options, check in [({}, assert_grounded), ({"output_type": Reply}, assert_structured)]:
        agent = sdk_agent(async_neutral_client(), "responses", index, **options)
        result = asyncio.run(Runner.run(agent, QUESTION))
        sent = result.to_input_list()
        output = next(item for item in sent if item.get("type") == "function_call_output")["output"]
        assert output.startswith("[{'")  # a Python repr, not JSON: the case under test
        check(result.final_output, entry)


# --- PydanticAI -------------------------------------------------------------------------------------------

def pai_agent(client, api: str, index):
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(openai_client=client)
    model = (OpenAIResponsesModel if api == "responses" else OpenAIChatModel)(OFFLINE_MODEL, provider=provider)
    return Agent(model, instructions="Answer from the course FAQ.", tools=[search_tool(index)])


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_pydantic_ai_plain_streamed_and_structured(faq, server, api):
    from pydantic_ai import NativeOutput, PromptedOutput, ToolOutput

    index, entry = faq

    async def runs(client):
        agent = pai_agent(client, api, index)
        plain = await agent.run(QUESTION)
        async with agent.run_stream(QUESTION) as stream:
            deltas = [d async for d in stream.stream_text(delta=True, debounce_by=None)]
        typed = [(await agent.run(QUESTION, output_type=kind)).output
                 for kind in (Reply, ToolOutput(Reply), NativeOutput(Reply), PromptedOutput(Reply))]
        return plain.output, deltas, typed

    for label, client in async_clients(server):
        plain, deltas, typed = asyncio.run(runs(client))
        assert_grounded(plain, entry)
        assert len(deltas) > 1 and "".join(deltas) == plain, label
        for reply in typed:
            assert_structured(reply, entry)


def test_pydantic_ai_usage_limit_maps_to_the_iteration_cap(faq):
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    index, _ = faq
    agent = pai_agent(async_neutral_client("never_stop"), "responses", index)
    with pytest.raises(UsageLimitExceeded, match="request_limit of 3"):
        asyncio.run(agent.run(QUESTION, usage_limits=UsageLimits(request_limit=3)))


# --- toyaikit (sync, no streaming) ------------------------------------------------------------------------

@pytest.mark.parametrize("api", ["responses", "chat"])
def test_toyaikit_plain_and_structured(faq, server, api):
    from toyaikit.chat.runners import OpenAIChatCompletionsRunner, OpenAIResponsesRunner
    from toyaikit.llm import OpenAIChatCompletionsClient, OpenAIClient
    from toyaikit.tools import Tools

    index, entry = faq
    tools = Tools()
    tools.add_tool(search_tool(index))
    clients = [("make_client", make_client("offline", verbose=False)[0]), ("neutral_client", neutral_client()),
               ("http", openai.OpenAI(base_url=server.base_url, api_key="offline"))]
    for label, client in clients:
        llm = (OpenAIClient if api == "responses" else OpenAIChatCompletionsClient)(model=OFFLINE_MODEL, client=client)
        runner = (OpenAIResponsesRunner if api == "responses" else OpenAIChatCompletionsRunner)(
            tools=tools, developer_prompt="Answer from the course FAQ.", llm_client=llm)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # toyaikit warns that the offline model has no price
            plain = runner.loop(prompt=QUESTION)
            typed = runner.loop(prompt=QUESTION, output_format=Reply)
        assert_grounded(plain.last_message, entry)
        assert_structured(typed.last_message, entry)
        assert typed.last_message.reply in plain.last_message, label


def test_lesson_11_runs_unchanged_on_a_provider_reached_over_http(server, tmp_path, monkeypatch):
    """What a student with a key runs: not the in-process offline transport but the plain SDK clients over a real
    socket (here to the offline server, standing in for the provider), streaming included. No cell may fail."""
    import shutil

    import nbformat
    from nbclient import NotebookClient

    from helpers.llm import ROOT

    for name, value in {"LLM_PROVIDER": "openai", "OPENAI_API_KEY": "sk-test-not-a-key", "LLM_RECORD": "",
                        "OPENAI_BASE_URL": server.base_url, "LLM_MODEL": OFFLINE_MODEL}.items():
        monkeypatch.setenv(name, value)
    copy = tmp_path / "11-frameworks.ipynb"
    shutil.copy(ROOT / "notebooks" / "11-frameworks.ipynb", copy)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    first_output = notebook.cells[2].outputs[0]["text"]
    assert "LLM: openai" in first_output and server.base_url in first_output  # really not the offline transport
    errors = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
              if o.output_type == "error"]
    assert not errors
