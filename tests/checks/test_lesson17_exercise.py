"""Lesson 17's exercise check: the handoff in the student's loop. The right solution passes, the stub is not done,
and the mistakes students make fail with a hint that does not give the answer away."""

import json

import pytest

from helpers.checks.lessons.lesson17 import check_hand_over


def output_for(call_id, target):
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps({"assistant": target.name})}


def right(messages, call_id, current, target):
    return messages + [output_for(call_id, target)], target.instructions, target.schemas()


def right_mutating_with_another_output(messages, call_id, current, target):
    # written differently: appends in place, any output text, a list instead of a tuple
    messages.append({"type": "function_call_output", "call_id": call_id, "output": f"Transferred to {target.name}."})
    return [messages, target.instructions, list(target.schemas())]


def right_with_the_helper_api(messages, call_id, current, target):
    from helpers.apis.adapter import RESPONSES

    history = list(messages)
    history.append(RESPONSES.tool_output(call_id, "ok"))
    return history, target.instructions, target.schemas("responses")


def stub(messages, call_id, current, target):
    raise NotImplementedError


def drops_the_history(messages, call_id, current, target):
    # only the transfer call and its output: the user's question is gone
    return [messages[-1], output_for(call_id, target)], target.instructions, target.schemas()


def keeps_the_triage_instructions(messages, call_id, current, target):
    return messages + [output_for(call_id, target)], current.instructions, target.schemas()


def keeps_the_triage_tools(messages, call_id, current, target):
    return messages + [output_for(call_id, target)], target.instructions, current.schemas()


def forgets_the_transfer_output(messages, call_id, current, target):
    return messages, target.instructions, target.schemas()


def offers_tool_names_not_schemas(messages, call_id, current, target):
    return messages + [output_for(call_id, target)], target.instructions, target.tool_names()


def answers_another_call_id(messages, call_id, current, target):
    return messages + [output_for("call_0", target)], target.instructions, target.schemas()


def returns_the_new_agent(messages, call_id, current, target):
    return target


ANSWER_WORDS = ("function_call_output", "target.instructions", "target.schemas", "messages +")


def assert_fails(result, *words):
    assert result.status == "fail", result
    for word in ANSWER_WORDS:
        assert word not in result.hint
    for word in words:
        assert word in result.hint, result.hint


def test_right_solution_passes():
    result = check_hand_over(right)
    assert result.status == "pass", result


def test_the_course_helper_passes():
    from helpers.agents import hand_over

    assert check_hand_over(hand_over).status == "pass"


def test_stub_is_not_done():
    assert check_hand_over(stub).status == "todo"
    assert check_hand_over(None).status == "todo"


def test_dropping_the_history_fails():
    assert_fails(check_hand_over(drops_the_history), "question is gone")


def test_keeping_the_triage_instructions_fails():
    assert_fails(check_hand_over(keeps_the_triage_instructions), "instructions")


def test_keeping_the_triage_tools_loops_and_fails():
    assert_fails(check_hand_over(keeps_the_triage_tools), "again and again")


def test_forgetting_the_transfer_output_gets_the_api_400():
    assert_fails(check_hand_over(forgets_the_transfer_output), "400")


def test_returning_something_else_fails():
    assert_fails(check_hand_over(returns_the_new_agent), "three things")


@pytest.mark.parametrize("solution", [right_mutating_with_another_output, right_with_the_helper_api])
def test_right_solutions_written_differently_pass(solution):
    result = check_hand_over(solution)
    assert result.status == "pass", result


def test_offering_tool_names_instead_of_schemas_fails():
    assert_fails(check_hand_over(offers_tool_names_not_schemas), "`tools`")


def test_answering_another_call_fails():
    result = check_hand_over(answers_another_call_id)
    assert result.status == "fail", result
    for word in ANSWER_WORDS:
        assert word not in result.hint
