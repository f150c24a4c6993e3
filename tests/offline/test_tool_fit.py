"""Whether a tool fits (tool_fit.py, asked.py; issue 26): a call only when the request asks for what the tool does.

Made-up tools in domains no lesson and no BFCL case uses: pottery kilns, beehives, garden lamps, a football
league, star charts, volcanoes, sailing. Each rule is shown turning a request down and, as its negative, a
fitting request worded differently from the tool's description that still gets its call.
"""

import json

import pytest
from made_up import called, tool

from helpers.offline import neutral_client
from helpers.offline.asked import asked_phrases, is_definition_question, questions_in
from helpers.offline.tool_fit import is_about, missing_note, missing_numbers, tool_fits

TEXT = {"type": "string"}
INT = {"type": "integer"}
KILN = tool("kiln_firing_time", "Estimate the firing time of a pottery kiln for a given cone.", ["cone"],
            cone={"type": "integer", "description": "The pyrometric cone number."})
HIVE = tool("hive_honey_yield", "Estimate the honey yield of a beehive from its number of frames.", ["frames"],
            frames={"type": "integer", "description": "Frames in the hive."})
LAMPS = tool("dim_garden_lamps", "Dim the garden lamps to a brightness level.", ["level"],
             level={"type": "integer", "description": "Brightness, 0 to 100."})
CUTOFF = tool("promotion_cutoff", "Points needed for promotion in a league of a given size.", ["teams"],
              teams={"type": "integer", "description": "Teams in the league."})
CHARTS = tool("search_star_charts", "Search star charts of a constellation.", ["constellation", "hemisphere"],
              constellation=TEXT, hemisphere={"type": "string", "enum": ["north", "south"]})
VOLCANO = tool("get_volcano_details", "Retrieve details of a volcano: height, last eruption, type.", ["name"],
               name=TEXT)
TACK = tool("tack_angle", "Work out the best tacking angle for a sailing boat.", ["wind_knots", "heading"],
            wind_knots={"type": "number", "description": "Wind speed in knots."},
            heading={"type": "integer", "description": "The boat's compass heading, in degrees."})


# --- the head of what is asked must be the tool's ----------------------------------------------------------

@pytest.mark.parametrize("question, fits", [
    ("How long is the firing time for cone 6 in my kiln?", True),
    ("Tell me the kiln firing time at cone 10", True),
    ("What is the drying time for cone 6 clay?", False),  # another kind of time: the tool's name says firing
    ("Estimate the glaze thickness for a kiln at cone 6", False),  # the head, thickness, is not the tool's
])
def test_the_head_of_what_is_asked_must_be_the_tools(question, fits):
    assert tool_fits(KILN, question) is fits
    names, _ = called(question, KILN)
    assert names == (["kiln_firing_time"] if fits else [])


@pytest.mark.parametrize("question, fits", [
    ("How much honey will a beehive with 10 frames give?", True),  # worded unlike the description
    ("What honey yield can I expect from 12 frames?", True),
    ("Estimate the wax weight of a beehive with 10 frames", False),  # shares beehive and frames, asks for wax
])
def test_a_request_worded_differently_still_fits_when_it_asks_for_the_same_thing(question, fits):
    assert called(question, HIVE)[0] == (["hive_honey_yield"] if fits else [])


def test_a_verbs_object_after_a_particle_is_read_too():
    assert asked_phrases("Turn down the lamps to 30") == [["turn"], ["lamp"]]
    assert called("Turn down the lamps to 30", LAMPS)[0] == ["dim_garden_lamps"]
    assert called("Turn down the heating to 18", LAMPS)[0] == []  # the object is not the tool's


def test_coordinated_phrases_each_say_what_is_asked():
    assert asked_phrases("Find the height and the last eruption of Etna") == [["height"], ["last", "eruption"]]
    assert called("Find the height and the last eruption of Etna", VOLCANO)[0] == ["get_volcano_details"]


def test_a_question_asked_after_a_clause_of_context_is_read():
    question = "In a league of 12 teams, what are the points for promotion?"
    assert questions_in(question)[-1] == "what are the points for promotion?"
    assert called(question, CUTOFF)[0] == ["promotion_cutoff"]
    assert called("In a league of 12 teams, who scored most?", CUTOFF)[0] == []


def test_a_task_asked_after_a_preamble_is_read():
    question = "We are off to the coast on Friday and I want to know the promotion cutoff for 20 teams"
    assert called(question, CUTOFF)[0] == ["promotion_cutoff"]


# --- a tool that gives the details of a thing fits any question about that thing ------------------------------

@pytest.mark.parametrize("question, fits", [
    ("How tall is the volcano Etna?", True),
    ("When did the volcano Hekla last erupt?", True),
    ("How tall is Ben Nevis?", False),  # nothing says volcano: a mountain is not the tool's object
])
def test_a_details_tool_fits_a_question_about_its_object(question, fits):
    assert called(question, VOLCANO)[0] == (["get_volcano_details"] if fits else [])


# --- a question about what a kind of thing is ----------------------------------------------------------------

@pytest.mark.parametrize("question, definition", [
    ("What is a constellation?", True),
    ("What does 'asterism' mean?", True),
    ("What is a good constellation for beginners?", False),  # asks for instances to look up
    ("What is the brightest star of Orion?", False),
    ("What is Orion?", False),  # names one thing: a lookup may know it
])
def test_a_definition_question_is_told_from_a_lookup(question, definition):
    assert is_definition_question(question) is definition


