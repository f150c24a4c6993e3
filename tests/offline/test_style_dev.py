"""The made-up development set of style_cases.py (requests as users type them, API docs as they are written), case
by case through the real openai SDK on both APIs, scored by BFCL's rules (helpers.maint.bfcl_check); and the rules
it led to, each on its own with its negatives: values given by the parameter's name (key_values.py), identifiers
shaped like a parameter's example (id_shapes.py), a date's numbers, a name before the
parameter's noun, a name a tool's description quotes as an example.

A case the rules still get wrong is recorded in MISSED with the reason, and its test checks it is still wrong (made_up.as_recorded).
"""

import pytest
from made_up import as_recorded, calls, tool
from style_cases import CASES, TOOLSETS

from helpers.maint.bench_offline import ask
from helpers.maint.bfcl_check import check
from helpers.maint.bfcl_data import Case
from helpers.offline import neutral_client
from helpers.offline.id_shapes import example_shapes, shaped_value
from helpers.offline.key_values import keyed_values
from helpers.offline.name_choice import noun_after
from helpers.offline.names import entities, example_names, tool_words
from helpers.offline.number_mentions import mentions

# The cases the rules miss, by request, with why.
CAMEL = ("a camelCase tool name is read as one word (getOrderStatus); splitting it cost one held-out case of the "
         "floor sample, so it is not done")
MISSED = {
    "glaze firing in the RAKU kiln on 2026-07-03, cone 04, with slow cool": CAMEL,
    "where's my order T-4471": CAMEL,
    "how hot is k2 right now": "hot: a synonym of temperature; 'k2' is too short to be an identifier by shape",
    "what routes are on the slab between 6a and 7a": "a range of grades written as text: min and max not paired",
    "Können Sie einen Kinderkurs (kids) am 2026-06-06 für 2 Personen buchen?": "Personen: the count's noun in "
                                                                                "German",
    "how much is 2.5 metres of linen": "how much: a price question the tool calls a quote (tool fit)",
    'grand piano tuning, address "4 Bank St, Perth", date 2026-06-10, tune to 442': "tune to 442: no word of "
                                                                                    "pitch_hz's name beside it",
    "my piano is 30 cents flat and hasnt been tuned in 5 years, will it need a pitch raise": "the booking tool "
                                                                                             "shares more words",
    "cents_flat=12.5, years_since_tuning=2": "tool fit reads no parameter names: keys alone are no fit",
    "hi, we'd like a quarter plot at riverside with raised beds please, surname is Baird": "a lower-case site, and "
                                                                                           "'surname' is in the "
                                                                                           "description only",
    "slugs everywhere on plot 14!! its really bad": "'really bad' for high severity, and a pest report told, not "
                                                    "asked",
    "在7号地块发现了蚜虫 (aphids)，请报告": "no word of the tool's in the Chinese (tool fit)",
    "need french subs burned in on vid_77qq, format ass": "french to 'fr': a language's code is knowledge",
    "how long would subtitles take for a 45 min video": "how long ... take: a synonym of turnaround (tool fit)",
    "Wie lange dauert die Untertitelung für ein Video von 20 Minuten?": "German words for subtitles and turnaround",
    "hey need my open fire swept on 2026-10-02 at G12 8QQ + a cctv survey": "swept: another form of sweep the "
                                                                            "stemmer does not meet",
    "can i get the certificate for booking SW-20931": "booking: a word of book_chimney_sweep's name outweighs it",
    "can u reserve a table for six people 2026-05-30 18:30 and hold Wingspan for us": "'and hold X' read as a "
                                                                                      "second call (call plan)",
    "games for 2 players under 30 minutes": "equal words for both tools; the first offered wins",
    "scooter ZK81PA has a flat tyre": "the listed value 'flat tyre' does not outrank the tool offered first",
    "report scooter MM20LX, brake broken, it's at lat 55.953 lon -3.188": "a nested object is never filled",
    "hola, desbloquea el patinete PL55RC por favor": "Spanish words for unlock and scooter (tool fit)",
    "we want the wayfarer on 2026-07-04, 3 of us": "'3 of us' counts people, a word crew's text lacks",
}

_CLIENT = neutral_client()


def _case_id(k, case):
    return f"{case[0]}-{k}"


@pytest.mark.parametrize("api", ["chat", "responses"])
@pytest.mark.parametrize("k, setname, messages, answers", [
    pytest.param(k, *case, id=_case_id(k, case)) for k, case in enumerate(CASES)])
