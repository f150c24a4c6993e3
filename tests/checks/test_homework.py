"""The homework checks: a right solution passes, a stub is "not done yet", and a wrong solution fails with a
hint that doesn't give the expected answer away. Everything runs on the offline model."""

import importlib
import json
from collections import Counter
from pathlib import Path

import hints
import pytest
from hints import assert_todo, stub

from helpers import checks as hw
from helpers.checks.homework.hw03_prompts_and_guardrails import GRADED_QUESTIONS, SEARCH_QUESTIONS
from helpers.ingest import load_faq_data
from helpers.llm import make_client
from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL, ZOOMCAMP_BOOST, search
from helpers.tools import make_call


@pytest.fixture(scope="module")
def documents():
    return load_faq_data()


@pytest.fixture(scope="module")
def offline():
    return make_client("offline", verbose=False)


def assert_fails(result, *secrets):
    """The check failed, says something useful, and none of `secrets` (expected answers) appear in it."""
    hints.assert_fails(result, leaks=secrets)


# --- 01 · Search and RAG -------------------------------------------------------------------------------


def test_count_entries(documents):
    right = hw.check_count_entries(lambda docs, course: sum(d["course"] == course for d in docs), documents)
    assert right.passed, right
    assert_todo(hw.check_count_entries(stub, documents))
    assert_todo(hw.check_count_entries(lambda docs, course: None, documents))
    counts = Counter(d["course"] for d in documents)
    secrets = counts["llm-zoomcamp"], counts["mlops-zoomcamp"]
    result = hw.check_count_entries(lambda docs, course: len(docs), documents)
    assert_fails(result, *secrets)
    assert "every document" in result.hint

    def the_entries(docs, course):  # the list itself, not how many
        return [d for d in docs if d["course"] == course]

    result = hw.check_count_entries(the_entries, documents)
    assert_fails(result, *secrets)
    assert "whole number" in result.hint

    def one_course_only(docs, course):  # the course of the lesson, whatever the argument says
        return sum(d["course"] == "llm-zoomcamp" for d in docs)

    result = hw.check_count_entries(one_course_only, documents)
    assert_fails(result, counts["mlops-zoomcamp"])
    assert "same count for every course" in result.hint

    def counts_sections(docs, course):
        return len({d["section"] for d in docs if d["course"] == course})

    result = hw.check_count_entries(counts_sections, documents)
    assert_fails(result, *secrets)
    assert "too low" in result.hint


def test_biggest_section(documents):
    def right(docs, course):
        return Counter(d["section"] for d in docs if d["course"] == course).most_common(1)[0][0]

    def smallest(docs, course):
        return Counter(d["section"] for d in docs if d["course"] == course).most_common()[-1][0]

    def most_common_pair(docs, course):  # most_common(1) as it comes: [(name, count)]
        return Counter(d["section"] for d in docs if d["course"] == course).most_common(1)

    def first_section(docs, course):
        return next(d["section"] for d in docs if d["course"] == course)

    def every_course(docs, course):  # counts sections across all courses
        return Counter(d["section"] for d in docs).most_common(1)[0][0]

    assert hw.check_biggest_section(right, documents).passed
    assert_todo(hw.check_biggest_section(stub, documents))
    biggest = right(documents, "llm-zoomcamp")
    result = hw.check_biggest_section(smallest, documents)
    assert_fails(result, biggest)
    assert "another section has more" in result.hint
    result = hw.check_biggest_section(most_common_pair, documents)
    assert_fails(result, biggest)
    assert "string" in result.hint
    assert_fails(hw.check_biggest_section(first_section, documents), biggest)
    result = hw.check_biggest_section(every_course, documents)
    assert_fails(result, biggest)
    assert "not a section of" in result.hint


def test_search_section(documents):
    from minsearch import Index

    index = Index(text_fields=["question", "section", "answer"], keyword_fields=["course", "section"]).fit(documents)
    course_only = Index(text_fields=["question", "section", "answer"], keyword_fields=["course"]).fit(documents)

    def right(query, section):
        return index.search(query, filter_dict={"course": "llm-zoomcamp", "section": section}, boost_dict=ZOOMCAMP_BOOST,
                            num_results=5)

    def no_section_filter(query, section):
        return course_only.search(query, filter_dict={"course": "llm-zoomcamp"}, boost_dict=ZOOMCAMP_BOOST, num_results=5)

    def no_boost(query, section):
        return index.search(query, filter_dict={"course": "llm-zoomcamp", "section": section}, num_results=5)

    def section_in_query(query, section):  # the section's name searched as words, not filtered on
        return index.search(f"{query} {section}", filter_dict={"course": "llm-zoomcamp"}, boost_dict=ZOOMCAMP_BOOST,
                            num_results=5)

    def default_count(query, section):  # index.search's default num_results (10)
        return index.search(query, filter_dict={"course": "llm-zoomcamp", "section": section}, boost_dict=ZOOMCAMP_BOOST)

    assert hw.check_search_section(right, documents).passed
    assert_todo(hw.check_search_section(stub, documents))
    expected_ids = [d["id"] for d in right("openai api key", "Module 1: Introduction")]
    result = hw.check_search_section(no_section_filter, documents)
    assert_fails(result, *expected_ids)
    assert "filter_dict" in result.hint
    result = hw.check_search_section(no_boost, documents)
    assert_fails(result, *expected_ids)
    assert "boosts" in result.hint
    assert_fails(hw.check_search_section(section_in_query, documents), *expected_ids)
    result = hw.check_search_section(default_count, documents)
    assert_fails(result, *expected_ids)
    assert "num_results=5" in result.hint


GROUNDING = "Answer the student's question using only these FAQ entries."


def prompt_with(sentence, question, results, fields=("question", "answer")):
    entries = "\n\n".join("\n".join(f"{field.upper()}: {d[field]}" for field in fields) for d in results)
    return f"{sentence}\n\nQUESTION: {question}\n\nFAQ ENTRIES:\n{entries}"


# Plain wordings of "answer only from these entries": each must pass.
GROUNDED_WORDINGS = [
    GROUNDING,
    "Answer only from the entries below.",
    "You're a course teaching assistant. Use only the context to answer.",
    "If the context doesn't contain the answer, say so.",
    "Base your answer solely on the FAQ entries; don't use outside knowledge.",
    "If you can't find the answer in the entries, say you don't know.",
]


