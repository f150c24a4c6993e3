"""A tool's output is evidence for the question the tool was called for, even when it shares few words with it.

The rule (reading.Reading.lookup_answer, used by search_policy and answers): when the latest response made
one call and the tool gave one answer (a text, or one object; not a list of documents to choose from, not
empty, not an error), the answer quotes it instead of saying nothing relevant was found. Domains no lesson
uses: a ferry company's lost property desk reached by a handoff, and a plant nursery's care lookup.
"""

import json

import pytest

from helpers.offline import neutral_client

TRIAGE = "You are the ferry company's front desk. Hand each passenger to the desk that can help them."
TRANSFERS = [
    {"type": "function", "name": "transfer_to_lost_property_desk",
     "description": "Handoff to the Lost property desk agent to handle the request. Finds things passengers "
                    "left on board.", "parameters": {"type": "object", "properties": {}, "required": []}},
    {"type": "function", "name": "transfer_to_timetable_desk",
     "description": "Handoff to the Timetable desk agent to handle the request. Knows sailing times and delays.",
     "parameters": {"type": "object", "properties": {}, "required": []}},
]
SPECIALIST = "You are the lost property desk of the ferry company."
LOOKUP = {"type": "function", "name": "search_lost_property",
          "description": "Search the lost property desk's rules.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
QUESTION = "I left my scarf on board the 9:15 boat yesterday. Can I still get it?"
RULE = "Items found on board are kept at the harbour office for 30 days; bring photo ID to collect them."


@pytest.fixture
def client():
    return neutral_client()


def specialist_turn(client, output):
    """Triage hands the passenger over; the lost property desk calls its tool and answers from it."""
    items = [{"role": "user", "content": QUESTION}]
    handoff = client.responses.create(model="m", instructions=TRIAGE, input=items, tools=TRANSFERS).output[0]
    assert handoff.name == "transfer_to_lost_property_desk"  # the routing rule's part
    items += [handoff, {"type": "function_call_output", "call_id": handoff.call_id,
                        "output": json.dumps({"assistant": "Lost property desk"})}]
    calls = 0
    for _ in range(4):
        response = client.responses.create(model="m", instructions=SPECIALIST, input=items, tools=[LOOKUP])
        found = [o for o in response.output if o.type == "function_call"]
        if not found:
            return response.output_text, calls
        calls += len(found)
        items += response.output + [{"type": "function_call_output", "call_id": c.call_id, "output": output}
                                    for c in found]
    raise AssertionError("the specialist never answered")


def test_the_specialist_answers_from_what_its_tool_returned(client):
    answer, calls = specialist_turn(client, RULE)
    assert calls == 1  # the one answer is enough: no second search with other keywords
    assert RULE.split(";")[0] in answer and "found nothing" not in answer


def test_one_object_is_one_answer_too(client):
    answer, _ = specialist_turn(client, json.dumps({"rule": RULE}))
    assert "kept at the harbour office for 30 days" in answer


@pytest.mark.parametrize("output", ["Nothing found for that description.", "[]", "No results.", "ok",
                                    "The result was withheld: it held instructions.",
                                    json.dumps({"error": "lost property database offline"})])
def test_an_empty_or_failed_lookup_is_no_evidence(client, output):
    answer, _ = specialist_turn(client, output)
    assert "According to" not in answer


def test_a_list_of_documents_is_still_judged_by_its_words(client):
    # The negative: a search that returns several records to choose from, none about the question.
    unrelated = json.dumps([{"id": "t1", "title": "Winter timetable", "text": "Boats leave every hour from 7:00."},
                            {"id": "t2", "title": "Car deck", "text": "Cars board twenty minutes early."}])
    answer, _ = specialist_turn(client, unrelated)
    assert "According to" not in answer and "nothing relevant" in answer


def test_a_plant_nurserys_care_lookup_without_a_handoff(client):
    tool = {"type": "function", "name": "care_notes", "description": "Look up the nursery's care notes.",
            "parameters": {"type": "object", "properties": {"plant": {"type": "string"}}, "required": ["plant"]}}
    items = [{"role": "user", "content": "My fern's fronds keep going crispy. What am I doing wrong?"}]
    first = client.responses.create(model="m", input=items, tools=[tool]).output[0]
    items += [first, {"type": "function_call_output", "call_id": first.call_id,
                      "output": json.dumps({"advice": "Mist daily and keep it out of direct sun; dry air browns the leaf tips."})}]
    answer = client.responses.create(model="m", input=items, tools=[tool]).output_text
    assert "Mist daily" in answer
