"""The instructions the offline model honours, read as a grammar (helpers/offline/instructions/).

Every domain, prompt, vocabulary and document here is made up for this file: cooking, a library, an IT
help desk, a bakery, a train timetable. None is a lesson's, so a rule keyed to a lesson would fail. Each
form is also shown not firing where it shouldn't."""

import json

import pytest

from helpers.faq.vocabulary import faq_vocabulary
from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide
from helpers.offline.instructions import read_instructions, read_labels, read_scope
from helpers.offline.knowledge import Vocabulary

EMPTY = Vocabulary([])  # no vocabulary handed to the client: only the request's own words count


def ask(question, instructions, vocab=EMPTY, tools=(), calls=(), **fields):
    made = [Call(name, json.dumps(args), f"c{i}", i, output) for i, (name, args, output) in enumerate(calls)]
    return decide(Conversation(instructions=instructions, question=question, tools=list(tools), calls=made,
                               **fields), vocab)


# --- 1. labels and the topic that earns each -----------------------------------------------------------

# (instructions, a question on the topic, one off it, the label for each), in five domains and wordings.
LABELLED = [
    ("Answer YES if the message is about baking bread, NO otherwise.",
     "Can I bake bread without yeast?", "What time does the museum open?", "YES", "NO"),
    ("You sort emails for a public library. Reply with exactly one word: LIBRARY if the email concerns "
     "borrowing books or library cards, OTHER otherwise.",
     "How many books can I borrow with one card?", "My car makes a strange noise when braking", "LIBRARY", "OTHER"),
    ("Classify each ticket. If the ticket is about printers or printing, reply PRINTER; otherwise reply GENERAL.",
     "The printer on floor 3 prints blank pages", "Can I get a second monitor for my desk?", "PRINTER", "GENERAL"),
    ("Reply with one word: ON_TOPIC when the question is about train timetables or platforms, OFF_TOPIC when unrelated.",
     "Which platform does the 9:15 train leave from?", "Suggest a name for my goldfish", "ON_TOPIC", "OFF_TOPIC"),
    ("Is the following question about cooking recipes? Answer yes or no.",
     "Do you have a quick recipe for tomato soup?", "How do I renew my passport?", "yes", "no"),
]


@pytest.mark.parametrize("instructions, on, off, on_label, off_label", LABELLED)
def test_a_label_is_earned_by_the_topic_the_prompt_names(instructions, on, off, on_label, off_label):
    assert ask(on, instructions).text == on_label
    assert ask(off, instructions).text == off_label
    # A vocabulary from another domain handed to the client changes nothing: it is not about this topic.
    assert ask(on, instructions, faq_vocabulary()).text == on_label
    assert ask(off, instructions, faq_vocabulary()).text == off_label


def test_word_forms_and_typos_of_the_topic_words_count():
    guard = "Reply ALLOW if the question is about sourdough baking, BLOCK otherwise."
    assert ask("My sourdough starter smells sour, is that normal?", guard).text == "ALLOW"
    assert ask("How long do I bake it?", guard).text == "ALLOW"  # bake ~ baking
    assert ask("My sourdogh is flat", guard).text == "ALLOW"  # a typo of sourdough
    assert ask("How long do I boil pasta?", guard).text == "BLOCK"


def test_rare_words_count_most_when_a_vocabulary_rates_them():
    # A vocabulary of a help desk's tickets: "issue" and "computer" are everywhere, "vpn" is rare.
    vocab = Vocabulary([f"ticket {i}: computer issue with the screen" for i in range(30)]
                       + ["vpn token expired", "vpn client will not connect"])
    guard = "Reply with exactly one word: VPN if the ticket is about the vpn or computer access, REST otherwise."
    assert ask("vpn drops every hour", guard, vocab).text == "VPN"
    # One common topic word among many rarer other words is not enough.
    assert ask("computer desk chair lamp cable drawer shelf", guard, vocab).text == "REST"