@pytest.mark.parametrize("sentence", GROUNDED_WORDINGS)
def test_build_prompt_passes_a_plain_grounding_sentence(sentence):
    result = hw.check_build_prompt(lambda question, results: prompt_with(sentence, question, results))
    assert result.passed, result


def test_build_prompt():
    def right(question, results):
        return prompt_with(GROUNDING, question, results)

    def questions_only(question, results):
        return prompt_with(GROUNDING, question, results, fields=("question",))

    def answers_only(question, results):
        return prompt_with(GROUNDING, question, results, fields=("answer",))

    def first_result_only(question, results):
        return prompt_with(GROUNDING, question, results[:1])

    def no_question(question, results):
        return prompt_with(GROUNDING, "the student's question", results)

    assert hw.check_build_prompt(right).passed
    assert_todo(hw.check_build_prompt(stub))
    result = hw.check_build_prompt(questions_only)
    assert_fails(result)
    assert "answer" in result.hint
    result = hw.check_build_prompt(answers_only)
    assert_fails(result)
    assert "FAQ question is missing" in result.hint
    result = hw.check_build_prompt(first_result_only)
    assert_fails(result)
    assert "result 2" in result.hint
    result = hw.check_build_prompt(no_question)
    assert_fails(result)
    assert "word for word" in result.hint


@pytest.mark.parametrize("sentence", [
    "",  # the question and the entries, no instruction at all
    "You're a course teaching assistant. Answer the QUESTION based on the CONTEXT from the FAQ database.",
    "Use the FAQ entries below to answer.",  # uses them, but not only them
    "Answer in only one sentence, using these entries.",  # "only" limits the length, not the sources
])
def test_build_prompt_fails_without_answer_only_from_the_entries(sentence):
    result = hw.check_build_prompt(lambda question, results: prompt_with(sentence, question, results))
    assert_fails(result, *GROUNDED_WORDINGS)
    assert "answer only from these entries" in result.hint


def _right_rag(client, model, question):
    context = "\n".join(d["answer"] for d in search(question))
    return client.responses.create(model=model, input=f"{question}\n{context}").output_text


def test_rag(offline):
    client, model = offline
    right = _right_rag

    def no_search(client, model, question):
        return client.responses.create(model=model, input=question).output_text

    def two_calls(client, model, question):
        right(client, model, question)
        return right(client, model, question)

    def returns_response(client, model, question):
        return client.responses.create(model=model, input=question + "\n" + search(question)[0]["answer"])

    def global_client(_client, _model, question):  # the notebook's client, not the one passed in
        return right(client, model, question)

    assert hw.check_rag(right, client, model).passed
    assert_todo(hw.check_rag(stub, client, model))
    result = hw.check_rag(no_search, client, model)
    assert_fails(result)
    assert "search" in result.hint
    assert_fails(hw.check_rag(two_calls, client, model))
    result = hw.check_rag(returns_response, client, model)
    assert_fails(result)
    assert "output_text" in result.hint
    result = hw.check_rag(global_client, client, model)
    assert_fails(result)
    assert "`client` argument" in result.hint


# --- 02 · The loop -------------------------------------------------------------------------------------


def test_run_function_calls():
    def right(response, tools):
        return [make_call(item, tools) for item in response.output if item.type == "function_call"]

    def first_only(response, tools):
        return right(response, tools)[:1]

    def same_call_id(response, tools):
        outputs = right(response, tools)
        return [{**out, "call_id": outputs[0]["call_id"]} for out in outputs]

    def not_serialized(response, tools):  # the tool's list as it is, not json.dumps of it
        return [{"type": "function_call_output", "call_id": item.call_id,
                 "output": tools[item.name](**json.loads(item.arguments))}
                for item in response.output if item.type == "function_call"]

    def item_id(response, tools):  # the item's own id ("fc_..."), not the call_id it answers
        return [{**make_call(item, tools), "call_id": item.id} for item in response.output if item.type == "function_call"]

    def every_item(response, tools):  # the message item answered too
        return [make_call(item, tools) if item.type == "function_call" else
                {"type": "function_call_output", "call_id": "", "output": "[]"} for item in response.output]

    assert hw.check_run_function_calls(right).passed
    assert_todo(hw.check_run_function_calls(stub))
    result = hw.check_run_function_calls(first_only)
    assert_fails(result)
    assert "2 function calls" in result.hint and "returned 1" in result.hint
    result = hw.check_run_function_calls(same_call_id)
    assert_fails(result)
    assert "call_id" in result.hint
    result = hw.check_run_function_calls(not_serialized)
    assert_fails(result)
    assert "json.dumps" in result.hint
    result = hw.check_run_function_calls(item_id)
    assert_fails(result)
    assert "call.call_id" in result.hint
    result = hw.check_run_function_calls(every_item)
    assert_fails(result)
    assert "not function calls" in result.hint


GOOD_SCHEMA = {"type": "function", "name": "get_entry", "description": "Fetch one full FAQ entry by its id.",
               "parameters": {"type": "object", "properties": {"entry_id": {"type": "string"}},
                              "required": ["entry_id"], "additionalProperties": False}}

# Descriptions of get_entry a student might write: each says what it returns and what it takes.
GOOD_DESCRIPTIONS = [
    GOOD_SCHEMA["description"],
    "Get an entry by id",
    "Returns the complete question and answer of a FAQ record, given its identifier.",
    "Look up a single document of the course FAQ using an id from the search results.",
    "Use this when a search result is cut short: it gives the whole FAQ entry for that entry_id.",
]
# Descriptions that don't describe get_entry: someone else's tool, none, search's own.
WRONG_DESCRIPTIONS = {
    "weather": "Get the current weather for a city.",
    "empty": "",
    "search's": SEARCH_TOOL["description"],
    "vague": "A helpful tool for the agent to use.",
}


def described(description, schema=GOOD_SCHEMA):
    return {**schema, "description": description}


def make_get_entry(documents):
    by_id = {d["id"]: d for d in documents}

    def get_entry(entry_id: str) -> dict:
        return by_id.get(entry_id) or {"error": f"no entry {entry_id!r}; use an id from the search results"}

    return get_entry


@pytest.mark.parametrize("description", GOOD_DESCRIPTIONS)
def test_get_entry_passes_a_description_that_fits(documents, description):
    result = hw.check_get_entry(make_get_entry(documents), described(description), documents)
    assert result.passed, result


