"""Search: the course's settings, the Olama/Ollama failure, the tool schema and argument checks."""

import pytest

from helpers.ingest import load_faq_data
from helpers.search import SEARCH_TOOL, build_index, search


@pytest.fixture(scope="module")
def index():
    return build_index(load_faq_data())


def ids(results):
    return [r["id"] for r in results]


def test_join_question_finds_the_joining_entry_first(index):
    results = search("I just discovered the course. Can I join it?", index=index)
    assert len(results) == 5
    assert results[0]["id"] == "74eb249bbf"
    assert all(r["course"] == "llm-zoomcamp" for r in results)


def test_typo_olama_misses_but_ollama_hits(index):
    typo = search("How do I run Olama locally?", index=index)
    assert "ollama" not in typo[0]["question"].lower()
    assert all("ollama" not in (r["question"] + r["answer"]).lower() for r in typo[:1])
    fixed = search("Ollama", index=index)
    assert fixed[0]["id"] == "1d0b969028"


def test_course_filter_and_all_courses(index):
    dez = search("docker compose postgres", index=index, course="data-engineering-zoomcamp")
    assert dez and all(r["course"] == "data-engineering-zoomcamp" for r in dez)
    anywhere = search("docker compose postgres", index=index, course=None, num_results=10)
    assert len(anywhere) == 10


def test_num_results(index):
    assert len(search("homework", index=index, num_results=2)) == 2


def test_default_index_is_built_lazily_once():
    from helpers import search as search_module

    first = search_module.default_index()
    assert search_module.default_index() is first
    assert search("certificate")[0]["course"] == "llm-zoomcamp"


def test_bad_arguments_are_clear(index):
    with pytest.raises(TypeError, match="query as a string"):
        search(["ollama"], index=index)
    with pytest.raises(ValueError, match="positive whole number"):
        search("ollama", index=index, num_results=0)


def test_search_tool_schema_shape():
    assert SEARCH_TOOL["type"] == "function" and SEARCH_TOOL["name"] == "search"
    params = SEARCH_TOOL["parameters"]
    assert params["required"] == ["query"] and params["additionalProperties"] is False
    assert params["properties"]["query"]["type"] == "string"


def test_tiny_index_works(tiny_archive):
    from helpers.ingest import parse_archive

    idx = build_index(parse_archive(tiny_archive))
    assert ids(search("certificate", index=idx, course="alpha-course")) == ["bbbbbbbbb1"]


def test_boost_is_a_parameter_and_defaults_to_the_course_boosts(index):
    from helpers.search import BOOST, TUNED_BOOST, TUNED_NUM_RESULTS

    question = "Can I use Groq instead of OpenAI?"
    assert search(question, index=index) == search(question, index=index, boost=BOOST)
    tuned = search(question, index=index, boost=TUNED_BOOST, num_results=TUNED_NUM_RESULTS)
    assert len(tuned) == TUNED_NUM_RESULTS
    assert ids(search(question, index=index, boost={"question": 1.0, "section": 0.0, "answer": 0.0})) != ids(
        search(question, index=index, boost={"question": 0.0, "section": 0.0, "answer": 1.0}))
