"""How many calls a request asks for, and which tool each is (call_plan.py), on domains no lesson and no BFCL
case uses: a bakery, a glasshouse, a sailing club, a pottery kiln, an aquarium.

Each rule is shown firing and, where it has one, not firing (its negative).
"""


from made_up import calls, tool


def num(description):
    return {"type": "number", "description": description}


PROOF = tool("proofing_time", "Estimate how long a dough needs to proof.", ["flour_grams", "room_celsius"],
             flour_grams=num("Flour in the dough, in grams."), room_celsius=num("Room temperature in Celsius."))
KILN = tool("kiln_schedule", "Plan a pottery kiln firing.", ["peak_celsius", "hold_minutes"],
            peak_celsius=num("Peak temperature in Celsius."), hold_minutes=num("Minutes held at the peak."))
GLAZE = tool("glaze_cost", "Cost of the glaze for a firing.", ["peak_celsius"],
             peak_celsius=num("Peak temperature in Celsius."), pots=num("How many pots are glazed."))
TANKS = tool("mixed_water_temperature", "Temperature of two aquarium tanks' water mixed together.",
             ["volume1", "temperature1", "volume2", "temperature2"],
             volume1=num("Litres of the first tank."), temperature1=num("Temperature of the first tank."),
             volume2=num("Litres of the second tank."), temperature2=num("Temperature of the second tank."))


def test_each_sentence_may_start_another_task():
    # A full stop before a capital ends a sentence: the second sentence is a task of its own.
    question = "Estimate the proofing time for 500 grams of flour at 24 Celsius. Do the same for 800 grams at 20 Celsius."
    assert [args for _, args in calls(question, PROOF)] == [
        {"flour_grams": 500, "room_celsius": 24}, {"flour_grams": 800, "room_celsius": 20}]


def test_a_sentence_that_names_the_tool_and_gives_nothing_is_context_not_a_call():
    # "two loaves" counts the story's things: no call of flour_grams=2.
    question = ("Our baker is proofing two loaves today. The first loaf has 500 grams of flour at 24 Celsius. "
                "The second loaf has 700 grams of flour at 21 Celsius. How long is the proofing time of each?")
    assert [args for _, args in calls(question, PROOF)] == [
        {"flour_grams": 500, "room_celsius": 24}, {"flour_grams": 700, "room_celsius": 21}]


def test_sentences_that_together_fill_one_call_stay_one_call():
    # Each sentence alone would bind `temperature1`; read together they are the two tanks of one mix.
    question = ("The first tank holds 30 litres at a temperature of 12 degrees. The second tank holds 50 litres "
                "at a temperature of 20 degrees. What is the temperature of the water mixed together?")
    assert [args for _, args in calls(question, TANKS)] == [
        {"volume1": 30, "temperature1": 12, "volume2": 50, "temperature2": 20}]


def test_a_later_task_takes_the_value_an_earlier_call_gave_a_parameter_of_the_same_name():
    question = "Plan a kiln firing to a peak of 1240 Celsius held for 20 minutes. Also work out the glaze cost."
    assert calls(question, KILN, GLAZE) == [
        ("kiln_schedule", {"peak_celsius": 1240, "hold_minutes": 20}), ("glaze_cost", {"peak_celsius": 1240})]


def test_a_later_task_that_gives_a_tool_nothing_and_nothing_earlier_fills_is_no_call():
    moor = tool("book_mooring", "Book a mooring at the sailing club.", ["boat_name"],
                boat_name={"type": "string", "description": "The boat's name."})
    question = "Plan a kiln firing to 1100 Celsius held for 15 minutes. What is the mooring tool and how do I book?"
    assert calls(question, KILN, moor) == [("kiln_schedule", {"peak_celsius": 1100, "hold_minutes": 15})]


def test_a_number_word_is_a_value_where_a_count_parameter_counts_those_things():
    seeds = tool("sow_seed_trays", "Sow seed trays in the glasshouse.", ["count"],
                 count={"type": "integer", "description": "The number of trays to sow."})
    question = "Plan a kiln firing to 1000 Celsius held for 10 minutes. Also sow the first four seed trays."
    assert calls(question, KILN, seeds) == [
        ("kiln_schedule", {"peak_celsius": 1000, "hold_minutes": 10}), ("sow_seed_trays", {"count": 4})]


