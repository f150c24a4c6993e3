"""The offline model's value rules (issue 26: the right value in each argument), on domains no lesson and no BFCL
case uses: a seed library, a choir, a pottery studio, a lighthouse, a bicycle workshop, an observatory.

Each rule is shown firing and, where it has one, not firing (its negative).
"""

import json

import pytest
from made_up import only_args, tool

from helpers.offline.arguments import entities
from helpers.offline.conversation import Conversation, Tool
from helpers.offline.dates import date_for, date_in, wanted_form
from helpers.offline.engine import decide
from helpers.offline.param_values import identifier_in, path_in

TEXT = {"type": "string"}


# --- dates in the form the description asks for ---------------------------------------------------------

@pytest.mark.parametrize(("description", "question", "expected"), [
    ("The firing date in yyyy-mm-dd format.", "Book the kiln firing on March 4, 2027", "2027-03-04"),
    ("Date of the firing (month-day-year).", "Book the kiln firing on 2026/11/09", "11-09-2026"),
    ("The date, e.g. '2024-01-31'.", "Book the kiln firing for the 9th of October 2025", "2025-10-09"),
    ("Date as DD/MM/YYYY.", "Book the kiln firing on Dec.3, 2026", "03/12/2026"),
    ("The date in yyyy-mm-dd format.", "Book the kiln firing tomorrow, Feb02 2027", "2027-02-02"),
])
def test_a_date_is_written_in_the_form_the_description_asks_for(description, question, expected):
    kiln = tool("book_kiln", "Book a firing slot in the pottery studio's kiln.", ["date"],
                date={"type": "string", "description": description})
    assert only_args(question, kiln) == {"date": expected}


@pytest.mark.parametrize(("description", "question", "expected"), [
    ("The firing date in yyyy-mm-dd format.", "Book the kiln firing on 4 March", "4 March"),  # no year: none made up
    ("The firing date.", "Book the kiln firing on March 4, 2027", "March 4, 2027"),  # no form asked: as written
    ("The firing date in yyyy-mm-dd format.", "Book the kiln firing for next week", "next week"),  # no calendar
])
def test_a_date_stays_as_written_when_a_part_or_the_form_is_missing(description, question, expected):
    kiln = tool("book_kiln", "Book a firing slot in the pottery studio's kiln.", ["date"],
                date={"type": "string", "description": description})
    assert only_args(question, kiln) == {"date": expected}


def test_dates_are_read_in_their_usual_written_forms_and_the_verb_may_is_no_month():
    assert (date_in("logged 2031-7-14").month, date_in("logged 25/12/2030").day) == (7, 25)
    assert date_in("the lamp was lit 14th of July 1903").year == 1903
    assert date_in("you may 2 lamps light") is None
    assert wanted_form("Any text") is None


def test_the_date_reader_is_used_directly():
    assert date_for("in MM-DD-YYYY", "the keeper's log of 1903-07-14") == "07-14-1903"
    assert date_for("in MM-DD-YYYY", "no date here") is None


# --- a time zone is a place, not a time -------------------------------------------------------------------

def test_a_time_zone_parameter_takes_a_place_not_the_time():
    convert = tool("convert_clock", "Convert a time between time zones.", ["time", "from_timezone", "to_timezone"],
                   time={"type": "string", "description": "The time to convert."},
                   from_timezone={"type": "string", "description": "The time zone to convert from."},
                   to_timezone={"type": "string", "description": "The time zone to convert to."})
    args = only_args("Convert 7am from Lisbon time zone to Oslo time zone", convert)
    assert args == {"time": "7am", "from_timezone": "Lisbon", "to_timezone": "Oslo"}


# --- emails, quoted texts by their noun, no address twice -------------------------------------------------

