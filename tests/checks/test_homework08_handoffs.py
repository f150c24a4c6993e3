"""Homework task 8.2's check (hand over and hand back, in the student's own loop): right loops written differently
pass, the stub is not done, and the loops that handle one transfer at a time fail with hints that don't give the
answer away."""

import json

import hints

from helpers.agents import hand_over
from helpers.checks.homework.hw08_handoffs import check_handoff_loop
from helpers.tools import run_tool

LEAKS = ("transfer_output", "hand_over", "pending", "after the loop over")


def make_loop(*, swap_at_once=False, skip_after_transfer=False, from_triage_only=False, keep_history=True,
              report_first=False):
    def handoff_loop(client, model, question, triage):
        agent = triage
        messages = [{"role": "user", "content": question}]
        for _ in range(10):
            response = client.responses.create(model=model, instructions=agent.instructions, input=messages,
                                               tools=agent.schemas())
            messages += [item.model_dump(exclude_none=True) for item in response.output]
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                return response.output_text, (triage if report_first else agent).name
            runner, target = agent, None
            for call in calls:
                owner = triage if from_triage_only else runner
                handoff = next((a for a in owner.handoffs if a.transfer_name() == call.name), None)
                if handoff is not None:
                    messages.append({"type": "function_call_output", "call_id": call.call_id,
                                     "output": json.dumps({"assistant": handoff.name})})
                    target = handoff
                    if swap_at_once:
                        runner = handoff
                    if skip_after_transfer:
                        break
                    continue
                messages.append({"type": "function_call_output", "call_id": call.call_id,
                                 "output": run_tool(call.name, call.arguments, runner.tools)})
            if target is not None:
                agent = target
                if not keep_history:
                    messages = messages[-1:]
        return "", agent.name

    return handoff_loop


def with_course_hand_over(client, model, question, triage):
    """Written differently: lesson 17's hand_over for the swap, outputs collected first."""
    agent, messages = triage, [{"role": "user", "content": question}]
    instructions, schemas = agent.instructions, agent.schemas()
    while True:
        response = client.responses.create(model=model, instructions=instructions, input=messages, tools=schemas)
        messages.extend(response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text, agent.name
        transfers = {a.transfer_name(): a for a in agent.handoffs}
        transfer = next((call for call in calls if call.name in transfers), None)
        for call in calls:
            if call is not transfer:
                messages.append({"type": "function_call_output", "call_id": call.call_id,
                                 "output": run_tool(call.name, call.arguments, agent.tools)})
        if transfer is not None:
            target = transfers[transfer.name]
            messages, instructions, schemas = hand_over(messages, transfer.call_id, agent, target)
            agent = target


def assert_fails(result, *words):
    hints.assert_fails(result, leaks=LEAKS, says=words)  # tests/hints.py, with this task's words that give it away


def test_right_loops_pass():
    assert check_handoff_loop(make_loop()).status == "pass"
    result = check_handoff_loop(with_course_hand_over)
    assert result.status == "pass", result


def test_stub_is_not_done():
    def stub(client, model, question, triage):
        raise NotImplementedError

    assert check_handoff_loop(stub).status == "todo"
    assert check_handoff_loop(None).status == "todo"


def test_running_the_other_call_with_the_new_agents_tools_fails():
    assert_fails(check_handoff_loop(make_loop(swap_at_once=True)), "Which agent's tools")


def test_leaving_the_call_beside_a_transfer_unanswered_fails():
    assert_fails(check_handoff_loop(make_loop(skip_after_transfer=True)), "no function_call_output")


def test_transfers_looked_up_on_triage_only_fail_the_hand_back():
    assert_fails(check_handoff_loop(make_loop(from_triage_only=True)), "Who has the conversation now?")


def test_dropping_the_history_fails():
    assert_fails(check_handoff_loop(make_loop(keep_history=False)), "history")


def test_reporting_the_first_agent_fails():
    assert_fails(check_handoff_loop(make_loop(report_first=True)), "answered last")


def test_a_loop_that_never_stops_fails():
    def forever(client, model, question, triage):
        for _ in range(20):
            client.responses.create(model=model, instructions=triage.instructions, input=[question],
                                    tools=triage.schemas())
        return "", "Triage"

    assert_fails(check_handoff_loop(forever))
