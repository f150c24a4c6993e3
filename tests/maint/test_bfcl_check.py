"""The BFCL checker on hand-written cases: right answers written differently PASS, wrong ones FAIL.

The cases are made up here (a kettle, a ferry timetable, a seed order); none comes from BFCL's data.
"""

import pytest

from helpers.maint.bfcl_check import check, standardize
from helpers.maint.bfcl_data import Case, to_tool

KETTLE = {"name": "kitchen.boil", "description": "Boil water.", "parameters": {"type": "dict", "properties": {
    "litres": {"type": "float", "description": "How much water."},
    "cups": {"type": "integer", "description": "Number of cups."},
    "tea": {"type": "string", "description": "The tea."},
    "extras": {"type": "array", "items": {"type": "string"}, "description": "Things to add."},
    "options": {"type": "dict", "properties": {"milk": {"type": "boolean"}, "sugar": {"type": "integer"}}},
    "loud": {"type": "boolean", "description": "Whistle when done."}},
    "required": ["litres", "tea"]}}
FERRY = {"name": "ferry_times", "description": "Ferry departures.", "parameters": {"type": "dict", "properties": {
    "port": {"type": "string"}, "day": {"type": "string"}}, "required": ["port"]}}

KETTLE_ANSWER = [{"kitchen.boil": {"litres": [1.5], "cups": [3, ""], "tea": ["Earl Grey", "earl grey tea"],
                                   "extras": [["lemon", "honey"], ""], "options": [{"milk": [True], "sugar": ["", 0]}, ""],
                                   "loud": ["", False]}}]


def kettle(category="simple_python"):
    return Case("k", category, [], [KETTLE], KETTLE_ANSWER)


@pytest.mark.parametrize("calls", [
    [("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey"})],  # dots as underscores, optionals left out
    [("kitchen.boil", {"litres": 1.5, "tea": "earl-grey", "cups": 3})],  # case and punctuation ignored
    [("kitchen_boil", {"litres": 1.5, "tea": "EARL GREY TEA", "extras": ["Lemon", "honey"]})],
    [("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "options": {"milk": True}})],  # an optional key left out
    [("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "options": {"milk": True, "sugar": 0}, "loud": False})],
])
def test_right_answers_written_differently_pass(calls):
    assert check(kettle(), calls).ok


def test_an_integer_is_accepted_for_a_float():
    answer = [{"kitchen.boil": {**KETTLE_ANSWER[0]["kitchen.boil"], "litres": [2.0]}}]
    assert check(Case("k", "simple_python", [], [KETTLE], answer), [("kitchen_boil", {"litres": 2, "tea": "earl grey"})]).ok


@pytest.mark.parametrize("calls, kind", [
    ([], "no call"),
    ([("kitchen_boil", {"tea": "Earl Grey"})], "missing required"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Assam"})], "wrong value"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "cups": 4})], "wrong value"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "cups": "3"})], "wrong type"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "cups": 3.0})], "wrong type"),  # BFCL: an integer is an int
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "loud": 0})], "wrong type"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "mug": "blue"})], "unexpected parameter"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "extras": ["honey", "lemon"]})], "wrong value"),  # order
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "options": {"milk": False}})], "wrong value"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey", "options": {"sugar": 0}})], "wrong value"),  # milk missing
    ([("kettle_boil", {"litres": 1.5, "tea": "Earl Grey"})], "wrong function"),
    ([("kitchen_boil", '{"litres": 1.5, "tea"')], "arguments not JSON"),
    ([("kitchen_boil", {"litres": 1.5, "tea": "Earl Grey"})] * 2, "wrong number of calls"),
])
def test_wrong_answers_fail_with_their_kind(calls, kind):
    verdict = check(kettle(), calls)
    assert not verdict.ok and verdict.kind == kind


def test_a_listed_parameter_left_out_without_an_empty_option_fails():
    answer = [{"ferry_times": {"port": ["Oban"], "day": ["Friday"]}}]
    verdict = check(Case("f", "simple_python", [], [FERRY], answer), [("ferry_times", {"port": "Oban"})])
    assert verdict.kind == "missing optional not allowed"


def test_parallel_calls_match_in_any_order_and_each_answer_once():
    answers = [{"ferry_times": {"port": ["Oban"], "day": ["", "today"]}},
               {"ferry_times": {"port": ["Mull", "Isle of Mull"], "day": ["", "today"]}}]
    case = Case("p", "parallel", [], [FERRY], answers)
    assert check(case, [("ferry_times", {"port": "isle of mull"}), ("ferry_times", {"port": "Oban"})]).ok
    assert not check(case, [("ferry_times", {"port": "Oban"}), ("ferry_times", {"port": "oban"})]).ok
    assert check(case, [("ferry_times", {"port": "Oban"})]).kind == "wrong number of calls"


def test_parallel_multiple_needs_the_right_function_for_each_answer():
    answers = [{"ferry_times": {"port": ["Oban"], "day": [""]}},
               {"kitchen.boil": {"litres": [1.5], "tea": ["mint"]}}]
    case = Case("pm", "parallel_multiple", [], [FERRY, KETTLE], answers)
    assert check(case, [("kitchen_boil", {"litres": 1.5, "tea": "Mint"}), ("ferry_times", {"port": "Oban"})]).ok
    assert not check(case, [("ferry_times", {"port": "Oban"}), ("ferry_times", {"port": "Oban"})]).ok


def test_irrelevance_is_right_only_without_a_call():
    case = Case("i", "irrelevance", [], [FERRY], [])
    assert check(case, []).ok
    assert check(case, [("ferry_times", {"port": "Oban"})]).kind == "called when no tool fits"


def test_a_variable_where_the_schema_says_integer_compares_as_written():
    answer = [{"kitchen.boil": {"litres": [1.5], "tea": ["mint"], "cups": ["guests"]}}]
    case = Case("v", "simple_python", [], [KETTLE], answer)
    assert check(case, [("kitchen_boil", {"litres": 1.5, "tea": "mint", "cups": "guests"})]).ok
    assert not check(case, [("kitchen_boil", {"litres": 1.5, "tea": "mint", "cups": "hosts"})]).ok


def test_standardize_ignores_bfcls_punctuation_only():
    assert standardize("New York, NY") == standardize("new york ny")
    assert standardize("Rome") != standardize("Roma")


def test_types_are_mapped_as_bfcls_openai_handler_maps_them():
    tool = to_tool(KETTLE)
    props = tool["parameters"]["properties"]
    assert tool["name"] == "kitchen_boil" and tool["parameters"]["type"] == "object"
    assert props["litres"]["type"] == "number" and props["litres"]["format"] == "float"
    assert props["options"]["type"] == "object" and props["extras"]["items"]["type"] == "string"
    assert KETTLE["parameters"]["type"] == "dict"  # the case's own functions are left as they were