MESSAGE = tool("send_message", "Send an email message to a choir member.", ["to", "subject", "body"],
               to={"type": "string", "description": "The email address to send to."},
               subject={"type": "string", "description": "The subject of the email."},
               body={"type": "string", "description": "The body of the email."},
               cc={"type": "string", "description": "The email address to copy. Empty if not given."})


def test_the_address_goes_to_the_address_and_each_quote_to_the_noun_before_it():
    args = only_args("Email Ana Ruiz at ana@choir.example with the subject 'Rehearsal' and body 'Bring your scores, "
                     "we're starting at six'", MESSAGE)
    assert args == {"to": "ana@choir.example", "subject": "Rehearsal",
                    "body": "Bring your scores, we're starting at six"}


def test_an_optional_address_takes_only_an_address_no_other_parameter_took():
    args = only_args("Email ana@choir.example with the subject 'Robes' and body 'Collect them Friday', cc "
                     "bo@choir.example", MESSAGE)
    assert args["to"] == "ana@choir.example" and args["cc"] == "bo@choir.example"


# --- identifiers after "ID", snake_case names after their noun, paths ---------------------------------------

def test_an_identifier_parameter_takes_the_code_after_id():
    packet = tool("seed_packet_info", "Details of a packet in the seed library.", ["packet_id"],
                  packet_id={"type": "string", "description": "The packet identifier."})
    assert only_args("What is in the seed packet with ID sp-4471?", packet) == {"packet_id": "sp-4471"}
    assert only_args("Show the seed packet with id 90812 please", packet) == {"packet_id": "90812"}


def test_the_identifier_whose_noun_stands_before_id_wins():
    assert identifier_in("order_id", "", "For user id 7, cancel order id 12") == "12"
    assert identifier_in("order_id", "", "Cancel the order for the blue bicycle") is None
    assert identifier_in("colour", "The frame colour.", "bike ID 55") is None  # not an identifier parameter


def test_a_snake_case_name_after_the_parameter_noun_is_its_value():
    load = tool("load_table", "Load a table of the observatory's archive.", ["table"],
                table={"type": "string", "description": "The table to load."})
    assert only_args("Load the table night_sky_counts from the archive", load) == {"table": "night_sky_counts"}
    fit = tool("fit_curve", "Fit a light curve.", ["data"], data={"type": "string", "description": "Input data."})
    assert only_args("Fit a light curve to the provided data star_frames", fit) == {"data": "star_frames"}


def test_a_drive_path_with_forward_slashes_is_a_path():
    assert path_in("Open C:/logs/lamp_hours.csv for the lighthouse") == "C:/logs/lamp_hours.csv"
    assert path_in("Open the lamp log") is None


# --- the unit a unit parameter asks for -------------------------------------------------------------------

PACE = tool("ride_pace", "The average pace of a bicycle ride.", ["distance", "duration"],
            distance={"type": "integer", "description": "Distance ridden, in kilometres."},
            duration={"type": "integer", "description": "Time taken, in hours."},
            unit={"type": "string", "description": "Optional. The unit of the pace. Default is km/h."})


def test_a_unit_parameter_takes_the_unit_the_answer_is_asked_in():
    assert only_args("What was my pace in mph for a ride of 40 kilometres in 2 hours?", PACE) == {
        "distance": 40, "duration": 2, "unit": "mph"}


def test_a_unit_the_numbers_own_parameters_fix_is_not_the_unit_parameters():
    assert only_args("What was my pace for a ride of 40 kilometres in 2 hours?", PACE) == {"distance": 40, "duration": 2}


def test_a_unit_no_numeric_parameter_fixes_is_still_taken():
    frame = tool("frame_size", "The frame size for a rider.", ["height"],
                 height={"type": "integer", "description": "The rider's height."},
                 unit={"type": "string", "description": "The unit of the height."})
    assert only_args("Which frame size fits a rider 70 inches tall?", frame) == {"height": 70, "unit": "inches"}


# --- a number word counts the things after it ---------------------------------------------------------------