def test_a_name_a_later_sentence_gives_another_parameter_stays_in_one_call():
    booking = tool("book_kiln", "Book a kiln at a pottery studio.", ["kiln_name", "studio"],
                   kiln_name={"type": "string", "description": "The kiln's name."},
                   studio={"type": "string", "description": "The studio the kiln is at."})
    question = "I want to book the kiln 'Big Bertha'. I want it at the 'Northside' studio."
    assert calls(question, booking) == [("book_kiln", {"kiln_name": "Big Bertha", "studio": "Northside"})]


def test_a_verb_after_and_is_no_list_item():
    from helpers.offline.lists import word_lists

    assert word_lists("I am working on a mural and need the glaze cost") == []
    assert len(word_lists("the glaze cost for bowls and jugs")) == 1


def test_ordering_words_are_dropped_and_a_do_not_sentence_joins_the_task_before():
    from helpers.offline.tasks import clauses

    assert clauses("First, fire the kiln to 1200 Celsius. Secondly, glaze the jugs. Don't glaze the bowls.") == [
        "fire the kiln to 1200 Celsius", "glaze the jugs, don't glaze the bowls"]
    # "First" is no name: the call's text parameter does not take it.
    moor = tool("book_mooring", "Book a mooring at the sailing club.", ["boat_name"],
                boat_name={"type": "string", "description": "The boat's name."})
    assert calls("First, book a mooring for the boat 'Kittiwake'.", moor) == [
        ("book_mooring", {"boat_name": "Kittiwake"})]


FERRY = tool("book_ferry", "Book a ferry crossing.", ["origin", "destination", "date"],
             origin={"type": "string", "description": "The port the ferry leaves from."},
             destination={"type": "string", "description": "The port the ferry arrives at."},
             date={"type": "string", "description": "The date of the crossing."})


def test_a_part_after_and_that_gives_the_same_parameters_again_is_another_call():
    question = "Book a ferry from Oban to Tiree on 3 May 2027 and another ferry from Tiree to Barra on 9 May 2027."
    assert [(a["origin"], a["destination"]) for _, a in calls(question, FERRY)] == [
        ("Oban", "Tiree"), ("Tiree", "Barra")]


def test_amounts_each_with_their_own_place_are_one_call_each():
    fee = tool("harbour_fee", "Harbour fee for a boat.", ["length_m", "harbour"],
               length_m=num("Length of the boat in metres."),
               harbour={"type": "string", "description": "The harbour."})
    question = "Calculate the harbour fee for a boat of 9 metres in Ullapool, 12 metres in Mallaig and 7 metres in Oban."
    assert [(a["length_m"], a["harbour"]) for _, a in calls(question, fee)] == [
        (9, "Ullapool"), (12, "Mallaig"), (7, "Oban")]


def test_values_for_different_parameters_joined_by_and_stay_one_call():
    # Negatives: "and" between two parameters' values, "between A and B", and a list of items.
    assert len(calls("Plan a kiln firing to a peak of 1240 Celsius and a hold of 20 minutes", KILN)) == 1
    between = tool("sailing_distance", "Sailing distance between two harbours.", ["harbour_a", "harbour_b"],
                   harbour_a={"type": "string"}, harbour_b={"type": "string"})
    assert calls("What is the sailing distance between Oban and Tobermory?", between) == [
        ("sailing_distance", {"harbour_a": "Oban", "harbour_b": "Tobermory"})]
    # A list is the list rule's: one call per item, each with the rest of the clause.
    assert [a["destination"] for _, a in calls("Book a ferry from Oban to Tiree and Coll on 3 May 2027", FERRY)] == [
        "Tiree", "Coll"]


YIELD = tool("glasshouse_yield", "Tomato yield of the glasshouse in a year.", ["year"],
             year={"type": "integer", "description": "The year."})
RAIN = tool("rainfall_total", "Total rainfall at the glasshouse in a year.", ["year"],
            year={"type": "integer", "description": "The year."})


def test_a_task_for_those_same_subjects_takes_each_value_the_calls_before_it_took():
    question = "What was the glasshouse yield in 2019 and 2021? Additionally, what was the rainfall total in those years?"
    assert calls(question, YIELD, RAIN) == [
        ("glasshouse_yield", {"year": 2019}), ("glasshouse_yield", {"year": 2021}),
        ("rainfall_total", {"year": 2019}), ("rainfall_total", {"year": 2021})]


