"""Asking before acting: an agent run that pauses on a tool call a person must approve (lesson 13).

`ApprovalRun` is lesson 07's `AgentRun` with one change: a call to a tool that needs approval is not run.
It waits in `run.pending`, and the run pauses (`run.paused`), until a person decides:
- `approve(call_id)` runs the tool as the model asked;
- `edit(call_id, arguments)` runs it with other arguments, and rewrites the call in the history so the model
  sees what really ran;
- `reject(call_id, reason)` does not run it: the reason goes back to the model as that call's output, so the
  model's next answer can say what was not done and why (and the API gets the output every call needs).

Which tools need approval is passed in: a set of names, or a rule `(name, arguments)` that returns True/False
or a policy, "allow" | "ask" | "deny" ("deny": the call is refused unasked, its output says so).
`policy_for(annotations)` reads a policy from MCP tool annotations (`readOnlyHint`, `destructiveHint`,
`idempotentHint`, `openWorldHint`): read-only tools always run, the rest ask or are denied; `policy_rule`
turns a table of annotations by tool name into the rule.

An approval is bound to the arguments the person saw: each pending call carries `digest`, the SHA-256 of its
arguments' canonical JSON, and `approve(call_id, digest=...)` refuses to run a call whose arguments (in
`pending` or in the history the model sent) no longer hash to what was shown. Each pending call also has an
idempotency `key` (its call_id and a hash of the history that led to it); given a `ledger` (any mapping that
outlives the process: a dict, `shelve.open(path)`), a call that already ran under its key is not run again,
its recorded output is reused. So the same saved run resumed twice writes once.
A paused run saves to JSON (`to_json()`): the history as Responses (or Chat) input items, the pending calls,
the iterations and the model calls so far. Plain data only, so another process, with a new client and the
same tools, resumes it with `ApprovalRun.from_json(text, client, tools, needs_approval=...)`.

Left out on purpose: who may approve (authentication), approvals that expire, "always allow this tool",
and saving the tools or the approval rule themselves (code is not data: the resuming side passes them in).
The ledger is written after the tool returns, so a crash between the two can still repeat a write: exactly
once needs the tool's own store to take the key (as payment APIs take an Idempotency-Key header).
The time limit (`max_seconds`) counts from the resume: a pause can last days.
The module is over 400 lines because the gate, the policies, the binding and the saved state only make sense
together: each reads the others' fields.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping, MutableMapping
from dataclasses import asdict, dataclass
from typing import Any

from helpers.cost import CallRecord
from helpers.loop import AgentRun, Limits, LoopResult, grouped
from helpers.tools import preview, run_tool

STATE_VERSION = 1
# What to_json() saves and from_json() needs (tests/test_approval.py keeps the two in step).
STATE_KEYS = ("version", "model", "api", "instructions", "schemas", "messages", "iterations", "pending", "tool_calls",
              "calls", "limits")
# What the model reads as the output of a call the person rejected. Worded like the frameworks' own
# ("Tool execution was not approved.", "The tool call was denied."), plus the person's reason.
REJECTED = "The call was not approved by the user, so it did not run. Reason: {reason}"
NO_REASON = "none given"
# What the model reads as the output of a call the policy denies: nobody was asked.
DENIED = "The call was refused by the approval policy, so it did not run: {name} may not be called by the agent."
POLICIES = ("allow", "ask", "deny")
# MCP's default for a hint the server leaves out, from the docstrings of mcp_types' ToolAnnotations (mcp 2.3.0).
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}


def canonical_arguments(arguments) -> str:
    """One text for the same arguments however they were spelled: sorted keys, no spaces. Text that is not
    JSON stays as it is (its hash then covers the exact text). Example:
    >>> canonical_arguments('{"b": 1,  "a": "é"}') == canonical_arguments({"a": "é", "b": 1})
    True
    >>> canonical_arguments({"b": 1, "a": "é"})
    '{"a":"é","b":1}'
    """
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return arguments
    return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def arguments_digest(arguments) -> str:
    """SHA-256 of the arguments' canonical JSON: what an approval records about the call the person saw.
    Example:
    >>> arguments_digest({"path": "notes.txt"}) == arguments_digest('{ "path":"notes.txt" }')
    True
    >>> arguments_digest({"path": "notes.txt"}) == arguments_digest({"path": "notes.txt.bak"})
    False
    """
    return hashlib.sha256(canonical_arguments(arguments).encode()).hexdigest()


def given_hints(annotations) -> dict[str, bool]:
    """The MCP hints a server did set, under their wire names; a hint it left out is absent.

    `annotations` is None, a dict in the wire's camelCase (`readOnlyHint`) or Python's snake_case
    (`read_only_hint`), or an object with those attributes (mcp's `ToolAnnotations`). Example:
    >>> given_hints({"read_only_hint": True, "openWorldHint": False})
    {'readOnlyHint': True, 'openWorldHint': False}
    """
    hints = {}
    for wire in HINT_DEFAULTS:
        snake = "".join("_" + c.lower() if c.isupper() else c for c in wire)  # readOnlyHint -> read_only_hint
        if annotations is None:
            value = None
        elif isinstance(annotations, Mapping):
            value = annotations.get(wire, annotations.get(snake))
        else:
            # The snake_case name first, and the camelCase one only without it: mcp 2.x warns on reading the old name.
            value = getattr(annotations, snake) if hasattr(annotations, snake) else getattr(annotations, wire, None)
        if value is not None:
            hints[wire] = bool(value)
    return hints


def hints_of(annotations) -> dict[str, bool]:
    """The four MCP hints of a tool, each filled with MCP's default when the server left it out.

    `annotations` takes the forms `given_hints` reads. Example:
    >>> hints_of({"readOnlyHint": True})
    {'readOnlyHint': True, 'destructiveHint': True, 'idempotentHint': False, 'openWorldHint': True}
    """
    return HINT_DEFAULTS | given_hints(annotations)


def policy_for(annotations) -> str:
    """What to do with a call to a tool, from its MCP annotations: "allow", "ask" or "deny".

    Read-only tools always run (asking about every search trains people to click yes). A tool that may destroy
    things outside your system and can't safely be repeated is denied: the agent may not call it. Every other
    write asks a person. A hint left out takes MCP's default, so a tool that says nothing about itself counts as
    destructive and open-world, and is denied: fail closed. The hints are the server's word, so use them only
    for servers you trust (mcp's own docstring: never decide on annotations from untrusted servers).

    Example:
        >>> policy_for({"readOnlyHint": True})
        'allow'
        >>> policy_for({"destructiveHint": False, "openWorldHint": False})  # adds to a store of yours
        'ask'
        >>> policy_for({"destructiveHint": True, "idempotentHint": True})  # deleting twice = deleting once
        'ask'
        >>> policy_for({"destructiveHint": True, "openWorldHint": True})
        'deny'
        >>> policy_for(None)  # no annotations: MCP's defaults (destructive, open world, not idempotent)
        'deny'
    """
    hints = hints_of(annotations)
    if hints["readOnlyHint"]:
        return "allow"
    if hints["destructiveHint"] and hints["openWorldHint"] and not hints["idempotentHint"]:
        return "deny"
    return "ask"


def policy_rule(annotations_by_name: Mapping) -> Callable[[str, str], str]:
    """A rule for ApprovalRun's `needs_approval` from each tool's annotations; a tool not in the table gets
    `policy_for(None)`. Example:
    >>> rule = policy_rule({"search": {"readOnlyHint": True}, "add_note": {"destructiveHint": False}})
    >>> rule("search", "{}"), rule("add_note", "{}"), rule("format_disk", "{}")
    ('allow', 'ask', 'deny')
    """
    table = {name: policy_for(annotations) for name, annotations in annotations_by_name.items()}
    default = policy_for(None)
    return lambda name, arguments: table.get(name, default)


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
    digest: str = ""  # arguments_digest(arguments) when the call was held: what the person is shown
    key: str = ""  # the idempotency key: this call of this run, however often the run is resumed

    def __post_init__(self):
        self.digest = self.digest or arguments_digest(self.arguments)

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


def approval_rule(needs_approval) -> Callable[[str, str], str]:
    """A rule `(name, arguments) -> "allow" | "ask" | "deny"` from a set of tool names (they ask, the rest are
    allowed) or a function returning True ("ask"), False ("allow") or a policy.

    Example:
        >>> rule = approval_rule({"delete_file"})
        >>> rule("delete_file", "{}"), rule("read_file", "{}")
        ('ask', 'allow')
        >>> approval_rule(lambda name, arguments: "deny")("rm", "{}")
        'deny'
    """
    if callable(needs_approval):
        def rule(name: str, arguments: str) -> str:
            decision = needs_approval(name, arguments)
            if isinstance(decision, bool):
                return "ask" if decision else "allow"
            if decision not in POLICIES:
                raise ValueError(f"The approval rule returned {decision!r} for {name}; return True (ask), False "
                                 f"(allow) or one of {', '.join(POLICIES)}.")
            return decision
        return rule
    if isinstance(needs_approval, str) or not isinstance(needs_approval, Collection):
        raise TypeError("needs_approval takes a set of tool names, e.g. {'add_faq_entry'}, or a function "
                        f"(name, arguments) -> bool or policy; got {needs_approval!r}.")
    names = frozenset(needs_approval)
    return lambda name, arguments: "ask" if name in names else "allow"


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

    def __init__(self, client, model: str, question: str, tools, *, needs_approval,
                 ledger: MutableMapping[str, str] | None = None, **options):
        super().__init__(client, model, question, tools, **grouped(options))
        self.needs_approval = approval_rule(needs_approval)
        self.ledger = ledger  # idempotency key -> output of a call that has run (see the module docstring)
        self.pending: list[PendingCall] = []

    # --- the gate: around AgentRun.step, which stays lesson 07's ------------------------------------

    def _run_tool(self, call) -> None:
        """Hold back a call that needs approval, refuse one the policy denies; run any other as AgentRun does."""
        arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        policy = self.needs_approval(call.name, arguments)
        if policy == "ask":
            self.pending.append(PendingCall(call.id, call.name, arguments, self.iterations,
                                            key=idempotency_key(self.messages, call.id)))
            if self.hooks.verbose:
                print(f"iteration {self.iterations}: {call.name}({preview(arguments, 80)}) waits for approval")
        elif policy == "deny":
            self._keep_output(call, DENIED.format(name=call.name), label="denied", denied=True)
        else:
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

    def approve(self, call_id: str, *, digest: str | None = None) -> None:
        """Run the pending call as the model asked. With `digest` (the `PendingCall.digest` the person was
        shown), only if the call's arguments, pending and in the history, still hash to it; if not, it raises
        and the call stays pending, to be shown again.

        Example:
            >>> run = demo_run()
            >>> _ = run.advance()
            >>> shown = run.pending[0].digest
            >>> run.pending[0].arguments = '{"path": "/"}'  # changed after the person looked
            >>> run.approve(run.pending[0].call_id, digest=shown)
            Traceback (most recent call last):
            ...
            ValueError: The arguments of delete_file changed after they were shown ({"path": "/"}): this approval is not for them. The call still waits; show it again.
            >>> run.pending[0].arguments = '{"path": "notes.txt"}'
            >>> run.approve(run.pending[0].call_id, digest=shown)
            >>> run.tool_calls[-1]["output"]
            '{"deleted":"notes.txt"}'
        """
        pending = self._find(call_id)
        if digest is not None:
            in_history = _arguments_in_history(self.messages, pending.call_id)
            for arguments in (pending.arguments, in_history):
                if arguments_digest(arguments) != digest:
                    raise ValueError(f"The arguments of {pending.name} changed after they were shown "
                                     f"({preview(arguments, 120)}): this approval is not for them. The call "
                                     f"still waits; show it again.")
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

    def _find(self, call_id) -> PendingCall:
        call_id = getattr(call_id, "call_id", call_id)  # a PendingCall works too
        for pending in self.pending:
            if pending.call_id == call_id:
                return pending
        waiting = ", ".join(p.call_id for p in self.pending) or "none"
        raise KeyError(f"No pending call {call_id!r}; the calls waiting for a decision: {waiting}.")

    def _take(self, call_id) -> PendingCall:
        pending = self._find(call_id)
        self.pending.remove(pending)
        return pending

    def _run_decided(self, pending: PendingCall, refusal: str | None = None) -> None:
        """Run the call (or, given a `refusal`, answer it with that text unrun), recorded under its own turn."""
        from helpers.apis.adapter import Call

        call = Call(pending.call_id, pending.name, pending.arguments)
        iterations, self.iterations = self.iterations, pending.iteration  # the record names the call's turn
        try:
            if refusal is not None:
                self._keep_output(call, refusal, label="rejected", rejected=True)
            elif self.ledger is not None and pending.key and pending.key in self.ledger:
                # Ran before, in an earlier resume of the same saved run: its output, not a second write.
                self._keep_output(call, self.ledger[pending.key], label="already ran", repeated=True)
            else:
                text = run_tool(pending.name, pending.arguments, self.tools)
                if self.ledger is not None and pending.key:
                    self.ledger[pending.key] = text
                self._keep_output(call, text)
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
        for pending in run.pending:  # a run saved before keys existed: the same key from the same history
            pending.key = pending.key or idempotency_key(run.messages, pending.call_id)
        run.tool_calls = state["tool_calls"]
        run.calls = [CallRecord(**c) for c in state["calls"]]
        return run


def idempotency_key(messages: list, call_id: str) -> str:
    """The key of one call in one run: its call_id and a hash of the history up to the call. Two resumes of the
    same saved run get the same key; another run (even with the same call_id, as offline ids repeat) does not.

    Example:
        >>> history = [{"role": "user", "content": "Delete notes.txt"}]
        >>> idempotency_key(history, "call_1") == idempotency_key(list(history), "call_1")
        True
        >>> idempotency_key(history, "call_1") == idempotency_key([{"role": "user", "content": "Hi"}], "call_1")
        False
    """
    text = json.dumps(messages, sort_keys=True, ensure_ascii=False, default=str)
    return f"{call_id}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _arguments_in_history(messages: list, call_id: str) -> str | None:
    """The arguments of a function call as the history holds them (what the model will be told ran)."""
    for item in messages:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call" and item.get("call_id") == call_id:
            return item.get("arguments")
        for call in item.get("tool_calls") or []:
            if call.get("id") == call_id:
                return call["function"]["arguments"]
    return None


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
    approval, and the request 'Delete the file "notes.txt"'. `options` go to ApprovalRun (`tools` replaces the
    tool).

    Example:
        >>> demo_run().pending
        []
    """
    from helpers.offline import neutral_client  # here: only the examples need the offline model
    from helpers.tools import Tools

    def delete_file(path: str) -> dict:
        """Delete a file."""
        return {"deleted": path}

    options: dict[str, Any] = {"needs_approval": {"delete_file"}, "verbose": False, **options}
    tools = options.pop("tools", None) or Tools(delete_file)  # a test's own delete_file, to count its runs
    return ApprovalRun(neutral_client(), "offline-rules-v1", 'Delete the file "notes.txt"', tools, **options)
