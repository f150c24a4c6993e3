"""The shapes of real models (model_shapes.py) do what they say, and the lessons run under the one that combines
reasoning items, text beside calls, calls spread over responses and a stateless provider (`make test`; every
notebook under every shape is `make test-shapes`)."""

import json
import sys
from pathlib import Path

import openai
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_shapes import CHATTY_TEXT, SHAPES  # noqa: E402
from run_shapes import ROOT, run_one  # noqa: E402
from serve import ShapeServer  # noqa: E402

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
THREE = "Make at least 3 searches with different keywords before answering."
QUESTION = "Can I get a certificate if I join late?"


@pytest.fixture(scope="module")
def served():
    servers = {name: ShapeServer(name).__enter__() for name in SHAPES}
    yield servers
    for server in servers.values():
        server.__exit__()


def client_of(served, shape):
    return openai.OpenAI(base_url=served[shape].base_url, api_key="x", max_retries=0)


def faq_output(call):
    return {"type": "function_call_output", "call_id": call.call_id,
            "output": json.dumps([{"id": "c1", "question": "Can I join late?", "answer": "Yes, you can."}])}


def test_reasoning_comes_first_with_an_empty_and_a_written_summary(served):
    client = client_of(served, "reasoning")
    responses = [client.responses.create(model="m", input=QUESTION, tools=[SEARCH]) for _ in range(2)]
    assert [r.output[0].type for r in responses] == ["reasoning", "reasoning"]
    assert sorted(bool(r.output[0].summary) for r in responses) == [False, True]
    assert all(r.output[1].type == "function_call" for r in responses)
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hello"}])
    assert "reasoning_content" in chat.choices[0].message.model_dump()


def test_a_short_message_comes_beside_the_calls(served):
    response = client_of(served, "chatty").responses.create(model="m", input=QUESTION, tools=[SEARCH])
    assert [item.type for item in response.output] == ["message", "function_call"]
    assert response.output_text == CHATTY_TEXT


def test_calls_made_at_once_come_one_per_response_in_the_same_order(served):
    at_once = client_of(served, "reasoning").responses.create(model="m", input=QUESTION, tools=[SEARCH],
                                                               instructions=THREE)
    wanted = [c.arguments for c in at_once.output if c.type == "function_call"]
    assert len(wanted) == 3
    for stateful in (False, True):
        client = client_of(served, "sequential")
        items, got, previous, new = [{"role": "user", "content": QUESTION}], [], None, []
        for _ in range(5):
            if stateful and previous is not None:
                response = client.responses.create(model="m", input=new, tools=[SEARCH], instructions=THREE,
                                                   previous_response_id=previous)
            else:
                response = client.responses.create(model="m", input=items, tools=[SEARCH], instructions=THREE)
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                break
            assert len(calls) == 1
            got.append(calls[0].arguments)
            new = [faq_output(calls[0])]
            items += [*response.output, *new]
            previous = response.id
        assert got == wanted and response.output_text, stateful


def test_the_first_move_is_turned_round(served):
    client = client_of(served, "misjudge")
    written = client.responses.create(model="m", input=QUESTION, tools=[SEARCH])
    assert [item.type for item in written.output] == ["message"]
    assert json.loads(written.output_text)["name"] == "search"  # the call, written as text
    weather = {"type": "function", "name": "get_weather", "description": "Get the current weather in a city.",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    greeted = client.responses.create(model="m", input="Thanks, that is all!", tools=[weather])
    assert [item.type for item in greeted.output] == ["function_call"]  # a call where text was expected
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": QUESTION}],
                                          tools=[{"type": "function", "function": {k: v for k, v in SEARCH.items()
                                                                                  if k != "type"}}])
    assert chat.choices[0].message.tool_calls is None and "search" in chat.choices[0].message.content


def test_a_stateless_provider_refuses_state_files_and_batches(served):
    client = client_of(served, "stateless")
    first = client.responses.create(model="m", input="Hi, I'm Priya.")
    with pytest.raises(openai.BadRequestError, match="previous_response_id"):
        client.responses.create(model="m", input="Who am I?", previous_response_id=first.id)
    with pytest.raises(openai.BadRequestError, match="store"):
        client.responses.create(model="m", input="Hi", store=True)
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(first.id)
    with pytest.raises(openai.NotFoundError):
        client.conversations.create()
    with pytest.raises(openai.NotFoundError):
        client.files.list()
    with pytest.raises(openai.NotFoundError):
        client.batches.list()


def test_a_chat_only_provider_has_no_responses_api(served):
    client = client_of(served, "chat_only")
    with pytest.raises(openai.NotFoundError):
        client.responses.create(model="m", input="Hi")
    reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hello"}])
    assert reply.choices[0].message.content


def test_a_streamed_request_gets_the_rewritten_answer_as_events(served):
    client = client_of(served, "combined")
    with client.responses.stream(model="m", input=QUESTION, tools=[SEARCH]) as stream:
        final = stream.get_final_response()
    assert [item.type for item in final.output] == ["reasoning", "message", "function_call"]


def test_make_client_keeps_the_presets_capabilities_behind_a_proxy(served, monkeypatch):
    from helpers.llm import make_client, provider_of

    for shape in ("chat_only", "stateless"):
        for key, value in served[shape].env().items():
            monkeypatch.setenv(key, value)
        client, _ = make_client(verbose=False)
        preset = provider_of(client)
        assert preset.name == SHAPES[shape].preset and preset.base_url == served[shape].base_url


# One lesson under the shape that combines the first three and a stateless provider, on every `make test`: the
# Responses loop, which every later lesson builds on. Every other notebook, under every shape (this one too), is
# `make test-shapes` (test_solutions_under_shapes.py), run by the weekly CI job; the lessons of the other API areas
# (08 Chat Completions, 11 frameworks, 13 a paused run, 15 server-side state) ran here too until 2026-12-02 and
# cost 40 s of the suite's 360 s of work.
AREAS = ["notebooks/solutions/04-agentic-loop.ipynb"]


@pytest.mark.parametrize("notebook", AREAS)
def test_a_lesson_runs_under_the_combined_shape(served, notebook):
    failed = run_one(ROOT / notebook, served["combined"].env())
    assert failed is None, failed


def test_right_code_passes_its_check_on_a_model_that_misjudges_and_the_model_is_named(served, monkeypatch):
    """Homework 2.3 on a weak model: it answers without calling get_entry. The verdict comes from a scripted model
    and is PASS; what the weak model did is said beside it, as the model's doing."""
    from helpers.checks.homework import hw02_the_loop as hw
    from helpers.ingest import load_faq_data
    from helpers.llm import make_client
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    documents = load_faq_data(progress=False)
    by_id = {d["id"]: d for d in documents}
    schema = {"type": "function", "name": "get_entry", "description": "Fetch one full FAQ entry by its id.",
              "parameters": {"type": "object", "properties": {"entry_id": {"type": "string"}},
                             "required": ["entry_id"], "additionalProperties": False}}
    tools = {"search": search, "get_entry": lambda entry_id: by_id.get(entry_id) or {"error": "no such id"}}

    def ask(client, model, question):
        return agent_loop(client, model, question, tools, schemas=[SEARCH_TOOL, schema], verbose=False)

    for key, value in served["misjudge"].env().items():
        monkeypatch.setenv(key, value)
    client, model = make_client(verbose=False)
    result = hw.check_ask(ask, client, model, documents)
    assert result.passed, result
    assert f"On your model ({model}): it answered without calling get_entry" in result.hint, result
    assert "not your code" in result.hint
