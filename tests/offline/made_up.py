"""Made-up tools and the offline model's decision on them, for the rule tests of tests/offline/ (argument values,
calls per request, tool fit): one place for what each of those test files used to define for itself."""

import json

from helpers.offline.conversation import Conversation, Tool
from helpers.offline.engine import decide


def tool(tool_name, description, required=(), **properties):
    """A tool whose parameters are the keyword arguments (`tool_name`, so a parameter may be called `name`)."""
    return Tool(tool_name, description, {"type": "object", "properties": properties, "required": list(required)})


def calls(question, *tools, **conversation):
    """The calls the offline model makes for the question: (tool name, parsed arguments) each."""
    decision = decide(Conversation(question=question, tools=list(tools), **conversation))
    return [(name, json.loads(args)) for name, args in decision.calls]


def only_args(question, *tools):
    """The arguments of the one call the question gets (a ValueError when it gets none or several)."""
    (call,) = calls(question, *tools)
    return call[1]


def called(question, *tools):
    """The names of the tools called, and the text answered beside them."""
    decision = decide(Conversation(question=question, tools=list(tools)))
    return [name for name, _ in decision.calls], decision.text


def as_recorded(right: bool, known_miss: str | None, detail: str) -> None:
    """A development-set case is right, or, when it is a recorded miss, still wrong.

    Why not xfail: CI fails a run for any xfail not on tests/skips_allowed.txt (tests/skip_guard.py), and a
    recorded miss is no skip: it is a fact about the rules that a test keeps true. A miss that a rule fixes fails
    here, so the record is updated with the fix, as a strict xfail would make it.
    """
    if known_miss is None:
        assert right, detail
    else:
        assert not right, f"now right, so take it off the recorded misses ({known_miss}): {detail}"


def check_fit_case(question, wanted, kind, tools, missed):
    """One case of a tool-fit development set: no call when `wanted` is None, else `wanted` called first; a case
    in `missed` (question: reason) is still wrong (as_recorded)."""
    names, _ = called(question, *tools)
    right = names == [] if wanted is None else names[:1] == [wanted]
    as_recorded(right, missed.get(question), f"{kind}: {question!r} got {names}")