def test_a_task_that_gives_its_own_value_takes_none_from_the_calls_before_it():
    question = "What was the glasshouse yield in 2019 and 2021? Additionally, what was the rainfall total in 2020?"
    assert calls(question, YIELD, RAIN)[-1] == ("rainfall_total", {"year": 2020})
    assert len(calls(question, YIELD, RAIN)) == 3


def test_places_written_with_their_region_are_one_item_each():
    tide = tool("tide_table", "High and low tides at a harbour.", ["harbour"],
                harbour={"type": "string", "description": "The harbour, with its county."})
    question = "Get the tide table for Oban, Argyll and Ullapool, Ross"
    # Two calls, one per place (how much of "Oban, Argyll" the parameter keeps is the argument rules' business).
    assert [a["harbour"].split(",")[0] for _, a in calls(question, tide)] == ["Oban", "Ullapool"]
    # A plain list of names stays one name per item.
    assert len(calls("Get the tide table for Oban, Ullapool, Mallaig and Tarbert", tide)) == 4


NOTICE = tool("post_notice", "Post a notice on the sailing club's board.", ["title", "body"],
              title={"type": "string", "description": "The notice's title."},
              body={"type": "string", "description": "The notice's text."})


def test_a_part_that_names_a_parameter_the_part_before_never_named_gives_it_for_the_first_time():
    # "... and body '...'": the body is named only after "and", so it belongs to the same notice.
    got = calls("Post a notice for Harbour Week titled 'Slipway closed' and body 'Use the east ramp'", NOTICE)
    assert [name for name, _ in got] == ["post_notice"]
    assert got[0][1]["body"] == "Use the east ramp"
    # Its negative: both parts name the title, so each is a notice of its own.
    got = calls("Post a notice with title 'Slipway closed' and body 'Use the east ramp', and another with title "
                "'Bar open late' and body 'Until midnight'", NOTICE)
    assert [(args["title"], args["body"]) for _, args in got] == [("Slipway closed", "Use the east ramp"),
                                                                   ("Bar open late", "Until midnight")]


TRADES = tool("find_boatyard", "Find a boatyard near a harbour.", ["location", "service"],
              location={"type": "string", "description": "The town and its county."},
              service={"type": "string", "description": "The service wanted."})


def test_a_place_written_with_its_region_is_a_value_given_again_so_a_second_clause_is_another_call():
    got = calls("Find a boatyard for antifouling in Oban, Argyll and then a boatyard for rigging in Ullapool, Ross",
                TRADES)
    # Two calls (how much of "Oban, Argyll" the parameter keeps is the argument rules' business).
    assert [a["location"].split(",")[0] for _, a in got] == ["Oban", "Ullapool"]
    # Its negative: a second clause that gives no place of its own adds to the one call.
    assert len(calls("Find a boatyard for antifouling in Oban, Argyll and then sort them by rating", TRADES)) == 1


def test_the_speaker_is_no_item_of_a_list():
    from helpers.offline.lists import lists_in

    assert lists_in("I'm moored in Oban, Argyll and I'm after a boatyard for rigging") == []
    assert len(calls("I'm moored in Oban, Argyll and I'm after a boatyard for rigging", TRADES)) == 1
    # Its negative: names joined by "and" are still a list.
    assert len(lists_in("I need riggers in Oban and Mallaig")) == 1


def test_a_sentence_opening_word_before_a_pronoun_or_comma_is_no_name():
    from helpers.offline.names import entities

    assert entities("Imagine you run a rope walk. After your shift, you splice ropes in Mallaig.") == ["Mallaig"]
    assert entities("Later, we sail to Tiree.") == ["Tiree"]
    # Its negative: a name that opens a sentence is followed by its verb, and stays a name.
    assert entities("Oban has two slipways. Mallaig is busier.") == ["Oban", "Mallaig"]