@pytest.mark.parametrize("kind", WRONG_DESCRIPTIONS)
def test_get_entry_fails_a_description_of_something_else(documents, kind):
    result = hw.check_get_entry(make_get_entry(documents), described(WRONG_DESCRIPTIONS[kind]), documents)
    assert_fails(result, *GOOD_DESCRIPTIONS)
    assert "description" in result.hint


def test_get_entry(documents):
    get_entry = make_get_entry(documents)
    by_id = {d["id"]: d for d in documents}
    assert hw.check_get_entry(get_entry, GOOD_SCHEMA, documents).passed
    assert_todo(hw.check_get_entry(stub, GOOD_SCHEMA, documents))
    assert_todo(hw.check_get_entry(get_entry, None, documents))
    raises = hw.check_get_entry(lambda entry_id: by_id[entry_id], GOOD_SCHEMA, documents)
    assert_fails(raises)
    assert "error" in raises.hint
    returns_none = hw.check_get_entry(lambda entry_id: by_id.get(entry_id), GOOD_SCHEMA, documents)
    assert_fails(returns_none)
    assert "'error' key" in returns_none.hint
    first_match = hw.check_get_entry(lambda entry_id: documents[0], GOOD_SCHEMA, documents)
    assert_fails(first_match)
    assert "'id' field" in first_match.hint
    misnamed = {**GOOD_SCHEMA, "name": "entry"}
    assert_fails(hw.check_get_entry(get_entry, misnamed, documents))
    no_required = {**GOOD_SCHEMA, "parameters": {**GOOD_SCHEMA["parameters"], "required": []}}
    result = hw.check_get_entry(get_entry, no_required, documents)
    assert_fails(result)
    assert "required" in result.hint
    id_param = {**GOOD_SCHEMA, "parameters": {**GOOD_SCHEMA["parameters"], "properties": {"id": {"type": "string"}},
                                              "required": ["id"]}}
    result = hw.check_get_entry(get_entry, id_param, documents)
    assert_fails(result)
    assert "get_entry(entry_id)" in result.hint


def test_ask(documents, offline):
    client, model = offline
    get_entry = make_get_entry(documents)

    def agent(tools, schemas):
        def ask(client, model, question):
            return agent_loop(client, model, question, tools, schemas=schemas, verbose=False)

        return ask

    both = {"search": search, "get_entry": get_entry}
    right = agent(both, [SEARCH_TOOL, GOOD_SCHEMA])

    def answer_only(client, model, question):
        return right(client, model, question).answer

    assert right(client, model, "Can I join late?").stop_reason == "answered"
    assert hw.check_ask(right, client, model, documents).passed
    assert_todo(hw.check_ask(stub, client, model, documents))
    result = hw.check_ask(agent({"search": search}, [SEARCH_TOOL]), client, model, documents)
    assert_fails(result)
    assert "both tools" in result.hint
    result = hw.check_ask(answer_only, client, model, documents)
    assert_fails(result)
    assert "LoopResult" in result.hint
    result = hw.check_ask(agent({"get_entry": get_entry}, [GOOD_SCHEMA]), client, model, documents)
    assert_fails(result)
    assert "keep both" in result.hint
    result = hw.check_ask(agent({"search": search, "entry": get_entry}, [SEARCH_TOOL, GOOD_SCHEMA]), client, model,
                          documents)  # the dict key doesn't match the schema's name
    assert_fails(result)
    assert "only returned errors" in result.hint


@pytest.mark.parametrize("description", GOOD_DESCRIPTIONS)
def test_ask_passes_a_get_entry_description_that_fits(documents, offline, description):
    client, model = offline
    tools = {"search": search, "get_entry": make_get_entry(documents)}

    def ask(client, model, question):
        return agent_loop(client, model, question, tools, schemas=[SEARCH_TOOL, described(description)], verbose=False)

    result = hw.check_ask(ask, client, model, documents)
    assert result.passed, result


@pytest.mark.parametrize("tool, kind", [("get_entry", kind) for kind in WRONG_DESCRIPTIONS] + [
    ("search", "weather"), ("search", "empty")])
def test_ask_fails_a_tool_described_as_something_else(documents, offline, tool, kind):
    client, model = offline
    tools = {"search": search, "get_entry": make_get_entry(documents)}
    search_schema, entry_schema = SEARCH_TOOL, GOOD_SCHEMA
    if tool == "search":
        search_schema = described(WRONG_DESCRIPTIONS[kind], SEARCH_TOOL)
    else:
        entry_schema = described(WRONG_DESCRIPTIONS[kind])

    def ask(client, model, question):
        return agent_loop(client, model, question, tools, schemas=[search_schema, entry_schema], verbose=False)

    result = hw.check_ask(ask, client, model, documents)
    assert_fails(result, *GOOD_DESCRIPTIONS)
    assert f"{tool} has no description" in result.hint or f"{tool}'s description" in result.hint