def test_a_number_word_before_the_parameters_own_noun_is_a_count_not_a_value():
    spokes = tool("spoke_tension", "Tension of two spokes.", ["spoke1", "spoke2"],
                  spoke1={"type": "integer", "description": "Tension of the first spoke in newtons."},
                  spoke2={"type": "integer", "description": "Tension of the second spoke in newtons."})
    assert only_args("Compare the tension of two spokes of 900 N and 1100 N", spokes) == {"spoke1": 900, "spoke2": 1100}


def test_a_number_word_fills_a_count_of_those_things():
    lenses = tool("plan_lenses", "Plan an eyepiece set for the observatory.", ["focal_length", "lenses"],
                  focal_length={"type": "integer", "description": "Focal length in mm."},
                  lenses={"type": "integer", "description": "Number of lenses in the set."})
    assert only_args("Plan an eyepiece set of four lenses at 25 mm", lenses) == {"focal_length": 25, "lenses": 4}


def test_a_number_goes_to_the_required_parameter_before_an_optional_one_with_a_default():
    dose = tool("feed_dose", "Seed feed dose.", ["grams"],
                grams={"type": "integer", "description": "Feed in grams."},
                grams_per_tray={"type": "integer", "description": "Feed energy of one tray, default is 40 grams."})
    assert only_args("What feed energy gives 300 grams?", dose) == {"grams": 300}
    assert only_args("What feed energy gives 300 grams with 60 grams per tray?", dose) == {"grams": 300,
                                                                                          "grams_per_tray": 60}


# --- flags: a state word names the flag, a hyphenated word its joined name --------------------------------------

def test_a_flag_named_for_a_state_is_set_by_the_state_word():
    repair = tool("repair_ticket", "Look up a bicycle repair ticket.", ["ticket_id", "finished_status"],
                  ticket_id={"type": "integer", "description": "The ticket number."},
                  finished_status={"type": "boolean", "description": "Whether to check it is finished."})
    assert only_args("Look up repair ticket 5521 and check if it's finished", repair) == {
        "ticket_id": 5521, "finished_status": True}
    assert only_args("Look up repair ticket 5521, not finished", repair)["finished_status"] is False


def test_a_hyphenated_word_sets_the_flag_named_by_its_joined_form():
    tours = tool("find_tours", "Find observatory tours.", ["year"], year={"type": "integer", "description": "Year."},
                 nighttime={"type": "boolean", "description": "Only tours after dark."})
    assert only_args("Find night-time observatory tours in 2027", tours) == {"year": 2027, "nighttime": True}
    assert only_args("Find observatory tours in 2027", tours) == {"year": 2027}


# --- a request verb is no part of a name ------------------------------------------------------------------------

def test_a_request_verb_after_a_name_starts_a_new_request():
    club = tool("club_rides", "The last ride of a cycling club.", ["club"],
                club={"type": "string", "description": "The club's name."},
                include_map={"type": "boolean", "description": "Whether to add the route map."})
    assert only_args("Get the last ride of Velo Club Leith. Include its map.", club) == {
        "club": "Velo Club Leith", "include_map": True}


# --- formulas: one per parameter, terms are no numbers, a variable is no formula ---------------------------------

SLOPE = tool("slope_at", "The slope of a growth curve for the seed trial.", ["expression"],
             expression={"type": "string", "description": "The expression of the curve."},
             point={"type": "number", "description": "Where to take the slope. Default is 0."},
             expression_variable={"type": "string", "description": "The variable in the expression, for instance t "
                                                                    "or s. Default is 't'."})


def test_two_formula_parameters_take_the_two_formulas_in_order():
    meet = tool("curves_meet", "Where two growth curves of the seed trial meet.", ["curve1", "curve2"],
                curve1={"type": "string", "description": "The first expression."},
                curve2={"type": "string", "description": "The second expression."})
    assert only_args("Where do the growth curves y=4t+1 and y=2t+7 meet?", meet) == {"curve1": "4t+1", "curve2": "2t+7"}