def test_a_definition_question_gets_no_search_of_the_things_it_defines():
    assert called("What is a constellation?", CHARTS)[0] == []
    assert called("Show me the star charts of Cassiopeia in the north", CHARTS)[0] == ["search_star_charts"]
    define = tool("define_term", "Give the dictionary definition of an astronomy term.", ["term"], term=TEXT)
    assert is_about(define, "What is a constellation?")
    # A plain search tool (one query) is still searched first, as the course's search-first rule says: the
    # documents behind it may define the thing.
    notes = tool("search_notes", "Search the observing notes.", ["query"], query=TEXT)
    assert called("What is a constellation?", notes)[0] == ["search_notes"]


# --- a tool that fits, but the request lacks the numbers it needs: ask for them -------------------------------

def test_missing_numbers_are_named_and_asked_for():
    assert missing_numbers(TACK, "What tacking angle should my sailing boat use?") == ["wind_knots", "heading"]
    assert missing_numbers(TACK, "Tacking angle for my sailing boat in 14 knots on heading 220?") == []
    names, text = called("What tacking angle should my sailing boat use?", TACK)
    assert names == []  # no call: a guess would be wrong
    assert text == missing_note(TACK, ["wind_knots", "heading"])
    assert text == ("I can answer this with tack_angle, but it needs values the request does not give: wind_knots "
                    "(wind speed in knots) and heading (the boat's compass heading, in degrees). What are they?")


def test_with_the_numbers_the_same_request_gets_its_call():
    names, _ = called("What tacking angle should my sailing boat use in 14 knots on heading 220?", TACK)
    assert names == ["tack_angle"]


def test_a_tool_that_does_not_fit_is_still_said_not_to_fit():
    names, text = called("What is the capital of Peru?", TACK)
    assert names == [] and "None of the tools I have (tack_angle) fits" in text


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_the_question_for_missing_values_comes_back_on_both_apis(api):
    client = neutral_client()
    spec = {"name": "kiln_firing_time", "description": KILN.description, "parameters": KILN.parameters}
    question = "How long is the firing time of my pottery kiln?"
    if api == "chat":
        message = client.chat.completions.create(model="m", messages=[{"role": "user", "content": question}],
                                                 tools=[{"type": "function", "function": spec}]).choices[0].message
        assert not message.tool_calls
        text = message.content
    else:
        response = client.responses.create(model="m", input=question, tools=[{"type": "function", **spec}])
        assert not [item for item in response.output if item.type == "function_call"]
        text = response.output_text
    assert "kiln_firing_time" in text and "cone (the pyrometric cone number)" in text and text.endswith("What is it?")
    json.dumps(text)  # plain text, nothing the wire can't carry


def test_an_address_or_a_link_is_a_value_not_what_is_asked():
    """The words of an address ("ana" of ana@...) or a link are no head: the request asks to email, to open."""
    mailer = tool("send_mail", "Send an email to a sailing club member.", ["to", "body"], to=TEXT, body=TEXT)
    assert asked_phrases("Email ana@regatta.example the tide table") == [["email"]]
    assert asked_phrases("Open https://regatta.example/tides please") == [["open"]]
    assert called("Email ana@regatta.example that the race starts at noon", mailer)[0] == ["send_mail"]
    # Its negative: an address in a request the tool has nothing to do with is still no call.
    assert called("What is the firing temperature of a kiln? Ask ana@regatta.example", mailer)[0] == []


def test_a_value_a_description_lists_makes_the_tool_fit_as_an_enum_value_does():
    """"Are there mites in hive 4?" names a value the pest parameter lists after "i.e.": the tool is about it."""
    check = tool("inspect_hive", "Inspect one beehive by its number.", ["hive", "pest"], hive=INT,
                 pest={"type": "string", "description": "The pest to look for, i.e., mites, beetles, moths."})
    assert called("Are there mites in hive 4?", check)[0] == ["inspect_hive"]
    # Its negative: a thing the tool lists nowhere is still another subject.
    assert called("Are there swans on the pond near hive 4?", check)[0] == []


STR = {"type": "string"}


@pytest.mark.parametrize("question,tool_args", [
    # A tool named by a noun that is also a writing verb ("schedule", "book", "post"), whose description says
    # what it tells: a question that only asks still gets it (a made-up ferry line, a library, a village post office).
    ("When does the evening ferry leave?",
     ("schedule_times", "When each ferry leaves and arrives, by route.", ["route"])),
    ("Which books suit a reader who likes sea stories?",
     ("book_suggestions", "Recommends books for a reader's taste.", ["taste"])),
    ("When does the post office open on Saturday?",
     ("post_hours", "When the village post office opens and closes, by day.", ["day"])),
])
def test_a_tool_whose_name_starts_with_a_noun_that_is_also_a_verb_is_not_a_writer(question, tool_args):
    name, description, required = tool_args
    made = tool(name, description, required, **{required[0]: STR})
    assert called(question, made)[0] == [name]


def test_a_tool_whose_description_says_it_writes_still_gets_no_question_that_only_asks():
    # Negative of the above: the description's first word is the writing act ("Books ...", "Creates ...").
    booking = tool("ferry_booking", "Books a seat on a ferry.", ["route"], route=STR)
    event = tool("calendar_event", "Creates an event in the calendar.", ["title"], title=STR)
    assert called("When does the evening ferry leave?", booking)[0] == []
    assert called("What is on my calendar on Friday?", event)[0] == []