def _loop(client, model, question, tools, schemas, first_only=False):
    messages = [{"role": "user", "content": question}]
    for iteration in range(1, 11):
        response = client.responses.create(model=model, input=messages, tools=schemas)
        messages.extend(response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text, iteration
        messages.extend(make_call(call, tools) for call in (calls[:1] if first_only else calls))
    return response.output_text, 10


def test_my_agent_loop(offline):
    client, model = offline

    def one_shot(client, model, question, tools, schemas):
        response = client.responses.create(model=model, input=question, tools=schemas)
        for item in response.output:
            if item.type == "function_call":
                make_call(item, tools)
        return response.output_text, 1

    def counts_calls(client, model, question, tools, schemas):
        answer, iterations = _loop(client, model, question, tools, schemas)
        return answer, iterations + 1

    assert hw.check_my_agent_loop(_loop, client, model).passed
    assert_todo(hw.check_my_agent_loop(stub, client, model))
    result = hw.check_my_agent_loop(one_shot, client, model)
    assert_fails(result)
    assert "stopped after 1 iteration" in result.hint and "2 tool calls" in result.hint
    first_only = hw.check_my_agent_loop(lambda *a: _loop(*a, first_only=True), client, model)
    assert_fails(first_only)
    assert "did you run all of them" in first_only.hint
    result = hw.check_my_agent_loop(counts_calls, client, model)
    assert_fails(result)
    assert "iteration" in result.hint

    def outputs_only(client, model, question, tools, schemas):  # forgets to append response.output
        messages = [{"role": "user", "content": question}]
        for iteration in range(1, 11):
            response = client.responses.create(model=model, input=messages, tools=schemas)
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text, iteration
            messages.extend(make_call(call, tools) for call in calls)
        return response.output_text, 10

    result = hw.check_my_agent_loop(outputs_only, client, model)
    assert_fails(result)
    assert "append response.output" in result.hint


def _right_count_iterations(messages):
    count, previous = 0, False
    for item in messages:
        model_item = item.get("type") in ("function_call", "reasoning") or item.get("role") == "assistant"
        count += model_item and not previous
        previous = model_item
    return count


def test_count_iterations(offline):
    client, model = offline
    right = _right_count_iterations

    def counts_calls(messages):
        return sum(item.get("type") == "function_call" for item in messages) + 1

    def counts_messages(messages):
        return len(messages)

    def counts_answers(messages):  # only the final text messages, not the responses that asked for tools
        return sum(item.get("role") == "assistant" for item in messages)

    def counts_outputs(messages):  # tool outputs, plus one for the answer
        return sum(item.get("type") == "function_call_output" for item in messages) + 1

    assert hw.check_count_iterations(right, client, model).passed
    assert_todo(hw.check_count_iterations(stub, client, model))
    for wrong in (counts_calls, counts_messages, counts_answers, counts_outputs):
        result = hw.check_count_iterations(wrong, client, model)
        assert_fails(result)
        assert "count model responses" in result.hint, wrong.__name__

    def counts_call_groups(messages):  # right on the offline model's runs; counts text beside a call apart
        count, previous = 0, None
        for item in messages:
            kind = "call" if item.get("type") == "function_call" else item.get("role")
            count += kind in ("call", "assistant") and kind != previous
            previous = kind
        return count

    result = hw.check_count_iterations(counts_call_groups, client, model)
    assert_fails(result)
    assert "reasoning item" in result.hint

    def right_by_boundaries(messages):  # written differently: a response starts after the user or a tool output
        starts = [i for i, item in enumerate(messages[1:], 1)
                  if item.get("type") != "function_call_output" and item.get("role") != "user"
                  and (messages[i - 1].get("type") == "function_call_output" or messages[i - 1].get("role") == "user")]
        return len(starts)

    assert hw.check_count_iterations(right_by_boundaries, client, model).passed


# --- 03 · Prompts and guardrails -----------------------------------------------------------------------

GUARD_INSTRUCTIONS = ("You screen questions for a course FAQ assistant. Reply with exactly one word: ALLOW or BLOCK. "
                      "Say ALLOW when the question is about the courses.")


def guard_with(instructions):
    """A guard in the shape task 3.2 asks for: one call, no tools, the one-word reply turned into a bool."""
    def is_on_topic(client, model, question):
        reply = client.responses.create(model=model, instructions=instructions, input=question)
        return reply.output_text.strip().strip(".").upper() in ("ALLOW", "YES")

    return is_on_topic


guard = guard_with(GUARD_INSTRUCTIONS)


# Plain English asking for more than one search: each must pass, worded as a student might.
MULTI_SEARCH_WORDINGS = [
    "Before you answer, make at least 3 searches with different keywords.",
    "Search twice before you answer.",
    "Make three searches with different keywords",
    "First search, read the results, then search again with new keywords from them",
]


@pytest.mark.parametrize("instructions", MULTI_SEARCH_WORDINGS)
def test_multi_search_instructions_pass_plain_english(offline, instructions):
    client, model = offline
    result = hw.check_multi_search_instructions(instructions, client, model)
    assert result.passed, result


def test_multi_search_counts_searches_across_the_whole_run(offline):
    # Research in rounds: one search per response, the next one in the NEXT response; the check counts them all.
    client, model = offline
    rounds = MULTI_SEARCH_WORDINGS[-1]
    spy = hw.SpyClient(client)
    agent_loop(spy, model, SEARCH_QUESTIONS[0], {"search": search}, schemas=[SEARCH_TOOL], instructions=rounds,
               verbose=False)
    per_response = [sum(getattr(item, "type", "") == "function_call" for item in r.output) for _, r in spy.calls]
    assert max(per_response) == 1 and sum(per_response) >= 2, per_response
    assert hw.check_multi_search_instructions(rounds, client, model).passed


def test_multi_search_instructions_fail_without_a_request_for_more_searches(offline):
    client, model = offline
    assert_todo(hw.check_multi_search_instructions("", client, model))
    # Keyword-only: a bare word list asks for nothing, whatever words it holds.
    for words in ["various keywords", "docker, join, certificate, homework", "search, keywords, synonyms, twice"]:
        result = hw.check_multi_search_instructions(words, client, model)
        assert_fails(result)
        assert "list of words" in result.hint, result
    # A sentence, but no request for a second search: a role only, or a request for one search.
    for sentence in ["You are a helpful teaching assistant.", "Search once, then answer."]:
        result = hw.check_multi_search_instructions(sentence, client, model)
        assert_fails(result)
        assert "more than once" in result.hint, result


# Plain-English guards of different wordings that name the course's topics: each must pass.
RIGHT_GUARDS = [
    GUARD_INSTRUCTIONS,
    "Answer YES if the question is about the LLM Zoomcamp or the DataTalksClub courses, their homework, tools or "
    "certificates, NO otherwise",
    "Reply with exactly one word: ALLOW if the question is about the DataTalksClub courses (the LLM Zoomcamp and "
    "others), their homework, projects, tools or certificates, else BLOCK",
    "Is this question about the DataTalksClub courses? Answer yes or no.",
]


@pytest.mark.parametrize("instructions", RIGHT_GUARDS)
def test_is_on_topic_passes_a_plain_english_guard(offline, instructions):
    client, model = offline
    result = hw.check_is_on_topic(guard_with(instructions), client, model)
    assert result.passed, result


def test_is_on_topic_fails_a_guard_scoped_to_another_topic(offline):
    # The offline model judges by the topic words the prompt names: "cooking" blocks every course question.
    client, model = offline
    for scope in ["Answer YES if the question is about cooking, NO otherwise",
                  "You guard a course assistant. Reply with exactly one word: ALLOW if the question is about "
                  "cooking and recipes, else BLOCK"]:
        result = hw.check_is_on_topic(guard_with(scope), client, model)
        assert_fails(result)
        assert "blocked 10 of 10 on-topic" in result.hint, result


def test_is_on_topic_fails_a_guard_with_no_scope(offline):
    client, model = offline
    for unscoped in ["Reply ALLOW or BLOCK.", "Reply with exactly one word: YES or NO."]:
        result = hw.check_is_on_topic(guard_with(unscoped), client, model)
        assert_fails(result)
        assert "never says what is on-topic" in result.hint, result


def test_is_on_topic_fails_a_guard_that_always_allows(offline):
    client, model = offline
    result = hw.check_is_on_topic(guard_with("Always reply ALLOW."), client, model)
    assert_fails(result)
    assert "let through 10 of 10 off-topic" in result.hint, result


def test_is_on_topic_needs_exactly_one_model_call(offline):
    client, model = offline
    keywords = ("course", "homework", "certificate", "docker", "zoomcamp", "module")
    for no_call in [lambda c, m, q: any(w in q.lower() for w in keywords), lambda c, m, q: True]:
        result = hw.check_is_on_topic(no_call, client, model)
        assert_fails(result)
        assert "no model call" in result.hint, result

    def twice(client, model, question):
        guard(client, model, question)
        return guard(client, model, question)

    assert "2 model calls" in hw.check_is_on_topic(twice, client, model).hint

    def with_tools(client, model, question):
        client.responses.create(model=model, input=question, tools=[SEARCH_TOOL], instructions=GUARD_INSTRUCTIONS)
        return True

    assert "offers tools" in hw.check_is_on_topic(with_tools, client, model).hint
    assert_todo(hw.check_is_on_topic(stub, client, model))
    assert "bool" in hw.check_is_on_topic(lambda c, m, q: "ALLOW", client, model).hint


def test_is_on_topic_grades_on_held_back_questions():
    graded = GRADED_QUESTIONS
    public = {q for q, _ in hw.LABELLED_QUESTIONS}
    assert sum(on for _, on in graded) >= 8 and sum(not on for _, on in graded) >= 8
    assert not public & {q for q, _ in graded}
    # No notebook prints them, and no hint names one (the hints give counts).
    notebooks = [p.read_text(encoding="utf-8") for p in (hw.HOMEWORK_DIR.glob("**/03-*.ipynb"))]
    assert notebooks and not any(q in nb for q, _ in graded for nb in notebooks)


def test_measure_guardrail():
    def right(guard, labelled):
        return {"on_topic_allowed": sum(on and guard(q) for q, on in labelled),
                "off_topic_blocked": sum(not on and not guard(q) for q, on in labelled)}

    def swapped(guard, labelled):
        counts = right(guard, labelled)
        return {"on_topic_allowed": counts["off_topic_blocked"], "off_topic_blocked": counts["on_topic_allowed"]}

    def every_allowed(guard, labelled):  # counts what the guard allowed, whatever the label
        return {"on_topic_allowed": sum(guard(q) for q, _ in labelled),
                "off_topic_blocked": sum(not guard(q) for q, _ in labelled)}

    def labels_only(guard, labelled):  # counts the labels and never asks the guard
        return {"on_topic_allowed": sum(on for _, on in labelled),
                "off_topic_blocked": sum(not on for _, on in labelled)}

    def mistakes(guard, labelled):  # the misses instead of the hits
        return {"on_topic_allowed": sum(on and not guard(q) for q, on in labelled),
                "off_topic_blocked": sum(not on and guard(q) for q, on in labelled)}

    assert hw.check_measure_guardrail(right).passed
    assert_todo(hw.check_measure_guardrail(stub))
    for wrong in (swapped, every_allowed, labels_only, mistakes):
        result = hw.check_measure_guardrail(wrong)
        assert_fails(result)
        assert "keyword guard" in result.hint, wrong.__name__
    result = hw.check_measure_guardrail(lambda g, labelled: {"allowed": 1})
    assert_fails(result)
    assert "two keys" in result.hint


def test_guarded_answer(offline):
    client, model = offline

    def right(client, model, question):
        if not guard(client, model, question):
            return "Sorry, I only answer questions about the course."
        return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL], verbose=False).answer

    def unguarded(client, model, question):
        return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL], verbose=False).answer

    def guard_ignored(client, model, question):  # asks the guard, then runs the loop anyway
        guard(client, model, question)
        return unguarded(client, model, question)

    def loop_first(client, model, question):  # the guard only hides an answer already paid for
        answer = unguarded(client, model, question)
        return answer if guard(client, model, question) else "Sorry, I only answer questions about the course."

    def always_refuses(client, model, question):
        guard(client, model, question)
        return "Sorry, I only answer questions about the course."

    def empty_refusal(client, model, question):
        return right(client, model, question) if guard(client, model, question) else ""

    assert hw.check_guarded_answer(right, client, model).passed
    assert_todo(hw.check_guarded_answer(stub, client, model))
    for wrong in (unguarded, guard_ignored, loop_first):
        result = hw.check_guarded_answer(wrong, client, model)
        assert_fails(result)
        assert "guardrail first" in result.hint, wrong.__name__
    result = hw.check_guarded_answer(always_refuses, client, model)
    assert_fails(result)
    assert "never searched" in result.hint
    result = hw.check_guarded_answer(empty_refusal, client, model)
    assert_fails(result)
    assert "polite refusal" in result.hint


