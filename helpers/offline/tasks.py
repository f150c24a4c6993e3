"""The request cut into tasks: where one task of a request ends and the next begins.

`clauses(question)` cuts at sentences (a full stop before a capital, ";", "!", "?", a new line) and at the words
that start another task ("also", "then", "after that", "followed by", "additionally", ", and what/how/find ..."); words that only
order the tasks ("First,", "Lastly,") are dropped, and a sentence that says what not to do ("Don't return full
text") joins the task before it. `cut_between_tools(text, tools)` cuts a clause again between two tools it names,
by a word of one tool's name that no other offered tool has ("Invest $2000 in Google and withdraw $1000 from
Apple"). call_plan.py reads the clauses into calls; tool_fit.py asks whether any one of them fits a tool.

What it leaves out on purpose: meaning. A task is found by words and punctuation; a request that coordinates
tasks without any of them ("the capital of Australia, the population of Canada") is cut only where two different
tools are named, and a story's sentences are all clauses (call_plan.py decides which of them is context).
"""

from __future__ import annotations

import re

from helpers.offline.arguments import unwrapped
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.text import stem

# Words that start another task in the same request: general English for "and next".
_TASK_START = re.compile(
    r"(?:\.\s+(?!(?-i:[a-z]))|[;!?]\s+|\n+)"  # a full stop before a lower-case word ends an abbreviation ("Bros. game")
    r"|,?\s*\b(?:and\s+then|after\s+that|afterwards|additionally|in\s+addition|as\s+well\s+as|moreover|followed\s+by|"
    r"furthermore|finally|lastly|also)\b,?\s*"
    r"|,?\s+then\s+"
    r"|,?\s+and\s+(?=(?:what|how|who|where|when|which|whether|find|get|calculate|compute|tell|show|give|search|book|"
    r"check|convert|play|list|retrieve|fetch|predict|estimate|determine|identify|provide|look|send|create|set|"
    r"make|add|remove|delete|update|invest|withdraw|buy|sell|order|schedule)\b)",
    re.IGNORECASE)
GENERIC_NAME_WORDS = {stem(w) for w in "get set find calculate calc compute info information details detail data "
                       "by of for to the a list fetch retrieve search lookup check make create".split()}


def clauses(question: str) -> list[str]:
    """The request cut where another task starts (see the module).

    Example:
        >>> clauses("Find the capital of Peru. Also, get the weather in Lima and then book a taxi")
        ['Find the capital of Peru', 'get the weather in Lima', 'book a taxi']
    """
    text = unwrapped(question).strip()
    quoted = [m.span() for m in re.finditer(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|(?<!\w)'(?:[^'\n]|(?<=\w)'(?=\w))*'(?!\w)",
                                            text)]
    parts, begin = [], 0
    for match in _TASK_START.finditer(text):
        if any(a <= match.start() < b for a, b in quoted):
            continue  # a full stop or "then" inside quoted text cuts nothing
        parts.append(text[begin:match.start()])
        begin = match.end()
    parts.append(text[begin:])
    found: list[str] = []
    for part in parts:
        part = _DISCOURSE.sub("", part.strip(" ,.")).strip(" ,.")
        if not part or not re.search(r"\w", part):
            continue
        if found and _NOT_TO_DO.match(part):
            # "Don't return full text": what the task before must not do, not a task of its own.
            found[-1] = f"{found[-1]}, {part[0].lower()}{part[1:]}"
            continue
        found.append(part)
    return found


# Words that only order the tasks ("First, ...", "Secondly, ..."): left out, so they are not read as a name.
_DISCOURSE = re.compile(r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth(?:ly)?|next|lastly|finally|"
                        r"to\s+begin\s+with|to\s+start(?:\s+with)?|for\s+starters)\s*,\s*", re.IGNORECASE)
_NOT_TO_DO = re.compile(r"(?:don['’]t|do\s+not|never|avoid)\b", re.IGNORECASE)


def distinct_words(tools: list[Tool]) -> dict[str, Tool]:
    """The words of each tool's name that no other offered tool's name has."""
    seen: dict[str, list[Tool]] = {}
    for tool in tools:
        for word in {stem(w) for w in name_words(tool.name)} - GENERIC_NAME_WORDS:
            if len(word) > 2:
                seen.setdefault(word, []).append(tool)
    return {word: owners[0] for word, owners in seen.items() if len(owners) == 1}


def cut_between_tools(text: str, tools: list[Tool]) -> list[str]:
    """A clause cut between two tools it names: at the last "and" or comma before the second one's word."""
    if len(tools) < 2:
        return [text]
    distinct = distinct_words(tools)
    anchors = []
    for match in re.finditer(r"[A-Za-z]+", text):
        owner = distinct.get(stem(match.group(0).lower()))
        if owner is not None and (not anchors or anchors[-1][1] is not owner):
            anchors.append((match.start(), owner))
    if len(anchors) < 2:
        return [text]
    pieces, begin = [], 0
    for (_, _), (position, _) in zip(anchors, anchors[1:], strict=False):
        joints = [m for m in re.finditer(r",\s*(?:and\s+)?|\s+and\s+", text[begin:position])]
        if not joints:
            continue
        cut = begin + joints[-1].start()
        pieces.append(text[begin:cut])
        begin = begin + joints[-1].end()
    pieces.append(text[begin:])
    return [p.strip(" ,") for p in pieces if p.strip(" ,")]
