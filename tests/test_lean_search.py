"""helpers.lean_search: the lean search tool, no repeated results, and dropping finished turns' tool outputs."""

import json

import pytest

from helpers.history import drop_tool_outputs
from helpers.lean_search import LEAN_SEARCH_TOOL, LeanSearch
from helpers.llm import offline_client
from helpers.loop import agent_loop
from helpers.offline import OFFLINE_MODEL
from helpers.search import TUNED_BOOST, default_index, search


@pytest.fixture(scope="module")
def index():
    return default_index()


def test_lean_search_sends_four_tuned_results_with_three_fields(index):
    tool = LeanSearch(index)
    results = json.loads(tool("join the course late"))
    expected = search("join the course late", index=index, num_results=4, boost=TUNED_BOOST)
    assert results == [{k: d[k] for k in ("id", "question", "answer")} for d in expected]
    assert ", " not in tool("ollama install")[:30]  # compact JSON


def test_a_result_sent_before_comes_back_as_its_id(index):
    tool = LeanSearch(index)
    first = json.loads(tool("install ollama"))
    again = json.loads(tool("install ollama locally"))
    repeated = [r for r in again if r["id"] in {d["id"] for d in first}]
    assert repeated and all(r == {"id": r["id"], "seen": True} for r in repeated)
    tool.forget()
    assert json.loads(tool("install ollama")) == first


def test_repeats_can_be_kept(index):
    tool = LeanSearch(index, no_repeats=False, num_results=2)
    assert tool("install ollama") == tool("install ollama")
    assert len(json.loads(tool("install ollama"))) == 2


def test_the_lean_schema_still_reads_as_a_search_tool():
    from helpers.offline.engine import Tool, is_search_like

    assert is_search_like(Tool(LEAN_SEARCH_TOOL["name"], LEAN_SEARCH_TOOL["description"],
                               LEAN_SEARCH_TOOL["parameters"]))


RESPONSES_HISTORY = [
    {"role": "user", "content": "Can I join late?"},
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "[]"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Yes."}]},
]
CHAT_HISTORY = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Can I join late?"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                           "function": {"name": "search", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "[]"},
    {"role": "assistant", "content": "Let me check.", "tool_calls": [
        {"id": "c2", "type": "function", "function": {"name": "search", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c2", "content": "[]"},
    {"role": "assistant", "content": "Yes."},
]


def test_dropping_keeps_questions_and_answers_in_both_flavours():
    assert drop_tool_outputs(RESPONSES_HISTORY) == [RESPONSES_HISTORY[0], RESPONSES_HISTORY[-1]]
    assert drop_tool_outputs(CHAT_HISTORY) == [
        CHAT_HISTORY[0], CHAT_HISTORY[1], {"role": "assistant", "content": "Let me check."}, CHAT_HISTORY[-1]]
    assert drop_tool_outputs([]) == []


def test_a_conversation_goes_on_after_dropping(index):
    client = offline_client()
    tools = {"search": LeanSearch(index)}
    first = agent_loop(client, OFFLINE_MODEL, "How do I run Olama locally?", tools, schemas=[LEAN_SEARCH_TOOL],
                       verbose=False)
    tools["search"].forget()
    history = drop_tool_outputs(first.messages)
    assert [m.get("role") for m in history] == ["user", "assistant"]
    second = agent_loop(client, OFFLINE_MODEL, "Can I use Groq instead of OpenAI?", tools,
                        schemas=[LEAN_SEARCH_TOOL], messages=history, verbose=False)
    assert second.stop_reason == "answered" and "[ee43413718]" in second.answer
    assert sum(c.input_tokens for c in second.calls) < sum(
        c.input_tokens for c in agent_loop(client, OFFLINE_MODEL, "Can I use Groq instead of OpenAI?", tools,
                                           schemas=[LEAN_SEARCH_TOOL], messages=first.messages,
                                           verbose=False).calls)