# --- 04 · Cost and safety ------------------------------------------------------------------------------


def price_call(i, c, o, p):
    return ((i - c) * p["input"] + c * p["cached_input"] + o * p["output"]) / 1_000_000


def test_price_call():
    assert hw.check_price_call(price_call).passed
    assert_todo(hw.check_price_call(stub))
    per_token = hw.check_price_call(lambda i, c, o, p: price_call(i, c, o, p) * 1_000_000)
    assert_fails(per_token)
    assert "million" in per_token.hint
    full_price = hw.check_price_call(lambda i, c, o, p: price_call(i, 0, o, p))
    assert_fails(full_price, price_call(10_000, 8_000, 500, {"input": 0.75, "cached_input": 0.075, "output": 4.5}))
    assert "cached" in full_price.hint
    twice = hw.check_price_call(lambda i, c, o, p: price_call(i, 0, o, p) + c * p["cached_input"] / 1e6)
    assert_fails(twice)
    assert "twice" in twice.hint
    output_as_input = hw.check_price_call(lambda i, c, o, p: price_call(i + o, c, 0, p))
    assert_fails(output_as_input)
    assert "output has its own" in output_as_input.hint


def test_price_run(offline):
    client, model = offline

    def right(result, prices):
        return sum(price_call(c.input_tokens, c.cached_input_tokens, c.output_tokens, prices) for c in result.calls)

    def last_only(result, prices):
        c = result.calls[-1]
        return price_call(c.input_tokens, c.cached_input_tokens, c.output_tokens, prices)

    def first_only(result, prices):
        c = result.calls[0]
        return price_call(c.input_tokens, c.cached_input_tokens, c.output_tokens, prices)

    def all_at_input_price(result, prices):
        return result.total_tokens * prices["input"] / 1_000_000

    def per_token_prices(result, prices):  # forgets that prices are per million tokens
        return right(result, prices) * 1_000_000

    def average(result, prices):
        return right(result, prices) / len(result.calls)

    assert hw.check_price_run(right, client, model).passed
    assert_todo(hw.check_price_run(stub, client, model))
    for wrong in (last_only, first_only):
        result = hw.check_price_run(wrong, client, model)
        assert_fails(result)
        assert "every record" in result.hint, wrong.__name__
    result = hw.check_price_run(all_at_input_price, client, model)
    assert_fails(result)
    assert "different prices" in result.hint
    for wrong in (per_token_prices, average):
        assert_fails(hw.check_price_run(wrong, client, model))


