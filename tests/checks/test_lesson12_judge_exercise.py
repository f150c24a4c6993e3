"""Lesson 12's second exercise, `judge_answer(client, model, question, entry, answer)`: the right judge passes on
the offline model, the stub is not done yet, and the judges students really write wrong fail with a hint that
names the mistake without giving the prompt. No kernel: the check runs the functions defined here."""

import json

import hints
import pytest
from hints import stub

from helpers.checks.doubles import offline_double
from helpers.checks.lessons.lesson12 import check_judge
from helpers.search import SEARCH_TOOL

MODEL = "offline-rules-v1"
INSTRUCTIONS = ("You grade one answer of a course assistant against the FAQ entry it should come from. The verdict "
                "is PASS if the answer responds to the question and the entry supports every fact in it, FAIL "
                "otherwise. Respond in JSON with the keys verdict and reason.")
SCHEMA = {"type": "json_schema", "name": "verdict", "strict": True,
          "schema": {"type": "object", "additionalProperties": False, "required": ["verdict", "reason"],
                     "properties": {"verdict": {"type": "string", "enum": ["PASS", "FAIL"]},
                                    "reason": {"type": "string"}}}}


def prompt(question, entry, answer):
    return (f"QUESTION: {question}\n\nANSWER TO JUDGE: {answer}\n\n"
            f"CONTEXT:\nquestion: {entry['question']}\nanswer: {entry['answer']}")


def parse(text):
    try:
        verdict = json.loads(text)
    except json.JSONDecodeError:
        return {"error": "the reply is not JSON", "reply": text[:100]}
    if not isinstance(verdict, dict) or verdict.get("verdict") not in ("PASS", "FAIL"):
        return {"error": "no PASS or FAIL verdict", "reply": text[:100]}
    return verdict


def judge_answer(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    text={"format": SCHEMA})
    return parse(reply.output_text)


def judge_in_the_instructions(client, model, question, entry, answer):
    # JSON with named keys asked for in the instructions alone, no structured output: also a right judge.
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer))
    return parse(reply.output_text)


def assert_fails(result, *words):
    # No piece of the answer.
    hints.assert_fails(result, leaks=("enum", "json_schema", "json.loads", "responses.create(", "CONTEXT:"), says=words)


@pytest.mark.parametrize("right", [judge_answer, judge_in_the_instructions])
def test_a_right_judge_passes_on_the_offline_model(right):
    result = check_judge(right, offline_double(), MODEL)
    assert result.status == "pass", result


@pytest.mark.parametrize("judge", [stub, None])
def test_the_stub_is_not_done_yet(judge):
    hints.assert_todo(check_judge(judge, offline_double(), MODEL))


def no_entry(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS,
                                    input=f"QUESTION: {question}\n\nANSWER TO JUDGE: {answer}",
                                    text={"format": SCHEMA})
    return parse(reply.output_text)


def entry_title_only(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                    input=f"QUESTION: {question}\nENTRY: {entry['question']}\nANSWER: {answer}")
    return parse(reply.output_text)


def no_answer(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                    input=f"QUESTION: {question}\n\nCONTEXT:\nanswer: {entry['answer']}")
    return parse(reply.output_text)


def no_question(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                    input=f"ANSWER TO JUDGE: {answer}\n\nCONTEXT:\nanswer: {entry['answer']}")
    return parse(reply.output_text)


def free_text(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions="Say whether this answer is any good.",
                                    input=prompt(question, entry, answer))
    return parse(reply.output_text)


def two_judges(client, model, question, entry, answer):
    relevant = judge_answer(client, model, question, entry, answer)
    supported = judge_answer(client, model, question, entry, answer)
    both = relevant.get("verdict") == supported.get("verdict") == "PASS"
    return {"verdict": "PASS" if both else "FAIL", "reason": "two calls"}


def with_tools(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    tools=[SEARCH_TOOL], text={"format": SCHEMA})
    return parse(reply.output_text)


def passes_on_doubt(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    text={"format": SCHEMA})
    try:
        return json.loads(reply.output_text)
    except json.JSONDecodeError:
        return {"verdict": "PASS", "reason": "could not read the reply"}


def label_in_text(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    text={"format": SCHEMA})
    return {"verdict": "FAIL" if "FAIL" in reply.output_text else "PASS"}


def unchecked_label(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    text={"format": SCHEMA})
    try:
        return json.loads(reply.output_text)
    except json.JSONDecodeError:
        return {"error": "the reply is not JSON"}


def crashes(client, model, question, entry, answer):
    reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                    text={"format": SCHEMA})
    return json.loads(reply.output_text)


# (a judge students really write wrong, words its hint must contain)
MISTAKES = [
    pytest.param(no_entry, ["FAQ entry"], id="a prompt without the entry"),
    pytest.param(entry_title_only, ["FAQ entry"], id="a prompt with the entry's question only"),
    pytest.param(no_answer, ["the answer to judge"], id="a prompt without the answer"),
    pytest.param(no_question, ["the question"], id="a prompt without the question"),
    pytest.param(free_text, ["did not parse"], id="a free text prompt"),
    pytest.param(two_judges, ["2 times"], id="two calls per answer"),
    pytest.param(with_tools, ["no tools"], id="a judge with a search tool"),
    pytest.param(passes_on_doubt, ["still returned a verdict"], id="an unparseable reply taken as a pass"),
    pytest.param(label_in_text, ["free text that mentions PASS"], id="a label found anywhere in the reply"),
    pytest.param(unchecked_label, ["another label"], id="a verdict passed on without checking its label"),
    pytest.param(crashes, ["JSONDecodeError", "error key"], id="a judge that crashes on a bad reply"),
]


@pytest.mark.parametrize(("judge", "says"), MISTAKES)
def test_a_wrong_judge_fails_with_a_hint_that_does_not_give_the_prompt(judge, says):
    assert_fails(check_judge(judge, offline_double(), MODEL), *says)


def test_a_missing_client_is_a_clear_failure():
    assert_fails(check_judge(judge_answer, None, MODEL), "client")


def test_the_verdict_does_not_depend_on_the_students_model():
    """A student's model that answers the judge prompt in free text: the right judge still passes, since the
    verdict comes from the offline model; the student's model only gets a line beside the PASS."""
    from helpers.checks.doubles import always_says, wire_double

    result = check_judge(judge_answer, wire_double(always_says("Looks fine to me.")), "weak-model")
    assert result.status == "pass", result