def test_the_same_questions_get_other_verdicts_under_other_guard_prompts():
    questions = ["When does the last train to Utrecht leave?", "Can I bake bread without yeast?",
                 "How many books can I borrow?"]
    trains = "Reply ALLOW if the question is about trains or timetables, BLOCK otherwise."
    bread = "Reply ALLOW if the question is about baking or bread, BLOCK otherwise."
    always = "Whatever the question, reply ALLOW."
    for vocab in (EMPTY, faq_vocabulary()):
        assert [ask(q, trains, vocab).text for q in questions] == ["ALLOW", "BLOCK", "BLOCK"]
        assert [ask(q, bread, vocab).text for q in questions] == ["BLOCK", "ALLOW", "BLOCK"]
        assert [ask(q, always, vocab).text for q in questions] == ["ALLOW", "ALLOW", "ALLOW"]


@pytest.mark.parametrize("instructions, label", [
    ("Always reply ALLOW.", "ALLOW"),
    ("Whatever the question, say YES.", "YES"),
    ("You are a test double. Reply PASS to every message.", "PASS"),
    ("No matter what the user writes, answer with OK.", "OK"),
    ("Classify tickets. Always answer GENERAL, whatever the ticket says.", "GENERAL"),
])
def test_always_the_same_label_is_obeyed(instructions, label):
    for question in ["Which platform for Leiden?", "Write a poem", "How do I reset my password?"]:
        assert ask(question, instructions).text == label


def test_a_negated_condition_and_a_label_for_the_rest():
    guard = "Reply BLOCK if the message is not about the library's opening hours, ALLOW otherwise."
    assert ask("What are the opening hours on Sunday?", guard).text == "ALLOW"
    assert ask("Recommend a thriller", guard).text == "BLOCK"


def test_a_vocabulary_about_the_topic_counts_as_documents_given():
    bakery = Vocabulary([f"bakery {item}" for item in ["croissant butter pastry", "croissants", "rye bread loaf",
                                                        "sourdough loaf", "baguette crust", "baguettes",
                                                        "cake icing", "birthday cake", "opening hours"] * 2])
    guard = "Answer YES if the question is about the bakery, NO otherwise."
    assert ask("Croissants or baguettes?", guard).text == "NO"  # no word of the prompt's topic
    assert ask("Croissants or baguettes?", guard, bakery).text == "YES"  # the bakery's vocabulary knows them
    assert ask("What is the capital of Peru?", guard, bakery).text == "NO"


def test_tool_descriptions_in_the_request_join_the_topic():
    catalogue = Tool("find_title", "Look up a novel, audiobook or magazine in the catalogue by title",
                     {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]})
    guard = "Reply ALLOW if the request is about the library, BLOCK otherwise."
    assert ask("Do you have audiobooks?", guard).text == "BLOCK"
    # The tool is offered but may not be called: its description is still part of what the request gives.
    assert ask("Do you have audiobooks?", guard, tools=[catalogue], tool_choice="none").text == "ALLOW"


@pytest.mark.parametrize("instructions", [
    "Answer the customer's question in plain words.",
    "Use JSON if possible.",
    "You are a friendly assistant for a train company. Be concise.",
    "Call the tool when it helps; say so if you don't know.",
    "Our CEO wrote the FAQ in 2024.",
])
def test_no_labels_where_none_are_named(instructions):
    assert read_labels(instructions) is None
    answer = ask("Which platform does the train to Delft leave from?", instructions).text
    assert answer not in ("YES", "NO", "ALLOW", "BLOCK")


# --- 1b. a scope ----------------------------------------------------------------------------------------