def _homework02_loop(run_function_calls, *, budget="before", count=lambda usage: usage.total_tokens):
    """The homework-02 loop (task 2.4) with a token budget, right or wrong in one chosen way.

    budget: "before" (right: checked before each call), "after" (one call late) or None (no budget).
    """

    def run_with_budget(client, model, question, tools, schemas, max_tokens, max_iterations=50):
        messages, used, before_last, text = [{"role": "user", "content": question}], 0, 0, ""
        for _ in range(max_iterations):
            checked = {"before": used, "after": before_last}.get(budget)  # "after": the total one call ago
            if checked is not None and checked >= max_tokens:
                return text, "token_budget", used
            response = client.responses.create(model=model, input=messages, tools=schemas)
            before_last, used = used, used + count(response.usage)
            text = response.output_text or text
            messages.extend(response.output)
            outputs = run_function_calls(response, tools)
            if not outputs:
                return text, "answered", used
            messages.extend(outputs)
        return text, "iteration_limit", used

    return run_with_budget


def test_run_with_budget(offline):
    """Task 4.3 runs the student's own homework-02 loop with a budget on a model that never stops."""
    client, model = offline

    def run_function_calls(response, tools):
        return [make_call(item, tools) for item in response.output if item.type == "function_call"]

    right = _homework02_loop(run_function_calls)
    assert hw.check_run_with_budget(right, client, model).passed
    assert_todo(hw.check_run_with_budget(stub, client, model))

    # The homework-02 loop unchanged but for the return shape: it never stops on tokens. The check stops it two
    # calls past the budget, not at its 50th call.
    answered = []

    def counted(response, tools):
        answered.append(response)
        return run_function_calls(response, tools)

    result = hw.check_run_with_budget(_homework02_loop(counted, budget=None), client, model)
    assert_fails(result)
    assert "token_budget" in result.hint and "running total" in result.hint
    assert len(answered) < 10, len(answered)

    result = hw.check_run_with_budget(_homework02_loop(run_function_calls, budget="after"), client, model)
    assert_fails(result)
    assert "already used up" in result.hint

    # Counting only the input tokens: the hint says what to count and gives no total away.
    spy_total = []

    def input_only(usage):
        spy_total.append(usage.total_tokens)
        return usage.input_tokens

    result = hw.check_run_with_budget(_homework02_loop(run_function_calls, count=input_only), client, model)
    assert_fails(result, sum(spy_total), f"{sum(spy_total):,}")
    assert "total_tokens" in result.hint

    def wrong_shape(client, model, question, tools, schemas, max_tokens, max_iterations=50):
        return "", "token_budget"

    assert_fails(hw.check_run_with_budget(wrong_shape, client, model))


def test_safe_make_call():
    def right(call, tools):
        return make_call(call, tools)

    def unsafe(call, tools):
        result = tools[call["name"]](**json.loads(call["arguments"]))
        return {"type": "function_call_output", "call_id": call["call_id"], "output": json.dumps(result)}

    def silent(call, tools):
        try:
            return unsafe(call, tools)
        except Exception:  # noqa: BLE001 -- the wrong solution under test swallows everything
            return {"type": "function_call_output", "call_id": call["call_id"], "output": "[]"}

    assert hw.check_safe_make_call(right).passed
    assert_todo(hw.check_safe_make_call(stub))
    result = hw.check_safe_make_call(unsafe)
    assert_fails(result)
    assert "raised KeyError" in result.hint
    result = hw.check_safe_make_call(silent)
    assert_fails(result)
    assert "'error'" in result.hint

    def json_errors_only(call, tools):  # catches bad JSON, but not an unknown tool or a crashing one
        try:
            arguments = json.loads(call["arguments"])
        except json.JSONDecodeError as e:
            return {"type": "function_call_output", "call_id": call["call_id"], "output": json.dumps({"error": str(e)})}
        return {"type": "function_call_output", "call_id": call["call_id"],
                "output": json.dumps(tools[call["name"]](**arguments))}

    result = hw.check_safe_make_call(json_errors_only)
    assert_fails(result)
    assert "an unknown tool raised KeyError" in result.hint

    def error_as_dict(call, tools):  # the error object itself as output, not a JSON string
        out = make_call(call, tools)
        return {**out, "output": json.loads(out["output"])} if "error" in out["output"] else out

    result = hw.check_safe_make_call(error_as_dict)
    assert_fails(result)
    assert "must be a string" in result.hint

    def bare_error(call, tools):  # what went wrong, but not as an output item the model can pair with its call
        out = make_call(call, tools)
        return {"error": out["output"]} if "error" in out["output"] else out

    result = hw.check_safe_make_call(bare_error)
    assert_fails(result)
    assert "call_id" in result.hint


# --- 05 · Chat Completions and tools -------------------------------------------------------------------


def _chat_loop(client, model, question, functions, schemas, skip_assistant=False, first_only=False,
               count_tool_calls=False):
    from helpers.tools import make_chat_call

    messages, tool_calls = [{"role": "user", "content": question}], 0
    for iteration in range(1, 11):
        message = client.chat.completions.create(model=model, messages=messages, tools=schemas).choices[0].message
        if not skip_assistant:
            messages.append(message.model_dump(exclude_none=True))
        if not message.tool_calls:
            return message.content, tool_calls + 1 if count_tool_calls else iteration
        tool_calls += len(message.tool_calls)
        calls = message.tool_calls[:1] if first_only else message.tool_calls
        messages.extend(make_chat_call(call, functions) for call in calls)
    return message.content, 10


