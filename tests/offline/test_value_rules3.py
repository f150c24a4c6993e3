"""The offline model's value rules, third round (issue 26), on domains no lesson, no BFCL case and not the earlier
rounds' use: a cheese cave, a falconry mews, a bell foundry, an ice rink and a quilting guild.

Each rule is shown firing and, where it has one, not firing (its negative).
"""

from made_up import only_args, tool

from helpers.offline.binding import bind_numbers
from helpers.offline.kinds import kind_value
from helpers.offline.text import stem

INT = {"type": "integer"}
TEXT = {"type": "string"}


# --- a word's own double s stays in its stem --------------------------------------------------------------------

def test_a_word_ending_in_double_s_meets_its_plural():
    assert stem("weakness") == stem("weaknesses")
    assert stem("glass") == stem("glasses")
    assert stem("bells") == stem("bell")  # negative: a plain plural still loses its s


# --- a number's unit against the measure a parameter's name says ----------------------------------------------

def test_a_mass_goes_to_the_mass_and_a_temperature_to_the_temperature_whatever_words_come_first():
    blend = tool("blend_curds", "Work out the temperature of two curd batches blended in the cheese cave.",
                 ["mass1", "temperature1", "mass2", "temperature2"],
                 mass1={"type": "integer", "description": "The mass of the first batch (kg)."},
                 temperature1={"type": "integer", "description": "The temperature of the first batch (Celsius)."},
                 mass2={"type": "integer", "description": "The mass of the second batch (kg)."},
                 temperature2={"type": "integer", "description": "The temperature of the second batch (Celsius)."})
    assert only_args("What temperature do we get when 40 kg of curd at 32 degrees Celsius is blended with 25 kg "
                     "of curd at 38 degrees Celsius?", blend) == {
        "mass1": 40, "temperature1": 32, "mass2": 25, "temperature2": 38}


def test_moles_and_kelvin_go_to_quantity_and_temperature():
    props = {"quantity1": {"type": "integer", "description": "How much of the first sample of gas."},
             "temperature1": {"type": "integer", "description": "The first sample's temperature."},
             "quantity2": {"type": "integer", "description": "How much of the second sample of gas."},
             "temperature2": {"type": "integer", "description": "The second sample's temperature."}}
    assert bind_numbers(props, list(props), "The kiln temperature when 4 moles at 350 K meet 6 moles at 420 K") == {
        "quantity1": 4, "temperature1": 350, "quantity2": 6, "temperature2": 420}


def test_a_parameter_whose_name_says_no_measure_is_not_pushed_away():
    # Negative: `weight_limit` says mass, `perches` says nothing, so "3" is free to go to perches by place.
    props = {"weight_limit": {"type": "integer", "description": "Heaviest bird, in grams."},
             "perches": {"type": "integer", "description": "How many perches."}}
    assert bind_numbers(props, list(props), "A mews for birds up to 900 g with 3 perches") == {
        "weight_limit": 900, "perches": 3}


# --- a frequency word is no span of time ---------------------------------------------------------------------

def test_daily_is_a_count_per_year_and_a_time_in_years_takes_the_years():
    feed = tool("feeding_cost", "The cost of feeding a falcon.", ["cost_per_feed", "time"],
                cost_per_feed={"type": "number", "description": "What one feed costs, in dollars."},
                feeds_per_year={"type": "integer", "description": "The number of times the bird is fed per year."},
                time={"type": "integer", "description": "The time, in years, the bird is kept."})
    assert only_args("What does it cost to feed a falcon daily for 3 years at $2.5 a feed?", feed) == {
        "cost_per_feed": 2.5, "feeds_per_year": 365, "time": 3}
    # Negative: with no frequency said, nothing goes to the count per year.
    assert only_args("What does it cost to feed a falcon for 3 years at $2.5 a feed?", feed) == {
        "cost_per_feed": 2.5, "time": 3}


# --- numbers joined by "and" share the word after the last ----------------------------------------------------

def test_two_numbers_with_one_word_after_them_keep_their_order():
    props = {"first_bell_pitch": {"type": "integer", "description": "The pitch of the first bell in Hz."},
             "second_bell_pitch": {"type": "integer", "description": "The pitch of the second bell in Hz."}}
    assert bind_numbers(props, list(props), "Tune two bells of 512Hz and 768Hz pitch") == {
        "first_bell_pitch": 512, "second_bell_pitch": 768}


def test_of_after_a_list_says_only_the_last_number():
    # Negative: "0.3 and 0.5 of thickness" is not read as both being thicknesses.
    props = {"depth1": {"type": "number", "description": "The first groove's depth."},
             "depth2": {"type": "number", "description": "The second groove's depth."},
             "thickness": {"type": "number", "description": "The ice thickness."}}
    assert bind_numbers(props, list(props), "Resurface grooves of 0.3 and 0.5 with ice of thickness 4") == {
        "depth1": 0.3, "depth2": 0.5, "thickness": 4}


# --- the kind written before the thing a parameter asks the kind of -------------------------------------------