SCOPES = [
    ("Only answer questions about the Riverside Bakery's products.", "the Riverside Bakery's products",
     "Which bakery products are vegan?", "Who won the chess championship?"),
    ("You help library members. Only discuss borrowing and returning books; decline anything else.",
     "borrowing and returning books", "How long can I keep a borrowed book?", "What's the weather in Oslo?"),
    ("Stick to the topic of train timetables.", "train timetables", "When is the first train on Sunday?",
     "Tell me a joke about cats"),
    ("You are the help desk bot. You only help with password resets, using the steps you are given.",
     "password resets", "How do I reset my password?", "Plan a trip to Rome"),
    ("Answer only questions about cooking pasta. Politely refuse the rest.", "cooking pasta",
     "How long should I cook pasta?", "How tall is Mount Everest?"),
]


@pytest.mark.parametrize("instructions, phrase, inside, outside", SCOPES)
def test_a_scope_answers_inside_and_refuses_outside_in_its_own_words(instructions, phrase, inside, outside):
    assert read_scope(instructions).phrase == phrase
    refused = ask(outside, instructions).text
    assert refused == f"Sorry, I can only help with questions about {phrase}. Could you ask a question about {phrase}?"
    answered = ask(inside, instructions).text
    assert not answered.startswith("Sorry") and answered.startswith(f"That is about {phrase}")
    assert "nothing I was given answers" in answered  # said plainly: nothing given answers it


@pytest.mark.parametrize("instructions", [
    "You are a helpful assistant.", "Answer in a friendly tone.", "Use the tools you are given.",
    "Keep answers short.", "Search the timetable before you answer.", "Keep to the point.",
    "Stay calm and friendly.",
])
def test_no_scope_where_none_is_set(instructions):
    assert read_scope(instructions) is None
    assert not ask("Who won the chess championship?", instructions).text.startswith("Sorry")


# --- 2. search strategy ---------------------------------------------------------------------------------

def search_tool(name, description):
    return Tool(name, description, {"type": "object", "properties": {"query": {"type": "string"}},
                                    "required": ["query"]})


RECIPES = search_tool("search_recipes", "Search the recipe collection.")
CATALOGUE = search_tool("search_catalogue", "Search the library catalogue.")
HELPDESK = search_tool("search_kb", "Search the help desk knowledge base.")
BAKERY = search_tool("search_products", "Search the bakery's product list.")
TIMETABLE = search_tool("search_timetable", "Search the train timetable notes.")

COUNTED = [
    ("Make two searches before answering.", RECIPES, "How long should I roast a whole chicken with lemon and thyme?", 2),
    ("Search 3 times with different keywords.", CATALOGUE,
     "Which mystery novels by Scandinavian authors can I borrow as large print?", 3),
    ("Search twice before you answer.", HELPDESK, "The shared printer rejects scanned documents sent by email", 2),
    ("Always do exactly four searches, then answer.", BAKERY,
     "Which gluten free cakes with almond flour and berries do you bake on weekends?", 4),
    ("Use a single search.", TIMETABLE, "Which platform does the late evening train to Zwolle leave from on Sundays?", 1),
    ("Please run at least three queries.", TIMETABLE, "Are night trains between Amsterdam and Berlin delayed by works?", 3),
]


@pytest.mark.parametrize("instructions, tool, question, n", COUNTED)
def test_an_exact_search_count_in_words_or_digits(instructions, tool, question, n):
    first = ask(question, instructions, tools=[tool])
    queries = [json.loads(args)["query"] for _, args in first.calls]
    assert len(queries) == n and len(set(queries)) == n


def test_an_exact_count_is_not_exceeded_by_retries():
    # Empty results would normally bring a retry with other keywords; "a single search" forbids it.
    question = "Which platform does the late evening train to Zwolle leave from on Sundays?"
    first = ask(question, "Use a single search.", tools=[TIMETABLE])
    after = ask(question, "Use a single search.", tools=[TIMETABLE],
                calls=[("search_timetable", json.loads(first.calls[0][1]), "[]")])
    assert after.text and not after.calls
    unlimited = ask(question, "", tools=[TIMETABLE], calls=[("search_timetable", json.loads(first.calls[0][1]), "[]")])
    assert unlimited.calls  # without the count, poor results do bring a retry


