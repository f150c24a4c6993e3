"""Homework 07, task 7.1: lesson 13's pausing loop with a policy, approvals bound to arguments, and a ledger.

The student writes `advance(state, decisions, client, model, tools, schemas, policy, ledger) -> dict`, lesson
13's exercise grown by three things the lesson's own loop left out:
- `policy(name, arguments)` says "allow" (run it), "ask" (keep it pending and return: the pause) or "deny"
  (answer it with a refusal, unasked and unrun), as `helpers.approval.policy_rule` does from MCP annotations;
- a decision is `{"approve": digest}` (the `helpers.approval.arguments_digest` of the arguments the person was
  shown) or `{"reject": reason}`; an approval whose digest does not match the call's arguments is no approval;
- `ledger`, a mapping that outlives the process: a call that ran is recorded there, and a run resumed twice
  from the same saved state runs it once. Its key must name this call of this run: call ids are the model's,
  and can repeat in another run (`helpers.approval.idempotency_key` is one such key).

The check, on a scripted model whose first response asks at once for a free `search`, two `write_note` calls
that ask and a `delete_notes` call the policy denies:
1. pauses (input() and getpass() are traps, so a blocking gate FAILS): search ran, delete refused unasked, both
   writes pending, the state JSON;
2. resumes from the JSON with the two writes decided differently (one approved, one rejected with a reason);
3. resumes the same saved JSON again with the same ledger: no second write;
4. resumes a copy whose pending call was edited after the person approved it: it must not run;
5. pauses and resumes another run whose calls have the same call ids, with the same ledger: its write runs.
Then it reports (never judges) what the student's own model did.
Left out on purpose: the wording of refusals, the tool results' format, and what the model answers.
"""

from __future__ import annotations

import json

from helpers.approval import arguments_digest
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

