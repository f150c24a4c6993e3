"""helpers.approval: the gate, the three decisions, and a paused run resumed from JSON in a fresh kernel."""

import json
import os
import textwrap
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from helpers.approval import ApprovalRun, Paused, demo_run
from helpers.offline import neutral_client
from helpers.tools import Tools

ROOT = Path(__file__).resolve().parent.parent


def test_a_gated_call_waits_and_the_model_is_not_called_meanwhile():
    run = demo_run()
    assert run.advance() is None and run.paused
    calls = len(run.calls)
    assert run.step() is False and len(run.calls) == calls, "a paused run must not call the model"
    with pytest.raises(Paused, match="delete_file"):
        run.run()
    assert run.tool_calls == [], "the tool must not run before a decision"


def test_approve_runs_the_tool_and_the_run_answers():
    run = demo_run()
    run.advance()
    run.approve(run.pending[0])
    result = run.advance()
    assert result is not None and result.stop_reason == "answered"
    assert run.tool_calls[0]["output"] == '{"deleted":"notes.txt"}'


def test_edit_runs_the_new_arguments_and_rewrites_the_history():
    run = demo_run()
    run.advance()
    run.edit(run.pending[0].call_id, {"path": "tmp.txt"})
    calls = [m for m in run.messages if isinstance(m, dict) and m.get("type") == "function_call"]
    assert json.loads(calls[0]["arguments"]) == {"path": "tmp.txt"}
    assert run.tool_calls[0]["output"] == '{"deleted":"tmp.txt"}'
    # The model now sees that tmp.txt, not notes.txt, was deleted: it may well ask again for notes.txt.
    assert run.advance() is not None or run.pending[0].arguments == '{"path": "notes.txt"}'


def test_reject_answers_the_call_with_the_reason_and_never_runs_it():
    run = demo_run()
    run.advance()
    call_id = run.pending[0].call_id
    run.reject(call_id, "I still need it")
    outputs = [m for m in run.messages if isinstance(m, dict) and m.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == [call_id] and "I still need it" in outputs[0]["output"]
    assert not any(isinstance(m, dict) and m.get("role") == "user" and "I still need it" in str(m.get("content"))
                   for m in run.messages), "the reason is the call's output, not a user message"
    result = run.advance()
    assert "I still need it" in result.answer and "not approved" in result.answer


def test_tools_without_approval_run_at_once_and_a_predicate_works():
    def read_file(path: str) -> str:
        """Read a file."""
        return "hello"

    run = ApprovalRun(neutral_client(), "offline-rules-v1", 'Read the file "a.txt"', Tools(read_file),
                      needs_approval=lambda name, arguments: "secret" in arguments, verbose=False)
    assert run.advance().stop_reason == "answered" and run.tool_calls[0]["output"] == "hello"


def test_chat_completions_history_is_edited_too():
    run = demo_run(api="chat")
    run.advance()
    run.edit(run.pending[0].call_id, {"path": "b.txt"})
    assert run.tool_calls[0]["output"] == '{"deleted":"b.txt"}'
    tool_calls = [m for m in run.messages if isinstance(m, dict) and m.get("tool_calls")][0]["tool_calls"]
    assert json.loads(tool_calls[0]["function"]["arguments"]) == {"path": "b.txt"}


def test_bad_input_gets_a_clear_error():
    with pytest.raises(TypeError, match="set of tool names"):
        demo_run(needs_approval="delete_file")
    run = demo_run()
    run.advance()
    with pytest.raises(KeyError, match="waiting for a decision"):
        run.approve("no-such-call")
    with pytest.raises(ValueError, match="to_json"):
        ApprovalRun.from_json("{}", neutral_client(), run.tools, needs_approval=set())


def run_in_kernel(code: str) -> str:
    """Run `code` in a new Jupyter kernel (the one a notebook gets) and return what it printed."""
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT),
                                       env={**os.environ, "LLM_PROVIDER": "offline"})
    printed, errors = [], []

    def keep(message):
        content = message["content"]
        if message["msg_type"] == "stream":
            printed.append(content["text"])
        elif message["msg_type"] == "error":
            errors.append("\n".join(content["traceback"]))

    try:
        client.execute_interactive(code, timeout=120, output_hook=keep)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert not errors, errors[0]
    return "".join(printed)


# What both kernels define: the tool, as a notebook cell would.
KERNEL_SETUP = '''
from helpers.approval import ApprovalRun, demo_run
from helpers.offline import neutral_client
from helpers.tools import Tools

def delete_file(path: str) -> dict:
    "Delete a file."
    return {"deleted": path}
'''


def test_a_run_paused_in_one_kernel_resumes_from_saved_json_in_a_fresh_kernel(tmp_path):
    # Two kernels, as a student has them: one pauses and saves, the next (after a restart, or another day)
    # resumes from the file with a new client. Nothing passes between them but the JSON.
    saved = tmp_path / "run.json"
    first = run_in_kernel(KERNEL_SETUP + textwrap.dedent(f"""
        run = demo_run()
        print(run.advance() is None, run.pending[0].name)
        open({str(saved)!r}, "w").write(run.to_json())
    """))
    assert first.split() == ["True", "delete_file"]
    json.loads(saved.read_text())  # plain JSON, nothing pickled
    second = run_in_kernel(KERNEL_SETUP + textwrap.dedent(f"""
        run = ApprovalRun.from_json(open({str(saved)!r}).read(), neutral_client(), Tools(delete_file),
                                    needs_approval={{"delete_file"}}, verbose=False)
        print(run.pending[0].name, run.iterations)
        run.reject(run.pending[0].call_id, "keep it")
        print(run.advance().answer)
    """))
    pending, answer = second.strip().split("\n", 1)
    assert pending == "delete_file 1"
    assert answer.startswith("I did not run delete_file") and '"keep it"' in answer