def test_different_keywords_without_a_count_asks_for_several():
    question = "Which mystery novels by Scandinavian authors can I borrow as large print?"
    first = ask(question, "Look things up with different keywords.", tools=[CATALOGUE])
    assert len(first.calls) == 3


RESULTS = json.dumps([{"title": "Sourdough starter feeding", "text": "Feed the levain with rye flour twice a day; "
                       "a levain fed with rye rises faster."}])


@pytest.mark.parametrize("instructions", [
    "First search, read the results, then search again with new keywords from the results.",
    "Start with one search. Analyze what comes back, and then search again using words found in the results.",
    "Search once, look at the findings, then run a second query based on what you found.",
    "Do research in two rounds: search, then search with terms taken from the first results.",
    "Begin by searching; afterwards refine: search again with keywords from those results.",
])
def test_research_in_rounds_searches_again_in_the_next_response_with_words_from_the_results(instructions):
    question = "How do I keep my sourdough starter alive?"
    first = ask(question, instructions, tools=[BAKERY])
    assert len(first.calls) == 1  # one per response: the next query needs these results
    query = json.loads(first.calls[0][1])
    second = ask(question, instructions, tools=[BAKERY], calls=[("search_products", query, RESULTS)])
    assert len(second.calls) == 1
    new_query = json.loads(second.calls[0][1])["query"]
    assert {"levain", "rye"} & set(new_query.split()), new_query  # words taken from the results
    done = ask(question, instructions, tools=[BAKERY], calls=[("search_products", query, RESULTS),
                                                             ("search_products", {"query": new_query}, RESULTS)])
    assert done.text and not done.calls


@pytest.mark.parametrize("instructions", [
    "Use various sources of knowledge wisely.",  # "various" with no request to search
    "Answer twice as politely as usual.",  # "twice", but not about searching
    "The library has 3 floors and 2 reading rooms.",  # numbers that count something else
    "Search the timetable.",  # a search, no count
    "You can search more than once if the results are poor.",  # "more than once": no count, only if needed
])
def test_no_search_count_is_invented(instructions):
    question = "Which platform does the late evening train to Zwolle leave from on Sundays?"
    first = ask(question, instructions, tools=[TIMETABLE])
    expected = 3 if "more than once" in instructions else 1
    assert len(first.calls) == expected


# --- 3. output form on every answer path -----------------------------------------------------------------

PASTA = json.dumps([{"id": "r12", "title": "Cooking dried pasta", "text": "Bring a large pot of salted water to a "
                     "rolling boil. Add the pasta and stir in the first minute so it does not stick. Cook it for "
                     "the time on the packet, usually nine to twelve minutes. Taste a piece a minute before the "
                     "end. Drain it and keep a cup of the cooking water for the sauce."}])


def answered(instructions, question="How long do I cook dried pasta?", **fields):
    """The answer after one search of the recipe collection returned PASTA."""
    first = ask(question, "", tools=[RECIPES])
    return ask(question, instructions, tools=[RECIPES],
               calls=[("search_recipes", json.loads(first.calls[0][1]), PASTA)], **fields)


@pytest.mark.parametrize("instructions, limit", [
    ("Answer in at most 20 words.", 20), ("Keep every reply under twelve words.", 12),
    ("Use no more than 15 words.", 15), ("Reply in 8 words or fewer.", 8), ("Answer in one word.", 1),
])
def test_a_word_limit_in_digits_or_words(instructions, limit):
    text = answered(instructions).text
    assert 0 < len(text.split()) <= limit
    # The same limit on the no-tool path.
    assert 0 < len(ask("Which train goes to Zwolle at night?", instructions).text.split()) <= limit


