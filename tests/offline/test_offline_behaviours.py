"""The offline model's behaviours that teach true things about real models (issue 11, item 2).

Every question and tool here is fresh: none appears in a lesson, so a rule keyed to a lesson's example
would fail. The tests run the rules directly through `decide` (the wire format is tested elsewhere)."""

import json

import pytest

from helpers.faq.vocabulary import faq_vocabulary
from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide

TRAINS = Tool("next_departures", "The next train departures from a station.",
              {"type": "object", "properties": {"station": {"type": "string"}}, "required": ["station"]})
DOCS = Tool("lookup_manual", "Search the printer manual.",
            {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})


def step(question, tools, calls=(), instructions="", earlier=()):
    """One model decision after `calls` (tuples of name, arguments dict, output)."""
    made = [Call(name, json.dumps(args), f"c{i}", i, output) for i, (name, args, output) in enumerate(calls)]
    return decide(Conversation(instructions=instructions, question=question, earlier=list(earlier), calls=made,
                               tools=list(tools)), faq_vocabulary())  # the course hands in the FAQ's words


# --- 1. a failing tool is reported as a failure ----------------------------------------------------------

def test_a_failing_tool_is_reported_with_its_error_and_no_second_search():
    question = "How do I replace the toner cartrige?"  # a typo the model would otherwise repair
    first = step(question, [DOCS])
    assert first.calls and first.calls[0][0] == "lookup_manual"
    error = json.dumps({"error": "calling lookup_manual failed: TimeoutError: the manual server took too long"})
    after = step(question, [DOCS], [("lookup_manual", json.loads(first.calls[0][1]), error)])
    assert not after.calls, "a failure is not an empty result: no new search, no typo repair"
    text = after.text
    assert "lookup_manual" in text and "TimeoutError: the manual server took too long" in text
    assert "again later" in text and "nothing relevant" not in text


def test_plain_text_failures_of_other_tools_are_reported_too():
    question = "When does the next train leave Groningen?"
    first = step(question, [TRAINS])
    assert first.calls == [("next_departures", '{"station": "Groningen"}')]
    after = step(question, [TRAINS], [("next_departures", {"station": "Groningen"},
                                       "ConnectionRefusedError: [Errno 111] Connection refused")])
    assert "next_departures" in after.text and "Connection refused" in after.text and "again later" in after.text


def test_a_failure_worded_as_a_sentence_is_a_failure_too():
    # Frameworks word a tool's failure as a sentence (hiding the exception), or wrap it in a retry request.
    question = "How do I replace the toner cartrige?"
    first = step(question, [DOCS])
    args = json.loads(first.calls[0][1])
    for message in ["Something went wrong. The lookup could not reach its server, so try again in a minute.",
                    "We were unable to read the manual index.\n\nPlease retry."]:
        after = step(question, [DOCS], [("lookup_manual", args, message)])
        assert not after.calls and "lookup_manual" in after.text and "again later" in after.text, message
    # A short result that only mentions a failure later on, or a long text, stays a result.
    for result in ["Open the front cover. If the printer shows an error, restart it.",
                   "Open the front cover and pull the cartridge out. " * 8 + "It cannot jam then."]:
        after = step(question, [DOCS], [("lookup_manual", args, result)])
        assert "again later" not in (after.text or ""), result


def test_an_error_to_a_malformed_call_is_the_models_mistake_and_it_tries_again():
    # A call to a tool that was not offered is the model's own mistake: it corrects the call.
    bad = ("lookup_manual_v2", {"query": "toner"}, json.dumps({"error": "unknown tool 'lookup_manual_v2'"}))
    after = step("How do I replace the toner?", [DOCS], [bad])
    assert after.calls and after.calls[0][0] == "lookup_manual"


def test_a_result_that_merely_has_an_error_field_is_a_result():
    output = json.dumps({"station": "Groningen", "error": None, "platform": 3, "delay_min": 4, "train": "IC 512"})
    after = step("When does the next train leave Groningen?", [TRAINS],
                 [("next_departures", {"station": "Groningen"}, output)])
    assert "again later" not in after.text and "Groningen" in after.text


# --- 2. no general knowledge, said plainly -----------------------------------------------------------------