@pytest.mark.parametrize("damaged", ["not json", '{"version": 1, "model": "m"', "[]", '{"version": 1, "model": "m"}'])
def test_a_damaged_save_is_refused_with_a_clear_error(damaged):
    with pytest.raises(ValueError, match="ApprovalRun"):
        ApprovalRun.from_json(damaged, neutral_client(), Tools(), needs_approval=set())


def test_a_save_holds_exactly_the_keys_a_resume_needs():
    from helpers.approval import STATE_KEYS
    run = demo_run()
    run.advance()
    assert list(json.loads(run.to_json())) == list(STATE_KEYS)


# --- policies from MCP annotations, approvals bound to arguments, idempotent resumes ----------------------

def test_policies_follow_the_mcp_hints_with_mcps_defaults():
    from mcp.types import ToolAnnotations

    from helpers.approval import policy_for
    assert policy_for(ToolAnnotations(read_only_hint=True)) == "allow"  # the real mcp object, snake_case fields
    assert policy_for({"read_only_hint": True, "destructiveHint": True}) == "allow"  # read-only wins
    assert policy_for(ToolAnnotations(destructive_hint=False)) == "ask"  # additive, but open world: a person
    assert policy_for({"destructiveHint": True, "openWorldHint": False}) == "ask"
    assert policy_for(ToolAnnotations()) == policy_for(None) == policy_for({}) == "deny"  # says nothing: worst case
    assert policy_for({"readOnlyHint": False, "idempotentHint": False}) == "deny"


def test_a_denied_tool_never_runs_and_nobody_is_asked():
    from helpers.approval import policy_rule
    run = demo_run(needs_approval=policy_rule({}))  # delete_file has no annotations: denied
    result = run.advance()
    assert run.pending == [] and result is not None
    assert run.tool_calls[0].get("denied") and "approval policy" in run.tool_calls[0]["output"]


def test_a_rule_returning_nonsense_is_a_clear_error():
    with pytest.raises(ValueError, match="return True"):
        demo_run(needs_approval=lambda name, arguments: "maybe").advance()


def test_an_approval_binds_to_the_arguments_shown():
    run = demo_run()
    run.advance()
    shown = run.pending[0].digest
    # Someone edits the saved run between the person's look and the resume: the history's call changes.
    state = json.loads(run.to_json())
    for item in state["messages"]:
        if item.get("type") == "function_call":
            item["arguments"] = '{"path": "/etc/passwd"}'
    state["pending"][0]["arguments"] = '{"path": "/etc/passwd"}'
    tampered = ApprovalRun.from_json(state, neutral_client(), run.tools, needs_approval={"delete_file"},
                                     verbose=False)
    with pytest.raises(ValueError, match="changed after they were shown"):
        tampered.approve(tampered.pending[0].call_id, digest=shown)
    assert tampered.tool_calls == [] and len(tampered.pending) == 1, "nothing ran, nothing was lost"
    # Only the history changed (pending left as shown): still refused, the model would be told another call ran.
    state["pending"][0]["arguments"] = '{"path": "notes.txt"}'
    half = ApprovalRun.from_json(state, neutral_client(), run.tools, needs_approval={"delete_file"}, verbose=False)
    with pytest.raises(ValueError, match="changed"):
        half.approve(half.pending[0].call_id, digest=shown)
    # The same arguments written another way are the same arguments.
    run.pending[0].arguments = '{ "path" : "notes.txt" }'
    run.approve(run.pending[0].call_id, digest=shown)
    assert run.tool_calls[0]["output"] == '{"deleted":"notes.txt"}'


def test_a_saved_run_resumed_twice_writes_once():
    written = []

    def delete_file(path: str) -> dict:
        """Delete a file."""
        written.append(path)
        return {"deleted": len(written)}

    ledger: dict = {}
    first = demo_run(tools=Tools(delete_file))
    assert first.advance() is None
    saved = first.to_json()
    answers = []
    for _ in range(2):  # the approval click arrives twice (a retry, a second worker): same file both times
        again = ApprovalRun.from_json(saved, neutral_client(), Tools(delete_file), needs_approval={"delete_file"},
                                      ledger=ledger, verbose=False)
        again.approve(again.pending[0].call_id)
        answers.append(again.advance().answer)
    assert written == ["notes.txt"], "the second resume must not write again"
    assert again.tool_calls[-1].get("repeated") and again.tool_calls[-1]["output"] == '{"deleted":1}'
    assert answers[0] == answers[1]
    # Without a ledger each resume writes: that is what the ledger is for.
    for _ in range(2):
        loose = ApprovalRun.from_json(saved, neutral_client(), Tools(delete_file), needs_approval={"delete_file"},
                                      verbose=False)
        loose.approve(loose.pending[0].call_id)
    assert len(written) == 3


def test_keys_differ_between_runs_and_survive_the_save():
    one = demo_run()
    one.advance()
    other = ApprovalRun(neutral_client(), "offline-rules-v1", 'Delete the file "other.txt"', one.tools,
                        needs_approval={"delete_file"}, verbose=False)
    other.advance()
    assert one.pending[0].key != other.pending[0].key
    again = ApprovalRun.from_json(one.to_json(), neutral_client(), one.tools, needs_approval={"delete_file"})
    assert again.pending[0].key == one.pending[0].key and again.pending[0].digest == one.pending[0].digest