@pytest.mark.parametrize("instructions, limit", [
    ("Answer in two sentences.", 2), ("Use at most 1 sentence.", 1), ("Reply with a single sentence.", 1),
    ("Write three sentences or fewer.", 3), ("Give a one-sentence answer.", 1),
])
def test_a_sentence_limit(instructions, limit):
    text = answered(instructions).text
    assert 1 <= len([s for s in text.replace("\u2026", ".").split(". ") if s]) <= limit, text


@pytest.mark.parametrize("instructions, keys", [
    ("Respond in JSON with the keys answer and source.", ["answer", "source"]),
    ('Reply as a JSON object with fields "summary", "entry_id".', ["summary", "entry_id"]),
    ("Return JSON with keys: reply, reference.", ["reply", "reference"]),
    ("Output JSON. Use the keys `text` and `cited`.", None),  # keys in another sentence than "JSON": not read
    ("Your answer must be JSON with properties cooking_time and tip.", ["cooking_time", "tip"]),
])
def test_json_with_the_keys_the_prompt_names(instructions, keys):
    text = answered(instructions).text
    if keys is None:
        assert read_instructions(instructions).form.json_keys == ()
        return
    data = json.loads(text)
    assert list(data) == keys
    # Under a json_object response format too.
    data = json.loads(answered(instructions, output_format={"type": "json_object"}).text)
    assert list(data) == keys


def test_json_keys_place_the_answer_and_its_source_by_their_names():
    data = json.loads(answered("Respond in JSON with the keys answer and source.").text)
    assert "boil" in data["answer"] and data["source"] == "r12"


@pytest.mark.parametrize("instructions", [
    "End with a follow-up question.", "Finish each answer with one question for the cook.",
    "Ask whether they want to know more.", "Close on a question.",
    "Always end your reply with a question about what else they need.",
])
def test_a_closing_question_on_every_path(instructions):
    assert answered(instructions).text.rstrip().endswith("?")
    assert ask("Which train goes to Zwolle at night?", instructions).text.rstrip().endswith("?")
    limited = answered(instructions + " Answer in at most 12 words.").text
    assert limited.endswith("?") and len(limited.split()) <= 12


def test_one_label_on_every_path():
    instructions = "Reply with exactly one word: RECIPE if the question is about cooking pasta, OTHER otherwise."
    assert answered(instructions).text == "RECIPE"  # after a search too, not only without tools
    assert ask("Which train goes to Zwolle at night?", instructions).text == "OTHER"


@pytest.mark.parametrize("instructions", [
    "You are a cooking assistant.", "Words matter: be kind.", "Sentences from the recipe are fine to quote.",
    "JSON files are not needed.", "Questions are welcome.",
])
def test_no_form_where_none_is_asked(instructions):
    plain = answered("").text
    assert answered(instructions).text == plain


# --- 4. context anywhere ---------------------------------------------------------------------------------

MATERIAL = [
    ("Menu:", "Tomato soup with basil, 6 euros.\nMushroom risotto with parmesan, 14 euros.\nLemon tart, 5 euros.",
     "How much is the mushroom risotto?", "14 euros", "Do you have parking for bicycles?"),
    ("Here is the timetable:", "08:10 intercity to Delft leaves from platform 4.\n08:25 sprinter to Leiden leaves "
     "from platform 7.", "Which platform does the intercity to Delft leave from?", "platform 4",
     "Is there wifi on the ferry?"),
    ("Library rules:", "Members may borrow up to eight books at a time.\n\nLate returns cost twenty cents a day "
     "per book.", "How many books may members borrow?", "eight books", "Who painted the Night Watch?"),
    ("Notes from the help desk wiki:", "To reset a forgotten password, open the self-service portal and "
     "choose Reset password. The link in the email expires after one hour.", "How do I reset a forgotten password?",
     "self-service portal", "What is the capital of Chile?"),
    ("Bakery allergen sheet:", "The rye loaf contains gluten and sesame.\n\nThe almond croissant contains nuts, "
     "gluten, milk and egg.", "Which allergens are in the almond croissant?", "nuts", "When does the zoo open?"),
]


