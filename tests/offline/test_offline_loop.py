"""The offline model driving a small agent loop over the pinned FAQ with the course's real search tool."""

import json

import pytest

from helpers.llm import offline_client
from helpers.offline import OFFLINE_MODEL

# No skip without FAQ_ARCHIVE: the search loads the pinned FAQ the way lesson 01 does (FAQ_ARCHIVE, else the
# cache in data/, else one download), as the notebooks under nbval do. CI always sets FAQ_ARCHIVE.

GUARDRAIL = ("You are the course assistant. Only answer questions about the course, using only facts from the FAQ. "
             "Politely refuse anything else.")


@pytest.fixture(scope="module")
def search_tool():
    from helpers.search import SEARCH_TOOL, search

    return SEARCH_TOOL, search


def agent(question, search_tool, instructions=None, max_iterations=6):
    """Ask, run every search the model asks for, feed results back, until it answers. Returns
    (answer, queries in order)."""
    schema, search = search_tool
    client = offline_client(_strict_response_validation=True)
    items = [{"role": "user", "content": question}]
    queries = []
    for _ in range(max_iterations):
        response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[schema],
                                           instructions=instructions)
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response.output_text, queries
        items += response.output
        for call in calls:
            query = json.loads(call.arguments)["query"]
            queries.append(query)
            items.append({"type": "function_call_output", "call_id": call.call_id,
                          "output": json.dumps(search(query))})
    raise AssertionError(f"no answer after {max_iterations} iterations; queries: {queries}")


def test_typo_olama_is_repaired_and_the_answer_is_the_ollama_entry(search_tool):
    answer, queries = agent("How do I run Olama locally?", search_tool)
    assert len(queries) >= 2
    assert "ollama" not in queries[0].split() and "ollama" in queries[-1].split()
    assert "[1d0b969028]" in answer and '"Ollama: How to install Ollama?"' in answer


def test_joining_question_is_answered_from_the_joining_entry(search_tool):
    answer, _ = agent("I just discovered the course. Can I join it?", search_tool)
    assert "[74eb249bbf]" in answer and "submit your project" in answer


def test_off_topic_question_with_guardrail_is_refused(search_tool):
    answer, _ = agent("what's queen gambit?", search_tool, instructions=GUARDRAIL)
    assert answer.startswith("Sorry, I can only help with questions about the course")


@pytest.mark.parametrize("question,entry", [
    ("How can I get a certificate if I follow at my own pace?", "69d122f12e"),
    ("instal olama on linux", "1d0b969028"),
    ("my OPENAI_API_KEY isnt found in jupyter", "86d99bbf21"),
])
def test_unseen_paraphrases_and_typos(search_tool, question, entry):
    answer, _ = agent(question, search_tool)
    assert f"[{entry}]" in answer


def test_off_topic_question_without_guardrail_says_nothing_was_found(search_tool):
    answer, queries = agent("What's the best pizza recipe?", search_tool)
    assert "found nothing relevant" in answer and 1 <= len(queries) <= 3