REASON = "eggs are already on the list"
ANSWER = "Saved the milk note; the eggs note was not approved."
SEARCH = {"type": "function", "name": "search", "description": "Search the notes.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                         "additionalProperties": False}}
WRITE = note_tool("write_note")[1]
DELETE = {"type": "function", "name": "delete_notes", "description": "Delete every note.",
          "parameters": {"type": "object", "properties": {}, "additionalProperties": False}}
SCHEMAS = [SEARCH, WRITE, DELETE]
POLICIES = {"search": "allow", "write_note": "ask", "delete_notes": "deny"}
MILK, EGGS, DEL = "call_1_1", "call_1_2", "call_1_3"  # the scripted calls' ids (the search is call_1_0)


def policy(name: str, arguments: str) -> str:
    return POLICIES.get(name, "deny")


def _tools(events: list) -> dict:
    def search(query: str) -> list:
        events.append("search")
        return [{"text": "milk, bread"}]

    def write_note(text: str) -> dict:
        events.append(f"write:{text}")
        return {"saved": text}

    def delete_notes() -> dict:
        events.append("delete")
        return {"deleted": "all"}

    return {"search": search, "write_note": write_note, "delete_notes": delete_notes}


def _script(first: str, second: str) -> ScriptedClient:
    return ScriptedClient([scripted_response(("search", {"query": "shopping"}), ("write_note", {"text": first}),
                                             ("write_note", {"text": second}), ("delete_notes", {}), n=1),
                           scripted_response(text=ANSWER, n=2)])


def _advance(fn, state, decisions, client, tools, ledger, what: str):
    with no_waiting():
        try:
            result = run_student_code(fn, state, decisions, client, "scripted", tools, SCHEMAS, policy, ledger,
                                      what=f"advance ({what})")
        except Blocked:
            raise CheckFailed(f"advance ({what}) waited for a person inside the loop (it called input()): that "
                              "blocks, it does not pause. Keep the call pending and return the state.") from None
    fail_if(not isinstance(result, dict), f"advance ({what}) returned a {type(result).__name__}; return the state.")
    try:
        return json.loads(json.dumps(result))
    except (TypeError, ValueError) as error:
        raise CheckFailed(f"the state advance returned ({what}) is not JSON ({error}); keep plain dicts and lists "
                          "in it, so another process can resume it.") from None


def _outputs(items) -> dict:
    return {read_field(i, "call_id"): str(read_field(i, "output")) for i in items
            if read_field(i, "type") == "function_call_output"}


def _pending_ids(state) -> list:
    return sorted(read_field(c, "call_id") for c in state.get("pending") or [])


def _start(first: str) -> dict:
    return {"history": [{"role": "user", "content": f"Search my notes, save {first!r}, and clear the old ones."}],
            "pending": []}


def _decisions(saved: dict, approve_text: str = "buy milk") -> dict:
    """Approve the milk call as the person saw it (its digest), reject the eggs call."""
    shown = {read_field(c, "call_id"): read_field(c, "arguments") for c in saved["pending"]}
    return {MILK: {"approve": arguments_digest(shown.get(MILK, json.dumps({"text": approve_text})))},
            EGGS: {"reject": REASON}}


@task_check("07-the-loop-under-control", "7.1")
def check_approval_loop(advance, client, model):
    """Check `advance(state, decisions, client, model, tools, schemas, policy, ledger) -> dict` (see the module
    docstring).

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_approval_loop(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 7.1 · Policies, bound approvals and a resume that writes once: define the function in
        the cell above, then run this cell again.
    """
    # 1. The pause, with all three policies in one response.
    events, ledger = [], {}
    scripted = _script("buy milk", "buy eggs")
    saved = _advance(advance, _start("buy milk"), {}, scripted, _tools(events), ledger, "the first call")
    fail_if("delete" in events, "delete_notes ran although the policy denies it; a denied call is answered with a "
            "refusal, never run.")
    fail_if(any(e.startswith("write") for e in events), "write_note ran before anyone decided; the policy says "
            "ask, so the call waits in the state.")
    fail_if("search" not in events, "search is allowed by the policy but did not run.")
    fail_if(DEL in _pending_ids(saved), "the denied delete_notes call is waiting for a person; the policy already "
            "decided it: answer it with a refusal and don't ask.")
    fail_if(_pending_ids(saved) != [MILK, EGGS], f"after the pause both write_note calls should be pending (ids "
            f"{MILK} and {EGGS}); the state holds {_pending_ids(saved)}.")
    fail_if(DEL not in _outputs(saved.get("history") or []), "the denied call got no output; the API refuses a "
            "call nobody answered, and the model should learn it was refused.")
    fail_if(len(scripted.calls) != 1, "while calls wait for a decision, don't call the model again.")
    decisions = _decisions(saved)

    # 2. Two pending calls, decided differently.
    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    done = _advance(advance, json.loads(json.dumps(saved)), decisions, scripted, _tools(events), ledger,
                    "resumed with one approval and one rejection")
    fail_if("write:buy eggs" in events, "the rejected write ran; only an approval runs a call.")
    fail_if(events != ["write:buy milk"], f"resumed, only the approved write should run, once (ran: {events}). "
            "Was the approval's digest compared with the right arguments?")
    fail_if(_pending_ids(done), f"every pending call had a decision, but {_pending_ids(done)} still wait(s); "
            "apply each decision in `decisions`, not only the first.")
    fail_if(not scripted.calls, "after the decisions the model was not called again with the outputs.")
    sent = _outputs(request_items(scripted.calls[0][0]))
    fail_if(MILK not in sent or EGGS not in sent, "both decided calls need an output in the next request, the "
            "approved one and the rejected one.")
    fail_if(REASON not in sent[EGGS], "the rejected call's output lacks the person's reason.")
    fail_if(done.get("answer") != ANSWER, "when the model answers in text, keep it in state['answer'].")

    # 3. The same saved state resumed again: the ledger must stop a second write.
    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    _advance(advance, json.loads(json.dumps(saved)), decisions, scripted, _tools(events), ledger,
             "the same saved state resumed a second time")
    fail_if("write:buy milk" in events, "resumed a second time from the same saved state, the approved write ran "
            "again. Record in the ledger what ran, and look there before running.")
    fail_if(not scripted.calls or MILK not in _outputs(request_items(scripted.calls[0][0])),
            "resumed a second time, the approved call got no output: the model still needs one (the first run's).")

    # 4. The saved state edited after the approval: the approval is not for the new arguments.
    tampered = json.loads(json.dumps(saved))
    for item in tampered["pending"] + tampered["history"]:
        if read_field(item, "call_id") == MILK and read_field(item, "type") == "function_call":
            item["arguments"] = json.dumps({"text": "buy beer"})
    events = []
    _advance(advance, tampered, decisions, ScriptedClient([scripted_response(text=ANSWER, n=2)]), _tools(events),
             {}, "resumed from an edited copy")
    fail_if("write:buy beer" in events, "the saved state was edited after the person approved, and the edited "
            "call ran. An approval holds for the arguments that were shown: compare the digest.")

    # 5. Another run, whose calls happen to have the same ids, shares the ledger: its write must run.
    events, scripted = [], _script("buy bread", "buy jam")
    other = _advance(advance, _start("buy bread"), {}, scripted, _tools(events), ledger, "another run")
    events, scripted = [], ScriptedClient([scripted_response(text=ANSWER, n=2)])
    _advance(advance, other, _decisions(other, "buy bread"), scripted, _tools(events), ledger, "another run resumed")
    fail_if("write:buy bread" not in events, "another run's approved write did not run: the ledger took it for the "
            "first run's, whose call had the same call_id. Call ids come from the model and can repeat; the key "
            "must name this call of this run.")

    return ("pauses, follows the policy, binds each approval to its arguments, and a second resume writes "
            "nothing." + on_your_model(client, model, lambda client, model: _what_your_model_did(advance, client,
                                                                                                 model)))


def _what_your_model_did(advance, client, model) -> str:
    if without_responses_api(client):
        return "not run: this check's loop calls the Responses API, which your provider lacks."
    save, schema, ran = note_tool("write_note")
    start = {"history": [{"role": "user", "content": 'Use write_note to save the note "call the plumber"'}],
             "pending": []}
    with no_waiting():
        state = advance(start, {}, SpyClient(client), model, {"write_note": save}, [schema], policy, {})
    if ran:
        return "write_note ran without a decision."
    if state.get("pending"):
        return "it asked for write_note, and the run paused with the call pending."
    return "it answered without calling write_note (a model may decline to), so there was nothing to pause for."
