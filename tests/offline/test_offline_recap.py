"""The offline model's recap rules (helpers/offline/recap.py): a summary asked for is made of the conversation's
fact-carrying sentences, within a word limit; a question pointing back at the conversation is answered from it.
Three made-up domains no lesson uses: a beekeeper, a ferry booking, a piano-tuning appointment."""

import pytest

from helpers.offline import neutral_client
from helpers.offline.conversation import Conversation
from helpers.offline.recap import asks_for_summary, fact_score, recall, summarise

MODEL = "offline-rules-v1"

BEES = [
    {"role": "user", "content": "Hello! My name is Idris and I keep six hives near Tarragona."},
    {"role": "assistant", "content": "Nice to meet you. What would you like to know?"},
    {"role": "user", "content": "Two of my colonies swarmed on 12 April. How do I stop that?"},
    {"role": "assistant", "content": "Give them more space early in spring. Adding a super helps."},
    {"role": "user", "content": "OK, I will add a super to hive 4 this weekend. Thanks, that's useful."},
]
FERRY_TOOL = {"type": "function", "name": "ferry_times", "description": "Sailings between two ports.",
              "parameters": {"type": "object", "properties": {"port": {"type": "string"}}, "required": ["port"]}}
FERRY = [
    {"role": "user", "content": "I need a ferry from Split for two adults and a car."},
    {"type": "function_call", "call_id": "c1", "name": "ferry_times", "arguments": '{"port": "Split"}'},
    {"type": "function_call_output", "call_id": "c1",
     "output": '[{"to": "Hvar", "departs": "07:30", "deck": "car", "fare_eur": 64}]'},
    {"role": "assistant", "content": "There is a sailing to Hvar at 07:30 with car deck space."},
    {"role": "user", "content": "Great, we booked the 07:30 sailing. Our booking reference is KX-5520."},
    {"role": "assistant", "content": "Have a good trip!"},
]
PIANO = [
    {"role": "system", "content": "You help customers of a piano-tuning service."},
    {"role": "user", "content": "I'm Wen. My upright piano is a 1968 Petrof and it sounds flat."},
    {"role": "assistant", "content": "A tuning should fix that. When suits you?"},
    {"role": "user", "content": "Thursday afternoon works; my flat is on the third floor, no lift."},
    {"role": "assistant", "content": "Noted, the tuner will come on Thursday at 15:00."},
]


@pytest.mark.parametrize("text", [
    "Summarise the conversation so far.", "Please summarize this chat in at most 40 words.",
    "Write a short summary of the text below:", "Give me a brief recap of the discussion above.",
    "Sum up what we said so far.", "Produce a two-line summary of the following dialogue:"])
def test_summary_requests_are_recognised(text):
    assert asks_for_summary(text)


@pytest.mark.parametrize("text", [
    "Fill in the summary field with one line.", "Summarise your findings about the hives?",
    "The summary should be polite.", "What's the weather in Split?", ""])
def test_other_texts_ask_for_no_summary(text):
    assert not asks_for_summary(text)


def test_a_bee_summary_keeps_name_numbers_dates_and_decisions_and_drops_filler():
    client = neutral_client()
    text = client.responses.create(model=MODEL, instructions="Summarise the conversation so far.",
                                   input=BEES).output_text
    for fact in ("Idris", "Tarragona", "12 April", "hive 4"):
        assert fact in text
    assert "Nice to meet you" not in text and "How do I stop" not in text
    assert text.startswith("User: ")


def test_a_word_limit_keeps_the_richest_sentences_in_order_and_is_never_exceeded():
    client = neutral_client()
    text = client.responses.create(model=MODEL, instructions="Summarise the conversation so far in at most 24 words.",
                                   input=BEES).output_text
    assert len(text.split()) <= 24
    assert "12 April" in text and "Idris" in text
    assert text.index("Idris") < text.index("12 April")


def test_a_ferry_summary_reads_tool_outputs_as_key_value_sentences_in_chat_too():
    client = neutral_client()
    text = client.responses.create(model=MODEL, instructions="Write a short summary of this conversation.",
                                   input=FERRY, tools=[FERRY_TOOL]).output_text
    assert "KX-5520" in text and "fare eur: 64" in text and "Tool:" in text
    chat = [{"role": "system", "content": "Summarise the conversation so far."},
            {"role": "user", "content": PIANO[1]["content"]}, *PIANO[2:]]
    answer = client.chat.completions.create(model=MODEL, messages=chat).choices[0].message.content
    assert "Wen" in answer and "1968 Petrof" in answer and "15:00" in answer
    assert "piano-tuning service" not in answer  # the instructions are not part of the conversation


def test_pasted_material_after_the_request_is_summarised():
    client = neutral_client()
    text = client.responses.create(model=MODEL, input=(
        "Summarise the following conversation:\nCustomer: my order 8812 arrived broken on 2 May. "
        "Agent: sorry about that, we will send a new kettle on Friday.")).output_text
    assert "8812" in text and "Friday" in text and "Summarise" not in text