def test_the_style_set(k, setname, messages, answers, api):
    case = Case(f"style_{k}", "style", messages, TOOLSETS[setname], answers)
    got = ask(_CLIENT, case, api)
    verdict = check(case, got)
    as_recorded(verdict.ok, MISSED.get(messages[-1]["content"]),
                f"{verdict.kind} {verdict.detail}: {messages[-1]['content']!r} got {got}")


def test_the_set_is_as_wide_as_its_docstring_says():
    assert len(CASES) >= 60 and len(TOOLSETS) >= 8
    assert sum(len(m) > 1 for _, m, _ in CASES) >= 5  # a system message before the user's turn
    missed = [m for _, m, _ in CASES if m[-1]["content"] in MISSED]
    assert len(missed) == len(MISSED)  # every reason is for a case of the set


# --- key_values.py: a value given by the parameter's own name ------------------------------------------------

@pytest.mark.parametrize("props, text, given", [
    ({"kilnId": {"type": "string"}, "cone": {"type": "string"}}, "fire kilnId=K1 cone=6", {"kilnId": "K1", "cone": "6"}),
    ({"member_id": {"type": "string"}, "weeks": {"type": "integer"}},
     "member_id: CLB-04410, weeks: 3", {"member_id": "CLB-04410", "weeks": 3}),
    ({"dueDate": {"type": "string"}, "urgent": {"type": "boolean"}}, "due_date=2026-02-01 urgent=yes",
     {"dueDate": "2026-02-01", "urgent": True}),  # another case style of the same name
    ({"address": {"type": "string"}}, 'address="4 Bank St, Perth" pls', {"address": "4 Bank St, Perth"}),
    ({"customer_name": {"type": "string"}}, "customer_name: Priya Raman, garment: shirt",
     {"customer_name": "Priya Raman"}),
    ({"units": {"type": "string", "enum": ["knots", "mph"]}}, "units=MPH", {"units": "mph"}),
])
def test_a_value_given_by_the_parameters_name(props, text, given):
    assert keyed_values(props, text) == given


@pytest.mark.parametrize("props, text", [
    ({"quantity": {"type": "integer"}}, "qty=3 of the blue ones"),  # a synonym of the name: not the name
    ({"weeks": {"type": "integer"}}, "weeks: a few"),  # not a number
    ({"units": {"type": "string", "enum": ["knots", "mph"]}}, "units=furlongs"),  # not a member
    ({"time": {"type": "string"}}, "the table at 18:30 for four"),  # a clock time is no key
    ({"url": {"type": "string"}}, "open https://example.org"),  # nor a URL's scheme
    ({"league": {"type": "string"}}, "tell me about the Lothian league: its oldest club and its top scorer"),  # prose
])
def test_no_value_without_the_parameters_own_name(props, text):
    assert keyed_values(props, text) == {}


def test_a_keyed_value_outranks_the_guesses_in_a_call():
    freeze = tool("freeze_pass", "Pauses a swimming pool pass for some weeks.", ["pass_id", "weeks"],
                  pass_id={"type": "string", "description": "The pass number."},
                  weeks={"type": "integer", "description": "Weeks to pause."},
                  reason={"type": "string", "enum": ["injury", "travel", "other"]})
    assert calls("freeze pass: pass_id: SW-8812, weeks: 4, reason: travel", freeze) == [
        ("freeze_pass", {"pass_id": "SW-8812", "weeks": 4, "reason": "travel"})]
    tide = tool("tide_times", "Tide times at a harbour on a day.", ["harbour", "date"],
                harbour={"type": "string"}, date={"type": "string", "description": "YYYY-MM-DD"})
    assert calls("tide times harbour=oban date=2026-03-02", tide) == [
        ("tide_times", {"harbour": "oban", "date": "2026-03-02"})]
    # Its negative: without keys the value still comes from the other rules.
    assert calls("tide times at Oban on 2026-03-02", tide) == [
        ("tide_times", {"harbour": "Oban", "date": "2026-03-02"})]


# --- id_shapes.py: an identifier shaped like a parameter's example ---------------------------------------------

