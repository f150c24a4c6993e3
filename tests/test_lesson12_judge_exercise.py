"""Lesson 12's second exercise, `judge_answer(client, model, question, entry, answer)`: the right judge passes on
the offline model, the stub is not done yet, and the judges students really write wrong fail with a hint that
names the mistake without giving the prompt. No kernel: the check runs the functions defined here."""

import json

import hints
import pytest
from hints import stub

from helpers.homework.doubles import offline_client
from helpers.homework.lesson12 import check_judge
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
    result = check_judge(right, offline_client(), MODEL)
    assert result.status == "pass", result


def test_the_stub_is_not_done_yet():
    assert check_judge(stub, offline_client(), MODEL).status == "todo"
    assert check_judge(None, offline_client(), MODEL).status == "todo"


def test_a_prompt_without_the_entry_fails():
    def no_entry(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS,
                                        input=f"QUESTION: {question}\n\nANSWER TO JUDGE: {answer}",
                                        text={"format": SCHEMA})
        return parse(reply.output_text)

    assert_fails(check_judge(no_entry, offline_client(), MODEL), "FAQ entry")


def test_a_prompt_with_the_entry_s_question_only_fails():
    def entry_title_only(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                        input=f"QUESTION: {question}\nENTRY: {entry['question']}\nANSWER: {answer}")
        return parse(reply.output_text)

    assert_fails(check_judge(entry_title_only, offline_client(), MODEL), "FAQ entry")


def test_a_prompt_without_the_answer_fails():
    def no_answer(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                        input=f"QUESTION: {question}\n\nCONTEXT:\nanswer: {entry['answer']}")
        return parse(reply.output_text)

    assert_fails(check_judge(no_answer, offline_client(), MODEL), "the answer to judge")


def test_a_prompt_without_the_question_fails():
    def no_question(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, text={"format": SCHEMA},
                                        input=f"ANSWER TO JUDGE: {answer}\n\nCONTEXT:\nanswer: {entry['answer']}")
        return parse(reply.output_text)

    assert_fails(check_judge(no_question, offline_client(), MODEL), "the question")


def test_a_free_text_prompt_fails_because_nothing_parses():
    def free_text(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions="Say whether this answer is any good.",
                                        input=prompt(question, entry, answer))
        return parse(reply.output_text)

    assert_fails(check_judge(free_text, offline_client(), MODEL), "did not parse")


def test_two_calls_per_answer_fail():
    def two_judges(client, model, question, entry, answer):
        relevant = judge_answer(client, model, question, entry, answer)
        supported = judge_answer(client, model, question, entry, answer)
        both = relevant.get("verdict") == supported.get("verdict") == "PASS"
        return {"verdict": "PASS" if both else "FAIL", "reason": "two calls"}

    assert_fails(check_judge(two_judges, offline_client(), MODEL), "2 times")


def test_a_judge_with_a_search_tool_fails():
    def with_tools(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                        tools=[SEARCH_TOOL], text={"format": SCHEMA})
        return parse(reply.output_text)

    assert_fails(check_judge(with_tools, offline_client(), MODEL), "no tools")


def test_an_unparseable_reply_taken_as_a_pass_fails():
    def passes_on_doubt(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                        text={"format": SCHEMA})
        try:
            return json.loads(reply.output_text)
        except json.JSONDecodeError:
            return {"verdict": "PASS", "reason": "could not read the reply"}

    assert_fails(check_judge(passes_on_doubt, offline_client(), MODEL), "still returned a verdict")


def test_a_label_found_anywhere_in_the_reply_fails():
    def label_in_text(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                        text={"format": SCHEMA})
        return {"verdict": "FAIL" if "FAIL" in reply.output_text else "PASS"}

    assert_fails(check_judge(label_in_text, offline_client(), MODEL), "free text that mentions PASS")


def test_a_verdict_passed_on_without_checking_its_label_fails():
    def unchecked_label(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                        text={"format": SCHEMA})
        try:
            return json.loads(reply.output_text)
        except json.JSONDecodeError:
            return {"error": "the reply is not JSON"}

    assert_fails(check_judge(unchecked_label, offline_client(), MODEL), "another label")


def test_a_judge_that_crashes_on_a_bad_reply_fails_with_a_hint():
    def crashes(client, model, question, entry, answer):
        reply = client.responses.create(model=model, instructions=INSTRUCTIONS, input=prompt(question, entry, answer),
                                        text={"format": SCHEMA})
        return json.loads(reply.output_text)

    assert_fails(check_judge(crashes, offline_client(), MODEL), "JSONDecodeError", "error key")


def test_a_missing_client_is_a_clear_failure():
    assert_fails(check_judge(judge_answer, None, MODEL), "client")
