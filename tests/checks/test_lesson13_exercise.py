"""Lesson 13's exercise check (helpers.checks.lessons.lesson13): a loop that pauses and resumes from saved JSON
passes, written two ways; the stub is not done yet; and the loops students really write wrong (a blocking
prompt, a tool run anyway, a pending call kept outside the state, a state that is not JSON, ...) fail with a hint
that does not hand over the answer."""

import json

import hints
import pytest

from helpers.checks.lessons.lesson13 import check_pausing_loop
from helpers.offline import OFFLINE_MODEL, neutral_client


def check(fn):
    return check_pausing_loop(fn, neutral_client(), OFFLINE_MODEL)


def right(state, decisions, client, model, tools, schemas, needs_approval):
    still = []
    for call in state["pending"]:
        decision = decisions.get(call["call_id"])
        if decision is True:
            text = json.dumps(tools[call["name"]](**json.loads(call["arguments"])))
        elif isinstance(decision, str):
            text = f"Not approved by the user, so it did not run. Reason: {decision}"
        else:
            still.append(call)
            continue
        state["history"].append({"type": "function_call_output", "call_id": call["call_id"], "output": text})
    state["pending"] = still
    while not state["pending"]:
        response = client.responses.create(model=model, input=state["history"], tools=schemas)
        items = [item.model_dump(exclude_none=True) for item in response.output]
        state["history"] += items
        calls = [item for item in items if item["type"] == "function_call"]
        if not calls:
            state["answer"] = response.output_text
            return state
        for call in calls:
            if call["name"] in needs_approval:
                state["pending"].append(call)
            else:
                text = json.dumps(tools[call["name"]](**json.loads(call["arguments"])))
                state["history"].append({"type": "function_call_output", "call_id": call["call_id"], "output": text})
    return state


def right_another_way(state, decisions, client, model, tools, schemas, needs_approval):
    # A new state each time, the decisions taken first, the waiting calls found by what the history lacks,
    # and the output's text built with str() of the result.
    import json as j
    history = list(state["history"])
    answered = {i.get("call_id") for i in history if i.get("type") == "function_call_output"}
    waiting = [c for c in state["pending"] if c["call_id"] not in answered]
    left = []
    for call in waiting:
        verdict = decisions.get(call["call_id"])
        if verdict is True:
            history.append({"type": "function_call_output", "call_id": call["call_id"],
                            "output": str(tools[call["name"]](**j.loads(call["arguments"])))})
        elif isinstance(verdict, str) and verdict:
            history.append({"type": "function_call_output", "call_id": call["call_id"],
                            "output": f"The user said no ({verdict}); the call did not run."})
        else:
            left.append(call)
    if left:
        return {"history": history, "pending": left}
    for _ in range(10):
        response = client.responses.create(model=model, input=history, tools=schemas)
        new = [j.loads(item.model_dump_json(exclude_none=True)) for item in response.output]
        history.extend(new)
        calls = [c for c in new if c["type"] == "function_call"]
        if not calls:
            return {"history": history, "pending": [], "answer": response.output_text}
        left = [c for c in calls if c["name"] in needs_approval]
        for call in calls:
            if call["name"] not in needs_approval:
                history.append({"type": "function_call_output", "call_id": call["call_id"],
                                "output": str(tools[call["name"]](**j.loads(call["arguments"])))})
        if left:
            return {"history": history, "pending": left}
    return {"history": history, "pending": []}


@pytest.mark.parametrize("fn", [right, right_another_way])
def test_right_loops_pass(fn):
    result = check(fn)
    assert result.status == "pass", result
    assert "fresh one" in result.hint


@pytest.mark.parametrize("fn", [hints.stub, None])
def test_the_stub_is_not_done_yet(fn):
    hints.assert_todo(check(fn))


def changed(**parts):
    """`right` with one of its pieces swapped for a wrong one (the rest stays right)."""
    def gate(state, decisions, client, model, tools, schemas, needs_approval):
        return parts["body"](state, decisions, client, model, tools, schemas, needs_approval)
    return gate


def ask(name, arguments):
    """A blocking prompt: waits in the loop for a person at the keyboard."""
    return input(f"Run {name}({arguments})? ") == "y"


def blocks_on_a_callback(state, decisions, client, model, tools, schemas, needs_approval):
    history = state["history"]
    while True:
        response = client.responses.create(model=model, input=history, tools=schemas)
        items = [item.model_dump(exclude_none=True) for item in response.output]
        history += items
        calls = [item for item in items if item["type"] == "function_call"]
        if not calls:
            return {"history": history, "pending": [], "answer": response.output_text}
        for call in calls:
            if call["name"] in needs_approval and not ask(call["name"], call["arguments"]):
                text = "Not approved."
            else:
                text = json.dumps(tools[call["name"]](**json.loads(call["arguments"])))
            history.append({"type": "function_call_output", "call_id": call["call_id"], "output": text})


def runs_it_anyway(state, decisions, client, model, tools, schemas, needs_approval):
    # Runs every call, then also lists the gated ones as pending "for the record".
    state = right(state, decisions, client, model, tools, schemas, set())
    return state


