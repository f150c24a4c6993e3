"""Whether an offered tool fits the request at all: what the request asks for must be what the tool is about.

Sharing words is not enough: "Calculate the area of a triangle" shares "calculate" and "height" with a
body-mass-index tool, and "the freezing point of water" shares "point" and "water" with a boiling-point tool.
`asked_for(question)` reads the thing the request asks for: the first content words after the request's
verb and the wh-word, skipping nouns that only count or name things ("the number of", "the names of",
"details of"). `tool_fits(tool, question)` is true when one of those words (in any word form) is in the tool's
name or description, when the request names the tool outright ("open a ticket" for `open_ticket`), or when it
names a value the tool's schema lists ("the North zone" for a `zone` enum). A request no offered tool fits gets no call,
and `no_tool_note(tools)` says so plainly.

What it leaves out on purpose: meaning. "What is the roots of a linear equation?" fits a tool for the roots
of a quadratic one (the words match, the equations differ), and a request that asks for a synonym of the
tool's words ("speed" for a "velocity" tool) fits only if the description uses the word.
"""

from __future__ import annotations

import re

from helpers.offline.binding import mentions, number_lists
from helpers.offline.call_plan import clauses
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.text import STOP_WORDS, stem, words

ASKED_WORDS = 3  # how many of the request's first content words say what it asks for
NAME_WORDS_ENOUGH = 2  # a request that says this many of the tool's own name words (not its verb) is about it

# Words a request starts with before saying what it wants, and nouns that only count, list or name things:
# general English, about any subject.
_REQUEST_WORDS = frozenset("""calculate compute find get give tell show determine identify retrieve fetch estimate
predict provide list look search check what whats which who whom whose where when how is are was were can could
would will should please me my i us we you your let lets do does did need want help know like about there here
kindly using use perform run make generate create obtain given based certain specific specified particular""".split())
_VERB_STEMS = {stem(w) for w in "calculate calc compute get find fetch retrieve search lookup check info data".split()}
_COUNTING_NOUNS = frozenset("""number numbers name names list type types kind kinds details detail information info
value values amount total result results data set way ways much many""".split())


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(text)} | {stem(w) for w in name_words(text)}


def _meets(word: str, stems: set[str]) -> bool:
    return word in stems or any(len(w) >= 4 and len(word) >= 4 and (w.startswith(word) or word.startswith(w))
                                for w in stems)


def asked_for(question: str) -> list[str]:
    """The stems of what the request asks for (see the module).

    Example:
        >>> asked_for("What are the names of proteins found in the plasma membrane?")
        ['protein', 'found', 'plasma']
    """
    found = []
    for word in words(question):
        if word in STOP_WORDS or word in _REQUEST_WORDS or word in _COUNTING_NOUNS or word.isdigit():
            continue
        found.append(stem(word))
        if len(found) == ASKED_WORDS:
            break
    return found


def tool_fits(tool: Tool, question: str) -> bool:
    """Whether the tool is about what the request asks for (see the module).

    Example:
        >>> bmi = Tool("body_mass_index", "Calculate body mass index given weight and height.")
        >>> tool_fits(bmi, "Calculate the area of a triangle, base 4"), tool_fits(bmi, "What is my BMI index?")
        (False, True)
    """
    if not gives_required_numbers(tool, question):
        return False
    # A request of several tasks fits a tool when one of its tasks does: "..., and then get me the leaders".
    parts = clauses(question)
    return any(_fits_one(tool, part) for part in parts) if len(parts) > 1 else _fits_one(tool, question)


def _fits_one(tool: Tool, question: str) -> bool:
    about = _stems(f"{tool.name} {tool.description}")
    own = {stem(w) for w in name_words(tool.name)} - {stem(w) for w in _REQUEST_WORDS} - _VERB_STEMS
    said_words = {stem(w) for w in words(question)}
    if len({w for w in own if len(w) > 2} & said_words) >= NAME_WORDS_ENOUGH:
        return True  # "... what is its final speed?" names kinematics_calculate_final_speed wherever it stands
    asked = asked_for(question)
    if not asked:
        return True  # nothing said beyond the request's verb: leave it to the other rules
    said = {stem(w) for w in words(question)}
    if any(_meets(word, about) for word in asked):
        return True
    own = {stem(w) for w in name_words(tool.name)} - {stem(w) for w in _REQUEST_WORDS}
    if own and own <= said:
        return True  # the request names the tool: "..., open a ticket" for open_ticket
    return any(_canonical_value(v) <= said for v in _listed(tool))  # it names a value the tool lists: "North"


def gives_required_numbers(tool: Tool, question: str) -> bool:
    """Whether the request holds as many numbers as the tool has required numeric parameters with no default (a
    list of numbers counts for a numeric array). A request that leaves them out ("What's the time now?" against a
    tool that needs a distance and a speed) is not one the tool can do: a real model asks, or answers without it.

    Example:
        >>> feeder = Tool("mix_feed", "Mix hive feed.", {"type": "object", "required": ["litres", "grams"],
        ...               "properties": {"litres": {"type": "number"}, "grams": {"type": "integer"}}})
        >>> gives_required_numbers(feeder, "Mix 3 litres with 250 grams"), gives_required_numbers(feeder, "Mix feed")
        (True, False)
    """
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or []
    scalars = arrays = 0
    for name in required:
        schema = props.get(name)
        if not isinstance(schema, dict) or "default" in schema or schema.get("enum"):
            continue
        kind = schema.get("type")
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        if kind in ("integer", "number"):
            scalars += 1
        elif kind == "array" and items.get("type") in ("integer", "number"):
            arrays += 1
    if not scalars and not arrays:
        return True
    found = len(mentions(question)) + len(_ONE_UNIT.findall(question))  # "quarterly" is 4, "next month" is 1
    if arrays and not number_lists(question) and found < 2:
        return False
    return found >= scalars


# A unit of time with no number before it is one of it: "the next month", "last year", "an hour".
_ONE_UNIT = re.compile(r"\b(?:next|last|past|this|coming|a|an|per|every|each)\s+(?:second|minute|hour|day|night|week|fortnight|"
                       r"month|quarter|year|decade|century)\b", re.IGNORECASE)


def _listed(tool: Tool) -> list:
    props = (tool.parameters or {}).get("properties") or {}
    return [v for schema in props.values() if isinstance(schema, dict) for v in schema.get("enum") or []
            if isinstance(v, str) and v.strip()]


def _canonical_value(value: str) -> set[str]:
    return {stem(w) for w in words(value)} or {"\0"}


def no_tool_note(tools: list[Tool]) -> str:
    """The plain sentence said when no offered tool fits the request.

    Example:
        >>> no_tool_note([Tool("get_weather"), Tool("book_taxi")])
        'None of the tools I have (get_weather, book_taxi) fits this request, so I did not call any.'
    """
    names = ", ".join(t.name for t in tools[:5]) + (", ..." if len(tools) > 5 else "")
    return f"None of the tools I have ({names}) fits this request, so I did not call any."