def test_a_kind_parameter_takes_the_word_before_its_noun():
    cast = tool("cast_bell", "Cast a bell at the foundry.", ["bell_type", "weight_kg"],
                bell_type={"type": "string", "description": "The type of bell to cast."},
                weight_kg={"type": "integer", "description": "The bell's weight in kg."})
    assert only_args("Cast a ship bell of 40 kg for the Tolbooth Quay in March.", cast) == {
        "bell_type": "ship", "weight_kg": 40}


def test_an_attribute_named_by_a_kind_word_reads_its_noun_from_the_description():
    quilts = tool("find_quilts", "Find quilts shown by the guild.", ["style", "town"],
                  style={"type": "string", "description": "Style of the quilt."},
                  town={"type": "string", "description": "The town of the show."})
    assert only_args("Find a log cabin quilt at the show in Hexham", quilts) == {"style": "log cabin", "town": "Hexham"}
    # A longer run gives its last word; a name before the noun gives the name whole.
    assert kind_value("style", {"description": "Style of the quilt."}, "the prize winning hand stitched quilt") == \
        "stitched"
    assert kind_value("cuisine", {"description": "Cuisine of the stall."}, "any Sri Lankan stall nearby") == \
        "Sri Lankan"


def test_a_two_word_parameter_with_no_kind_word_is_no_kind():
    # "green backing colour" reads like a kind, but so would "the first page size" or "a new sort order": a name
    # of two plain words says no kind word, so the word before it is not taken (the other rules fill it).
    assert kind_value("backing_colour", {}, "a quilt with green backing colour") is None
    assert kind_value("page_size", {}, "show the large page size") is None
    assert kind_value("backing_type", {}, "a quilt with a cotton backing") == "cotton"  # a kind word: a kind


def test_no_kind_when_nothing_stands_before_the_noun_or_the_parameter_is_a_name_or_a_place():
    assert kind_value("bell_type", {}, "Cast a bell for the quay") is None  # only "a" before "bell"
    assert kind_value("bell_type", {}, "Cast 2 bells") is None  # a number is no kind
    assert kind_value("rink_name", {}, "Book the Murrayfield rink") is None  # a name is read by names.py
    assert kind_value("location", {"description": "Type of the venue."}, "a covered venue") is None
    assert kind_value("key", {"description": "The key of the scale."}, "the C major scale") is None  # no kind word


# --- a member of one or two letters is said only as written ----------------------------------------------------

def test_a_one_letter_member_is_not_the_article_a():
    weave = tool("weave_pattern", "Weave a quilt pattern from blocks.", ["length"], length=INT,
                 blocks={"type": "array", "items": {"type": "string", "enum": ["A", "B", "C", "D"]},
                         "description": "The blocks to favour."})
    assert only_args("Weave a pattern of length 40 with more D and B blocks", weave) == {
        "length": 40, "blocks": ["D", "B"]}
    # Negative: "a" in lower case is the article, not block A; a code in lower case that is no stop word still counts.
    assert only_args("Weave a pattern of length 40", weave) == {"length": 40}
    assert only_args("Weave a pattern of length 40 with more b blocks", weave) == {"length": 40, "blocks": ["B"]}


# --- two dates: the second takes the year of the first, and each parameter its own date ------------------------

def test_a_second_date_without_its_year_is_the_check_out_date():
    stay = tool("book_mews_stay", "Board a falcon at the mews.", ["arrive", "leave"],
                arrive={"type": "string", "description": "Arrival date in the format YYYY-MM-DD."},
                leave={"type": "string", "description": "Leaving date in the format YYYY-MM-DD."})
    assert only_args("Board my falcon from 2027 June 3rd to June 9th", stay) == {
        "arrive": "2027-06-03", "leave": "2027-06-09"}
    # Negative: a date with no year before it stays as written; with one date only, both required dates take it.
    assert only_args("Board my falcon from June 3rd to June 9th", stay) == {"arrive": "June 3rd", "leave": "June 9th"}
    assert only_args("Board my falcon from June 3rd", stay) == {"arrive": "June 3rd", "leave": "June 3rd"}


# --- a list of texts takes the plain words a request lists ---------------------------------------------------

def test_a_list_of_texts_takes_the_lower_case_things_the_request_lists():
    cheeses = tool("find_cheeses", "Find cheeses ripening in the cave.", ["flavours"],
                   flavours={"type": "array", "items": TEXT, "description": "Flavours wanted."})
    assert only_args("Find cheeses in the cave that taste of hazelnut and cut grass", cheeses) == {
        "flavours": ["hazelnut", "cut grass"]}
    assert only_args("Find cheeses with notes of butter, mushroom per rind, and sweet hay", cheeses) == {
        "flavours": ["butter", "mushroom per rind", "sweet hay"]}


def test_a_first_item_is_no_longer_than_the_last_and_starts_after_a_verb_in_ing():
    from helpers.offline.string_lists import plain_items
    assert plain_items("a guild selling felt and also quilt thread") == ["felt", "quilt thread"]
    assert plain_items("a pattern that uses hexagons and diamonds") == ["hexagons", "diamonds"]


