"""Lesson 13's exercise: a loop that pauses on a call a person must approve, and resumes from saved JSON.

The student writes `advance(state, decisions, client, model, tools, schemas, needs_approval) -> dict`. The
state is plain data: `{"history": [...input items], "pending": [...function_call items]}`. `advance` first
answers the pending calls that `decisions` (call_id -> True, or a string: a rejection with that reason)
decides; a call without a decision stays pending, and while one waits the model is not called (the API refuses
a history with an unanswered call). Then it runs lesson 04's loop: a call to a tool in `needs_approval` is not
run but kept in `pending`, and `advance` RETURNS the state: that return is the pause. When the model answers
in text, `state["answer"]` holds it.

The check, on a scripted model whose first response asks for a free `search` and a gated `write_note` at once:
1. pauses: `input()` and `getpass()` are replaced by a trap, so a gate that waits for a person inside the loop
   (a blocking callback) FAILS; the gated tool must not have run; the free one must have; the state must be
   JSON (`json.dumps`) and hold the pending call;
2. resumes from the JSON text with new tool functions and a new client: no decision (nothing runs, no model
   call), an approval (the tool runs once, its output reaches the model, the answer is kept), a rejection (the
   reason is the call's output). Two runs are paused before the first is resumed, so a gate that keeps the
   pending call outside the state (a global) resumes the wrong one and FAILS;
3. resumes the saved file in a FRESH PROCESS: a new Python interpreter gets the source of the student's
   function (`inspect.getsource`), the saved file, a scripted client and tools of its own, and approves.
Then, on the student's own model, it reports (never judges) whether the model asked for the write and the
run paused.
Left out on purpose: the rejection's wording, how a tool result is serialised, and what the model answers.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    Blocked,
    ScriptedClient,
    SpyClient,
    no_waiting,
    note_tool,
    on_your_model,
    request_items,
    scripted_response,
    without_responses_api,
)

REASON = "the note is already on the fridge"  # the check's own reason: it must reach the model as said
ANSWER = "Done: I kept your note."
GATED, FREE = "write_note", "search"
SEARCH = {"type": "function", "name": FREE, "description": "Search the notes.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                         "additionalProperties": False}}
WRITE = note_tool(GATED)[1]
SCHEMAS = [SEARCH, WRITE]
CALL = "call_1_1"  # the scripted write's call_id (the search is call_1_0)
ROOT = Path(__file__).resolve().parents[3]

# The fresh process: the student's function, the saved file, and everything else its own.
CHILD = '''
import json, sys
from helpers.checks.doubles import ScriptedClient, scripted_response
{source}
saved, out, answer, schemas, approve = sys.argv[1:6]
ran = []
def search(query):
    ran.append(["search", query])
    return [{{"text": "milk, bread"}}]
def write_note(text):
    ran.append(["write_note", text])
    return {{"saved": text}}
client = ScriptedClient([scripted_response(text=answer, n=2)])
state = json.loads(open(saved, encoding="utf-8").read())
result = {name}(state, {{approve: True}}, client, "scripted", {{"search": search, "write_note": write_note}},
                json.loads(schemas), {{"write_note"}})
with open(out, "w", encoding="utf-8") as file:
    json.dump({{"state": result, "ran": ran, "requests": [request for request, _ in client.calls]}}, file, default=str)
'''


def _tools(events: list) -> dict:
    def search(query: str) -> list:
        events.append(FREE)
        return [{"text": "milk, bread"}]

    def write_note(text: str) -> dict:
        events.append(f"{GATED}:{text}")
        return {"saved": text}

    return {FREE: search, GATED: write_note}


def _first(note: str) -> ScriptedClient:
    return ScriptedClient([scripted_response((FREE, {"query": "shopping"}), (GATED, {"text": note}), n=1),
                           scripted_response(text=ANSWER, n=2)])


def _advance(fn, state, decisions, client, tools, what: str):
    with no_waiting():
        try:
            return run_student_code(fn, state, decisions, client, "scripted", tools, SCHEMAS, {GATED},
                                    what=f"advance ({what})")
        except Blocked:
            raise CheckFailed(f"advance ({what}) waited for a person inside the loop: it called input(). That is "
                              "a blocking prompt, not a pause: the person may answer next week, from another "
                              "machine. Keep the call pending and return the state; the decision comes in a "
                              "later call of advance.") from None


def _outputs(items) -> dict:
    return {read_field(i, "call_id"): str(read_field(i, "output")) for i in items
            if read_field(i, "type") == "function_call_output"}


def _saved(state, what: str) -> str:
    fail_if(not isinstance(state, dict), f"advance ({what}) returned a {type(state).__name__}; return the state "
            "dict, with its history and its pending calls.")
    try:
        return json.dumps(state)
    except (TypeError, ValueError) as error:
        raise CheckFailed(f"the state advance returned ({what}) is not JSON ({error}). A paused run is saved as "
                          "text and read back by another process: keep plain dicts and lists in it (the SDK's "
                          "output items are objects; turn them into dicts before you keep them).") from None


def _pause(fn, note: str):
    """Pause one run on the scripted model; returns (the saved JSON text, events, the requests sent)."""
    events: list[str] = []
    client = _first(note)
    start = {"history": [{"role": "user", "content": f"Search my notes, then save the note {note!r}."}],
             "pending": []}
    state = _advance(fn, start, {}, client, _tools(events), "the first call")
    text = _saved(state, "at the pause")
    return text, events, [request for request, _ in client.calls]


@task_check("13-approval", "E13", title="A loop that pauses, saved and resumed")
def check_pausing_loop(advance, client, model):
    """Check `advance(state, decisions, client, model, tools, schemas, needs_approval) -> dict` (see the module
    docstring), then report what it does on your model.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_pausing_loop(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task E13 · A loop that pauses, saved and resumed: define the function in the cell above,
        then run this cell again.
    """
    # 1. The pause.
    saved, events, requests = _pause(advance, "buy milk")
    fail_if(any(e.startswith(GATED) for e in events), f"{GATED} ran before anyone decided: the call that needs "
            "approval must wait in the state, not run.")
    fail_if(FREE not in events, f"{FREE} needs no approval, but it did not run; only the tools in needs_approval "
            "wait.")
    fail_if(len(requests) != 1, f"while a call waits for a decision, don't call the model again (you called it "
            f"{len(requests)} times): the history has a call without an output, which the API refuses.")
    state = json.loads(saved)
    pending = [read_field(c, "call_id") for c in state.get("pending") or []]
    fail_if(pending != [CALL], f"after the pause, state['pending'] should hold the one waiting call (call_id {CALL}); "
            f"it holds {pending}. Whatever is not in the state is lost when the process ends.")
    fail_if(not isinstance(state.get("history"), list), "the state has no 'history' list to resume from.")
    fail_if(_outputs(state["history"]).keys() != {"call_1_0"}, f"after the pause the history should hold the "
            f"output of {FREE} and no output for the waiting call yet.")

    # 2. A second run pauses before the first resumes: the first must resume from its own saved text.
    _pause(advance, "buy eggs")
    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    again = _advance(advance, json.loads(saved), {}, scripted, _tools(events), "resumed with no decision")
    fail_if(events, "resumed with no decision, a tool ran. Only an approval runs a waiting call; no decision "
            "is not a yes.")
    fail_if(scripted.calls, "resumed with no decision, the model was called although the call still has no "
            "output; the API refuses that history. Return the state as it is: the run is still paused.")
    again = json.loads(_saved(again, "resumed with no decision"))
    fail_if([read_field(c, "call_id") for c in again.get("pending") or []] != [CALL],
            "resumed with no decision, the call should still be pending: nothing was decided.")

    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    done = _advance(advance, json.loads(saved), {CALL: True}, scripted, _tools(events), "resumed with an approval")
    fail_if(f"{GATED}:buy eggs" in events, "resuming the first run's saved text ran the second run's call: the "
            "pending call was kept outside the state (in a global?). A resume may only use what was saved.")
    fail_if(events != [f"{GATED}:buy milk"], f"resumed with an approval, run the approved call once and "
            f"nothing else (ran: {events}).")
    fail_if(not scripted.calls, "after the approval the model was not called again with the tool's output.")
    fail_if(CALL not in _outputs(request_items(scripted.calls[0][0])), "the approved call's output did not reach "
            "the model in the next request.")
    done = json.loads(_saved(done, "resumed with an approval"))
    fail_if(done.get("answer") != ANSWER or done.get("pending"), "when the model answers in text, keep its text "
            "in state['answer'] (and no call is pending).")

    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    _advance(advance, json.loads(saved), {CALL: REASON}, scripted, _tools(events), "resumed with a rejection")
    fail_if(events, f"{GATED} ran although the person said no; only True approves.")
    fail_if(not scripted.calls, "after a rejection the model was not called again: the rejection goes back as the "
            "call's output, and the model answers.")
    sent = request_items(scripted.calls[0][0])
    fail_if(any(read_field(i, "role") == "user" and REASON in json.dumps(read_field(i, "content"), default=str)
                for i in sent), "the reason went back as a user message; it belongs in the rejected call's own "
            "output, where the model expects the result.")
    fail_if(REASON not in _outputs(sent).get(CALL, ""), "the rejected call's output must carry the person's reason "
            "(the API also refuses a call left without an output).")

    # 3. A fresh process.
    ran = _in_a_fresh_process(advance, saved)
    return ("pauses without waiting, resumes from its saved JSON (in this process and in a fresh one: "
            f"{ran}), and the decision reaches the model as the call's output."
            + on_your_model(client, model, lambda client, model: _what_your_model_did(advance, client, model)))


def _in_a_fresh_process(advance, saved: str) -> str:
    """Resume `saved` with the student's function in a new interpreter; returns what ran there."""
    try:
        source = textwrap.dedent(inspect.getsource(advance))
    except (OSError, TypeError):
        raise CheckFailed("the check could not read your function's source to run it in a fresh process; define "
                          "it with def in a notebook cell (or a file) and run this cell again.") from None
    with tempfile.TemporaryDirectory() as folder:
        path, out = Path(folder) / "paused.json", Path(folder) / "resumed.json"
        path.write_text(saved, encoding="utf-8")
        script = CHILD.format(source=source, name=advance.__name__)
        try:
            child = subprocess.run([sys.executable, "-c", script, str(path), str(out), ANSWER, json.dumps(SCHEMAS),
                                    CALL], capture_output=True, text=True, cwd=ROOT, timeout=120)
        except subprocess.TimeoutExpired:
            raise CheckFailed("in a fresh process your advance did not return within 2 minutes; does it wait "
                              "for something?") from None
        if child.returncode != 0 or not out.exists():
            last = (child.stderr.strip().splitlines() or ["no error text"])[-1]
            extra = (" A fresh process has only what you import there and what was saved: a name defined "
                     "elsewhere in your notebook does not exist in it." if "NameError" in last else "")
            raise CheckFailed(f"resumed in a fresh process, advance failed: {last}.{extra}")
        result = json.loads(out.read_text(encoding="utf-8"))
    fail_if(result["ran"] != [[GATED, "buy milk"]], f"in a fresh process the approved call should run once, "
            f"alone; there ran: {result['ran']}.")
    fail_if((result["state"] or {}).get("answer") != ANSWER, "in a fresh process the run did not end with the "
            "model's answer in state['answer'].")
    return f"{GATED} ran once there"


def _what_your_model_did(advance, client, model) -> str:
    if without_responses_api(client):
        return "not run: this check's loop calls the Responses API, which your provider lacks."
    save, schema, ran = note_tool(GATED)
    spy = SpyClient(client)
    start = {"history": [{"role": "user", "content": 'Use write_note to save the note "call the plumber"'}],
             "pending": []}
    with no_waiting():
        state = advance(start, {}, spy, model, {GATED: save}, [schema], {GATED})
    if ran:
        return f"{GATED} ran without a decision."
    if state.get("pending"):
        return f"it asked for {GATED}; the run paused with the call pending, as it should."
    return f"it answered without calling {GATED} (a model may decline to), so there was nothing to pause for."
