"""The offline model's value rules, third round (issue 26, parallel calls), on domains no lesson, no BFCL case and
no earlier round uses: an apiary (beehives), a bell foundry, a canal lock, a cheese cave.

Each rule is shown firing and, where it has one, not firing (its negative).
"""


from made_up import calls, only_args, tool

from helpers.offline.binding import bind_numbers
from helpers.offline.lists import lists_in
from helpers.offline.param_values import listed_values

TEXT = {"type": "string"}


def num(description, kind="number"):
    return {"type": kind, "description": description}


# --- a date written in digits is one list item ----------------------------------------------------------------

HIVE = tool("hive_inspection", "Look up the inspection notes of a beehive on a date.", ["hive", "date"],
            hive={"type": "string", "description": "The hive's name."},
            date={"type": "string", "description": "The inspection date, yyyy-mm-dd."})


def test_two_digit_dates_joined_by_and_are_a_list_of_two_dates():
    text = "Inspection notes of hive Clover on 2025-04-03 and 2025-05-12"
    assert [[text[a:b] for a, b in spans] for spans in lists_in(text)] == [["2025-04-03", "2025-05-12"]]
    slashed = "the cheese turned on 03/04/2025 and 12/05/2025"
    assert [[slashed[a:b] for a, b in spans] for spans in lists_in(slashed)] == [["03/04/2025", "12/05/2025"]]


def test_each_hive_and_each_digit_date_is_a_call_of_its_own():
    got = calls("Show the inspection notes of the hives Clover and Heather on 2025-04-03 and 2025-05-12.", HIVE)
    assert sorted((a["hive"], a["date"]) for _, a in got) == [
        ("Clover", "2025-04-03"), ("Clover", "2025-05-12"), ("Heather", "2025-04-03"), ("Heather", "2025-05-12")]


def test_one_digit_date_is_one_call_and_no_list():
    assert lists_in("Inspection notes of hive Clover on 2025-04-03") == []
    assert calls("Show the inspection notes of hive Clover on 2025-04-03.", HIVE) == [
        ("hive_inspection", {"hive": "Clover", "date": "2025-04-03"})]


# --- values a description lists: a cue ends a word, quoted choices, a list in brackets ---------------------------

def test_optional_is_no_option_cue_and_quoted_choices_are_the_values():
    assert listed_values({"description": "Optional setting to choose between 'bronze' and 'steel' bells."}) == [
        "bronze", "steel"]
    assert listed_values({"description": "How the rind is washed. Choices are 'brine' or 'cider'."}) == [
        "brine", "cider"]
    assert listed_values({"description": "Measure of the beeswax (grams or ounces)"}) == ["grams", "ounces"]


def test_a_description_that_lists_nothing_gives_no_values():
    assert listed_values({"description": "Optional note for the lock keeper."}) == []
    assert listed_values({"description": "The options chosen at the foundry are logged."}) != ["al"]


def test_a_quoted_choice_fills_its_parameter_and_an_unsaid_one_is_left_out():
    cast = tool("cast_bell", "Cast a bell at the foundry.", ["weight_kg"], weight_kg=num("Weight in kg."),
                metal={"type": "string", "description": "Optional setting to choose between 'bronze' and 'steel'."})
    assert only_args("Cast a bell of 300 kg in steel.", cast) == {"weight_kg": 300, "metal": "steel"}
    assert only_args("Cast a bell of 300 kg.", cast) == {"weight_kg": 300}


# --- a number's unit and the word after "per" in a parameter's name ------------------------------------------------

LOCK = {"fee_per_year": num("The fee paid each year.", "integer"),
        "years": num("How many years the mooring is held.", "integer")}


def test_a_span_of_years_goes_to_years_not_to_the_amount_per_year():
    got = bind_numbers(LOCK, set(LOCK), "A canal mooring costing $1200 per year, held for 15 years")
    assert got == {"fee_per_year": 1200, "years": 15}


def test_money_is_no_calendar_year_and_a_plain_year_still_is():
    founded = {"year": num("The year the cheese cave opened.", "integer"),
               "price": num("The price of a wheel.", "integer")}
    assert bind_numbers(founded, set(founded), "A wheel costs $1800 at the cave opened in 1923") == {
        "year": 1923, "price": 1800}


def test_a_rate_written_with_per_still_fits_the_name_that_counts_per_hour():
    pump = {"litres_per_hour": num("Flow of the lock's pump."), "hours": num("Hours the pump runs.")}
    assert bind_numbers(pump, set(pump), "The pump moves 900 litres/hour and runs for 6 hours") == {
        "litres_per_hour": 900, "hours": 6}


# --- a value said once at the end fills the earlier call that could only guess it (call_plan._fill_back) ----------

CHART = tool("bell_ringing_chart", "The most rung peal of bells in a region.", ["method", "region"],
             method={"type": "string", "description": "Ringing method e.g., Grandsire, Stedman etc."},
             region={"type": "string", "description": "Region where the peals are counted"})
YIELD = tool("hive_honey_yield", "Honey yield of a hive breed at an apiary.", ["breed", "apiary"],
             breed={"type": "string", "description": "Bee breed e.g., Carniolan, Buckfast"},
             apiary={"type": "string", "description": "The apiary where the hives stand"})