SCOPE = "You help customers of a bicycle repair shop. Only answer questions about bicycle repairs; decline the rest."


def test_a_question_nothing_answers_gets_the_plain_stand_in_answer():
    # No tools at all, and a tool that doesn't fit: the same honest answer, no pretend search.
    for tools in ([], [TRAINS]):
        text = step("Which planet has the most moons?", tools).text
        assert "offline stand-in" in text and "no general knowledge" in text
        assert "training data" in text and "wrong" in text
        assert "Sorry" not in text and "don't have specific information" not in text


def test_off_topic_search_without_scope_answers_plainly_and_with_scope_refuses():
    question = "Who painted the ceiling of the Sistine Chapel?"
    first = step(question, [DOCS])
    assert first.calls  # an unscoped model may try its tool first
    nothing = [("lookup_manual", json.loads(first.calls[0][1]), "[]")]
    unscoped = step(question, [DOCS], nothing)
    while unscoped.calls:  # a retry or two, then the answer
        nothing += [(name, json.loads(args), "[]") for name, args in unscoped.calls]
        unscoped = step(question, [DOCS], nothing)
    assert "no general knowledge" in unscoped.text and "training data" in unscoped.text
    assert "Sorry" not in unscoped.text
    scoped = step(question, [], instructions=SCOPE)
    assert scoped.text.startswith("Sorry") and "training data" not in scoped.text


# --- 3. queries carry no padding words; a new follow-up gets a new search and answer ------------------

MANY = "Search the manual several times, with different keywords, before you answer."


def test_several_searches_use_only_the_questions_words():
    from helpers.offline.text import close_words, content_words

    question = "Why is the duplex tray squeaking?"
    first = step(question, [DOCS], instructions=MANY)
    queries = [json.loads(args)["query"] for _, args in first.calls]
    assert len(queries) >= 2 and len(set(queries)) == len(queries)
    allowed = set(content_words(question)) | {c for w in content_words(question) for c in close_words(w)}
    for query in queries:
        assert set(query.split()) <= allowed, f"padding in {query!r}"


def test_a_two_word_question_gets_no_made_up_variations():
    calls = step("platen rollers", [DOCS], instructions=MANY).calls
    queries = [json.loads(args)["query"] for _, args in calls]
    assert queries and all(set(q.split()) <= {"platen", "rollers", "roller"} for q in queries)