def test_the_terms_of_a_formula_are_not_numbers_for_other_parameters():
    assert only_args("Find the slope of the expression 5t^2 + 4t - 2", SLOPE) == {"expression": "5t**2 + 4t - 2"}


def test_a_parameter_for_the_variable_of_a_formula_is_no_formula():
    at_point = Tool(SLOPE.name, SLOPE.description, {**SLOPE.parameters, "required": ["expression", "point"]})
    args = only_args("Find the slope of the expression 5t^2 at t = 3", at_point)
    assert args["expression"] == "5t**2" and args["point"] == 3 and args.get("expression_variable", "t") == "t"


# --- a span of time said with no number, for a count of days ---------------------------------------------------

SKY = tool("sky_forecast", "Cloud cover forecast for stargazing at the observatory.", ["site", "days"],
           site={"type": "string", "description": "The observatory's name."},
           days={"type": "integer", "description": "Number of days to forecast."})


@pytest.mark.parametrize(("when", "days"), [("the next week", 7), ("the coming fortnight", 14),
                                             ("the coming month", 30)])
def test_a_span_with_no_number_gives_its_days(when, days):
    assert only_args(f"Cloud cover at Kielder for {when}?", SKY) == {"site": "Kielder", "days": days}


def test_a_number_of_days_said_wins_over_a_span_and_a_span_fills_no_other_count():
    assert only_args("Cloud cover at Kielder for 3 days this week?", SKY)["days"] == 3
    tickets = tool("book_tour", "Book an observatory tour.", ["visitors"],
                   visitors={"type": "integer", "description": "Number of visitors."})
    assert only_args("Book an observatory tour next week", tickets) != {"visitors": 7}


# --- a place with its region -------------------------------------------------------------------------------------

def swaps(description):
    return tool("find_seed_swaps", "Find seed swap events.", ["location"],
                location={"type": "string", "description": description})


def test_a_place_keeps_its_region_when_the_description_asks_for_city_and_state():
    assert only_args("Find seed swaps in Asheville, North Carolina", swaps("The city and state, e.g. Austin, TX")) == {
        "location": "Asheville, North Carolina"}
    assert only_args("Find seed swaps in Asheville, North Carolina", swaps("The town.")) == {"location": "Asheville"}


def test_a_region_is_no_value_of_its_own_but_a_country_parameter_takes_it():
    route = tool("cycle_route", "Plan a cycle route.", ["start_location", "end_location"],
                 start_location={"type": "string", "description": "Where the ride starts."},
                 end_location={"type": "string", "description": "Where the ride ends."})
    assert only_args("Plan a cycle route from Bruges, Belgium to Lille, France", route) == {
        "start_location": "Bruges", "end_location": "Lille"}
    sky = tool("sky_quality", "Night sky quality for stargazing.", ["city", "country"],
               city={"type": "string", "description": "The town."}, country={"type": "string", "description": "Its country."})
    assert only_args("Night sky quality near Tekapo, New Zealand?", sky) == {"city": "Tekapo", "country": "New Zealand"}


def test_a_comma_that_runs_a_list_joins_no_region():
    decision = decide(Conversation(question="Find seed swaps in Asheville, Boone and Durham",
                                   tools=[swaps("The city and state, e.g. Austin, TX")]))
    assert all(", " not in json.loads(args)["location"] for _, args in decision.calls)


# --- no name: a gloss in brackets, a unit's name, the tool's own words --------------------------------------------

def test_a_gloss_in_brackets_is_no_name_of_its_own():
    assert entities("Order a new RD (Rear Derailleur) for the Brompton") == ["RD", "Brompton"]
    assert entities("Order a new Rear Derailleur (RD) for the Brompton") == ["Rear Derailleur", "Brompton"]
    assert entities("Order the part (Shimano Deore) for the Brompton") == ["Shimano Deore", "Brompton"]  # no gloss


