"""Coordinated members of one parameter's closed set are one call each (member_lists.py), on domains no lesson and
no BFCL case uses: a cheese cellar, a bell tower, a kite club, a rope walk.

Each rule is shown firing and not firing (its negative).
"""

from made_up import calls, tool

from helpers.offline.enum_match import member_mentions
from helpers.offline.member_lists import member_runs

CELLAR = tool("cellar_report", "Report on a wheel of cheese in the cellar.", ["wheel", "section"],
              wheel={"type": "string", "description": "The wheel's label."},
              section={"type": "string", "enum": ["rind", "humidity", "mould_count"],
                       "description": "Which part of the report."})
PEAL = tool("ring_peal", "Ring a peal on the tower bells.", ["method", "tempo"],
            method={"type": "string", "description": "The method rung, one of: grandsire, stedman, plain bob."},
            tempo={"type": "string", "enum": ["slow", "brisk"], "description": "How fast the peal is rung."})
KITE = tool("kite_line_test", "Test a kite line's strength.", ["line_grade", "length_m"],
            line_grade={"type": "string", "enum": ["Kv", "KV", "kv"], "description": "The line's grade code."},
            length_m={"type": "number", "description": "Length of the line, in metres."})


def test_enum_members_joined_by_and_are_one_call_each():
    got = calls("Give me the rind and humidity sections of the report for wheel 'Tomme 12'", CELLAR)
    assert got == [("cellar_report", {"wheel": "Tomme 12", "section": "rind"}),
                   ("cellar_report", {"wheel": "Tomme 12", "section": "humidity"})]
    # Its negative: one member said is one call.
    assert calls("Give me the humidity section of the report for wheel 'Tomme 12'", CELLAR) == [
        ("cellar_report", {"wheel": "Tomme 12", "section": "humidity"})]


def test_members_a_description_lists_and_members_with_their_head_said_again():
    got = calls("Ring a brisk peal of grandsire, a peal of stedman and a peal of plain bob", PEAL)
    assert [args["method"] for _, args in got] == ["grandsire", "stedman", "plain bob"]
    assert {args["tempo"] for _, args in got} == {"brisk"}
    # "slow and brisk": the enum's members fan out too, with the one method in every call.
    got = calls("Ring a peal of stedman at both slow and brisk tempo", PEAL)
    assert [(args["method"], args["tempo"]) for _, args in got] == [("stedman", "slow"), ("stedman", "brisk")]


def test_or_asks_which_and_makes_no_run():
    assert len(calls("Should the peal of stedman be rung slow or brisk?", PEAL)) == 1


def test_members_that_differ_only_in_case_are_matched_in_their_case():
    got = calls("Test a 30 metre kite line of grade (Kv), grade (KV) and grade (kv)", KITE)
    assert [args["line_grade"] for _, args in got] == ["Kv", "KV", "kv"]
    assert {args["length_m"] for _, args in got} == {30}
    assert [m for _, _, m in member_mentions(["Kv", "KV", "kv"], "grade KV only")] == ["KV"]


def test_each_member_goes_with_every_record_of_the_clause():
    got = calls("What are the rind and mould count for wheel 'Tomme 12', and for wheel 'Brie 4'?", CELLAR)
    assert sorted((a["wheel"], a["section"]) for _, a in got) == [
        ("Brie 4", "mould_count"), ("Brie 4", "rind"), ("Tomme 12", "mould_count"), ("Tomme 12", "rind")]


def test_members_far_apart_or_in_other_sentences_are_no_run():
    assert member_runs(CELLAR, "Check the rind of wheel 12 first, before anything else and the humidity later") == []
    assert member_runs(CELLAR, "Check the rind. Then the humidity.") == []


def test_members_two_parameters_share_are_shared_out_not_fanned():
    splice = tool("rope_splice", "Splice two ropes of the rope walk.", ["first_fibre", "second_fibre"],
                  first_fibre={"type": "string", "enum": ["hemp", "manila", "sisal"]},
                  second_fibre={"type": "string", "enum": ["hemp", "manila", "sisal"]})
    assert member_runs(splice, "Splice a hemp and a manila rope") == []
    assert len(calls("Splice a hemp and a manila rope", splice)) == 1
