"""The informal development set of fit_cases_informal.py case by case, and the rules it was made for on their own
(issue 26): chatter.py (requests that ask for no lookup) and search_fit.py (a search scoped by its description is
asked only about its collection), each with its negative: the request a search or a tool does fit still calls it.

A case the rules still get wrong is recorded in MISSED with the reason, and its test checks it is still wrong (made_up.as_recorded).
"""

import pytest
from fit_cases_informal import CASES, HTTP_GET, TOOLSETS, WEB_SEARCH
from made_up import called, check_fit_case, tool

from helpers.offline.chatter import chat_kind, needs_no_lookup
from helpers.offline.conversation import Conversation
from helpers.offline.engine import decide
from helpers.offline.knowledge import Vocabulary
from helpers.offline.search_fit import best_search, is_open_search, scope_words, search_fits, told_to_search

QUERY = {"type": "string", "description": "What to look for."}
MISSED = {
    "got any matte celadon glazes for cone 6?": "the kiln tool's description says 'glaze' and is asked before any "
                                                "search",
    "who was the first person to climb Everest without oxygen?": "'climb' is a scope word of the gym's search",
    "can i go swimming a week after getting a tattoo?": "the artist tool's description says 'tattoo' and is asked "
                                                        "before any search",
}


@pytest.mark.parametrize("setname, question, wanted, kind", [
    pytest.param(*case, id=f"{case[0]}-{case[3]}-{i}") for i, case in enumerate(CASES)])
def test_the_informal_development_set(setname, question, wanted, kind):
    check_fit_case(question, wanted, kind, TOOLSETS[setname], MISSED)


def test_every_kind_has_cases_in_at_least_three_domains_and_the_set_spans_four_languages():
    for kind in {c[3] for c in CASES}:
        assert len({c[0] for c in CASES if c[3] == kind and c[1] not in MISSED}) >= 3, kind
    assert len(TOOLSETS) >= 10
    said = " ".join(c[1] for c in CASES)
    assert all(mark in said for mark in ("¿", "ü", "你"))  # Spanish, German, Chinese beside English


# --- chatter.py: requests that ask for no lookup ------------------------------------------------------------

@pytest.mark.parametrize("question, kind", [
    ("yo whats up", "greeting"), ("Buenos días!", "greeting"), ("Guten Abend", "greeting"), ("您好", "greeting"),
    ("how r u doing today?", "chit-chat"), ("Wie geht's?", "chit-chat"), ("lol", "chit-chat"),
    ("r u a robot?", "about you"), ("¿Quién eres?", "about you"), ("Was kannst du?", "about you"),
    ("你能做什么？", "about you"),
    ("translate 'see you soon' to French", "translate"), ("¿Cómo se dice 'ancla' en inglés?", "translate"),
    ("Wie sagt man 'Segel' auf Englisch?", "translate"), ("把这句话翻译成英文", "translate"),
    ("write me a limerick about cheese", "compose"), ("Escríbeme un cuento corto", "compose"),
    ("请帮我写一首诗", "compose"),
])
def test_the_kinds_of_chatter(question, kind):
    assert chat_kind(question) == kind


@pytest.mark.parametrize("question", [
    "hi! where is my parcel QX-1?",  # a greeting before a request is a request
    "Hola, ¿a qué hora abre la piscina?",
    "Hallo, wann fährt die nächste Fähre?",
    "how are the tides at Oban today?",  # "how are" about something else
    "who are the club's sailing instructors?",  # "who are" someone else
    "what can the kiln do at cone 10?",
    "write down my order: 2 bags of compost",  # no text to compose: "write down" a note is a task
    "你好，我的包裹在哪里？",
])
def test_a_request_that_only_opens_like_chatter_is_no_chatter(question):
    assert not needs_no_lookup(question)


def test_chatter_gets_no_tool_but_a_tool_for_that_act_is_still_called():
    translator = tool("translate_text", "Translates a text into another language.", ["text", "target_language"],
                      text={"type": "string"}, target_language={"type": "string"})
    notes = tool("search_harbour_notes", "Search the harbour's notes: moorings, tides, fees.", ["query"], query=QUERY)
    assert called("translate 'see you soon' to French", notes)[0] == []
    assert called("translate 'see you soon' to French", translator, notes)[0] == ["translate_text"]
    speaker = tool("say_aloud", "Reads a text aloud on the speaker.", ["text"],
                   text={"type": "string", "description": "The text to read."})
    assert called("¿Quién eres?", speaker)[0] == []
    assert called("Read this aloud on the speaker: dinner is ready", speaker)[0] == ["say_aloud"]


# --- search_fit.py: what a search's collection may hold -----------------------------------------------------

HR = tool("search_hr_policies", "Search the company's HR policies.", ["query"], query=QUERY)
HANDBOOK = tool("search_rowing_handbook", "Search the rowing club's handbook: boat bookings, guests, safety on the "
                "river, the boathouse keys.", ["query"], query=QUERY)
TEAM_NOTES = tool("search_notes", "Search the team's notes.", ["query"], query=QUERY)


