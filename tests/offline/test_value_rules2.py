"""The offline model's value rules, second round (issue 26), on domains no lesson, no BFCL case and not the first
round's six use: a glassblowing studio, a tram depot, a fungarium (a mushroom herbarium), a sailmaker's loft.

Each rule is shown firing and, where it has one, not firing (its negative).
"""


from made_up import only_args, tool

from helpers.offline.param_values import listed_values

TEXT = {"type": "string"}


# --- values a description lists with "i.e." or "e.g.", for a text and for a list of texts ----------------------

def test_a_list_after_i_e_gives_the_values_and_its_closing_etc_is_no_value():
    assert listed_values({"description": "What to report, i.e., cracks, bubbles, stones etc."}) == [
        "cracks", "bubbles", "stones"]
    assert listed_values({"description": "Units. For example, 'mm', 'inch' etc."}) == ["mm", "inch"]


def test_a_text_parameter_takes_the_listed_value_the_request_says():
    inspect = tool("inspect_vase", "Inspect a blown glass vase by its batch code.", ["batch", "defect"],
                   batch=TEXT, defect={"type": "string", "description": "The defect to look for, i.e., cracks, "
                                                                        "bubbles, stones etc."})
    assert only_args("Were there bubbles in the vase of batch GX-204?", inspect) == {
        "batch": "GX-204", "defect": "bubbles"}


def test_a_list_parameter_takes_every_listed_value_the_request_says_and_none_it_does_not():
    depot = tool("find_trams", "Find trams in the depot.", ["depot"],
                 depot={"type": "string", "description": "The name of the tram depot."},
                 features={"type": "array", "items": TEXT,
                           "description": "Features wanted, e.g. low-floor, air conditioning, bike racks."})
    assert only_args("Find trams at Tolbooth depot with bike racks and air conditioning", depot) == {
        "depot": "Tolbooth", "features": ["bike racks", "air conditioning"]}
    # Negative: nothing listed is said, so the optional list is left out.
    assert only_args("Find trams at Tolbooth depot", depot) == {"depot": "Tolbooth"}


# --- a number's unit against the unit a description writes --------------------------------------------------

def test_seconds_go_to_a_time_in_seconds_not_to_a_speed_per_second():
    winch = tool("winch_haul", "Work out how far a sail winch hauls a line.", ["line_speed", "rate_change", "duration"],
                 line_speed={"type": "number", "description": "The starting line speed in meters/second."},
                 rate_change={"type": "number", "description": "How fast the speed grows, in meters/second^2."},
                 duration={"type": "number", "description": "How long it hauls, in seconds."})
    assert only_args("The winch gains 0.2 meters/second^2 over 12 seconds, from 0.5 meters/second.", winch) == {
        "line_speed": 0.5, "rate_change": 0.2, "duration": 12}


def test_a_unit_written_inside_a_word_of_the_description_still_fits():
    loft = tool("price_sail", "Price a new sail for the loft.", ["area", "panels"],
                area={"type": "integer", "description": "Sail area in square feet."},
                panels={"type": "integer", "description": "How many cloth panels."})
    assert only_args("Price a sail of 14 panels and 320 sq ft", loft) == {"area": 320, "panels": 14}


# --- a long word mistyped still names its parameter ---------------------------------------------------------

def test_a_mistyped_long_parameter_word_still_points_at_its_number():
    culture = tool("culture_spores", "Grow a spore culture from a fungarium specimen.", ["specimens"],
                   specimens={"type": "integer", "description": "How many specimens to plate."},
                   temperature={"type": "number", "description": "Incubation temperature in Celsius. Default 22."})
    assert only_args("Plate 6 specimens at a tempreature of 24.5", culture) == {"specimens": 6, "temperature": 24.5}
    # Negative: no word near the number is (or is close to) "temperature", so the optional stays out.
    assert only_args("Plate 6 specimens with a heat of 24.5", culture) == {"specimens": 6}