def test_no_list_without_and_or_with_names_only():
    from helpers.offline.string_lists import plain_items
    assert plain_items("a quilt with cotton backing") == []  # negative: no "and"
    assert plain_items("Quilts by Ana and Ben") == []  # names are names.py's, not plain words


# --- a year written for a text parameter ------------------------------------------------------------------------

def test_a_text_year_or_season_takes_the_year_written():
    ranks = tool("league_table", "The curling league table.", ["league", "season"],
                 league={"type": "string", "description": "The league."},
                 season={"type": "string", "description": "The season."})
    assert only_args("Show the Lothian Curling League table of the 2025-2026 season", ranks) == {
        "league": "Lothian Curling League", "season": "2025-2026"}
    # Negative: a number that is no year ("1,500 spectators") is no season.
    assert only_args("Show the Lothian Curling League table with 1,500 spectators", ranks)["season"] != "1,500"


# --- a code after the parameter's noun alone, a letter naming one of several, a month, a temperature's scale ----

def test_the_noun_alone_before_a_code_fills_a_two_word_parameter():
    ring = tool("ring_peal", "Ring a peal on the foundry's test bells.", ["first_bell", "changes"],
                first_bell={"type": "string", "description": "The bell to start with, e.g. 'B3'."}, changes=INT)
    assert only_args("Ring 120 changes starting with the bell D4", ring) == {"first_bell": "D4", "changes": 120}
    # Negative: a plain word after the noun alone is no code (the phrase rule may still take it, as a last resort).
    from helpers.offline.noun_phrases import noun_value
    assert noun_value("first_bell", {}, "starting with the bell tenor") == (None, None)


def test_one_capital_letter_after_the_noun_names_it_but_the_article_does_not():
    price = tool("price_quilt", "Price a quilt of the guild.", ["pattern"],
                 pattern={"type": "string", "description": "The quilt pattern."})
    assert only_args("Price the quilt of pattern B with wool batting", price) == {"pattern": "B"}
    from helpers.offline.noun_phrases import noun_value
    assert noun_value("pattern", {}, "the pattern A new quilter likes") == (None, None)  # "A new": an article


def test_a_month_parameter_takes_the_month_named_and_a_degree_sign_is_no_name():
    ripen = tool("ripen_cheese", "Plan the ripening of a cheese in the cave.", ["cheese"],
                 cheese={"type": "string", "description": "The cheese."},
                 month={"type": "string", "description": "Month the ripening starts. Default: this month."},
                 temperature={"type": "integer", "description": "Cave temperature."})
    assert only_args("Plan the ripening of Tomme at 11°C from October", ripen) == {
        "cheese": "Tomme", "month": "October", "temperature": 11}
    # Negative: "may" as a verb is no month.
    assert "month" not in only_args("We may plan the ripening of Tomme at 11°C", ripen)


def test_a_parameter_with_an_example_value_takes_no_whole_statement():
    from helpers.offline.statements import statement_for
    assert statement_for("note", {"description": "A note to keep."}, "Remember that the cave door sticks.") == \
        "The cave door sticks."
    assert statement_for("start_note", {"description": "The first note, e.g. 'C4'."}, "Start on D5") is None


# --- the conversions a description implies: a time in the asked unit, an SI symbol as written ------------------

def test_minutes_become_the_seconds_a_description_asks_for():
    chime = tool("set_chime", "Set how long the foundry bell chimes.", ["chime_length"],
                 chime_length={"type": "integer", "description": "Length of the chime in seconds."})
    assert only_args("Set the bell to chime for 2 minutes", chime) == {"chime_length": 120}
    # Negative: seconds given for seconds stay as they are.
    assert only_args("Set the bell to chime for 45 seconds", chime) == {"chime_length": 45}


def test_a_prefixed_si_symbol_is_read_case_and_all():
    coil = tool("tune_coil", "Tune the rink's scoreboard coil.", ["inductance", "capacitance"],
                inductance={"type": "number", "description": "The inductance in henries (H)."},
                capacitance={"type": "number", "description": "The capacitance in farads (F)."})
    assert only_args("Tune it with 20mH of inductance and 470µF of capacitance", coil) == {
        "inductance": 0.02, "capacitance": 0.00047}
    # Negative: an hour is no henry ("2 h" stays 2 for a time in hours).
    timer = tool("set_timer", "Set the rink timer.", ["hours"],
                 hours={"type": "number", "description": "The time in hours."})
    assert only_args("Set the rink timer to 2 h", timer) == {"hours": 2}


def test_a_statement_parameter_whose_example_is_a_sentence_still_takes_the_statement():
    from helpers.offline.statements import statement_for

    # A made-up pottery studio's notebook: the example is a whole sentence, so the parameter wants one.
    log = {"type": "string", "description": 'The note to save, as one sentence, e.g. "The kiln runs at 1200 C".'}
    assert statement_for("note", log, "Please remember that the blue glaze needs two coats.") == \
        "The blue glaze needs two coats."
    # Negative: a short example value asks for a value like it, not the statement.
    glaze = {"type": "string", "description": "The glaze code to save, e.g. 'BG-2'."}
    assert statement_for("note", glaze, "Please remember that the blue glaze needs two coats.") is None
