"""Asking before acting: an agent run that pauses on a tool call a person must approve (lesson 13).

`ApprovalRun` is lesson 07's `AgentRun` with one change: a call to a tool that needs approval is not run.
It waits in `run.pending`, and the run pauses (`run.paused`), until a person decides:
- `approve(call_id)` runs the tool as the model asked;
- `edit(call_id, arguments)` runs it with other arguments, and rewrites the call in the history so the model
  sees what really ran;
- `reject(call_id, reason)` does not run it: the reason goes back to the model as that call's output, so the
  model's next answer can say what was not done and why (and the API gets the output every call needs).

Which tools need approval is passed in: a set of names, or a predicate `(name, arguments) -> bool`.
A paused run saves to JSON (`to_json()`): the history as Responses (or Chat) input items, the pending calls,
the iterations and the model calls so far. Plain data only, so another process, with a new client and the
same tools, resumes it with `ApprovalRun.from_json(text, client, tools, needs_approval=...)`.

Left out on purpose: who may approve (authentication), approvals that expire, "always allow this tool",
and saving the tools or the approval rule themselves (code is not data: the resuming side passes them in).
The time limit (`max_seconds`) counts from the resume: a pause can last days.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass

from helpers.cost import CallRecord
from helpers.loop import AgentRun, Limits, LoopResult, grouped
from helpers.tools import preview

STATE_VERSION = 1
# What to_json() saves and from_json() needs (tests/test_approval.py keeps the two in step).
STATE_KEYS = ("version", "model", "api", "instructions", "schemas", "messages", "iterations", "pending", "tool_calls",
              "calls", "limits")
# What the model reads as the output of a call the person rejected. Worded like the frameworks' own
# ("Tool execution was not approved.", "The tool call was denied."), plus the person's reason.
REJECTED = "The call was not approved by the user, so it did not run. Reason: {reason}"
NO_REASON = "none given"


@dataclass
class PendingCall:
    """A tool call that waits for a person's decision.

    Example:
        >>> PendingCall("call_1", "delete_file", '{"path": "notes.txt"}', iteration=1).describe()
        'delete_file({"path": "notes.txt"})'
    """

    call_id: str
    name: str
    arguments: str
    iteration: int = 0

    def describe(self) -> str:
        """The call in one line, for a prompt to the person. Example:
        >>> PendingCall("c1", "pay", '{"amount": 5}').describe()
        'pay({"amount": 5})'
        """
        return f"{self.name}({preview(self.arguments, 200)})"


class Paused(RuntimeError):
    """Raised by `ApprovalRun.run()` when the run stops to wait for a decision (use `advance()` to get None
    instead). Example:
    >>> str(Paused([PendingCall("c1", "pay", "{}")]))
    'The run waits for approval of: pay({}). Decide with approve(), reject() or edit(), then advance().'
    """

    def __init__(self, pending: list[PendingCall]):
        super().__init__("The run waits for approval of: " + ", ".join(p.describe() for p in pending)
                         + ". Decide with approve(), reject() or edit(), then advance().")


def approval_rule(needs_approval) -> Callable[[str, str], bool]:
    """A predicate `(name, arguments) -> bool` from a set of tool names or a predicate.

    Example:
        >>> rule = approval_rule({"delete_file"})
        >>> rule("delete_file", "{}"), rule("read_file", "{}")
        (True, False)
    """
    if callable(needs_approval):
        return needs_approval
    if isinstance(needs_approval, str) or not isinstance(needs_approval, Collection):
        raise TypeError("needs_approval takes a set of tool names, e.g. {'add_faq_entry'}, or a function "
                        f"(name, arguments) -> bool; got {needs_approval!r}.")
    names = frozenset(needs_approval)
    return lambda name, arguments: name in names


class ApprovalRun(AgentRun):
    """An AgentRun whose calls to some tools wait for a person's approval (see the module docstring).

    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.tools import Tools
        >>> def delete_file(path: str) -> dict:
        ...     '''Delete a file.'''
        ...     return {"deleted": path}
        >>> run = ApprovalRun(neutral_client(), "offline-rules-v1", 'Delete the file "notes.txt"',
        ...                   Tools(delete_file), needs_approval={"delete_file"}, verbose=False)
        >>> run.advance() is None, [p.describe() for p in run.pending]
        (True, ['delete_file({"path": "notes.txt"})'])
        >>> run.reject(run.pending[0].call_id, "keep it, I still need it")
        >>> print(run.advance().answer)
        I did not run delete_file (path: "notes.txt"): it was not approved. The reason given: "keep it, I still
        need it".
    """

    def __init__(self, client, model: str, question: str, tools, *, needs_approval, **options):
        super().__init__(client, model, question, tools, **grouped(options))
        self.needs_approval = approval_rule(needs_approval)
        self.pending: list[PendingCall] = []

    # --- the gate: around AgentRun.step, which stays lesson 07's ------------------------------------

    def _run_tool(self, call) -> None:
        """Hold back a call that needs approval; run any other call as AgentRun does."""
        arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        if self.needs_approval(call.name, arguments):
            self.pending.append(PendingCall(call.id, call.name, arguments, self.iterations))
            if self.hooks.verbose:
                print(f"iteration {self.iterations}: {call.name}({preview(arguments, 80)}) waits for approval")
            return
        super()._run_tool(call)

    def step(self) -> bool:
        """One iteration, unless the run waits for a decision (then nothing happens and it returns False).

        Example:
            >>> run = demo_run()
            >>> run.step(), run.paused, run.step()  # paused: the second step does nothing
            (False, True, False)
        """
        if self.pending:
            return False  # no model call while a call has no output: the API would refuse the history
        return super().step()

    @property
    def paused(self) -> bool:
        """True while a tool call waits for a decision. Example:
        >>> demo_run().paused
        False
        """
        return bool(self.pending) and self.result is None

    def advance(self) -> LoopResult | None:
        """Step until the run ends (its result) or pauses for a decision (None).

        Example:
            >>> run = demo_run()
            >>> run.advance() is None, len(run.pending)
            (True, 1)
        """
        while not self.step():
            if self.paused:
                return None
        return self.result

    def run(self) -> LoopResult:
        """Like AgentRun.run(); raises Paused when a call waits for approval. Example:
        >>> try:
        ...     demo_run().run()
        ... except Paused as stop:
        ...     print(type(stop).__name__)
        Paused
        """
        result = self.advance()
        if result is None:
            raise Paused(self.pending)
        return result

    # --- the three decisions --------------------------------------------------------------------------

    def approve(self, call_id: str) -> None:
        """Run the pending call as the model asked.

        Example:
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> run.approve(run.pending[0].call_id)
            >>> run.tool_calls[-1]["output"]
            '{"deleted":"notes.txt"}'
        """
        self._run_decided(self._take(call_id))

    def edit(self, call_id: str, arguments: dict | str) -> None:
        """Run the pending call with other arguments; the history shows the call as it really ran.

        Example:
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> run.edit(run.pending[0].call_id, {"path": "old-notes.txt"})
            >>> run.tool_calls[-1]["output"]
            '{"deleted":"old-notes.txt"}'
        """
        text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        pending = self._take(call_id)
        pending.arguments = text
        _set_arguments(self.messages, pending.call_id, text)
        self._run_decided(pending)

    def reject(self, call_id: str, reason: str = "") -> None:
        """Don't run the call; its output tells the model it was not approved, and why.

        Example:
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> run.reject(run.pending[0].call_id, "not today")
            >>> run.messages[-1]["output"]
            'The call was not approved by the user, so it did not run. Reason: not today'
        """
        # The output every function call needs (an orphan call gets a 400), written as the loop writes one.
        self._run_decided(self._take(call_id), refusal=REJECTED.format(reason=reason.strip() or NO_REASON))

    def _take(self, call_id) -> PendingCall:
        call_id = getattr(call_id, "call_id", call_id)  # a PendingCall works too
        for i, pending in enumerate(self.pending):
            if pending.call_id == call_id:
                return self.pending.pop(i)
        waiting = ", ".join(p.call_id for p in self.pending) or "none"
        raise KeyError(f"No pending call {call_id!r}; the calls waiting for a decision: {waiting}.")

    def _run_decided(self, pending: PendingCall, refusal: str | None = None) -> None:
        """Run the call (or, given a `refusal`, answer it with that text unrun), recorded under its own turn."""
        from helpers.apis.adapter import Call

        call = Call(pending.call_id, pending.name, pending.arguments)
        iterations, self.iterations = self.iterations, pending.iteration  # the record names the call's turn
        try:
            if refusal is None:
                super()._run_tool(call)
            else:
                self._keep_output(call, refusal, label="rejected", rejected=True)
        finally:
            self.iterations = iterations

    # --- saving and resuming ------------------------------------------------------------------------

    def to_json(self) -> str:
        """The run's state as JSON: plain data a fresh process can resume from.

        Example:
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> sorted(json.loads(run.to_json()))
            ['api', 'calls', 'instructions', 'iterations', 'limits', 'messages', 'model', 'pending', 'schemas', 'tool_calls', 'version']
        """
        if self.result is not None:
            raise RuntimeError("The run has ended: its result.messages continue the conversation instead.")
        state = {"version": STATE_VERSION, "model": self.model, "api": self.api, "instructions": self.instructions,
                 "schemas": self.schemas, "messages": self.messages, "iterations": self.iterations,
                 "pending": [asdict(p) for p in self.pending], "tool_calls": self.tool_calls,
                 "calls": [asdict(c) for c in self.calls], "limits": asdict(self.limits)}
        return json.dumps(state, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str | dict, client, tools, *, needs_approval, **options) -> ApprovalRun:
        """Resume a saved run with a client and the tools (both live objects, so they are passed in again).

        Example:
            >>> from helpers.offline import neutral_client
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> again = ApprovalRun.from_json(run.to_json(), neutral_client(), run.tools,
            ...                               needs_approval={"delete_file"}, verbose=False)
            >>> again.approve(again.pending[0].call_id)
            >>> again.advance().stop_reason
            'answered'
        """
        try:
            state = json.loads(text) if isinstance(text, str) else text
        except ValueError as error:
            raise ValueError(f"Not a saved ApprovalRun: the text is not JSON ({error}). Was it cut short, or "
                             f"edited? Save it again with to_json().") from None
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise ValueError(f"Not a saved ApprovalRun (version {STATE_VERSION}): was it made by to_json()?")
        missing = [key for key in STATE_KEYS if key not in state]
        if missing:
            raise ValueError(f"A saved ApprovalRun without {', '.join(missing)}: was it edited? Save it again with "
                             f"to_json().")
        options.setdefault("limits", Limits(**state["limits"]))
        run = cls(client, state["model"], "", tools, needs_approval=needs_approval, schemas=state["schemas"],
                  instructions=state["instructions"], api=state["api"], **options)
        run.messages = state["messages"]
        run.iterations = state["iterations"]
        run.pending = [PendingCall(**p) for p in state["pending"]]
        run.tool_calls = state["tool_calls"]
        run.calls = [CallRecord(**c) for c in state["calls"]]
        return run


def _set_arguments(messages: list, call_id: str, arguments: str) -> None:
    """Rewrite a function call's arguments in the history, in either API's shape."""
    for item in messages:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call" and item.get("call_id") == call_id:
            item["arguments"] = arguments
            return
        for call in item.get("tool_calls") or []:  # Chat Completions: an assistant message's tool_calls
            if call.get("id") == call_id:
                call["function"]["arguments"] = arguments
                return
    raise KeyError(f"No function call {call_id!r} in the history.")


def demo_run(**options) -> ApprovalRun:
    """The run the examples in this module use: the offline model, a `delete_file(path)` tool that needs
    approval, and the request 'Delete the file "notes.txt"'. `options` go to ApprovalRun.

    Example:
        >>> demo_run().pending
        []
    """
    from helpers.offline import neutral_client  # here: only the examples need the offline model
    from helpers.tools import Tools

    def delete_file(path: str) -> dict:
        """Delete a file."""
        return {"deleted": path}

    options = {"needs_approval": {"delete_file"}, "verbose": False, **options}
    return ApprovalRun(neutral_client(), "offline-rules-v1", 'Delete the file "notes.txt"', Tools(delete_file),
                       **options)