def runs_and_records(state, decisions, client, model, tools, schemas, needs_approval):
    for call in state["pending"]:  # already ran below; a decision only changes the words
        state["history"].append({"type": "function_call_output", "call_id": call["call_id"],
                                 "output": "ok" if decisions.get(call["call_id"]) is True else "not approved"})
    state["pending"] = []
    response = client.responses.create(model=model, input=state["history"], tools=schemas)
    items = [item.model_dump(exclude_none=True) for item in response.output]
    state["history"] += items
    calls = [item for item in items if item["type"] == "function_call"]
    if not calls:
        state["answer"] = response.output_text
        return state
    for call in calls:
        tools[call["name"]](**json.loads(call["arguments"]))  # "run it now, undo it if rejected"
        if call["name"] in needs_approval:
            state["pending"].append(call)
        else:
            state["history"].append({"type": "function_call_output", "call_id": call["call_id"], "output": "{}"})
    return state


WAITING = []  # a pending call kept in the kernel instead of the state


def keeps_pending_in_a_global(state, decisions, client, model, tools, schemas, needs_approval):
    if len(state["history"]) > 1:  # a resume: take the waiting call from the kernel, not from the saved state
        state = dict(state, pending=list(WAITING))
    result = right(state, decisions, client, model, tools, schemas, needs_approval)
    WAITING[:] = result["pending"]
    return result


def forgets_pending_on_save(state, decisions, client, model, tools, schemas, needs_approval):
    result = right(state, decisions, client, model, tools, schemas, needs_approval)
    WAITING[:] = result["pending"]
    return {"history": result["history"], "answer": result.get("answer")}  # "pending is in memory anyway"


def keeps_sdk_objects(state, decisions, client, model, tools, schemas, needs_approval):
    if state["pending"]:
        return right(state, decisions, client, model, tools, schemas, needs_approval)
    response = client.responses.create(model=model, input=state["history"], tools=schemas)
    state["history"] += response.output  # SDK objects: fine in memory, not in a file
    for call in [i for i in response.output if i.type == "function_call"]:
        if call.name in needs_approval:
            state["pending"].append(call)
        else:
            state["history"].append({"type": "function_call_output", "call_id": call.call_id,
                                     "output": json.dumps(tools[call.name](**json.loads(call.arguments)))})
    return state


def calls_the_model_while_waiting(state, decisions, client, model, tools, schemas, needs_approval):
    state = right(state, decisions, client, model, tools, schemas, needs_approval)
    if state["pending"]:
        client.responses.create(model=model, input=state["history"], tools=schemas)  # "let the model know"
    return state


def no_decision_is_a_yes(state, decisions, client, model, tools, schemas, needs_approval):
    decisions = {call["call_id"]: decisions.get(call["call_id"], True) for call in state["pending"]}
    return right(state, decisions, client, model, tools, schemas, needs_approval)


def reason_as_user_message(state, decisions, client, model, tools, schemas, needs_approval):
    for call_id, decision in decisions.items():
        if isinstance(decision, str):
            state["history"].append({"type": "function_call_output", "call_id": call_id, "output": "Not approved."})
            state["history"].append({"role": "user", "content": f"I said no: {decision}"})
    state["pending"] = [c for c in state["pending"] if not isinstance(decisions.get(c["call_id"]), str)]
    return right(state, decisions, client, model, tools, schemas, needs_approval)


def reason_lost(state, decisions, client, model, tools, schemas, needs_approval):
    decisions = {k: (v if v is True else "no") for k, v in decisions.items()}
    return right(state, decisions, client, model, tools, schemas, needs_approval)


def needs_a_notebook_global(state, decisions, client, model, tools, schemas, needs_approval):
    return right(state, decisions, client, model, tools, schemas, needs_approval)  # right: in this kernel only


@pytest.mark.parametrize(("fn", "says"), [
    (blocks_on_a_callback, "input()"),
    (runs_it_anyway, "before anyone decided"),
    (runs_and_records, "before anyone decided"),
    (keeps_pending_in_a_global, "global"),
    (forgets_pending_on_save, "lost"),
    (keeps_sdk_objects, "not JSON"),
    (calls_the_model_while_waiting, "don't call the model"),
    (no_decision_is_a_yes, "no decision"),
    (reason_as_user_message, "user message"),
    (reason_lost, "reason"),
    (needs_a_notebook_global, "fresh process"),
], ids=lambda v: getattr(v, "__name__", v))
def test_wrong_loops_fail_with_a_hint_that_does_not_give_the_answer(fn, says):
    WAITING.clear()
    hints.assert_fails(check(fn), leaks=SECRETS, says=(says,))


SECRETS = ("model_dump", "is True", "isinstance(", "Reason:", "state[\"pending\"].append", "still.append")


def test_a_loop_that_crashes_gets_a_hint():
    def crashes(state, decisions, client, model, tools, schemas, needs_approval):
        return state["queue"]

    hints.assert_fails(check(crashes), leaks=SECRETS, says=("KeyError",))