def test_a_unit_is_no_name_and_neither_are_the_tools_own_words():
    assert entities("What heat (in Kelvin) does the kiln reach for Leach stoneware?") == ["Leach"]
    assert entities("What heat does the kiln reach in kelvin?") == []  # the words after "in" stand in for names, not units
    glaze = tool("glaze_viscosity", "Glaze Viscosity of a pottery glaze.", ["glaze"], glaze=TEXT)
    assert entities("Find the Glaze Viscosity of Tenmoku", glaze) == ["Tenmoku"]


# --- a name goes to the parameter the words before it, or its own last word, point at --------------------------------

def test_a_name_goes_to_the_parameter_its_preposition_names():
    piece = tool("find_piece", "Find a bowl or another piece in the pottery collection.", ["title", "artist"],
                 title={"type": "string", "description": "The title of the piece."},
                 artist={"type": "string", "description": "Who made it."})
    assert only_args("Find the bowl titled 'Moon Jar' by Lucie Rie", piece) == {"title": "Moon Jar", "artist": "Lucie Rie"}
    assert only_args("Find the bowl by Lucie Rie titled 'Moon Jar'", piece) == {"title": "Moon Jar", "artist": "Lucie Rie"}


def test_a_name_that_ends_in_a_parameters_noun_is_that_parameters():
    fixtures = tool("club_fixtures", "Fixtures of a cycling club.", ["club"],
                    club={"type": "string", "description": "The club."},
                    league={"type": "string", "description": "The league, if any."},
                    location={"type": "string", "description": "Optional. The town of the races."})
    assert only_args("Show the fixtures of Velo Leith in the Lothian Cycling League", fixtures) == {
        "club": "Velo Leith", "league": "Lothian Cycling League"}


def test_a_place_named_after_in_is_left_to_the_place_parameter():
    census = tool("bird_census", "Count birds at a reserve.", ["species", "country"],
                  species={"type": "string", "description": "The bird species."},
                  country={"type": "string", "description": "The country of the reserve."})
    args = only_args("Count the puffins at the reserve in Iceland", census)
    assert args["country"] == "Iceland" and args["species"] != "Iceland"


# --- hyphenated words, "to" before a code, a name inside a value ------------------------------------------------------

def test_a_hyphenated_word_says_its_parts():
    kiln = tool("kiln_cost", "Running cost of a kiln.", ["kiln_type", "hours"],
                kiln_type={"type": "string", "description": "The kind of kiln: 'gas', 'wood' or 'electric'."},
                hours={"type": "integer", "description": "Hours of firing."})
    assert only_args("What does a wood-burning kiln cost to run for 9 hours?", kiln) == {"kiln_type": "wood", "hours": 9}
    fuel = tool("kiln_fuel", "Fuel use of a kiln.", ["fuel_type", "hours"],
                fuel_type={"type": "string", "description": "What the kiln burns."},
                hours={"type": "integer", "description": "Hours of firing."})
    assert only_args("Fuel use of a propane-fueled kiln over 9 hours?", fuel) == {"fuel_type": "propane", "hours": 9}


def test_a_code_after_to_sets_the_noun_before_it():
    frame = tool("resize_print", "Resize a print of the observatory's photo.", ["size"],
                 size={"type": "string", "description": "The print size, width by height."})
    assert only_args("Resize the print, change size to 30x40", frame) == {"size": "30x40"}


def test_a_name_inside_a_value_already_given_is_used():
    claim = tool("repair_claim", "A bicycle repair claim.", ["claim", "shop"],
                 claim={"type": "string", "description": "The claim's reference."},
                 shop={"type": "string", "description": "The shop that did the repair."})
    args = only_args("Check the repair claim numbered 2026/BK881 at Spokes", claim)
    assert args == {"claim": "2026/BK881", "shop": "Spokes"}