@pytest.mark.parametrize("label, body, question, fact, unrelated", MATERIAL)
def test_pasted_material_under_any_label_in_the_same_message_or_a_later_one(label, body, question, fact, unrelated):
    pasted = f"{label}\n{body}"
    before = ask(f"{question}\n\n{pasted}", "").text  # the question, then the material
    after = ask(f"{pasted}\n\n{question}", "").text  # the material, then the question
    later = decide(Conversation(question=question, earlier=[pasted]), EMPTY).text  # material first, asked later
    first = decide(Conversation(question=pasted, earlier=[question]), EMPTY).text  # asked first, material later
    for text in (before, after, later, first):
        assert fact in text, text


@pytest.mark.parametrize("label, body, question, fact, unrelated", MATERIAL)
def test_material_that_does_not_answer_is_said_not_to_and_never_quoted(label, body, question, fact, unrelated):
    text = ask(f"{unrelated}\n\n{label}\n{body}", "").text
    assert "doesn't answer" in text and fact not in text and body.splitlines()[0][:25] not in text


@pytest.mark.parametrize("question", [
    "Why does my sourdough collapse in the oven?", "Note: I am new here. Which train goes to Delft?",
    "Can I renew a book online?", "Hello: is anyone there?", "Reset my password please",
])
def test_no_material_where_none_is_pasted(question):
    from helpers.offline.instructions import split_context

    assert split_context(question) is None


# --- 5. arguments fit their descriptions -------------------------------------------------------------------

def tool(name, description, **params):
    return Tool(name, description, {"type": "object", "properties": params, "required": list(params)})


ARGUMENTS = [
    (tool("unlock_door", "Unlock one door of the house.",
          door={"type": "string", "description": "the name of the door, e.g. front, back, garage"}),
     "Please unlock the back door", {"door": "back"}),
    (tool("bake_order", "Order a loaf from the bakery.",
          flour={"type": "string", "description": "The flour to bake with, such as rye, spelt or wheat"}),
     "I'd like a loaf baked with spelt tomorrow morning", {"flour": "spelt"}),
    (tool("reserve_room", "Reserve a study room in the library.",
          date={"type": "string", "format": "date", "description": "The day of the reservation"}),
     "Can you reserve a study room on 14 March for my group?", {"date": "14 March"}),
    (tool("next_trains", "The next trains from a station.",
          station={"type": "string", "description": "The station to leave from"}),
     "When do trains leave from the Leiden station tonight?", {"station": "Leiden"}),
    (tool("book_table", "Book a table at the cooking school's restaurant.",
          guests={"type": "integer", "description": "How many people"}),
     "Book a table for four people please", {"guests": 4}),
    (tool("open_ticket", "Open a help desk ticket.",
          priority={"type": "string", "examples": ["low", "normal", "urgent"]}),
     "My laptop won't boot, this is urgent, open a ticket", {"priority": "urgent"}),
]


@pytest.mark.parametrize("offered, question, expected", ARGUMENTS)
def test_a_parameter_gets_the_part_of_the_request_it_asks_for(offered, question, expected):
    name, args = ask(question, "", tools=[offered]).calls[0]
    assert name == offered.name and json.loads(args) == expected


def test_arguments_without_a_fitting_part_keep_the_names_in_the_question():
    # No listed value, no date, no qualified noun: the capitalised name still fills the parameter.
    weather = tool("get_forecast", "The weather forecast for a city.", city={"type": "string"})
    assert json.loads(ask("What's the forecast for Groningen?", "", tools=[weather]).calls[0][1]) == {
        "city": "Groningen"}
    door = tool("unlock_door", "Unlock one door.", door={"type": "string", "description": "e.g. front, back"})
    # "backpack" is not "back": listed values match whole words only.
    assert json.loads(ask("Unlock the door, my backpack is inside", "", tools=[door]).calls[0][1])["door"] != "back"