def test_my_chat_loop(offline):
    client, model = offline
    assert hw.check_my_chat_loop(_chat_loop, client, model).passed
    assert_todo(hw.check_my_chat_loop(stub, client, model))
    result = hw.check_my_chat_loop(lambda *a: _chat_loop(*a, skip_assistant=True), client, model)
    assert_fails(result)
    assert "assistant message" in result.hint
    result = hw.check_my_chat_loop(lambda *a: _chat_loop(*a, first_only=True), client, model)
    assert_fails(result)
    assert "did you run all of them" in result.hint

    def one_shot(client, model, question, functions, schemas):
        message = client.chat.completions.create(model=model, messages=[{"role": "user", "content": question}],
                                                 tools=schemas).choices[0].message
        return message.content, 1

    result = hw.check_my_chat_loop(one_shot, client, model)
    assert_fails(result)
    assert "stopped after 1 iteration" in result.hint

    # One iteration per tool call (plus the answer) instead of one per model call.
    result = hw.check_my_chat_loop(lambda *a: _chat_loop(*a, count_tool_calls=True), client, model)
    assert_fails(result)
    assert "count model calls" in result.hint


def test_count_tool(documents):
    from helpers.tools import tool

    def count(course: str, section: str | None = None) -> int:
        """Count the FAQ entries of a course, or of one section of it.

        Args:
            course: The course id, e.g. "llm-zoomcamp".
            section: A section name; leave it out to count the whole course.
        """
        return sum(d["course"] == course and section in (None, d["section"]) for d in documents)

    def undocumented(course: str, section: str | None = None) -> int:
        """Count the FAQ entries of a course, or of one section of it."""
        return count(course, section)

    def counts_everything(course: str, section: str | None = None) -> int:
        """Count the FAQ entries.

        Args:
            course: The course id.
            section: A section name.
        """
        return len(documents)

    assert hw.check_count_tool(tool(count), documents).passed
    assert_todo(hw.check_count_tool(stub, documents))
    result = hw.check_count_tool(count, documents)
    assert_fails(result)
    assert "@tool" in result.hint
    result = hw.check_count_tool(tool(undocumented), documents)
    assert_fails(result)
    assert "Args:" in result.hint
    total = Counter(d["course"] for d in documents)["llm-zoomcamp"]
    assert_fails(hw.check_count_tool(tool(counts_everything), documents), total)

    def section_required(course: str, section: str) -> int:
        """Count the FAQ entries of one section of a course.

        Args:
            course: The course id, e.g. "llm-zoomcamp".
            section: A section name, e.g. "Workshops: Agents".
        """
        return count(course, section)

    result = hw.check_count_tool(tool(section_required), documents)
    assert_fails(result)  # count(course=...) alone: a TypeError, reported as a hint
    assert "raised TypeError" in result.hint

    def ignores_section(course: str, section: str | None = None) -> int:
        """Count the FAQ entries of a course, or of one section of it.

        Args:
            course: The course id, e.g. "llm-zoomcamp".
            section: A section name; leave it out to count the whole course.
        """
        return count(course)

    result = hw.check_count_tool(tool(ignores_section), documents)
    assert_fails(result, Counter(d["section"] for d in documents if d["course"] == "llm-zoomcamp")["Workshops: Agents"])
    assert "only that section" in result.hint


def _right_follow_up(client, model, result, question):
    return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL],
                      messages=result.messages, verbose=False)


def test_follow_up(offline):
    client, model = offline
    right = _right_follow_up

    def forgets(client, model, result, question):
        return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)

    assert hw.check_follow_up(right, client, model).passed
    assert_todo(hw.check_follow_up(stub, client, model))
    result = hw.check_follow_up(forgets, client, model)
    assert_fails(result)
    assert "messages=result.messages" in result.hint

    def answer_only(client, model, result, question):
        return right(client, model, result, question).answer

    result = hw.check_follow_up(answer_only, client, model)
    assert_fails(result)
    assert "LoopResult" in result.hint

    def pastes_the_answer(client, model, result, question):  # the first answer, without the conversation
        return agent_loop(client, model, f"{result.answer}\n{question}", {"search": search}, schemas=[SEARCH_TOOL],
                          verbose=False)

    result = hw.check_follow_up(pastes_the_answer, client, model)
    assert_fails(result)
    assert "messages=result.messages" in result.hint

    def reuses_the_first(client, model, result, question):  # no second turn at all
        return result

    result = hw.check_follow_up(reuses_the_first, client, model)
    assert_fails(result)
    assert "no model call" in result.hint


# --- plumbing ------------------------------------------------------------------------------------------


def test_every_task_has_a_check():
    # Homework 01-06's checks are re-exported by the package; Part 2's stay in their own modules (hw07_* to hw09_*).
    part2 = [importlib.import_module(f"helpers.checks.homework.{path.stem}")
             for path in sorted((Path(hw.__file__).parent / "homework").glob("hw0[789]_*.py"))]
    checks = {name for module in [hw, *part2] for name in dir(module) if name.startswith("check_")}
    assert len(checks) == sum(len(tasks) for tasks in hw.TASKS.values())


def test_results_are_recorded_for_the_runner(tmp_path, monkeypatch):
    path = tmp_path / "results.jsonl"
    monkeypatch.setenv("HOMEWORK_RESULTS", str(path))
    hw.check_price_call(stub)
    hw.check_price_call(price_call)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["status"] for r in rows] == ["todo", "pass"]
    assert rows[0]["notebook"] == "04-cost-and-safety" and rows[0]["task"] == "4.1"


def test_a_crashing_check_target_is_a_hint_not_a_traceback():
    result = hw.check_safe_make_call(lambda call, tools: 42)
    assert result.status == "fail"


def test_one_wording_for_the_checks_and_the_score_table():
    results = [hw.CheckResult("04-cost-and-safety", "4.1", "Price one call", "pass"),
               hw.CheckResult("04-cost-and-safety", "4.2", "Price a whole run", "fail", "add up every record"),
               hw.CheckResult("04-cost-and-safety", "4.3", "A token budget", "todo", "replace the stub"),
               hw.CheckResult("04-cost-and-safety", "4.4", "A tool call that never crashes", "not run", "stopped")]
    shown = [repr(r).split("]")[0].lstrip("[") for r in results]
    assert shown == ["PASS", "FAIL", "NOT DONE YET", "NOT RUN"]
    rows = hw.format_table(results).splitlines()[2:6]
    assert [next(word for word in shown if word in row) for row in rows] == shown
    assert not any("TODO" in row or "----" in row for row in rows)