def test_a_place_said_once_at_the_end_goes_to_every_call_before_it():
    assert calls("What is the most rung Grandsire peal and also find me the most rung Stedman peal in Yorkshire.",
                 CHART) == [("bell_ringing_chart", {"method": "Grandsire", "region": "Yorkshire"}),
                            ("bell_ringing_chart", {"method": "Stedman", "region": "Yorkshire"})]
    assert calls("What is the honey yield of a Carniolan hive, and then the honey yield of a Buckfast hive at "
                 "Thornbury apiary?", YIELD) == [("hive_honey_yield", {"breed": "Carniolan", "apiary": "Thornbury"}),
                                                 ("hive_honey_yield", {"breed": "Buckfast", "apiary": "Thornbury"})]


def test_each_call_keeps_the_place_its_own_words_give():
    assert calls("What is the most rung Grandsire peal in Devon and also find me the most rung Stedman peal in "
                 "Yorkshire.", CHART) == [("bell_ringing_chart", {"method": "Grandsire", "region": "Devon"}),
                                          ("bell_ringing_chart", {"method": "Stedman", "region": "Yorkshire"})]


# --- a kind parameter takes the word before the noun its description names (kinds.kind_value) ------------

def test_a_genre_or_type_takes_the_word_before_the_described_noun():
    recital = tool("find_recitals", "Find recitals near a town.", ["town", "genre"], town=TEXT,
                   genre={"type": "string", "description": "The genre of music of the recital."})
    assert only_args("Find me the baroque recitals near Wells, with seats left.", recital) == {
        "town": "Wells", "genre": "baroque"}
    cave = tool("cheese_cave_slots", "Free shelf slots in a cheese cave.", ["cave", "category"], cave=TEXT,
                category={"type": "string", "description": "The category of the cheese."})
    assert only_args("How many slots are free for washed-rind cheeses in Roquefort cave?", cave)["category"] == \
        "washed-rind"
    hives = tool("order_hive_parts", "Order parts for beehives.", ["supplier", "hive_type"], supplier=TEXT,
                 hive_type={"type": "string", "description": "The type of the hive."})
    assert only_args("Order parts for two top-bar hives from Thornes.", hives)["hive_type"] == "top-bar"


def test_no_kind_when_the_parameter_is_no_kind_or_a_stop_word_stands_before_the_noun():
    from helpers.offline.kinds import kind_value

    described = {"description": "The genre of the recital."}
    assert kind_value("venue", described, "Find the baroque recitals") is None
    assert kind_value("genre", described, "Find all the recitals near Wells") is None
    assert kind_value("genre", {"description": "Genre, as listed."}, "Find the baroque recitals") is None


# --- "No" before a number is "number": a label, not a name and not a negation ------------------------------------

HIVE_LOG = tool("hive_log", "Fetch the log of a beehive with its treatments.", ["hive_number"],
                hive_number={"type": "string", "description": "The unique number identifying the hive."},
                include_treatments={"type": "boolean", "description": "Whether treatments are included."})


def test_numbers_after_no_are_the_items_and_the_flag_is_said():
    assert calls("Fetch the log of Hive No 128 and 131, with their treatments.", HIVE_LOG) == [
        ("hive_log", {"hive_number": "128", "include_treatments": True}),
        ("hive_log", {"hive_number": "131", "include_treatments": True})]
    bell = tool("bell_record", "The foundry record of a cast bell.", ["bell_number"],
                bell_number={"type": "string", "description": "The number of the bell."})
    assert only_args("Show the foundry record of Bell Nr. 4471.", bell) == {"bell_number": "4471"}


def test_no_before_a_word_still_negates_and_a_name_with_a_number_stays_whole():
    assert only_args("Fetch the log of Hive No 128 with no treatments.", HIVE_LOG) == {
        "hive_number": "128", "include_treatments": False}
    text = "Find the weights of Stilton 12 and Brie 7"
    assert [[text[a:b] for a, b in spans] for spans in lists_in(text)] == [["Stilton 12", "Brie 7"]]


# --- names with the same noun after each are a list ----------------------------------------------------------------

def test_two_names_each_before_the_same_noun_are_a_list():
    text = "Weigh a Stilton wheel and a Brie wheel at the cave"
    assert [[text[a:b] for a, b in spans] for spans in lists_in(text)] == [["Stilton", "Brie"]]
    text = "Cast a Whitechapel bell and a Taylor bell"
    assert [[text[a:b] for a, b in spans] for spans in lists_in(text)] == [["Whitechapel", "Taylor"]]


def test_names_before_different_nouns_are_no_list():
    assert lists_in("Weigh a Stilton wheel and a Brie knife") == []
    assert lists_in("Open the Kennet lock and the Avon weir") == []


def test_a_lower_case_word_before_the_kind_stays_with_it_and_a_count_does_not():
    from helpers.offline.kinds import kind_value

    described = {"description": "The genre of recitals."}
    assert kind_value("genre", described, "Find upcoming choral music recitals in Wells") == "choral music"
    assert kind_value("genre", described, "Find two organ recitals in Wells") == "organ"
    assert kind_value("category", {"description": "The category of the cheese."},
                      "slots for three blue cheeses") == "blue"
