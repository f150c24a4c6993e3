"""The offline model's answers read as sentences a person would write (issue 27, item 6).

Two general rules, each tested on domains, phrasings and languages no lesson uses:
- a question nothing given answers is quoted back as the user wrote it, never as a bag of keywords
  ("nothing I was given answers "one sentence ai agent"" read badly in lesson 00);
- a tool's small JSON result reads as a sentence: a key that is a past participle reports an action
  ({"booked": "room 12"} is "room 12 was booked", not "the booked is room 12"), the verb agrees with the
  field's name ("the status is", not "the status are"), and a call whose first argument is a sentence is
  named by its tool ("From add_note: ..."), not by that sentence followed by a colon.
"""

import json
import re

import pytest

from helpers.faq.vocabulary import faq_vocabulary
from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide

BOOK = Tool("book_room", "Book a meeting room.",
            {"type": "object", "properties": {"purpose": {"type": "string"}, "day": {"type": "string"}},
             "required": ["purpose", "day"]})
SHIPMENT = Tool("track_parcel", "Where a parcel is now.",
                {"type": "object", "properties": {"tracking_code": {"type": "string"}}, "required": ["tracking_code"]})
MAIL = Tool("send_reminders", "Send reminder e-mails to the members of a club.",
            {"type": "object", "properties": {"club": {"type": "string"}}, "required": ["club"]})