def test_follow_up_on_a_chat_only_provider_is_checked_on_the_offline_model():
    # Right code is not failed for its provider's missing API: the check runs it on the offline model, and says so.
    from openai import OpenAI

    from helpers.llm import PROVIDERS

    gemini = OpenAI(api_key="unused", base_url=PROVIDERS["gemini"].base_url)  # never called

    def right(client, model, result, question):
        return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL],
                          messages=result.messages, verbose=False)

    def forgets(client, model, result, question):
        return agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)

    result = hw.check_follow_up(right, gemini, "gemini-3.8-flash")
    assert result.passed, result
    assert "checked on the offline model: Google Gemini has no Responses API" in result.hint
    assert_fails(hw.check_follow_up(forgets, gemini, "gemini-3.8-flash"))


def test_score_table_lists_every_task():
    results = [hw.CheckResult("04-cost-and-safety", "4.1", "Price one call", "pass"),
               hw.CheckResult("04-cost-and-safety", "4.2", "Price a whole run", "fail", "add up every record"),
               hw.CheckResult("04-cost-and-safety", "4.3", "A token budget", "not run", "the notebook stopped")]
    table = hw.format_table(results)
    assert "PASS" in table and "FAIL" in table and "add up every record" in table
    assert table.rstrip().endswith("1/3 tasks pass.")


def test_runner_executes_a_notebook_and_collects_results(tmp_path):
    import nbformat

    code = ("from helpers.checks import check_price_call, check_safe_make_call\n"
            "check_price_call(lambda i, c, o, p: ((i - c) * p['input'] + c * p['cached_input'] "
            "+ o * p['output']) / 1e6)")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code),
                                         nbformat.v4.new_code_cell("1 / 0"),
                                         nbformat.v4.new_code_cell("check_safe_make_call(None)")])
    path = tmp_path / "04-cost-and-safety.ipynb"
    nbformat.write(nb, path)
    results = {r.task: r.status for r in hw.run_notebook(path)}
    assert results == {"4.1": "pass", "4.2": "not run", "4.3": "not run", "4.4": "todo"}


def test_run_with_budget_starting_point_is_not_done_until_the_budget_is_added(offline):
    """The student notebook gives the homework-02 loop as the starting point: as given it is NOT DONE YET, and
    with only the stop line deleted (no budget added) it fails with a hint, not a pass."""
    import nbformat

    client, model = offline
    notebook = nbformat.read(hw.HOMEWORK_DIR / "04-cost-and-safety.ipynb", as_version=4)
    [source] = [c.source for c in notebook.cells if c.cell_type == "code" and "def run_with_budget" in c.source]
    assert "client.responses.create" in source  # the loop is there to extend, not a blank stub

    given: dict = {}
    exec(source, given)
    assert_todo(hw.check_run_with_budget(given["run_with_budget"], client, model))

    unchanged: dict = {}
    exec("\n".join(line for line in source.splitlines() if "raise NotImplementedError" not in line), unchanged)
    assert_fails(hw.check_run_with_budget(unchanged["run_with_budget"], client, model), "used >=")


def test_multi_search_check_passes_the_source_lessons_wording(offline):
    # The source lesson's own prompt asks for "more searches" without a number; a real model makes several.
    client, model = offline
    source = ("You're a course teaching assistant. First perform search, analyze the results and then perform "
              "more searches. At the end, ask if there are other areas the user wants to explore.")
    assert hw.check_multi_search_instructions(source, client, model).passed


# --- Verdicts never depend on the student's model ---------------------------------------------------------

def _weak_model():
    """A student's model that never calls a tool and answers every request with an empty text: right code must
    still PASS, since each check's verdict comes from scripted doubles and the offline model."""
    from helpers.checks.doubles import always_says, wire_double

    return wire_double(always_says("")), "weak-model"


def test_right_code_passes_whatever_the_students_model_does():
    client, model = _weak_model()

    def budgeted(client, model, question, tools, schemas, max_tokens, max_iterations=50):
        messages, used = [{"role": "user", "content": question}], 0
        for _ in range(max_iterations):
            if used >= max_tokens:
                return "", "token_budget", used
            response = client.responses.create(model=model, input=messages, tools=schemas)
            used += response.usage.total_tokens
            messages.extend(response.output)
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text, "answered", used
            messages.extend(make_call(call, tools) for call in calls)
        return "", "iteration_limit", used

    for name, result in [("1.5", hw.check_rag(_right_rag, client, model)),
                         ("2.4", hw.check_my_agent_loop(_loop, client, model)),
                         ("2.5", hw.check_count_iterations(_right_count_iterations, client, model)),
                         ("4.3", hw.check_run_with_budget(budgeted, client, model)),
                         ("5.1", hw.check_my_chat_loop(_chat_loop, client, model)),
                         ("5.3", hw.check_follow_up(_right_follow_up, client, model))]:
        assert result.passed, (name, result)


def _provider_answering(base_url: str, status: int):
    """A real openai client pointed at a provider's URL whose every answer is `status`, as a provider without
    the Responses API answers POST /responses."""
    import httpx
    import openai

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"error": {"message": "not found", "type": "not_found"}})

    return openai.OpenAI(base_url=base_url, api_key="x", max_retries=0,
                         http_client=httpx.Client(transport=httpx.MockTransport(answer)))


def _one_responses_call(client, model):
    client.responses.create(model=model, input="hi")
    return "it answered."


def test_your_model_line_says_plainly_that_a_provider_has_no_responses_api():
    from helpers.checks.doubles import on_your_model
    from helpers.llm import PROVIDERS

    line = on_your_model(_provider_answering(PROVIDERS["gemini"].base_url, 404), "gemini-x", _one_responses_call)
    assert line == " On your model (gemini-x): Google Gemini has no Responses API, so this run could not be tried there."


def test_your_model_line_reports_other_failures_as_failed_calls():
    from helpers.checks.doubles import on_your_model
    from helpers.llm import PROVIDERS

    # A provider that has the Responses API and still answers 404 (a wrong model name): the error itself.
    line = on_your_model(_provider_answering(PROVIDERS["openai"].base_url, 404), "gpt-x", _one_responses_call)
    assert line.startswith(" On your model (gpt-x): the call failed (NotFoundError: "), line