def test_a_phrase_said_again_before_every_item_makes_a_list_without_and():
    from helpers.offline.lists import lists_in

    gauge = tool("tide_gauge_reading", "Read a tide gauge.", ["gauge"],
                 gauge={"type": "integer", "description": "The gauge's number."})
    # The "and" lies beyond the task's cut ("then"): the phrase said again says it is a list.
    got = calls("Read tide gauge 5, tide gauge 3, then tide gauge 4 and finally tide gauge 2", gauge)
    assert [a["gauge"] for _, a in got] == [5, 3, 4, 2]
    # Its negative: a bare comma between two names is one place, not a list.
    assert lists_in("Read the tide gauge at Oban, Argyll") == []


def test_followed_by_starts_another_task():
    from helpers.offline.tasks import clauses

    assert clauses("Glaze a bowl in celadon, followed by a jug in tenmoku") == ["Glaze a bowl in celadon",
                                                                                "a jug in tenmoku"]
    # Its negative: without it, the clause stays whole.
    assert clauses("Glaze a bowl in celadon with a jug beside it") == ["Glaze a bowl in celadon with a jug beside it"]


CURE = tool("cure_cheese", "Plan the curing of a cheese wheel.", ["wheel", "brine"],
            wheel={"type": "string", "description": "The wheel's label."},
            brine={"type": "string", "enum": ["light", "heavy"], "description": "The brine used."},
            weeks={"type": "integer", "description": "Weeks of curing."})


def test_a_repeat_repeats_every_call_before_it_with_what_it_changes():
    got = calls("Plan the curing of wheels 'Tomme 12' and 'Brie 4' in light brine, then repeat the same plan in "
                "heavy brine", CURE)
    assert sorted((a["wheel"], a["brine"]) for _, a in got) == [
        ("Brie 4", "heavy"), ("Brie 4", "light"), ("Tomme 12", "heavy"), ("Tomme 12", "light")]
    # Its negative: a repeat that changes what told the calls apart is one more call, not two.
    got = calls("Plan the curing of wheels 'Tomme 12' and 'Brie 4' in light brine, then do the same for wheel "
                "'Feta 9'", CURE)
    assert [a["wheel"] for _, a in got] == ["Tomme 12", "Brie 4", "Feta 9"]


def test_a_repeat_for_a_member_does_not_give_that_member_to_a_text_parameter():
    # "for 'heavy' brine": the member is the brine's, not a new wheel label.
    got = calls("Plan the curing of wheel 'Tomme 12' in 'light' brine, then repeat for 'heavy' brine", CURE)
    assert [(a["wheel"], a["brine"]) for _, a in got] == [("Tomme 12", "light"), ("Tomme 12", "heavy")]


def test_a_member_an_enum_list_took_is_no_text_value_of_the_clause_so_and_cuts_no_record():
    field = tool("find_kite_field", "Find a kite field near a town.", ["location"],
                 location={"type": "string", "description": "The town and its county."},
                 features={"type": "array", "items": {"type": "string", "enum": ["Windsock", "Car Park", "Toilets"]}})
    got = calls("Find kite fields in Oban, Argyll that have a Windsock and a Car Park, then find kite fields in "
                "Ullapool, Ross that have Toilets", field)
    assert [a["features"] for _, a in got] == [["Windsock", "Car Park"], ["Toilets"]]
    # Its negative: a second place after "and" is still another call.
    assert len(calls("Find kite fields with a Windsock in Oban and kite fields with Toilets in Ullapool", field)) == 2


def test_a_member_given_again_after_then_is_another_call():
    gauge = tool("tide_summary", "Summary of a harbour's tides over a time frame.", ["harbour", "time_frame"],
                 harbour={"type": "string", "description": "The harbour."},
                 time_frame={"type": "string", "enum": ["week", "year", "five_years"]})
    got = calls("Give me the tide summary for Oban for the past year and then for the past five years", gauge)
    assert [a["time_frame"] for _, a in got] == ["year", "five_years"]
    # Its negative: one member said is one call.
    assert len(calls("Give me the tide summary for Oban for the past five years", gauge)) == 1


LOFT = tool("top_kites", "Fetch the top kites of a kite club's loft.", ["number"],
            number={"type": "integer", "description": "The number of kites to fetch."},
            sort_by={"type": "string", "enum": ["popularity", "wingspan", "chronological"],
                     "description": "How the kites are sorted. Default is 'popularity'."})
RESALE = tool("kite_resale_growth", "Growth of a kite's resale price.", ["initial_price", "final_price"],
              initial_price={"type": "integer", "description": "The price paid for the kite."},
              final_price={"type": "integer", "description": "The price the kite is worth now."})