@pytest.mark.parametrize("search, fits, off", [
    (HR, "what do the HR policies say about parental leave?", "whats the weather in Lima"),
    (HANDBOOK, "can I bring guests to the boathouse?", "how do I make pancakes?"),
    (tool("search_club_rules", "Busca en el reglamento del club de vela: socios, invitados, amarres y cuotas.",
          ["query"], query={"type": "string", "description": "La búsqueda."}),
     "¿puedo traer invitados el sábado?", "¿qué tiempo hará mañana en Lisboa?"),
    (tool("search_house_rules", "Durchsucht die Hausordnung des Wohnheims: Ruhezeiten, Besuch, Waschküche, Müll.",
          ["query"], query={"type": "string", "description": "Suchbegriffe."}),
     "Wann sind die Ruhezeiten am Sonntag?", "Wer hat die Mona Lisa gemalt?"),
    (tool("search_cafe_menu", "搜索咖啡馆菜单：咖啡、蛋糕、早餐和价格", ["query"], query=QUERY),
     "你们的蛋糕多少钱？", "北京今天天气怎么样？"),
])
def test_a_scoped_search_is_asked_only_about_its_collection(search, fits, off):
    assert search_fits(search, fits) and not search_fits(search, off)
    assert called(fits, search)[0] == [search.name]
    assert called(off, search)[0] == []


def test_a_search_that_says_only_whose_collection_it_is_takes_any_question():
    assert scope_words(TEAM_NOTES) == set() and search_fits(TEAM_NOTES, "whats the weather in Lima")
    assert called("whats the weather in Lima", TEAM_NOTES)[0] == ["search_notes"]
    assert called("yo whats up", TEAM_NOTES)[0] == []  # its negative: chatter is still no question for it


def test_an_open_search_takes_any_question_but_no_chatter_nor_a_text_to_compose():
    assert is_open_search(WEB_SEARCH) and not is_open_search(HR)
    assert called("how tall is the eiffel tower?", WEB_SEARCH)[0] == ["web_search"]
    assert called("write a riddle about a lighthouse", WEB_SEARCH)[0] == []
    assert called("hey there!", WEB_SEARCH)[0] == []
    assert called("Hola, ¿qué tal?", WEB_SEARCH)[0] == []
    # A text to compose about a scoped collection's subject may need what it holds.
    assert called("write a summary of the boat bookings for guests", HANDBOOK)[0] == ["search_rowing_handbook"]


def test_the_best_fitting_of_several_searches_is_called():
    cellar = tool("search_cellar", "Search the wine cellar's stock: grapes, vintages, prices.", ["query"], query=QUERY)
    assert best_search([HANDBOOK, cellar, WEB_SEARCH], "any 2019 vintages left?") is cellar
    assert best_search([HANDBOOK, cellar, WEB_SEARCH], "capital of Peru?") is WEB_SEARCH
    assert best_search([HANDBOOK, cellar], "capital of Peru?") is None
    assert called("any 2019 vintages left?", HANDBOOK, cellar)[0] == ["search_cellar"]


def test_a_generic_http_tool_needs_an_address():
    assert called("what's on the tuners' price page?", HTTP_GET)[0] == []
    assert called("fetch https://tuners.example/prices", HTTP_GET)[0] == ["http_get"]


# --- when the scope is not asked: a vocabulary handed in, an instruction to search ---------------------------

def test_a_handed_vocabulary_keeps_searching_first():
    question = "whats the weather in Lima"
    assert decide(Conversation(question=question, tools=[HR])).calls == []
    vocab = Vocabulary(["Parental leave is 16 weeks.", "Remote work needs a manager's approval."])
    assert [name for name, _ in decide(Conversation(question=question, tools=[HR]), vocab).calls] == \
        ["search_hr_policies"]
    # Chatter is not searched even then.
    assert decide(Conversation(question="who made you?", tools=[HR]), vocab).calls == []


@pytest.mark.parametrize("instructions, searches", [
    ("Always search the policies before you answer.", True),
    ("Use the search tool for every question.", True),
    ("You are the company's HR policies assistant.", True),  # the keeper of the collection
    ("You are a friendly assistant. Answer briefly.", False),
])
def test_instructions_to_search_keep_searching_first(instructions, searches):
    assert told_to_search(instructions, [HR]) is searches
    calls = decide(Conversation(question="whats the weather in Lima", tools=[HR], instructions=instructions)).calls
    assert bool(calls) is searches


# --- what says nothing of a collection's subject: schema words, where entries came from; a follow-up ----------

def test_schema_words_and_where_entries_came_from_are_no_scope():
    # "query parameter" (a generated schema's description) and "facts saved in earlier conversations" say how the
    # collection was filled or what the parameter is, not what it is about: any question may be for it.
    generated = tool("search_faq", "Search the harbour office FAQ for entries that match a query.", ["query"],
                     query={"type": "string", "description": "query parameter"})
    memory = tool("recall", "Search long-term memory for facts saved in earlier conversations.", ["query"],
                  query={"type": "string", "description": "What to look for."})
    assert scope_words(generated) == set() and scope_words(memory) == set()
    assert called("can I moor overnight?", generated)[0] == ["search_faq"]
    assert called("where did I park my bike?", memory)[0] == ["recall"]
    assert called("hey, how are you?", memory)[0] == []  # its negative: chatter still gets no search


def test_a_follow_up_takes_the_fit_of_the_turn_before_it():
    kiln = tool("search_kiln_log", "Search the kiln log: firings, cones, glaze faults.", ["query"], query=QUERY)
    earlier = Conversation(question="And in March?", earlier=["which cone did the glaze firings reach in May?"],
                           tools=[kiln])
    assert [name for name, _ in decide(earlier).calls] == ["search_kiln_log"]
    # Its negatives: the same words without the earlier turn, and an earlier turn the search doesn't fit.
    assert decide(Conversation(question="And in March?", tools=[kiln])).calls == []
    off = Conversation(question="And in March?", earlier=["what's the weather in Lima in May?"], tools=[kiln])
    assert decide(off).calls == []
