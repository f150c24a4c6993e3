"""Homework 07, task 7.1: an approval gate on the student's own loop.

The student writes `run_with_approval(client, model, question, tools, schemas, needs_approval, ask) -> str`:
lesson 04's loop (call the model, keep its output, answer every function call, stop on a response without one,
return its text), where a call to a tool in `needs_approval` first asks `ask(name, arguments)`. True runs it; a
string rejects it, and the reason is that call's output; anything else (None) is no approval. The loop goes on
after a rejection, so the model can say what was not done.

The check runs it three times on a scripted model whose first response asks for a free search and a gated
`write_note` in one go, deciding yes, no with a reason, and nothing; then on the student's own model with a
rejection, where the next request must be accepted and carry the reason as the call's output.
Left out on purpose: the rejection's wording, the tool result's format, and what the model answers after a
rejection (the model's business; the offline model's rule has its own tests).
"""

from __future__ import annotations

import json

from helpers.checks.core import fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import ScriptedClient, SpyClient, note_tool, request_items, scripted_response

REASON = "the note is already on the fridge"
ANSWER = "Done deciding."
MAX_CALLS = 8
SEARCH = {"type": "function", "name": "search", "description": "Search the notes.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                         "additionalProperties": False}}
WRITE = note_tool("write_note")[1]


def _outputs(items) -> dict:
    return {read_field(i, "call_id"): str(read_field(i, "output")) for i in items
            if read_field(i, "type") == "function_call_output"}


def _scripted(run_with_approval, decision):
    """One run on the scripted model; returns (answer, events, the requests sent)."""
    events: list[str] = []

    def search(query: str) -> list:
        events.append("search")
        return [{"text": "milk, bread"}]

    def write_note(text: str) -> dict:
        events.append("run")
        return {"saved": text}

    def ask(name, arguments):
        events.append(f"ask:{name}")
        return decision

    scripted = ScriptedClient([scripted_response(("search", {"query": "shopping"}),
                                                 ("write_note", {"text": "buy milk"}), n=1),
                               scripted_response(text=ANSWER, n=2)])
    answer = run_student_code(run_with_approval, scripted, "scripted", "Note that I need milk.",
                              {"search": search, "write_note": write_note}, [SEARCH, WRITE], {"write_note"}, ask,
                              what="run_with_approval")
    return answer, events, [request for request, _ in scripted.calls]


@task_check("07-the-loop-under-control", "7.1", title="An approval gate on your loop")
def check_approval_loop(run_with_approval, client, model):
    """Check `run_with_approval(client, model, question, tools, schemas, needs_approval, ask) -> str`.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_approval_loop(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 7.1 · An approval gate on your loop: define the function in the cell above, then run
        this cell again.
    """
    # 1. Approved: asked before the write, the free search never asked about, and the loop goes on.
    answer, events, requests = _scripted(run_with_approval, True)
    fail_if("ask:search" in events, "your loop asked about search, which is not in needs_approval; only the "
            "listed tools wait for a person.")
    fail_if("run" in events and "ask:write_note" in events and events.index("run") < events.index("ask:write_note"),
            "write_note ran before the person was asked; ask first, then run on a yes.")
    fail_if(events.count("run") != 1 or "ask:write_note" not in events,
            f"on a yes, ask once and run the tool once (your loop did: {events}).")
    fail_if(len(requests) < 2, "your loop stopped after the response with the tool calls; call the model again "
            "with their outputs until it answers in text.")
    fail_if(answer != ANSWER, "what you returned is not the text of the final response.")

    # 2. Rejected with a reason: not run, the reason is the call's output, and the model hears it.
    answer, events, requests = _scripted(run_with_approval, REASON)
    fail_if("run" in events, "write_note ran although the person said no; run it only when ask(...) returns True.")
    fail_if(len(requests) < 2, "after a rejection your loop stopped; send the rejection to the model as the "
            "call's output and let it answer, so it can tell the user what was not done.")
    sent = request_items(requests[1])
    fail_if(any(read_field(i, "role") == "user" and REASON in json.dumps(read_field(i, "content"), default=str)
                for i in sent), "the reason went back as a user message; it belongs in the rejected call's own "
            "output, where the model expects the tool's result.")
    outputs = _outputs(sent)
    fail_if("call_1_1" not in outputs, "the rejected call got no output: the API refuses a history with a "
            "function call nobody answered (400). Answer it with an output that says it was not run.")
    fail_if("call_1_0" not in outputs, "the search of the same response got no output; every call needs one.")
    fail_if(REASON not in outputs["call_1_1"], "the rejected call's output lacks the person's reason.")
    fail_if(answer != ANSWER, "after the rejection, return the text of the model's final response.")

    # 3. No decision at all: not a yes.
    _, events, requests = _scripted(run_with_approval, None)
    fail_if("run" in events, "ask(...) returned None (nobody decided) and write_note ran: a gate must fail "
            "closed, and only True approves.")
    fail_if(len(requests) < 2 or "call_1_1" not in _outputs(request_items(requests[1])),
            "a call without a decision still needs an output saying it was not run.")

    # 4. Your model: a rejection must not break the next request.
    spy = SpyClient(client)
    write_note, _, ran = note_tool("write_note")
    answer = run_student_code(run_with_approval, spy, model, 'Use write_note to save the note "call the plumber"',
                              {"write_note": write_note}, [WRITE], {"write_note"}, lambda name, arguments: REASON,
                              what="run_with_approval on your model")
    fail_if(ran, "on your model, the rejected tool ran.")
    fail_if(len(spy.calls) > MAX_CALLS, f"your loop called the model {len(spy.calls)} times; stop as soon as a "
            "response asks for no tool.")
    fail_if(not isinstance(answer, str) or answer != spy.calls[-1][1].output_text,
            "on your model, what you returned is not the text of the last response.")
    if len(spy.calls) > 1:
        fail_if(not any(REASON in text for request, _ in spy.calls[1:] for text in _outputs(request_items(request))
                        .values()), "on your model, the reason never reached the model as the call's output.")
    return (f"asks before writing, fails closed, and the reason reached {model} as the call's output "
            f"({len(spy.calls)} model call(s)).")