def test_one_parameter_named_twice_with_two_numbers_is_two_calls_when_one_number_would_be_left_over():
    # Read together, "the top 5 kites" takes `number` and the 10 is left over: two calls, not one with 5.
    got = calls("Fetch the top 10 popular kites at the Oban Kite Club sorted by popularity and then fetch the top 5 "
                "kites sorted chronologically", LOFT)
    assert [(a["number"], a["sort_by"]) for _, a in got] == [(10, "popularity"), (5, "chronological")]
    # Its negative: read together, both numbers are used (paid, then worth now): one call.
    question = "Ana paid $40 for a kite five years ago. Today the kite's price is worth $65. What is its resale growth?"
    assert len(calls(question, RESALE)) == 1


DYE = tool("dye_cost", "Cost of dyeing wool.", ["grams", "colour"],
           grams={"type": "integer", "description": "The wool to dye, in grams."},
           colour={"type": "string", "description": "The dye colour."})


def test_the_one_number_of_each_clause_for_a_tools_one_numeric_parameter_is_a_call_each():
    got = calls("How much will it cost if I dye 300 of wool in indigo? and how much if I dye 500 in madder?", DYE)
    assert [a["grams"] for _, a in got] == [300, 500]
    # Its negative: a number inside a name read together ("Force 6") is used, so the clauses stay one call.
    rating = tool("kite_finder", "Find a kite.", ["rating", "wind"], rating={"type": "number"},
                  wind={"type": "string", "description": "The wind the kite flies in."})
    assert len(calls("Find me a kite with rating above 4.5 and made for Force 6", rating)) == 1


HISTORY = tool("island_history", "Fetch facts about an event in the isles' history.", ["event"],
               event={"type": "string", "description": "The event."})


def test_a_question_before_a_task_that_gives_the_same_parameter_is_a_call_of_its_own():
    got = calls("What was the Battle of Largs about? Also, what was the importance of the Lewis Chessmen in history?",
                HISTORY)
    assert [a["event"] for _, a in got] == ["Battle of Largs", "Lewis Chessmen"]
    # Its negative: a statement before the task is context, not a call.
    assert len(calls("I grew up near Largs. What was the importance of the Lewis Chessmen in history?", HISTORY)) == 1


def test_between_a_and_b_is_one_span_even_when_its_ends_are_plain_two_word_names():
    between = tool("sailing_distance", "Sailing distance between two harbours.", ["harbour_a", "harbour_b"],
                   harbour_a={"type": "string"}, harbour_b={"type": "string"})
    question = "What is the sailing distance between Port Ellen and Port Askaig, and between North Berwick and South Leith?"
    assert [(a["harbour_a"], a["harbour_b"]) for _, a in calls(question, between)] == [
        ("Port Ellen", "Port Askaig"), ("North Berwick", "South Leith")]
    # Its negative: an array still takes the two ends said after "between".
    crews = tool("race_result", "Who won a race between crews.", ["crews"],
                 crews={"type": "array", "items": {"type": "string"}})
    assert calls("Who won the race between Port Ellen and Port Askaig?", crews) == [
        ("race_result", {"crews": ["Port Ellen", "Port Askaig"]})]


def test_bare_numbers_of_a_list_take_the_unit_said_once_after_the_last():
    # "for 2, 4 and 6 hours": each bare number is hours too, not a second reading of another number nearby.
    cure = tool("cheese_cure", "Salt needed to cure a cheese wheel.", ["wheel_kg", "brine_percent", "cure_hours"],
                wheel_kg=num("Weight of the wheel in kg."), brine_percent=num("Salt in the brine, in percent."),
                cure_hours=num("Hours the wheel rests in the brine."))
    question = "Work out the salt for a 4 kg wheel in a brine of 2% for 2, 4 and 6 hours."
    assert [args["cure_hours"] for _, args in calls(question, cure)] == [2, 4, 6]
    kite = tool("kite_line_tension", "Tension on a kite line in wind.", ["wind_knots", "line_metres"],
                wind_knots=num("Wind speed in knots."), line_metres=num("Length of the line in metres."))
    question = "What is the line tension in a wind of 12 knots for 30,50 and 80 metres of line?"
    assert [args["line_metres"] for _, args in calls(question, kite)] == [30, 50, 80]
    hive = tool("hive_honey_yield", "Honey a beehive gives over a number of weeks.", ["frames", "weeks"],
                frames=num("Frames of comb in the hive."), weeks=num("Weeks of the season."))
    assert [args for _, args in calls("Estimate the honey of a hive of 10 frames over 3 and 8 weeks", hive)] == [
        {"frames": 10, "weeks": 3}, {"frames": 10, "weeks": 8}]