ORDER = Tool("cancel_order", "Cancel a shop order.",
             {"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]})


def answer(question, tools=(), outputs=None):
    """The text the model answers with, its tool calls answered from `outputs` (a tool's name -> the dict it
    returns), as a loop would: the model chooses the arguments, the test only the results."""
    made: list[Call] = []
    for _ in range(4):
        decision = decide(Conversation(question=question, calls=made, tools=list(tools)), faq_vocabulary())
        if not decision.calls:
            return decision.text
        for name, arguments in decision.calls:
            made.append(Call(name, arguments, f"c{len(made)}", len(made), json.dumps(outputs[name])))
    raise AssertionError(f"no answer after {len(made)} calls: {made}")


# --- a question nothing answers: quoted as asked ---------------------------------------------------------

@pytest.mark.parametrize("question", [
    "In two words, what is a sourdough starter?",
    "Wie hoch ist die Zugspitze?",
    "¿Cuál es la capital de Mongolia?",
    "富士山の高さは？",
])
def test_a_question_nothing_answers_is_quoted_back_as_the_user_wrote_it(question):
    text = answer(question)
    assert "no general knowledge" in text
    assert f'nothing I was given answers "{question}".' in text


def test_the_question_is_the_one_asked_not_the_context_before_it_and_a_long_one_is_cut():
    text = answer("We moved to Tallinn last spring. How cold do winters get there?")
    assert '"How cold do winters get there?"' in text and "Tallinn last spring" not in text
    long = ("Could you explain in great detail, with examples from at least three different countries, how "
            "a parliamentary system decides on its annual budget?")
    quoted = re.search(r'answers "([^"]*)"', answer(long)).group(1)
    assert quoted.startswith("Could you explain in great detail") and quoted.endswith("…")
    assert len(quoted.split()) <= 15


def test_double_quotes_in_the_question_do_not_break_the_quote():
    text = answer('What does "umami" mean?')
    assert "answers \"What does 'umami' mean?\"." in text


# --- a small JSON result: a sentence, not "the added is ..." -----------------------------------------------

def test_a_participle_key_reads_as_the_action_it_reports():
    text = answer("Book a room for the quarterly planning meeting on Friday, please.", [BOOK],
                  {"book_room": {"booked": "room 12"}})
    assert "room 12 was booked" in text
    assert "the booked is" not in text


def test_a_true_flag_and_a_count_read_as_actions_too():
    cancelled = answer("Cancel my order, it arrived too late to be useful.", [ORDER],
                       {"cancel_order": {"cancelled": True}})
    assert "it was cancelled" in cancelled and "cancelled: yes" not in cancelled
    sent = answer("Remind the chess club about Tuesday.", [MAIL], {"send_reminders": {"sent": 14}})
    assert "14 were sent." in sent and "the sent is" not in sent
    one = answer("Remind the chess club about Tuesday.", [MAIL], {"send_reminders": {"sent": 1}})
    assert "1 was sent" in one


def test_a_sentence_argument_does_not_name_the_result_but_a_short_one_does():
    from helpers.offline.results import result_label
    note = Call("add_note", json.dumps({"text": "Ask Dana about the venue deposit before we sign."}), "c1", 0)
    assert result_label(note) == "From add_note"  # not "Ask Dana about the venue deposit before we sign.:"
    assert result_label(Call("track_parcel", json.dumps({"tracking_code": "ZX-99"}), "c2", 0)) == "ZX-99"
    assert result_label(Call("lookup", json.dumps({"q": "Is it open?"}), "c3", 0)) == "From lookup"


def test_the_verb_agrees_with_the_field_name_and_nouns_ending_in_ed_stay_nouns():
    text = answer("Where is my parcel ZX-99?", [SHIPMENT],
                  {"track_parcel": {"status": "in transit", "speed": "express"}})
    assert "the status is in transit" in text and "status are" not in text
    assert "the speed is express" in text  # "speed" ends in -ed but reports no action


def test_the_lesson_13_write_reads_as_a_sentence():
    """The widget's answer after Approve in lesson 13 ("…: the added is agent-1." before)."""
    from helpers.faq.writes import faq_entry_writer
    question = "Add an FAQ entry: question \"Is there a Discord server?\", answer \"No, the chat is on Slack.\""
    result = faq_entry_writer()(question="Is there a Discord server?", answer="No, the chat is on Slack.")
    tool = Tool("add_faq_entry", "Add an entry to the FAQ.",
                {"type": "object", "properties": {"question": {"type": "string"}, "answer": {"type": "string"}}})
    text = answer(question, [tool], {"add_faq_entry": result})
    assert text == f"From add_faq_entry: {result['added']} was added."


def test_a_result_named_by_its_tool_reads_inside_a_sentence_too():
    """The yes/no verdict and the comparison name a result mid-sentence: "for check_door", not "for From ..."."""
    from helpers.offline.results import combine_results
    door = Call("check_door", json.dumps({"note": "Please check whether the back door is locked."}), "c1", 0,
                json.dumps({"locked": True}))
    text = combine_results(Conversation(question="Is the back door locked?", calls=[door]))
    assert text.startswith("Yes: for check_door, ") and "From check_door: " in text and "for From" not in text
    tanks = [Call(name, json.dumps({"note": "Read the level of the tank in the cellar, please."}), f"c{i}", i,
                  json.dumps({"level_pct": level})) for i, (name, level) in enumerate([("tank_a", 40), ("tank_b", 75)])]
    compared = combine_results(Conversation(question="Which tank is fuller?", calls=tanks))
    assert "tank_b has the higher level (75% vs 40% for tank_a)." in compared


def test_a_yes_no_question_asked_after_a_task_gets_the_yes_no_wording():
    """"Check the tide at Brest: can I launch the kayak?" asks yes or no last; the facts come with the caveat. A
    request that ends in a wh-question does not."""
    from helpers.offline.results import combine_results
    tide = Call("tide_level", json.dumps({"port": "Brest"}), "c1", 0, json.dumps({"height_m": 1.2, "trend": "rising"}))
    late = combine_results(Conversation(question="Check the tide at Brest this morning: can I launch the kayak?",
                                        calls=[tide]))
    assert late.startswith("The results don't say yes or no to that in so many words")
    plain = combine_results(Conversation(question="Check the tide at Brest this morning. What time is high water?",
                                         calls=[tide]))
    assert "yes or no" not in plain
