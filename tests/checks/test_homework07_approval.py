"""Homework 07, task 7.1 (helpers.checks.homework.hw07_approval): lesson 13's pausing loop grown by a policy,
approvals bound to the arguments shown, and a ledger. Right loops written two ways pass, the stub is not done
yet, and the loops students really write wrong (blocking, ignoring the policy, trusting an approval whatever the
arguments, writing twice on a second resume, a ledger keyed by call_id alone) fail with a hint that does not
give the answer."""

import hashlib
import json

import hints
import pytest

from helpers.approval import arguments_digest, idempotency_key
from helpers.checks.homework.hw07_approval import check_approval_loop
from helpers.offline import OFFLINE_MODEL, neutral_client


def check(fn):
    return check_approval_loop(fn, neutral_client(), OFFLINE_MODEL)


def output(call, text):
    return {"type": "function_call_output", "call_id": call["call_id"], "output": text}


def make(*, keys=True, bind=True, ledger_on=True, obey_policy=True, key_of=None):
    """The right loop, or with one of its pieces switched off (the rest stays right)."""
    key_of = key_of or (lambda history, call: idempotency_key(history, call["call_id"]))

    def advance(state, decisions, client, model, tools, schemas, policy, ledger):
        def run(call):
            return json.dumps(tools[call["name"]](**json.loads(call["arguments"])))

        history = state["history"]
        keys_now = {c["call_id"]: key_of(history, c) for c in state["pending"]}  # before any output is added
        waiting = []
        for call in state["pending"]:
            decision = decisions.get(call["call_id"]) or {}
            key = keys_now[call["call_id"]]
            approved = "approve" in decision and (not bind or decision["approve"] == arguments_digest(
                call["arguments"]))
            if approved:
                if ledger_on and key in ledger:
                    text = ledger[key]
                else:
                    text = run(call)
                    ledger[key] = text
                history.append(output(call, text))
            elif "reject" in decision:
                history.append(output(call, f"Not approved, so it did not run. Reason: {decision['reject']}"))
            else:
                waiting.append(call)
        state["pending"] = waiting
        while not state["pending"]:
            response = client.responses.create(model=model, input=history, tools=schemas)
            items = [item.model_dump(exclude_none=True) for item in response.output]
            history += items
            calls = [item for item in items if item["type"] == "function_call"]
            if not calls:
                state["answer"] = response.output_text
                break
            for call in calls:
                verdict = policy(call["name"], call["arguments"]) if obey_policy else "allow"
                if verdict == "deny":
                    history.append(output(call, "Refused by the approval policy: not run."))
                elif verdict == "ask":
                    state["pending"].append(call)
                else:
                    history.append(output(call, run(call)))
        return state
    return advance


def another_way(state, decisions, client, model, tools, schemas, policy, ledger):
    # A new state each time, its own hash of the whole saved state as the run's id, and an approval compared
    # by the arguments' parsed value instead of a digest of the canonical text.
    run_id = hashlib.sha256(json.dumps(state["history"], sort_keys=True).encode()).hexdigest()
    history, left = list(state["history"]), []
    for call in state["pending"]:
        decision = decisions.get(call["call_id"], {})
        key = f"{run_id}/{call['call_id']}"
        if decision.get("approve") == arguments_digest(json.loads(call["arguments"])):
            if key not in ledger:
                ledger[key] = str(tools[call["name"]](**json.loads(call["arguments"])))
            history.append(output(call, ledger[key]))
        elif decision.get("reject"):
            history.append(output(call, f"The user said no ({decision['reject']})."))
        else:
            left.append(call)
    if left:
        return {"history": history, "pending": left}
    for _ in range(10):
        response = client.responses.create(model=model, input=history, tools=schemas)
        new = [json.loads(item.model_dump_json(exclude_none=True)) for item in response.output]
        history.extend(new)
        calls = [c for c in new if c["type"] == "function_call"]
        if not calls:
            return {"history": history, "pending": [], "answer": response.output_text}
        left = []
        for call in calls:
            verdict = policy(call["name"], call["arguments"])
            if verdict == "allow":
                history.append(output(call, str(tools[call["name"]](**json.loads(call["arguments"])))))
            elif verdict == "ask":
                left.append(call)
            else:
                history.append(output(call, "This tool is not allowed."))
        if left:
            return {"history": history, "pending": left}
    return {"history": history, "pending": []}


@pytest.mark.parametrize("fn", [make(), another_way], ids=["right", "another_way"])
def test_right_loops_pass(fn):
    result = check(fn)
    assert result.status == "pass", result


@pytest.mark.parametrize("fn", [hints.stub, None])
def test_the_stub_is_not_done_yet(fn):
    hints.assert_todo(check(fn))


def blocks(state, decisions, client, model, tools, schemas, policy, ledger):
    history = state["history"]
    while True:
        response = client.responses.create(model=model, input=history, tools=schemas)
        items = [item.model_dump(exclude_none=True) for item in response.output]
        history += items
        calls = [item for item in items if item["type"] == "function_call"]
        if not calls:
            return {"history": history, "pending": [], "answer": response.output_text}
        for call in calls:
            if policy(call["name"], call["arguments"]) != "allow" and input(f"Run {call['name']}? ") != "y":
                history.append(output(call, "Not approved."))
            else:
                history.append(output(call, json.dumps(tools[call["name"]](**json.loads(call["arguments"])))))


def asks_about_denied(state, decisions, client, model, tools, schemas, policy, ledger):
    lenient = lambda name, arguments: "ask" if policy(name, arguments) == "deny" else policy(name, arguments)  # noqa: E731
    return make()(state, decisions, client, model, tools, schemas, lenient, ledger)


def runs_then_asks(state, decisions, client, model, tools, schemas, policy, ledger):
    def run_everything(name, arguments):  # "run it now, ask afterwards": the write has happened
        return "allow" if policy(name, arguments) == "ask" else policy(name, arguments)
    state = make()(state, decisions, client, model, tools, schemas, run_everything, ledger)
    return state


def loses_pending_on_save(state, decisions, client, model, tools, schemas, policy, ledger):
    state = make()(state, decisions, client, model, tools, schemas, policy, ledger)
    return {"history": state["history"], "answer": state.get("answer")}  # "pending is in memory anyway"


def decides_only_the_first(state, decisions, client, model, tools, schemas, policy, ledger):
    first = dict(list(decisions.items())[:1])  # one decision per resume
    return make()(state, first, client, model, tools, schemas, policy, ledger)


@pytest.mark.parametrize(("fn", "says"), [
    (blocks, "input()"),
    (runs_then_asks, "before anyone decided"),
    (loses_pending_on_save, "both write_note calls should be pending"),
    (decides_only_the_first, "not only the first"),
    (make(obey_policy=False), "denies"),
    (asks_about_denied, "already decided"),
    (make(bind=False), "edited"),
    (make(ledger_on=False), "again"),
    (make(key_of=lambda history, call: call["call_id"]), "call_id"),
], ids=["blocks", "runs_then_asks", "loses_pending_on_save", "decides_only_the_first", "ignores_the_policy", "asks_about_denied", "ignores_the_digest", "no_ledger",
        "ledger_keyed_by_call_id"])
def test_wrong_loops_fail_with_a_hint_that_does_not_give_the_answer(fn, says):
    hints.assert_fails(check(fn), leaks=SECRETS, says=(says,))


SECRETS = ("idempotency_key(", "model_dump", "arguments_digest(call", "in ledger", "ledger[")