def test_an_identifier_shaped_like_the_example_is_the_parameters():
    order = {"description": "The order number printed on the ticket, e.g. 'T-4471'."}
    assert shaped_value(order, "where is my order t-5002 pls") == "t-5002"
    assert shaped_value(order, "where is my order 5002") is None  # not the shape
    assert shaped_value({"description": "The hive, e.g. 'H12'."}, "hive H44") is None  # too short to be an id
    assert example_shapes({"description": "The mode, e.g. 'eco' or 'boost'."}) == set()  # words, not ids


def test_an_identifiers_shape_points_at_the_tool_that_takes_it():
    create = tool("create_repair_ticket", "Creates a repair ticket for a broken order of furniture.",
                  ["item"], item={"type": "string", "description": "What is broken."})
    status = tool("ticket_status", "Looks up a repair ticket.", ["ticket"],
                  ticket={"type": "string", "description": "The ticket number, like 'RT-20931'."})
    # Both share "ticket"; the number's shape tips it to the tool whose parameter shows one like it.
    assert calls("where's my ticket RT-40117", create, status) == [("ticket_status", {"ticket": "RT-40117"})]
    # Its negative: a request with no such identifier leaves the choice to the words.
    assert [n for n, _ in calls("create a repair ticket for the broken chair", create, status)] == [
        "create_repair_ticket"]


# --- names.py: names quoted as examples (and camelCase, a limit) ---------------------------------------------------

def test_a_camel_case_name_is_one_word_a_known_limit():
    # Splitting camelCase names (getOrderStatus -> order, status) fixed two cases of this set and cost one
    # held-out case of the floor sample (tests/offline/bfcl_floor.json), so names are split at _ and marks only.
    assert tool_words(tool("getOrderStatus", ""))[0] == {"getorderstatu"}
    assert tool_words(tool("get_order_status", ""))[0] == {"ord", "statu"}


def test_a_name_the_description_quotes_as_an_example_is_still_a_name():
    plots = tool("reserve_plot", "Reserves an allotment plot on a site, e.g. 'Hillside', 'Long Acre'.", ["site"],
                 site={"type": "string"})
    assert example_names(plots) == {"hillsid", "long", "acr"}
    assert entities("a plot at Hillside please", plots) == ["Hillside"]
    # Its negative: a capitalised word of the description that is not a quoted example is still the tool's own.
    plain = tool("reserve_plot", "Reserves a Plot on an allotment site.", ["site"], site={"type": "string"})
    assert entities("reserve a Plot at Hillside", plain) == ["Hillside"]


# --- number_mentions.py: a date's numbers are no count ----------------------------------------------------------

def test_the_numbers_of_an_iso_date_are_not_mentions():
    assert [m.value for m in mentions("rides from 2026-04-01 to 2026-04-30")] == []
    assert [m.value for m in mentions("last 5 rides since 2026-04-01")] == [5.0]
    assert [m.value for m in mentions("a 2026 vintage, 12 bottles")] == [2026.0, 12.0]  # a year alone still counts
    rides = tool("ride_history", "Past rides in a date range.", ["start", "end"],
                 start={"type": "string", "description": "YYYY-MM-DD"}, end={"type": "string"},
                 limit={"type": "integer", "description": "Maximum rides. Default: 20."})
    assert calls("rides from 2026-04-01 to 2026-04-30", rides)[0][1].get("limit") is None


# --- name_choice.py: a name before the parameter's own noun ----------------------------------------------------

def test_a_name_before_the_parameters_noun_is_its():
    assert noun_after("household_name", "put the Okonjo household down", "Okonjo")
    assert noun_after("team_name", "the Leith team plays at home", "Leith")
    assert not noun_after("team_name", "the Leith squad plays at Easter Road", "Leith")  # another noun
    assert not noun_after("team_name", "the Leith team Hibernian plays at home", "Leith")  # the noun labels the next
    assert not noun_after("season", "the 2021 Lothian League season", "Lothian League")  # asks for no name
    plot = tool("reserve_plot", "Puts a household on the list for a plot at a site.", ["site", "household_name"],
                site={"type": "string", "description": "The site's name."},
                household_name={"type": "string", "description": "Surname of the household."})
    assert calls("put the Okonjo household down for a plot at Hillside", plot)[0][1] == {
        "site": "Hillside", "household_name": "Okonjo"}
    boat = tool("book_boat", "Books a club boat for a crew.", ["boat", "crew_name"],
                boat={"type": "string"}, crew_name={"type": "string"})
    assert calls("book Osprey for the Mackay crew", boat)[0][1] == {"boat": "Osprey", "crew_name": "Mackay"}
