"""The offline model's name rules, fourth round (issue 26, parallel_multiple), on domains no lesson, no BFCL case and
no earlier round uses: a lighthouse keeper's log, a ropewalk, a falconry mews, a glassblower's studio.

Each rule is shown firing and, where it has one, not firing (its negative).
"""


from made_up import only_args, tool

from helpers.offline.name_choice import region_of
from helpers.offline.names import entities

# --- "to" after a verb that takes an infinitive marks a verb, not a name -------------------------------------------

def test_the_verb_after_want_to_or_looking_to_is_no_name():
    # Written all in lower case, a request's names are the words after a preposition; "to" after "want", "would
    # like" or "looking" is the infinitive's, so the word after it is what the speaker does, not a place.
    assert entities("i want to polish the lens of the lighthouse") == []
    assert entities("we would like to inspect hemp") == []
    assert entities("i am looking to fly a hawk at dusk") == ["Dusk"]  # "at dusk" is still a preposition's word


def test_the_word_after_to_is_still_a_name_where_no_such_verb_comes_before():
    # The negative: "a walk to brancaster", "the kiln of murano": a preposition's word, kept.
    assert entities("log a walk to brancaster") == ["Brancaster"]
    assert entities("the kiln of murano") == ["Murano"]
    assert entities("a falcon flown to dunwich") == ["Dunwich"]


# --- a place's region ends at the sentence's stop ----------------------------------------------------------------

def test_a_region_written_before_a_full_stop_is_the_region_alone():
    assert region_of("The studio is in Murano, VE. Could you book a slot?", "Murano") == "VE"
    assert region_of("Our lighthouse stands at Southwold, Suffolk. Please log the lamp.", "Southwold") == "Suffolk"
    glass = tool("glass_studio", "Find a glassblowing studio.", ["location"],
                 location={"type": "string", "description": "City and state, e.g. Corning, NY."})
    args = only_args("I want a glassblowing studio in Corning, NY. Could you find one that is open?", glass)
    assert args == {"location": "Corning, NY"}


def test_a_region_of_several_words_is_kept_whole():
    # The negative: no stop inside it, so the whole region stays.
    assert region_of("ropes made in Bridport, West Dorset today", "Bridport") == "West Dorset"
    assert region_of("a mews near Oban, Argyll and Bute", "Oban") is None  # "and" runs a list: no region


def test_a_capitalised_code_before_a_full_stop_is_named_without_the_stop():
    assert entities("Ship the rope to Bridport, UK. Then log it.") == ["Bridport", "UK"]
    assert entities("Ship the rope to the U.S. Navy yard") == ["U.S. Navy"]  # dots inside: an abbreviation


# --- a name between "the" and an optional parameter's own noun is that parameter's ------------------------------

def test_a_name_between_the_and_an_optional_parameters_noun_fills_it():
    ropes = tool("rope_order", "Order rope from a ropewalk.", ["fibre"],
                 fibre={"type": "string", "description": "The fibre of the rope."},
                 workshop={"type": "string", "description": "Where the rope is laid. Default is any."})
    assert only_args("Order a 'Manila' rope from the 'Chatham' workshop", ropes) == {
        "fibre": "Manila", "workshop": "Chatham"}
    lamp = tool("lamp_log", "Log the lamp of a lighthouse.", ["lighthouse"],
                lighthouse={"type": "string", "description": "The lighthouse."},
                shift={"type": "string", "description": "The keeper's shift. Default is the night."})
    assert only_args("Log the lamp of Southwold lighthouse for the Dawn shift", lamp) == {
        "lighthouse": "Southwold", "shift": "Dawn"}
    kiln = tool("glass_batch", "Melt a batch of glass.", ["colour"],
                colour={"type": "string", "description": "The colour of the glass."},
                furnace={"type": "string", "description": "The furnace to melt in. Default is the main one."})
    assert only_args("Melt a 'Cobalt' batch in the 'Garibaldi' furnace", kiln)["furnace"] == "Garibaldi"


def test_a_name_after_a_or_with_no_noun_of_the_parameter_leaves_it_out():
    # The negative: "a Kestrel falcon" says a kind; "the Kestrel" with no noun after it says nothing of `mews`.
    bird = tool("falcon_fly", "Fly a falcon.", ["falconer"],
                falconer={"type": "string", "description": "Who flies the bird."},
                mews={"type": "string", "description": "The mews the bird lives in. Default is home."})
    assert "mews" not in only_args("Let Ailsa fly a Kestrel mews bird today", bird)
    assert "mews" not in only_args("Let Ailsa fly the Kestrel over Dunwich", bird)


# --- a quoted function name says what to call, not a value -----------------------------------------------------

def test_a_quoted_name_followed_by_function_or_tool_is_no_value():
    assert entities("Using the 'lamp_log' function, log the lamp of 'Southwold'") == ["Southwold"]
    assert entities("Find 'Merlin' with the 'mews.weigh' tool") == ["Merlin"]
    glass = tool("glass_batch", "Melt a batch of glass.", ["colour"],
                 colour={"type": "string", "description": "The colour of the glass."})
    assert only_args("Melt a batch of 'cobalt' glass using the 'glass_batch' function", glass) == {"colour": "cobalt"}


def test_a_quoted_name_followed_by_another_word_is_still_a_value():
    # The negative: "the 'Function' room" is a room's name; a quote before "functioned" is no label either.
    assert entities("Book the 'Function' room at 'Southwold'") == ["Function", "Southwold"]
    assert entities("Check whether 'Merlin' functioned well") == ["Merlin"]