def test_nothing_to_summarise_is_said_plainly():
    conv = Conversation(question="Summarise the conversation so far.",
                        transcript=[("user", "Summarise the conversation so far.")])
    assert "nothing to summarise" in summarise(conv)


@pytest.mark.parametrize(("history", "question", "fact"), [
    (BEES, "Which hive did I say I will add a super to again?", "hive 4"),
    (FERRY, "What was our booking reference again?", "KX-5520"),
    (FERRY, "What fare did you find earlier for Hvar?", "fare eur: 64"),
    (PIANO[1:], "Remind me which day the tuner comes?", "Thursday at 15:00"),
])
def test_a_question_pointing_back_is_answered_from_the_conversation(history, question, fact):
    client = neutral_client()
    answer = client.responses.create(model=MODEL, input=[*history, {"role": "user", "content": question}],
                                     tools=[FERRY_TOOL]).output_text
    assert fact in answer


def test_a_fact_kept_only_in_a_summary_message_is_still_recalled():
    client = neutral_client()
    summary = client.responses.create(model=MODEL, instructions="Summarise the conversation so far in at most 30 words.",
                                      input=FERRY).output_text
    answer = client.responses.create(model=MODEL, input=[
        {"role": "developer", "content": f"Summary of the earlier conversation: {summary}"},
        {"role": "user", "content": "What was our booking reference again?"}]).output_text
    assert "KX-5520" in answer


def test_recall_stays_quiet_without_a_pointer_or_a_matching_sentence():
    conv = Conversation(question="What is the capital of Peru?", transcript=[("user", "My cat is called Miso.")])
    assert recall(conv) is None
    conv = Conversation(question="What did I say about the boiler again?", transcript=[
        ("user", "My cat is called Miso."), ("user", "What did I say about the boiler again?")])
    assert recall(conv) is None


def test_questions_and_greetings_carry_no_facts():
    assert fact_score("Can you book it for 3 people?") == 0
    assert fact_score("Hi there!") == 0
    assert fact_score("My son Leo turns 7 in March.") > fact_score("That sounds lovely indeed.")


# --- statements.py: a parameter that takes a whole statement ------------------------------------------------

NOTE_TOOLS = [
    {"type": "function", "name": "remember", "description": "Save a fact about the user for later.",
     "parameters": {"type": "object", "properties": {"fact": {"type": "string"}}, "required": ["fact"]}},
    {"type": "function", "name": "add_note", "description": "Add a note to the garden journal.",
     "parameters": {"type": "object", "properties": {"note": {"type": "string", "description": "The note."}},
                    "required": ["note"]}},
    {"type": "function", "name": "remember_for_crew", "description": "Keep something for the crew.",
     "parameters": {"type": "object", "properties": {"entry": {"type": "string",
                    "description": "The sentence to be stored."}}, "required": ["entry"]}},
]


@pytest.mark.parametrize(("tool", "message", "expected"), [
    (NOTE_TOOLS[0], "Please remember that my ferry leaves Split at 07:30.", "My ferry leaves Split at 07:30."),
    (NOTE_TOOLS[1], "Add a note: the Roma tomatoes went in on 4 May", "Add a note: the Roma tomatoes went in on 4 May."),
    (NOTE_TOOLS[2], "Could you remember the hatch on deck C sticks in the cold, please.",
     "The hatch on deck C sticks in the cold."),
])
def test_a_statement_parameter_gets_the_users_statement_not_a_name(tool, message, expected):
    client = neutral_client()
    response = client.responses.create(model=MODEL, input=message, tools=[tool])
    call = next(item for item in response.output if item.type == "function_call")
    assert list(__import__("json").loads(call.arguments).values()) == [expected]


def test_a_name_parameter_still_gets_a_name():
    weather = {"type": "function", "name": "get_tide", "description": "Tide times for a harbour.",
               "parameters": {"type": "object", "properties": {"harbour": {"type": "string"}}, "required": ["harbour"]}}
    response = neutral_client().responses.create(model=MODEL, input="Tides in Whitby tomorrow?", tools=[weather])
    assert response.output[0].arguments == '{"harbour": "Whitby"}'


@pytest.mark.parametrize("question", [
    "Can I renew the library loan again?",  # "again" about the world
    "Did I miss the last ferry to the island?",  # "did I" about the world
    "Have I got the right ticket for the 9:40 ferry?",
    "Can the tuner come again next month?",
])
def test_a_question_about_the_world_is_not_read_as_pointing_back(question):
    # The earlier turns share words with each question, yet none asks what was said: the tools answer it.
    conv = Conversation(question=question, transcript=[
        ("user", "I am Ana, I renewed the library loan and I booked the 9:40 ferry ticket. The tuner came last month."),
        ("assistant", "Noted: the last ferry to the island leaves at 22:10."), ("user", question)])
    assert recall(conv) is None
