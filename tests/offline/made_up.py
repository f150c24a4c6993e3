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
