"""A tool call a person did not approve: the answer says what was not done, and why.

Agent frameworks that ask a person before a tool runs send a refusal back as that call's output: "Tool
execution was not approved.", "The tool call was denied.", or the person's own words ("Rejected: the meeting
clashes with lunch"). The rule: when a call of the latest response got such an output, the answer names each
call that did not run, with its arguments, and quotes the reason given (or says none was given). It never
answers from the refused call as if it had run, and it does not call the tool again.

What counts as a refusal: a short output (a result that merely mentions a rejected order is not one) whose
first sentence says the call was not approved (or allowed), denied, rejected or declined by someone, and that
is not a program's error message ("PermissionError: ... Permission denied"), or a small JSON object
whose "error"/"status"/"message" says so. The reason is what follows "Reason:" or "because", or the text after
the refusal's colon or first sentence.

What it leaves out on purpose: judging the reason. A real model might propose another way to reach the goal
("shall I book the 2 pm slot instead?"); this rule only reports, in the tool's and the person's own words.
"""

from __future__ import annotations

import re

from helpers.offline.conversation import Call, Conversation, parse_json

MAX_DENIAL_CHARS = 600  # longer outputs are results that may mention a refusal, not refusals
_DENIED = re.compile(r"\b(?:not\s+(?:been\s+)?(?:approved|allowed|permitted|authori[sz]ed)|(?:did|does|do)(?:\s+not|n't)\s+"
                     r"(?:approve|allow|permit|authori[sz]e)|denied|rejected|"
                     r"declined\s+by|disapproved)\b", re.IGNORECASE)
# A program's error ("PermissionError: [Errno 13] Permission denied", "ConnectionRefusedError: ...") is a
# failure of the tool (the rule "failed calls" of engine.RULES), not a person's decision.
_PROGRAM_ERROR = re.compile(r"^\s*(?:\w*(?:Error|Exception)\b|traceback|errno)", re.IGNORECASE)
_REASON = [re.compile(r"\breason(?:\s+given)?\s*[:=]\s*(.+)", re.IGNORECASE | re.DOTALL),
           re.compile(r"\bbecause\s+(.+)", re.IGNORECASE | re.DOTALL),
           re.compile(r"(?:approved|allowed|permitted|authori[sz]ed|denied|rejected|declined|refused|disapproved)"
                      r"\b[^:.]{0,40}:\s*(.+)", re.IGNORECASE | re.DOTALL)]
_REASON_KEYS = ("reason", "message", "detail", "details")
_STATUS_KEYS = ("error", "status", "message", "result")


def denial_of(output: str | None) -> tuple[bool, str | None]:
    """(whether an output refuses the call, the reason it gives or None).

    Example:
        >>> denial_of("Tool execution was not approved.")
        (True, None)
        >>> denial_of("Rejected by the owner: the budget is spent.")
        (True, 'the budget is spent')
        >>> denial_of('[{"order": 7, "status": "rejected"}]')
        (False, None)
    """
    if not output or len(output) > MAX_DENIAL_CHARS:
        return False, None
    data = parse_json(output)
    if isinstance(data, dict):
        said = " ".join(str(data[k]) for k in _STATUS_KEYS if isinstance(data.get(k), str))
        if not _DENIED.search(said):
            return False, None
        reason = next((str(data[k]) for k in _REASON_KEYS if isinstance(data.get(k), str) and data[k] != said), None)
        return True, _clean(reason) if reason else _reason_in(said)
    if data is not None and not isinstance(data, str):
        return False, None  # a list or a number is a result
    text = " ".join(output.split())
    if _PROGRAM_ERROR.match(text):
        return False, None
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    if not _DENIED.search(first):
        return False, None
    return True, _reason_in(text)


def _reason_in(text: str) -> str | None:
    for pattern in _REASON:
        found = pattern.search(text)
        if found and _clean(found.group(1)):
            return _clean(found.group(1))
    parts = re.split(r"(?<=[.!?])\s", text, maxsplit=1)
    return _clean(parts[1]) if len(parts) == 2 and _clean(parts[1]) else None


def _clean(reason: str) -> str:
    return reason.strip().strip('"').rstrip(". ").strip()


def denied_calls(conv: Conversation) -> list[tuple[Call, str | None]]:
    """The latest response's calls whose output refuses them, each with its reason.

    Example:
        >>> conv = Conversation(calls=[Call("pay", '{"amount": 40}', "c1", 0, "The tool call was denied.")])
        >>> [(call.name, reason) for call, reason in denied_calls(conv)]
        [('pay', None)]
    """
    answered = [c for c in conv.calls if c.output is not None]
    if not answered:
        return []
    latest = max(c.batch for c in answered)
    found = []
    for call in answered:
        if call.batch == latest:
            denied, reason = denial_of(call.output)
            if denied:
                found.append((call, reason))
    return found


def denial_answer(denied: list[tuple[Call, str | None]]) -> str:
    """The answer: each call that did not run, its arguments, and the reason quoted.

    Example:
        >>> print(denial_answer([(Call("cancel_booking", '{"booking": "B-12"}', "c1", 0), "keep it")]))
        I did not run cancel_booking (booking: "B-12"): it was not approved. The reason given: "keep it".
    """
    sentences = []
    for call, reason in denied:
        why = f'The reason given: "{reason}".' if reason else "No reason was given."
        sentences.append(f"I did not run {call.name}{_arguments(call)}: it was not approved. {why}")
    return " ".join(sentences)


def _arguments(call: Call) -> str:
    """A call's arguments as ` (key: "value", ...)`, the first three, each cut short."""
    args = parse_json(call.arguments)
    if not isinstance(args, dict) or not args:
        return ""
    shown = []
    for key, value in list(args.items())[:3]:
        text = value if isinstance(value, str) else str(value)
        text = text if len(text) <= 60 else text[:57] + "..."
        shown.append(f'{key}: "{text}"' if isinstance(value, str) else f"{key}: {text}")
    return " (" + ", ".join(shown) + ")"