def test_a_unit_after_the_last_item_is_not_given_to_items_with_a_unit_of_their_own():
    # The negative: each item says its own unit, and each keeps it.
    kite = tool("kite_line_tension", "Tension on a kite line in wind.", ["wind_knots", "line_metres"],
                wind_knots=num("Wind speed in knots."), line_metres=num("Length of the line in metres."))
    question = "What is the tension of 40 metres of line in a wind of 10 knots and 20 knots?"
    assert [args for _, args in calls(question, kite)] == [
        {"wind_knots": 10, "line_metres": 40}, {"wind_knots": 20, "line_metres": 40}]


# A harbour's tide and the gap between two harbours: the ordinal twins (harbour_1, harbour_2) of the tests below.
TIDE = tool("tide_height", "The tide height at a harbour now.", ["harbour"],
            harbour={"type": "string", "description": "The harbour."})
TIDE_GAP = tool("tide_gap", "Difference in tide height between two harbours.", ["harbour_1", "harbour_2"],
                harbour_1={"type": "string", "description": "First harbour."},
                harbour_2={"type": "string", "description": "Second harbour."})


def test_ordinal_twins_a_task_leaves_unnamed_take_the_subjects_of_the_calls_before_it():
    # "between the two harbours": the two harbours are the ones the tide calls took, in order.
    tide, gap = TIDE, TIDE_GAP
    got = calls("What is the tide height at Whitby and Staithes and what's the tide gap between the two harbours?",
                tide, gap)
    assert got[-1] == ("tide_gap", {"harbour_1": "Whitby", "harbour_2": "Staithes"})
    # A bakery: two ovens' temperatures, then the difference between both ovens.
    oven = tool("oven_temperature", "Read the temperature of a bakery oven.", ["oven"],
                oven={"type": "string", "description": "The oven's name."})
    diff = tool("oven_difference", "Temperature difference between two ovens.", ["oven_a", "oven_b"],
                oven_a={"type": "string", "description": "The first oven."},
                oven_b={"type": "string", "description": "The second oven."})
    got = calls("Read the oven temperature of Hearth and Deck, then the oven difference between both ovens.", oven, diff)
    assert got[-1] == ("oven_difference", {"oven_a": "Hearth", "oven_b": "Deck"})
    # A choir: two voices' ranges, then how far apart the two voices are.
    voice = tool("voice_range", "The vocal range of a choir member.", ["singer"],
                 singer={"type": "string", "description": "The singer."})
    apart = tool("range_overlap", "Overlap of the vocal ranges of two singers.", ["singer1", "singer2"],
                 singer1={"type": "string", "description": "First singer."},
                 singer2={"type": "string", "description": "Second singer."})
    got = calls("Get the voice range of Ailsa and Morven, and what is the range overlap of these two singers?",
                voice, apart)
    assert got[-1] == ("range_overlap", {"singer1": "Ailsa", "singer2": "Morven"})


def test_ordinal_twins_the_task_names_itself_keep_their_own_values():
    # The negative: the task names its own two harbours, so the earlier subjects are not taken.
    tide, gap = TIDE, TIDE_GAP
    got = calls("What is the tide height at Whitby and Staithes, and the tide gap between Runswick and Filey?",
                tide, gap)
    assert got[-1] == ("tide_gap", {"harbour_1": "Runswick", "harbour_2": "Filey"})
    # Three subjects before, two twins: no pairing to choose, so nothing is taken from them.
    got = calls("What is the tide height at Whitby, Staithes and Filey and what's the tide gap between two harbours?",
                tide, gap)
    assert [name for name, _ in got] == ["tide_height"] * 3 + ["tide_gap"]
    assert "Whitby" not in got[-1][1].values() and "Staithes" not in got[-1][1].values()
