"""make_call against function calls produced by the offline model, including its broken-call fault modes."""

import json

import httpx
import pytest
from openai import OpenAI

from helpers import offline  # an ImportError here must fail the suite, never skip it
from helpers.search import SEARCH_TOOL
from helpers.tools import Tools, make_call, make_chat_call, tool

QUESTION = "How do I run Ollama locally?"


def fake_search(query: str) -> list[dict]:
    return [{"id": "x1", "question": "How do I run Ollama?", "answer": "Install it and pull a model."}]


def client(faults=None) -> OpenAI:
    transport = offline.OfflineTransport(faults=faults)
    return OpenAI(
        api_key="offline", base_url=offline.OFFLINE_BASE_URL, http_client=httpx.Client(transport=transport)
    )


def function_calls(fault=None) -> list:
    headers = {"X-Offline-Fault": fault} if fault else None
    response = client().responses.create(
        model=offline.OFFLINE_MODEL, input=QUESTION, tools=[SEARCH_TOOL], extra_headers=headers
    )
    calls = [item for item in response.output if item.type == "function_call"]
    assert calls, "the offline model should call a tool for an FAQ question"
    return calls


def test_offline_function_call_runs_through_make_call():
    for call in function_calls():
        out = make_call(call, {"search": fake_search})
        assert out["call_id"] == call.call_id
        assert json.loads(out["output"])[0]["id"] == "x1"


@pytest.mark.parametrize("fault", ["bad_arguments", "unknown_tool"])
def test_offline_broken_calls_become_error_payloads(fault):
    for call in function_calls(fault):
        out = make_call(call, {"search": fake_search})
        payload = json.loads(out["output"])
        assert payload.keys() == {"error", "hint"}


def test_offline_chat_tool_call_runs_through_the_registry():
    def search(query: str) -> list[dict]:
        return fake_search(query)

    search.__doc__ = f"{SEARCH_TOOL['description']}\n\nArgs:\n    query: keywords\n"
    tools = Tools(tool(search))
    response = client().chat.completions.create(
        model=offline.OFFLINE_MODEL,
        messages=[{"role": "user", "content": QUESTION}],
        tools=tools.chat_schemas(),
    )
    tool_calls = response.choices[0].message.tool_calls or []
    assert tool_calls, "the offline model should call a tool for an FAQ question"
    for tool_call in tool_calls:
        out = make_chat_call(tool_call, tools)
        assert out["tool_call_id"] == tool_call.id
        assert json.loads(out["content"])[0]["id"] == "x1"
