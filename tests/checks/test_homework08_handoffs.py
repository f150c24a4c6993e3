"""Homework task 8.2's check (a two-agent handoff in the student's own loop): the right loop passes, the stub is
not done, and plausible wrong loops fail with hints that don't give the answer away."""

import json

import pytest

from helpers.checks.homework.hw08_handoffs import check_handoff_loop
from helpers.tools import run_tool


def make_loop(*, swap_instructions=True, swap_tools=True, keep_history=True, answer_transfer=True,
              report_first=False):
    def handoff_loop(client, model, question, triage):
        agent, instructions, tools = triage, triage.instructions, triage.schemas()
        messages = [{"role": "user", "content": question}]
        for _ in range(10):
            kwargs = {"model": model, "instructions": instructions, "input": messages}
            if tools:
                kwargs["tools"] = tools
            response = client.responses.create(**kwargs)
            messages += [item.model_dump(exclude_none=True) for item in response.output]
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text, (triage if report_first else agent).name
            for call in calls:
                target = next((a for a in agent.handoffs if a.transfer_name() == call.name), None)
                if target is None:
                    messages.append({"type": "function_call_output", "call_id": call.call_id,
                                     "output": run_tool(call.name, call.arguments, agent.tools)})
                    continue
                if answer_transfer:
                    messages.append({"type": "function_call_output", "call_id": call.call_id,
                                     "output": json.dumps({"assistant": target.name})})
                if not keep_history:
                    messages = [{"role": "user", "content": question}]
                if swap_instructions:
                    instructions = target.instructions
                if swap_tools:
                    tools = target.schemas()
                    agent = target
                else:
                    agent = triage if not swap_instructions else agent
        return "", agent.name
    return handoff_loop


def stub(client, model, question, triage):
    raise NotImplementedError


ANSWER_WORDS = ("target.instructions", "target.schemas", "function_call_output", "messages.append")


def failing(loop, *words):
    result = check_handoff_loop(loop)
    assert result.status == "fail", result
    assert not any(w in result.hint for w in ANSWER_WORDS)
    assert all(w in result.hint for w in words), result.hint
    return result


def test_right_loop_passes():
    assert check_handoff_loop(make_loop()).status == "pass"


def test_stub_is_not_done():
    assert check_handoff_loop(stub).status == "todo"
    assert check_handoff_loop(None).status == "todo"


def test_keeping_the_triage_tools_loops():
    failing(make_loop(swap_tools=False), "more than")


def test_keeping_the_triage_instructions_fails():
    failing(make_loop(swap_instructions=False), "triage agent's instructions")


def test_dropping_the_history_fails():
    failing(make_loop(keep_history=False), "whole conversation")


def test_forgetting_the_transfer_output_gets_a_400():
    failing(make_loop(answer_transfer=False), "400")


def test_reporting_the_first_agent_fails():
    failing(make_loop(report_first=True), "had the conversation at the end")


@pytest.mark.parametrize("bad", [lambda c, m, q, t: "just text", lambda c, m, q, t: ("a", "b", "c")])
def test_a_result_of_the_wrong_shape_fails(bad):
    failing(bad, "two things")
