"""An instruction not to call tools: "Do not use any tools", "Answer without calling functions".

The grammar: a negation right before a verb of tool use and what it uses ("do not use any tools", "never
call a function", "you must not use the search tool", "avoid using tools"), "without calling / using
(any) tools or functions", "no tool calls", and "don't search" as an order of its own.

`forbids_tools(text)`: whether the instructions forbid calling tools. The engine then answers as with
`tool_choice="none"` (unless `tool_choice` forces a call: the request's own setting wins).

What it leaves out on purpose: instructions that limit tools without forbidding them ("use the search
tool only for prices", "never call a tool twice", "do not use tools for greetings", "unless asked": a
prohibition with a qualifier after it in its clause forbids nothing as a whole) and double negatives, which it reads as asking for tools:
"Don't answer without searching" and "Never answer from memory; always use a tool" forbid nothing.
"""

from __future__ import annotations

import re

from helpers.offline.instructions.clauses import near

_NOT = r"(?:do\s+not|don'?t|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|never|may\s+not|cannot|can'?t|avoid)"
_TOOLS = r"(?:(?:any|the|a|your|external)\s+)?(?:\w+\s+)?(?:tools?|functions?|function\s+calls?|tool\s+calls?|apis?)\b"
_FORBIDS = re.compile(
    rf"\b{_NOT}\s+(?:ever\s+)?(?:use|using|call|calling|invoke|invoking|run|running|make|making)\s+{_TOOLS}"
    rf"|(?<!\banswer\s)(?<!\breply\s)(?<!\brespond\s)\bwithout\s+(?:calling|using|invoking)\s+{_TOOLS}"
    rf"|^\s*(?:answer|reply|respond)\s+without\s+(?:calling|using|invoking)\s+{_TOOLS}"
    r"|\bno\s+(?:tool|function)\s+calls?\b|\b(?:use|call)\s+no\s+tools?\b"
    rf"|\b(?:do\s+not|don'?t|never)\s+search\b",
    re.IGNORECASE | re.MULTILINE)
# "Don't answer without searching", "never reply without a tool": a negated answer, asking for tools.
_DOUBLE = re.compile(rf"\b{_NOT}\s+(?:\w+\s+){{0,2}}?(?:answer|reply|respond|guess)\w*\s+(?:\w+\s+){{0,2}}?without\b",
                     re.IGNORECASE)
# What makes a prohibition partial ("never call a tool twice", "do not use tools for greetings", "unless
# asked"): words after it in the same clause. A partial rule forbids nothing as a whole.
_QUALIFIED = re.compile(r"^[^,;:.!?\n]*?\b(?:unless|except|if|when|whenever|while|before|after|until|twice|again"
                        r"|more\s+than|same|for|on|to|about|with|only|yet)\b", re.IGNORECASE)
_CUE = ("tool", "function", "search", "api")


def forbids_tools(text: str) -> bool:
    """True when the instructions forbid calling tools.

    Example:
        >>> forbids_tools("Do not use any tools."), forbids_tools("Answer without calling functions.")
        (True, True)
        >>> forbids_tools("Don't answer without searching."), forbids_tools("Use the tools when you need them.")
        (False, False)
        >>> forbids_tools("Never call a tool twice with the same arguments.")
        False
    """
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+", near(text or "", _CUE)):
        match = _FORBIDS.search(sentence)
        if match and not _DOUBLE.search(sentence) and not _QUALIFIED.match(sentence[match.end():]):
            return True
    return False