# --- lists of numbers: a table of rows, and no list given twice ---------------------------------------------

def test_an_array_of_numeric_rows_takes_the_rows_the_request_writes():
    grid = tool("kiln_shelf_plan", "Plan where the glass pieces stand on the annealing shelf.", ["layout"],
                layout={"type": "array", "items": {"type": "array", "items": {"type": "integer"}},
                        "description": "Rows of piece heights in cm."})
    assert only_args("Plan the shelf with rows [[12, 30], [8, 15, 22]]", grid) == {"layout": [[12, 30], [8, 15, 22]]}


def test_an_optional_list_takes_no_list_another_parameter_took():
    fares = tool("fare_totals", "Add up tram fares taken on each route.", ["fares"],
                 fares={"type": "array", "items": {"type": "number"}, "description": "The fares taken."},
                 routes={"type": "array", "items": {"type": "integer"}, "description": "Route numbers, optional."})
    assert only_args("Add up the fares [2.5, 3, 1.75]", fares) == {"fares": [2.5, 3, 1.75]}
    # Two lists: the second goes to the optional parameter.
    assert only_args("Add up the fares [2.5, 3] on routes [11, 23]", fares) == {"fares": [2.5, 3], "routes": [11, 23]}


# --- a flag set by the action its description gives it ------------------------------------------------------

def _quote_tool():
    return tool("quote_sail", "Quote the price of a new sail.", ["sail"],
                sail={"type": "string", "description": "The kind of sail, e.g. mainsail, jib, spinnaker."},
                premium={"type": "boolean", "description": "If true, include a spare batten set. Default is false."})


def test_a_flag_is_set_when_the_request_says_the_action_its_description_gives_it():
    assert only_args("Quote a jib and include the spare batten set", _quote_tool()) == {"sail": "jib", "premium": True}
    assert only_args("Quote a jib, without including a batten set", _quote_tool()) == {"sail": "jib", "premium": False}


def test_a_flag_stays_out_when_the_request_says_only_part_of_that_action():
    # Negative: "battens" alone, with no "include", is not the action.
    assert only_args("Quote a jib with battens", _quote_tool()) == {"sail": "jib"}


# --- a description ending with a preposition leaves a slot for the name after it ----------------------------

def _timetable_tool():
    return tool("tram_timetable", "The timetable of a tram line.", ["line"],
                line={"type": "string", "description": "The name of the tram line."},
                depot={"type": "string", "description": "The depot the trams start from."})


def test_an_optional_text_takes_the_name_after_the_preposition_its_description_ends_with():
    assert only_args("The timetable of the Harbour Line from Gorgie", _timetable_tool()) == {
        "line": "Harbour Line", "depot": "Gorgie"}


def test_a_name_after_another_preposition_leaves_the_slot_empty():
    # Negative: "to Gorgie" is not "from Gorgie": the optional depot stays out.
    assert only_args("The timetable of the Harbour Line to Gorgie", _timetable_tool()) == {"line": "Harbour Line"}


# --- a frequency word is a count per year, not a time span --------------------------------------------------

def _pass_tool(**extra):
    return tool("price_tram_pass", "Price a tram season pass.", ["fare", "span"],
                fare={"type": "number", "description": "The fare of each payment."},
                span={"type": "integer", "description": "The time span in years the pass covers."}, **extra)


def test_monthly_goes_to_a_count_per_year_and_the_years_to_the_span():
    paid = _pass_tool(instalments={"type": "integer", "description": "How many times per year it is paid."})
    assert only_args("Price a pass of $40 paid monthly over 2 years", paid) == {"fare": 40, "span": 2, "instalments": 12}


def test_a_time_span_in_years_takes_no_frequency_word():
    # Negative: with no count-per-year parameter, "monthly" goes nowhere; the span is the 2 years.
    assert only_args("Price a pass of $40 paid monthly over 2 years", _pass_tool()) == {"fare": 40, "span": 2}
