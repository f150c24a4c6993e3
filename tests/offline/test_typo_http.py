"""A misspelt name is repaired from the words the request carries, over real HTTP with no vocabulary handed in.

The server is `python -m helpers.offline serve --port 0`, started as a student starts it: it gets no
vocabulary, so what it knows of words is what each request brings (instructions, tool descriptions, the
tool outputs so far). "Olama" is in none of the first results; the rule (search_policy.spelling_probe):
a name the question writes with a capital, found nowhere in the request, is searched for in its usual
misspellings' other forms, and the search engine, which knows its documents' words, brings back the ones
that hold the intended word, from which the typo is repaired.
"""

import json
import subprocess
import sys

import openai
import pytest
from minsearch import Index

from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL, search


@pytest.fixture(scope="module")
def base_url():
    server = subprocess.Popen([sys.executable, "-m", "helpers.offline", "serve", "--port", "0", "--quiet"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # "Offline model serving on http://127.0.0.1:PORT/v1 (...)"
        address = next(w for w in line.split() if w.startswith("http://"))
        yield address if address.rstrip("/").endswith("/v1") else address.rstrip("/") + "/v1"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def client(base_url):
    return openai.OpenAI(base_url=base_url, api_key="any key works", max_retries=0)


def test_the_course_loop_recovers_the_olama_typo_over_http(client):
    result = agent_loop(client, "offline-rules-v1", "How do I run Olama locally?", {"search": search},
                        schemas=[SEARCH_TOOL], verbose=False)
    queries = [json.loads(c["arguments"])["query"] for c in result.tool_calls]
    assert "ollama" not in queries[0].split() and any("ollama" in q.split() for q in queries[1:])
    assert '"Ollama: How to install Ollama?" [1d0b969028]' in result.answer


def test_the_seeds_loop_recovers_it_on_chat_completions_too(client):
    tool = {"type": "function", "function": {k: v for k, v in SEARCH_TOOL.items() if k != "type"}}
    messages = [{"role": "user", "content": "How do I run Olama locally?"}]
    for _ in range(6):
        message = client.chat.completions.create(model="m", messages=messages, tools=[tool]).choices[0].message
        if not message.tool_calls:
            break
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            found = search(json.loads(call.function.arguments)["query"])
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(found)})
    assert "[1d0b969028]" in message.content


# A domain no lesson uses: a team's code-review notes, where the tool's name is mistyped.
REVIEW_NOTES = [
    {"id": "r1", "title": "Gerrit: first steps",
     "text": "Gerrit runs as a Java service: download the war file and start it with java -jar."},
    {"id": "r2", "title": "Installing tools on a laptop", "text": "Install every tool from the team's package list."},
    {"id": "r3", "title": "Laptop setup: install the linters", "text": "Install the linters before your first review."},
    {"id": "r4", "title": "Install the review CLI on a laptop", "text": "The review CLI installs with pip."},
]
NOTES_TOOL = {"type": "function", "name": "search_notes", "description": "Search the team's notes.",
              "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


@pytest.fixture(scope="module")
def notes_search():
    index = Index(text_fields=["title", "text"]).fit(REVIEW_NOTES)
    return lambda query: index.search(query, num_results=2)


def run_notes(client, notes_search, question):
    items, queries = [{"role": "user", "content": question}], []
    for _ in range(6):
        response = client.responses.create(model="m", input=items, tools=[NOTES_TOOL])
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response.output_text, queries
        items += response.output
        for call in calls:
            queries.append(json.loads(call.arguments)["query"])
            items.append({"type": "function_call_output", "call_id": call.call_id,
                          "output": json.dumps(notes_search(queries[-1]))})
    raise AssertionError(queries)


def test_a_mistyped_name_in_another_domain_is_repaired_over_http(client, notes_search):
    answer, queries = run_notes(client, notes_search, "How do I install Gerit on my laptop?")
    assert "gerrit" not in str(notes_search(queries[0])).lower()  # the first results lack it
    assert answer.startswith('According to "Gerrit: first steps" [r1]')


def test_an_ordinary_word_the_notes_lack_is_not_spelled_out(client, notes_search):
    # The negative: "quietly" is in no note, but it is no name, so its spelling is not searched for.
    _, queries = run_notes(client, notes_search, "How do I install the linters quietly on a laptop?")
    assert not any("qquietly" in q or "quietyl" in q for q in queries)
