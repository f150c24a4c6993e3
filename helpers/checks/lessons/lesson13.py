"""Lesson 13's exercise: the approval gate, the piece of the loop that stands between a call and its tool.

The student writes `gated_call(call, tools, needs_approval, ask) -> list`: given one function_call item of a
response, return the items to append to the history. A tool not in `needs_approval` runs at once. Otherwise
`ask(name, arguments)` is asked first: True runs the tool; a string is a rejection whose reason becomes that
call's output; anything else (None: nobody decided) is not an approval. The check calls it directly on four
calls (no approval needed, approved, rejected with a reason, no decision), watching the order of asking and
running, then puts it in a loop of its own on a scripted model and rejects a call: the next request must carry the
reason as the call's output. The same loop on the student's own model is reported beside the verdict, never
judged (a model may decline to call the tool).
Left out on purpose: the wording of the rejection (any output with the reason in it passes), how the tool's
result is serialised, and what the model answers (that is the model's business; the offline model's rule is
tested in tests/offline/test_offline_denials.py).
"""

from __future__ import annotations

import json

from helpers.checks.core import fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    ScriptedClient,
    SpyClient,
    note_tool,
    on_your_model,
    request_items,
    scripted_response,
    without_responses_api,
)

REASON = "the entry repeats one we already have"  # the check's own reason: it must reach the model as said
MAX_CALLS = 6


def _outputs(items) -> list:
    return [i for i in items if read_field(i, "type") == "function_call_output"]


def _user_items_with(items, text: str) -> list:
    return [i for i in items if read_field(i, "role") == "user" and text in json.dumps(read_field(i, "content"))]


def _case(gated_call, name: str, decision, needs: set):
    """Run the student's gate on one call of `name`; return (items, events) where events lists ask/run in order."""
    events: list[str] = []

    def write_note(text: str) -> dict:
        events.append("run")
        return {"saved": text}

    def ask(tool_name, arguments):
        events.append("ask")
        return decision

    call = {"type": "function_call", "call_id": f"call_{name}", "name": "write_note",
            "arguments": json.dumps({"text": "remember the milk"})}
    items = run_student_code(gated_call, call, {"write_note": write_note}, needs, ask, what="gated_call")
    fail_if(not isinstance(items, list), f"gated_call returned a {type(items).__name__}; return a list of the "
            "items to append to the history.")
    return items, events


@task_check("13-approval", "E13", title="An approval gate in your loop")
def check_gated_call(gated_call, client, model):
    """Check `gated_call(call, tools, needs_approval, ask) -> list` on four calls, then in a loop on your model.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_gated_call(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task E13 · An approval gate in your loop: define the function in the cell above, then
        run this cell again.
    """
    # 1. A tool that needs no approval: it runs, and nobody is asked.
    items, events = _case(gated_call, "free", True, set())
    fail_if("ask" in events, "you asked about a tool that is not in needs_approval; only those tools wait for "
            "a person.")
    fail_if(events != ["run"], "a tool that needs no approval must run once, as before.")
    fail_if(len(_outputs(items)) != 1 or read_field(_outputs(items)[0], "call_id") != "call_free",
            "return one function_call_output item with the call's call_id.")

    # 2. Approved: ask first, then run.
    items, events = _case(gated_call, "yes", True, {"write_note"})
    fail_if(events[:1] == ["run"], "the tool ran before the person was asked: by then the write has happened. "
            "Ask first, and run only after a yes.")
    fail_if(events != ["ask", "run"], f"on a yes, ask once and then run the tool once (you did: {events}).")
    fail_if(len(_outputs(items)) != 1, "an approved call gets one function_call_output, like any call.")

    # 3. Rejected with a reason: no run; the reason is the call's output.
    items, events = _case(gated_call, "no", REASON, {"write_note"})
    fail_if("run" in events, "the tool ran although the person said no. Run it only when ask(...) returns True.")
    outputs = _outputs(items)
    fail_if(_user_items_with(items, REASON), "the reason went back as a user message. The model is waiting "
            "for this call's result: the reason belongs in the call's own output.")
    fail_if(not outputs, "a rejected call got no output. The API refuses a history with a function call "
            "nobody answered (400); answer it with a function_call_output that says it was not run.")
    fail_if(len(outputs) != 1 or read_field(outputs[0], "call_id") != "call_no",
            "a rejected call gets exactly one function_call_output, with its call_id.")
    fail_if(REASON not in str(read_field(outputs[0], "output")), "the rejection's output lacks the person's "
            "reason; the model can only explain what it was told.")

    # 4. No decision: that is not a yes.
    items, events = _case(gated_call, "none", None, {"write_note"})
    fail_if("run" in events, "ask(...) returned None (nobody decided) and the tool ran anyway: an approval "
            "gate must fail closed. Only True approves.")
    fail_if(len(_outputs(items)) != 1, "a call without a decision still needs one function_call_output "
            "saying it was not run.")

    # 5. In a loop, on a scripted model that asks for add_note and then answers: the rejection must reach the
    # model as the call's output. The same loop on the student's own model is reported beside the verdict.
    scripted = ScriptedClient([scripted_response(("add_note", {"text": "buy bread"}), n=1),
                               scripted_response(text="I did not save it.", n=2)])
    requests, ran = _rejecting_loop(gated_call, scripted, "scripted")
    fail_if(ran, "in the loop, the rejected tool ran.")
    fail_if(len(requests) < 2, "in the loop, the model was not called again after the rejected call: its output "
            "goes back to the model, which then answers.")
    sent = [item for request in requests[1:] for item in request_items(request)]
    fail_if(not any(REASON in str(read_field(o, "output")) for o in _outputs(sent)),
            "in the loop, the model never received the reason as the call's output.")

    def what_your_model_did(client, model) -> str:
        if without_responses_api(client):
            return "not run: this check's loop calls the Responses API, which your provider lacks."
        requests, ran = _rejecting_loop(gated_call, SpyClient(client), model)
        if ran:
            return "the rejected tool ran."
        if len(requests) < 2:
            return "it answered without calling add_note (a model may decline to); your gate was not needed."
        return "it called add_note, and the reason reached it as the call's output."

    return ("asks before it runs, fails closed, and the reason reaches the model as the call's output."
            + on_your_model(client, model, what_your_model_did))


def _rejecting_loop(gated_call, client, model) -> tuple[list[dict], list]:
    """A small loop around the student's gate that rejects every add_note call: (the requests sent, what ran)."""
    add_note, schema, ran = note_tool("add_note")
    history: list = [{"role": "user", "content": 'Use add_note to save the note "buy bread"'}]
    requests = []
    for _ in range(MAX_CALLS):
        requests.append({"input": list(history)})
        response = client.responses.create(model=model, input=history, tools=[schema])
        calls = [i for i in response.output if read_field(i, "type") == "function_call"]
        history += [i.model_dump(exclude_none=True) if hasattr(i, "model_dump") else i for i in response.output]
        if not calls:
            break
        for call in calls:
            item = {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments}
            history += run_student_code(gated_call, item, {"add_note": add_note}, {"add_note"},
                                        lambda name, arguments: REASON, what="gated_call in the loop")
    return requests, ran
