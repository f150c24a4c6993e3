"""Each instruction form of the offline README's table, in at least six phrasings, in domains no lesson uses
(bicycle repair, beekeeping, piano tuning, pottery, an astronomy club, ferry tickets), with the negative of
each: a phrasing near the form that must not fire.

The verbs vary (reply, respond, answer, output, return, label, classify), the labels are quoted, capitalised
or lower case, counts are exact, minimum or maximum, in words or in digits, and the instruction not to call
tools comes in several wordings. Every case goes through the real openai SDK on the offline client.
"""

import json
import re

import pytest
from minsearch import Index

from helpers.offline import neutral_client

NOTES = [
    {"id": "bk1", "title": "Fixing a bicycle puncture", "text": "Lever the tyre off, find the hole, patch the tube."},
    {"id": "bk2", "title": "Bicycle chain care", "text": "Clean the chain and oil it every 300 km of riding."},
    {"id": "be1", "title": "Beekeeping in winter", "text": "Leave the hive enough honey and keep the entrance clear."},
    {"id": "be2", "title": "Spotting a queen bee", "text": "The queen is longer than the workers and rarely flies."},
    {"id": "pi1", "title": "Piano tuning intervals", "text": "Tune a piano twice a year, after the heating changes."},
    {"id": "po1", "title": "Firing a pottery kiln", "text": "Bisque fire at 1000 C, then glaze fire at 1240 C."},
    {"id": "as1", "title": "Astronomy club meetings", "text": "The club meets on the first Friday, at the observatory."},
    {"id": "fe1", "title": "Ferry tickets and refunds", "text": "Ferry tickets are refunded up to 24 hours before sailing."},
]
INDEX = Index(text_fields=["title", "text"]).fit(NOTES)
SEARCH = {"type": "function", "name": "search_notes", "description": "Search the club's notes.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


@pytest.fixture(scope="module")
def client():
    return neutral_client()


def ask(client, instructions, question, tools=None):
    """The answer text of a loop that runs every search asked for; (answer, queries per response)."""
    items, rounds = [{"role": "user", "content": question}], []
    for _ in range(8):
        response = client.responses.create(model="m", instructions=instructions, input=items,
                                           tools=tools if tools is not None else [])
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response.output_text, rounds
        rounds.append([json.loads(c.arguments)["query"] for c in calls])
        items += response.output
        items += [{"type": "function_call_output", "call_id": c.call_id,
                   "output": json.dumps(INDEX.search(json.loads(c.arguments)["query"], num_results=3))}
                  for c in calls]
    raise AssertionError(rounds)


# --- labels: with a topic, side by side, always -------------------------------------------------------------

LABELS = [  # (instructions, on-topic question, its label, off-topic question, its label)
    ("Reply with exactly one word: BIKE if the message is about bicycle repair, OTHER otherwise.",
     "How do I repair a bicycle puncture?", "BIKE", "When does the pottery class start?", "OTHER"),
    ("Respond 'hive' when the question concerns beekeeping, and 'other' for anything else.",
     "How much honey should a beekeeping hive keep for winter?", "hive", "How do I patch a tyre?", "other"),
    ("Output TUNING if the request is about piano tuning; otherwise output NONE.",
     "How often does piano tuning need doing?", "TUNING", "Where does the astronomy club meet?", "NONE"),
    ('Return "STAR" for questions about the astronomy club and "SKIP" for all other questions.',
     "When does the astronomy club meet?", "STAR", "How hot does a kiln get?", "SKIP"),
    ("Label the message KILN if it is about pottery kilns, else label it MISC.",
     "What temperature should my pottery kiln reach?", "KILN", "Can I get a ferry refund?", "MISC"),
    ("Classify the question: answer ferry if it is about ferry tickets, other otherwise.",
     "Can I refund my ferry tickets?", "ferry", "How do I oil a bike chain?", "other"),
    ("Answer Yes if the text is about beekeeping and No if it is not.",
     "How do I spot the queen in my beekeeping hive?", "Yes", "Is the piano out of tune?", "No"),
    ("Answer yes or no: is this message about bicycle repair?",
     "How do I repair a bicycle chain?", "yes", "When is the next ferry?", "no"),
    ("Respond with ON_TOPIC or OFF_TOPIC, depending on whether the message is about the astronomy club.",
     "When does the astronomy club meet?", "ON_TOPIC", "How do I glaze a pot?", "OFF_TOPIC"),
]


@pytest.mark.parametrize("instructions, on_q, on_label, off_q, off_label", LABELS, ids=[c[2] for c in LABELS])
def test_labels_are_chosen_by_the_topic_the_instructions_name(client, instructions, on_q, on_label, off_q, off_label):
    assert ask(client, instructions, on_q)[0] == on_label
    assert ask(client, instructions, off_q)[0] == off_label


ALWAYS = [("Always reply ALLOW.", "ALLOW"), ("Whatever the question, say YES.", "YES"),
          ("Reply PASS to every message.", "PASS"), ("Respond with 'ok' no matter what.", "ok"),
          ("Answer DONE to anything you receive.", "DONE"), ("Output ACK for every message.", "ACK")]


@pytest.mark.parametrize("instructions, label", ALWAYS, ids=[a[1] for a in ALWAYS])
def test_one_label_always(client, instructions, label):
    for question in ("How do I patch a bicycle tube?", "When does the ferry leave?"):
        assert ask(client, instructions, question)[0] == label


@pytest.mark.parametrize("instructions", [
    "Reply politely and tell the user about bicycle repair.",
    "Always answer kindly, whatever the question.",
    "Respond in a friendly tone to every message.",
])
def test_near_a_label_form_but_no_label(client, instructions):
    answer, _ = ask(client, instructions, "How do I patch a bicycle tube?", [SEARCH])
    assert answer.startswith('According to "Fixing a bicycle puncture"')


# --- a scope -------------------------------------------------------------------------------------------------

SCOPES = [  # (instructions, the scope's words a refusal names, an in-scope question)
    ("Only answer questions about bicycle repair.", "bicycle repair", "How do I repair a bicycle puncture?"),
    ("Stick to the topic of beekeeping.", "beekeeping", "How do I keep a beekeeping hive through winter?"),
    ("You only help with piano tuning.", "piano tuning", "How often is piano tuning needed?"),
    ("Limit yourself to pottery kilns.", "pottery kilns", "How hot should pottery kilns fire?"),
    ("The question has to be about the astronomy club; refuse anything else.", "the astronomy club",
     "When does the astronomy club meet?"),
    ("Questions must be about ferry tickets. Politely decline the others.", "ferry tickets",
     "Are ferry tickets refunded?"),
]


@pytest.mark.parametrize("instructions, scope, inside", SCOPES, ids=[s[1] for s in SCOPES])
def test_a_scope_refuses_in_its_own_words_and_answers_inside_it(client, instructions, scope, inside):
    refusal, _ = ask(client, instructions, "What is the capital of Peru?", [SEARCH])
    assert f"questions about {scope}" in refusal and "what my instructions cover" not in refusal
    answer, _ = ask(client, instructions, inside, [SEARCH])
    assert answer.startswith("According to")  # the negative: a question inside the scope is answered


def test_no_scope_no_refusal(client):
    answer, _ = ask(client, "Be concise and friendly about bicycle repair.", "What is the capital of Peru?", [SEARCH])
    assert not answer.startswith("Sorry")


# --- search counts, several searches, rounds ----------------------------------------------------------------

QUESTION = "How do I fix a bicycle puncture on the road?"
COUNTS = [  # (instructions, searches in the first response, most searches in all or None)
    ("Make two searches before you answer.", 2, 2),
    ("Search 3 times.", 3, 3),
    ("Run exactly four queries.", 4, 4),
    ("Use a single search.", 1, 1),
    ("Search twice.", 2, 2),
    ("Do at least 2 searches.", 2, None),
    ("Make at least three queries.", 3, None),
    ("Make at most one search.", 1, 1),
    ("No more than 2 searches, please.", 1, 2),
    ("Perform up to three lookups.", 1, 3),
]


@pytest.mark.parametrize("instructions, first, most", COUNTS, ids=[c[0] for c in COUNTS])
def test_search_counts_exact_minimum_maximum(client, instructions, first, most):
    _, rounds = ask(client, instructions, QUESTION, [SEARCH])
    assert len(rounds[0]) == first and len(set(rounds[0])) == first
    if most is not None:
        assert sum(map(len, rounds)) <= most


SEVERAL = ["Search with different keywords.", "Make several searches.", "Search more than once.",
           "Try multiple queries.", "Use a few different search terms.", "Run various searches before answering."]


@pytest.mark.parametrize("instructions", SEVERAL)
def test_several_searches_at_once(client, instructions):
    _, rounds = ask(client, instructions, QUESTION, [SEARCH])
    assert len(rounds[0]) >= 2


@pytest.mark.parametrize("instructions", ["Use various examples in your answer.", "Answer in two sentences.",
                                          "Several readers will see this; be clear."])
def test_a_count_or_several_with_no_word_about_searching_changes_nothing(client, instructions):
    _, rounds = ask(client, instructions, QUESTION, [SEARCH])
    assert len(rounds[0]) == 1


ROUNDS = [
    "First search, read the results, then search again with new keywords from the results.",
    "Search once, analyze what you found, and then search again.",
    "Start with one search; based on what you find, search again.",
    "Look at the results of your first search, then search again using terms from them.",
    "Make a first search, study the results and then perform more searches.",
    "Search, review the findings, then run a follow-up search with words from them.",
]


@pytest.mark.parametrize("instructions", ROUNDS)
def test_research_in_rounds_one_search_per_response(client, instructions):
    _, rounds = ask(client, instructions, QUESTION, [SEARCH])
    assert len(rounds) >= 2 and len(rounds[0]) == 1 and len(rounds[1]) == 1


# --- output form: word and sentence limits, JSON keys, a closing question ----------------------------------

WORDS = [("Answer in at most 12 words.", 12), ("Reply in under ten words.", 9), ("Respond in 8 words or fewer.", 8),
         ("Keep it to fifteen words max.", 15), ("Your answer must be no longer than 10 words.", 10),
         ("Use no more than 9 words.", 9)]


@pytest.mark.parametrize("instructions, most", WORDS, ids=[w[0] for w in WORDS])
def test_word_limits(client, instructions, most):
    answer, _ = ask(client, instructions, "How do I keep my hive alive in winter?", [SEARCH])
    assert len(answer.replace("…", "").split()) <= most


SENTENCES = [("Answer in two sentences.", 2), ("Reply with a single sentence.", 1), ("Give a one-sentence answer.", 1),
             ("Respond in one sentence only.", 1), ("Keep your answer to 2 sentences.", 2),
             ("Use no more than one sentence.", 1)]
LONG = [{"id": "x1", "title": "Bisque firing", "text": "Load the kiln loosely. Fire slowly to 600 C. Then go on to "
         "1000 C. Let it cool for a day. Unload when it is below 50 C."}]


@pytest.mark.parametrize("instructions, most", SENTENCES, ids=[s[0] for s in SENTENCES])
def test_sentence_limits(client, instructions, most):
    items = [{"role": "user", "content": "How do I do a bisque firing in my kiln?"}]
    first = client.responses.create(model="m", instructions=instructions, input=items, tools=[SEARCH]).output[0]
    items += [first, {"type": "function_call_output", "call_id": first.call_id, "output": json.dumps(LONG)}]
    answer = client.responses.create(model="m", instructions=instructions, input=items, tools=[SEARCH]).output_text
    body = answer.split(": ", 1)[1]
    assert len(re.findall(r"[.!?](?:\s|$)", body)) <= most


def test_words_of_the_notes_is_no_limit(client):
    answer, _ = ask(client, "Use the words of the notes.", "How do I keep my hive alive in winter?", [SEARCH])
    assert not answer.endswith("…")


JSON_KEYS = [("Respond in JSON with the keys answer and source.", ["answer", "source"]),
             ("Return JSON with fields reply and reference.", ["reply", "reference"]),
             ("Output a JSON object with keys: summary, id.", ["summary", "id"]),
             ("Answer as JSON containing the keys text and source.", ["text", "source"]),
             ("Give your reply as JSON with the properties answer, title.", ["answer", "title"]),
             ("Format the answer as JSON using the keys answer and note.", ["answer", "note"])]


@pytest.mark.parametrize("instructions, keys", JSON_KEYS, ids=[j[0] for j in JSON_KEYS])
def test_json_with_named_keys(client, instructions, keys):
    answer, _ = ask(client, instructions, "When does the astronomy club meet?", [SEARCH])
    assert sorted(json.loads(answer)) == sorted(keys)


def test_a_json_file_mentioned_is_no_json_answer(client):
    answer, _ = ask(client, "Mention the JSON file if it helps.", "When does the astronomy club meet?", [SEARCH])
    assert answer.startswith("According to")


CLOSING = ["End with a follow-up question.", "Ask whether they want to know more.",
           "At the end, ask if there are other areas to explore.", "Finish your reply with a question.",
           "Close with one question for the user.", "Always ask the customer if they need anything else."]


@pytest.mark.parametrize("instructions", CLOSING)
def test_a_closing_question(client, instructions):
    answer, _ = ask(client, instructions, "When does the astronomy club meet?", [SEARCH])
    assert answer.endswith("?") and answer.startswith("According to")


def test_no_closing_question_unless_asked(client):
    answer, _ = ask(client, "Answer the question.", "When does the astronomy club meet?", [SEARCH])
    assert not answer.endswith("?")


# --- an instruction not to call tools ------------------------------------------------------------------------

NO_TOOLS = ["Do not use any tools.", "Answer without calling tools.", "Never call a function; answer directly.",
            "Don't search, just answer from what you know.", "You must not use the search tool.", "No tool calls."]


@pytest.mark.parametrize("instructions", NO_TOOLS)
def test_an_instruction_not_to_call_tools(client, instructions):
    answer, rounds = ask(client, instructions, "How often should a piano be tuned?", [SEARCH])
    assert rounds == [] and "no general knowledge" in answer


@pytest.mark.parametrize("instructions", ["Use the tools when you need them.", "Don't answer without searching.",
                                          "Do not guess: call the search tool first.",
                                          "Never answer from memory; always use a tool.",
                                          "Never call a tool twice with the same arguments.",
                                          "Do not use tools for greetings.",
                                          "Don't call any function unless the question needs one."])
def test_instructions_that_ask_for_tools_still_get_calls(client, instructions):
    answer, rounds = ask(client, instructions, "How often should a piano be tuned?", [SEARCH])
    assert rounds and answer.startswith('According to "Piano tuning intervals"')