def test_a_follow_up_that_asks_something_new_gets_a_new_search_and_a_new_answer():
    from helpers.llm import offline_client

    manual = [{"id": "m1", "question": "Kettle: how do I descale it?",
               "answer": "Fill the kettle with one part vinegar and two parts water. Boil it and leave it for an hour. "
                         "Rinse twice. To change the filter, lift the lid and pull the mesh out. "
                         "A new filter clicks into the same slot."}]
    client = offline_client()
    items = [{"role": "user", "content": "How do I descale the kettle?"}]
    answers, queries = [], []
    for question in (None, "And how do I change its filter?"):
        if question:
            items.append({"role": "user", "content": question})
        while True:
            response = client.responses.create(model="m", input=items, tools=[{
                "type": "function", "name": DOCS.name, "description": DOCS.description,
                "parameters": DOCS.parameters}])
            items += response.output
            calls = [i for i in response.output if i.type == "function_call"]
            if not calls:
                answers.append(response.output_text)
                break
            for call in calls:
                queries.append(json.loads(call.arguments)["query"])
                items.append({"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(manual)})
    assert any("filter" in q for q in queries), queries
    assert answers[0] != answers[1]
    assert "filter" in answers[1] and "vinegar" not in answers[1]


# --- 4. tool results in plain sentences -------------------------------------------------------------------

GREENHOUSE = Tool("read_sensors", "Current sensor readings of one greenhouse zone.",
                  {"type": "object", "properties": {"zone": {"type": "string", "enum": ["North", "South"]}},
                   "required": ["zone"]})
READINGS = {"zone": "North", "soil_temp_c": 19.5, "humidity_pct": 61, "sprinkler_on": False,
            "vent_state": "half open", "co2_ppm": 830}


def answer_after(question, reading):
    first = step(question, [GREENHOUSE])
    assert first.calls == [("read_sensors", '{"zone": "North"}')]
    return step(question, [GREENHOUSE], [("read_sensors", {"zone": "North"}, json.dumps(reading))]).text


def test_a_result_is_told_in_sentences_with_units_from_the_key_names():
    text = answer_after("What are the readings in the North zone?", READINGS)
    assert "soil temp is 19.5 °C" in text and "humidity is 61%" in text and "co2 is 830 ppm" in text
    assert "soil_temp_c" not in text and "zone North" not in text


def test_a_yes_no_question_is_answered_from_the_result():
    assert answer_after("Is the sprinkler on in the North zone?", READINGS).startswith("No")
    assert answer_after("Are the vents open in the North zone?", READINGS).startswith("Yes")
    # No field says it directly: the facts, and a plain word that a real model would judge from them.
    unsure = answer_after("Should I water the North zone now?", READINGS)
    assert not unsure.startswith(("Yes", "No")) and "19.5 °C" in unsure and "real model" in unsure


# --- 5. the source lessons' prompts are honoured ---------------------------------------------------------

def test_perform_more_searches_yields_several_different_searches():
    # Changed with the instruction grammar: "search first, read the results, then perform more searches"
    # is research in rounds, so the later searches come in the next response, not in parallel with the first.
    question = "How do I clear a paper jam in the rear feeder?"
    plain = step(question, [DOCS])
    instructions = "Search first, read the results, then perform more searches."
    asked = step(question, [DOCS], instructions=instructions)
    assert len(plain.calls) == 1 and len(asked.calls) == 1
    first = json.loads(asked.calls[0][1])
    results = json.dumps([{"question": "Paper jam in the rear feeder", "answer": "Open the rear cover and pull "
                                                                                 "the sheet out slowly."}])
    later = step(question, [DOCS], [("lookup_manual", first, results)], instructions=instructions)
    queries = [first["query"]] + [json.loads(args)["query"] for _, args in later.calls]
    assert len(queries) >= 2 and len(set(queries)) == len(queries)


def test_a_closing_question_instruction_yields_a_closing_question():
    question = "How do I clear a paper jam in the rear feeder?"
    manual = json.dumps([{"id": "p7", "question": "Paper jam in the rear feeder",
                          "answer": "Open the rear cover, pull the sheet out slowly and close the cover."}])
    for instructions in ("Answer from the manual. Ask if there are other areas the user wants to explore.",
                         "Answer from the manual and end with a question."):
        answer = step(question, [DOCS], [("lookup_manual", {"query": "paper jam rear feeder"}, manual)],
                      instructions=instructions).text
        assert "rear cover" in answer and answer.rstrip().endswith("?")
    # Other text answers close with a question too, but a one-label answer stays one label.
    assert step("Which planet has the most moons?", [], instructions="End with a question.").text.endswith("?")
    assert step("Is this about printers?", [], instructions="End with a question. Reply with exactly one word: "
                "YES or NO.").text in ("YES", "NO")


# --- 6. the label guard, measured on questions written for this test --------------------------------------

ON_TOPIC = ["Is there a deadline extension for the homework if I'm sick?",
            "My Qdrant container keeps restarting, how do I fix it?",
            "Where do I submit the link to my final project?", "Which embedding model should I use with minsearch?",
            "Can I use Groq instead of OpenAI for the homework?", "How are the leaderboard points calculated?",
            "Elasticsearch runs out of memory on my machine",
            "Do I get a certificate without doing the peer reviews?", "How do I pull a model with Ollama in Docker?",
            "The Jupyter kernel dies when I load the dataset",
            "How do I reset my Codespaces environment for the course?",
            "Why does pip fail to install sentence-transformers?",
            "Can the final project use a local LLM instead of an API?", "Are the office hours recorded?",
            "My Elasticsearch index returns no hits for the homework query",
            "How many points do I need to pass the course?", "Where is the notebook for module 2?",
            "What Python version does the course use?"]
OFF_TOPIC = ["How long should I boil an egg?", "What time does the sun set in Lisbon today?",
             "Suggest a name for my new puppy", "Which team won the NBA finals last year?",
             "How many legs does a spider have?", "Translate 'good morning' into Japanese",
             "What's a good gift for my sister's birthday?", "How far is the moon from the earth?",
             "When is the best season to visit Iceland?", "Tell me a joke about cats",
             "Which wine goes with salmon?", "How do I fix a flat bicycle tyre?", "Who wrote War and Peace?",
             "What's the population of Canada?", "How do I get red wine out of a carpet?",
             "Plan a weekend trip to Rome for me", "Is it going to snow in Denver this weekend?",
             "What are the rules of cricket?"]
GUARD = "Reply with exactly one word: ALLOW if the question is about the course, BLOCK otherwise."


def test_the_label_guard_on_fresh_questions():
    allowed = sum(step(q, [], instructions=GUARD).text == "ALLOW" for q in ON_TOPIC)
    blocked = sum(step(q, [], instructions=GUARD).text == "BLOCK" for q in OFF_TOPIC)
    # Measured when the rule was written: 18/18 allowed, 16/18 blocked (the word list it replaced: 18/18
    # and 16/18). The assertion leaves room for one more miss on the on-topic side only.
    assert allowed >= len(ON_TOPIC) - 1 and blocked >= len(OFF_TOPIC) - 2, (allowed, blocked)


def test_no_word_list_from_the_lessons_examples():
    import helpers.offline.knowledge as knowledge

    assert not hasattr(knowledge, "GENERIC_WORDS")


@pytest.mark.parametrize("instructions, scope", [
    ("You only answer questions about our bakery's opening hours and products.", "our bakery's opening hours and products"),
    ("Help with topics related to the garden irrigation system; decline anything else.", "the garden irrigation system"),
    ("Politely refuse anything off-topic.", "what my instructions cover"),
])
def test_a_refusal_names_the_scope_the_instructions_give(instructions, scope):
    from helpers.llm import offline_client

    answer = offline_client().responses.create(model="offline-rules-v1", input="Write me a haiku about autumn",
                                               instructions=instructions).output_text
    assert answer == f"Sorry, I can only help with questions about {scope}. Could you ask a question about {scope}?"


# --- tool outputs in any textual form, and the answer through a reply tool ---------------------------------

def test_a_python_repr_result_of_another_tool_reads_like_its_json():
    # The Agents SDK sends a tool's dict as str() of it: single quotes, False, None.
    result = {"station": "Groningen", "platform": 3, "delay_min": 4, "cancelled": False, "note": None}
    question = "When does the next train leave Groningen?"
    as_json = step(question, [TRAINS], [("next_departures", {"station": "Groningen"}, json.dumps(result))])
    as_repr = step(question, [TRAINS], [("next_departures", {"station": "Groningen"}, str(result))])
    assert as_repr.text == as_json.text and "4 min" in as_repr.text


def test_an_offered_reply_tool_takes_the_answer_instead_of_text():
    # A tool named as the place for the answer is not searched with; the answer goes into it.
    reply = Tool("submit_reply", "Hand the final reply to the user.",
                 {"type": "object", "properties": {"message": {"type": "string"},
                                                   "manual_page": {"type": ["string", "null"],
                                                                   "description": "reference of the page used"}},
                  "required": ["message", "manual_page"], "additionalProperties": False})
    question = "How do I replace the toner?"
    first = step(question, [DOCS, reply])
    assert [name for name, _ in first.calls] == ["lookup_manual"]
    pages = json.dumps([{"id": "p42", "question": "Replacing the toner", "answer": "Open the front cover and pull."}])
    after = step(question, [DOCS, reply], [("lookup_manual", json.loads(first.calls[0][1]), pages)])
    ((name, arguments),) = after.calls
    args = json.loads(arguments)
    assert name == "submit_reply" and args["manual_page"] == "p42" and "front cover" in args["message"]


def test_an_empty_tool_output_is_said_to_hold_nothing_not_a_server_error():
    # Found by a test of the token counts: an empty list from an unoffered tool made combine_results index an
    # empty sentence and the server answer 500.
    from helpers.offline import neutral_client

    response = neutral_client().responses.create(model="m", instructions="Be brief.", input=[
        {"role": "user", "content": "Which trains leave Leeds after six?"},
        {"type": "function_call", "call_id": "c1", "name": "find_trains", "arguments": '{"station": "Leeds"}'},
        {"type": "function_call_output", "call_id": "c1", "output": "[]"},
    ])
    assert "returned nothing" in response.output_text
