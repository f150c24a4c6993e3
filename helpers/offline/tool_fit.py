"""Whether an offered tool fits the request at all: what the request asks for must be what the tool is about.

Sharing words is not enough: "Calculate the area of a triangle" shares "calculate" and "height" with a
body-mass-index tool, and "the freezing point of water" shares "point" and "water" with a boiling-point tool.
What the request asks for is read by asked.py as noun phrases, each with a head ("the freezing *point*") and
words of kind ("*freezing*"). `tool_fits(tool, question)` is true when:
- the request says two of the tool's own name words, wherever they stand (`kinematics_final_speed`: "... what
  is its final speed?");
- or a phrase's head is in the tool's name or description, or a word of the phrase is one of the tool's name
  words ("the humidity level" for `humidity_forecast`), unless the tool makes the head another kind: the
  request's kind is not in the tool and the tool's own kind is not in the request ("the freezing point" for
  "Calculate the boiling point", "a pet store" for "Find grocery stores", "the lowest score" for
  `high_score`). Initials count as the words they stand for ("BMI" for "body mass index");
- or the tool gives the details of its object (details, information, stats) and the request names that
  object ("the size of the sculpture 'David'" for "Retrieve details of a sculpture");
- or the request names the tool outright ("open a ticket" for `open_ticket`) or a value its schema lists (an enum,
  or a description's whole set: "i.e., cracks, bubbles"; not its examples, an open list).
It is false when the request holds fewer numbers than the tool's required numbers (`missing_numbers`), and
when the request only asks what a kind of thing is ("What is a holy book?") and the tool is no dictionary.
A request no offered tool fits gets no call, and `no_tool_note(tools)` says so plainly; one turned down only
for its missing numbers gets `missing_note`, which names the tool and the values it needs and asks for them.

What it leaves out on purpose: meaning. A synonym of the tool's words ("velocity" for a "speed" tool, "the
King of France" for a "historical leader" tool) fits only if the description uses the word, and a kind that
is a narrower one of the tool's ("a guitar shop" for "Find music shops") is taken for another kind.
"""

from __future__ import annotations

import re

from helpers.offline.acts import act_family, asked_parts, does_act, is_explanation, only_asks, tool_writes
from helpers.offline.asked import (
    GENERIC_MODIFIERS,
    REQUEST_WORDS,
    TOKEN,
    asked_phrases,
    is_definition_question,
    questions_in,
)
from helpers.offline.call_plan import clauses
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.number_mentions import mentions, number_lists
from helpers.offline.param_values import listed_values
from helpers.offline.text import STOP_STEMS, STOP_WORDS, content_words, stem, words
from helpers.offline.unit_params import is_unit_param

NAME_WORDS_ENOUGH = 2  # a request that says this many of the tool's own name words (not its verb) is about it
_VERB_STEMS = {stem(w) for w in "calculate calc compute get find fetch retrieve search lookup check info data".split()}
_REQUEST_STEMS = {stem(w) for w in REQUEST_WORDS}
# What a tool gives when it gives anything about its object: "details of a sculpture" answers "the size of it".
_ANY_FACT_WORDS = frozenset("detail details info information stats facts profile".split())
_ANY_FACT = frozenset({stem(w) for w in _ANY_FACT_WORDS})
# A tool that says what things are answers a definition question.
_DEFINES = re.compile(r"\b(?:defin\w*|meaning\w*|dictionar\w*|glossar\w*|explain\w*|encyclop\w*|wiki\w*)", re.I)


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(text)} | {stem(w) for w in name_words(text)}


def _meets(word: str, stems: set[str]) -> bool:
    return word in stems or any(len(w) >= 4 and len(word) >= 4 and (w.startswith(word) or word.startswith(w))
                                for w in stems)


def tool_fits(tool: Tool, question: str) -> bool:
    """Whether the tool is about what the request asks for, and the request gives the numbers it needs (see the
    module).

    Example:
        >>> bmi = Tool("body_mass_index", "Calculate body mass index given weight and height.")
        >>> tool_fits(bmi, "Calculate the area of a triangle, base 4"), tool_fits(bmi, "What is my BMI index?")
        (False, True)
    """
    return not missing_numbers(tool, question) and is_about(tool, question)


def is_about(tool: Tool, question: str) -> bool:
    """Whether the tool is about what the request asks for, whatever values the request gives.

    Example:
        >>> kiln = Tool("kiln_firing_time", "Estimate the firing time of a pottery kiln.")
        >>> is_about(kiln, "How long is the firing time for a kiln?"), is_about(kiln, "What is the drying time?")
        (True, False)
    """
    if is_definition_question(question):
        # "What is a holy book?" is answered from knowledge, not by searching holy books; a dictionary answers it.
        return bool(_DEFINES.search(f"{tool.name.replace('_', ' ')} {tool.description}"))
    # A request of several tasks fits a tool when one of its tasks does: "..., and then get me the leaders".
    # A sentence that only tells something is context when another asks (acts.asked_parts).
    parts = clauses(question)
    if len(parts) > 1 and (asked := asked_parts(parts)) != parts:
        return any(_fits_one(tool, part) for part in asked)
    return any(_fits_one(tool, part) for part in parts) if len(parts) > 1 else _fits_one(tool, question)


def _fits_one(tool: Tool, question: str) -> bool:
    tool_text = f"{tool.name.replace('_', ' ')} {tool.description}"
    family = act_family(question)
    if family and not does_act(family, tool_text):
        return False  # acts.py: "Cancel my appointment" is not what book_appointment does, though it names its object
    if only_asks(question) and tool_writes(tool.name, tool.description or ""):
        return False  # acts.py: "What's on my calendar?" is not answered by create_calendar_event
    if is_explanation(question) and not _DEFINES.search(tool_text):
        return False  # "Why do cats purr?" asks how the world works: no data tool answers it
    about = _stems(f"{tool.name} {tool.description}")
    own = {stem(w) for w in name_words(tool.name)} - _REQUEST_STEMS - _VERB_STEMS
    said = {stem(w) for w in words(question)}
    read = [p for text in questions_in(question) for p in asked_phrases(text)]
    phrases = [p for p in read if not _another_kind(p, tool, about, said)]
    if read and not phrases:
        return False  # "the lowest score" for a high_score tool, however many of its words are said
    if len({w for w in own if len(w) > 2} & said) >= NAME_WORDS_ENOUGH:
        return True  # "... what is its final speed?" names kinematics_calculate_final_speed wherever it stands
    if not phrases:
        return True  # nothing said beyond the request's verb: leave it to the other rules
    if any(_phrase_fits(phrase, tool, about) for phrase in phrases) or _any_fact_fits(tool, question):
        return True
    own = {stem(w) for w in name_words(tool.name)} - _REQUEST_STEMS
    if own and own <= said:
        return True  # the request names the tool: "..., open a ticket" for open_ticket
    return any(_canonical_value(v) <= said for v in _listed(tool))  # it names a value the tool lists: "North"


def names_listed_value(tool: Tool, question: str) -> bool:
    """Whether the request names a value the tool's schema lists (an enum, or a description's whole set): the
    request speaks the tool's own vocabulary, as "my dog" does to a booking tool whose species lists "dog".

    Example:
        >>> vet = Tool("book_vet", "Book a visit.", {"properties": {"species": {"type": "string",
        ...            "enum": ["dog", "cat"]}}})
        >>> names_listed_value(vet, "My dog is limping"), names_listed_value(vet, "My horse is limping")
        (True, False)
    """
    said = {stem(w) for w in words(question)}
    return any(_canonical_value(v) <= said for v in _listed(tool, units=False))


def _another_kind(phrase: list[str], tool: Tool, about: set[str], said: set[str]) -> bool:
    """Whether the tool's name makes the phrase's head another kind: the request's kind is nowhere in the tool,
    and the kind the name gives the head is nowhere in the request ("freezing point" for boiling_point)."""
    head = phrase[-1]
    kinds = [w for w in dict.fromkeys(phrase[:-1]) if w not in GENERIC_MODIFIERS and w != head]
    text = f"{' '.join(name_words(tool.name))}. {tool.description}"
    if not kinds or any(_meets(kind, about) or kind in _initials(text) for kind in kinds):
        return False  # "BMI" is the initials of "body mass index"
    props = (tool.parameters or {}).get("properties") or {}
    if any(_meets(head, {stem(w) for w in name_words(str(name))}) for name in props):
        return False  # "blue colours" for a tool with colour parameters: the kind is a value it takes
    # The tool's specialty is a kind its name and its description both give the head: boiling_point, "Calculate
    # the boiling point"; not "account" in "Get the account balance", nor a name's prefix (geometry_circumference).
    described = _kinds_before(head, tool.description or "")
    theirs = {k for k in _kinds_before(head, " ".join(name_words(tool.name))) if _meets(k, described)}
    return bool(theirs) and not any(kind in said for kind in theirs)


def _phrase_fits(phrase: list[str], tool: Tool, about: set[str]) -> bool:
    """The phrase's head, or a word of it that is one of the tool's name words, is the tool's."""
    named = {n for n in {stem(w) for w in name_words(tool.name)} - _REQUEST_STEMS - _VERB_STEMS if len(n) > 2}
    if any(_meets(word, named) for word in phrase if word not in GENERIC_MODIFIERS):
        return True
    return _meets(phrase[-1], about) or phrase[-1] in _example_heads(tool)


def _example_heads(tool: Tool) -> set[str]:
    """The last word of each example a parameter's description gives ("e.g. 'chain', 'brake pads'": chain, pad):
    a request whose head is one asks about a thing the tool takes. The head only, and of a lower-case example: a
    name ("such as 'San Francisco, CA'") is a value, never what is asked."""
    props = (tool.parameters or {}).get("properties") or {}
    heads = set()
    for schema in props.values():
        description = str(schema.get("description") or "") if isinstance(schema, dict) else ""
        if not _EXAMPLES.search(description):
            continue
        for value in listed_values({"description": description}):
            found = [w for w in words(str(value)) if w.isalpha()]
            if found and str(value)[:1].islower() and len(found[-1]) > 3:
                heads.add(stem(found[-1]))
    return heads


_EXAMPLES = re.compile(r"\be\.\s?g\.|\bfor example\b|\bsuch as\b", re.I)


def _any_fact_fits(tool: Tool, question: str) -> bool:
    """A tool that gives the details of its object fits a request about any side of that object: one of the
    request's content words is one of the tool's own words (not the details words)."""
    text = f"{tool.name} {tool.description}"
    if not _ANY_FACT_WORDS & ({w.lower() for w in name_words(text)} | {w.lower() for w in words(text)}):
        return False  # the words themselves, not their stems: "state" is no "stats"
    about = _stems(text) - _ANY_FACT - _REQUEST_STEMS - _VERB_STEMS - STOP_STEMS
    return any(_meets(stem(w), about) for w in content_words(question) if w not in REQUEST_WORDS and len(w) > 3)


def _initials(text: str) -> set[str]:
    """The initials of every run of two to four words of the text: "body mass index" gives "bmi"."""
    found = [w for w in words(text.replace("_", " ")) if w.isalpha()]
    return {"".join(w[0] for w in found[i:i + n]) for n in (2, 3, 4) for i in range(len(found) - n + 1)}


def _kinds_before(head: str, text: str) -> set[str]:
    """The words that say which kind of `head` the text means: the content word right before each use of it,
    when every use has one ("sunrise and sunset time"); empty when one use stands bare ("get the time")."""
    tokens = [t.lower() for t in TOKEN.findall(text)]
    kinds, bare = set(), False
    for i, word in enumerate(tokens):
        if not _meets(stem(word), {head}):
            continue
        before = stem(tokens[i - 1]) if i and tokens[i - 1].isalnum() else ""
        if not before or tokens[i - 1] in STOP_WORDS or tokens[i - 1] in REQUEST_WORDS or before in _VERB_STEMS \
                or before in GENERIC_MODIFIERS or _meets(before, {head}):
            bare = True
        else:
            kinds.add(before)
    return set() if bare else kinds


def missing_numbers(tool: Tool, question: str) -> list[str]:
    """The tool's required numeric parameters with no default (a numeric array among them), when the request
    holds fewer numbers than they need; empty when it holds enough (a list of numbers counts for an array). A
    request that leaves them out ("What's the time now?" against a tool that needs a distance and a speed) is not
    one the tool can do yet: a real model asks for them, or answers without the tool.

    Example:
        >>> feeder = Tool("mix_feed", "Mix hive feed.", {"type": "object", "required": ["litres", "grams"],
        ...               "properties": {"litres": {"type": "number"}, "grams": {"type": "integer"}}})
        >>> missing_numbers(feeder, "Mix 3 litres with 250 grams"), missing_numbers(feeder, "Mix feed")
        ([], ['litres', 'grams'])
    """
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or []
    scalars, arrays = [], []
    for name in required:
        schema = props.get(name)
        if not isinstance(schema, dict) or "default" in schema or schema.get("enum"):
            continue
        kind = schema.get("type")
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        if kind in ("integer", "number"):
            scalars.append(name)
        elif kind == "array" and items.get("type") in ("integer", "number"):
            arrays.append(name)
    if not scalars and not arrays:
        return []
    found = len(mentions(question)) + len(_ONE_UNIT.findall(question))  # "quarterly" is 4, "next month" is 1
    if (arrays and not number_lists(question) and found < 2) or found < len(scalars):
        return [name for name in required if name in scalars or name in arrays]
    return []


def missing_note(tool: Tool, missing: list[str]) -> str:
    """What a real model says when a tool fits but the request lacks values it needs: the tool, each missing
    parameter (with its description, when it has one), and a question for them.

    Example:
        >>> kiln = Tool("kiln_time", "Estimate firing time.", {"type": "object", "required": ["cone"],
        ...             "properties": {"cone": {"type": "integer", "description": "The cone number"}}})
        >>> missing_note(kiln, ["cone"])
        'I can answer this with kiln_time, but it needs a value the request does not give: cone (the cone number). What is it?'
    """
    props = (tool.parameters or {}).get("properties") or {}
    named = []
    for name in missing:
        said = str((props.get(name) or {}).get("description") or "").strip().rstrip(".")
        said = said.split(". ")[0]
        named.append(f"{name} ({said[:1].lower()}{said[1:]})" if said else name)
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    values = "a value" if len(named) == 1 else "values"
    question = "What is it?" if len(named) == 1 else "What are they?"
    return f"I can answer this with {tool.name}, but it needs {values} the request does not give: {listed}. {question}"


# A unit of time with no number before it is one of it: "the next month", "last year", "an hour".
_ONE_UNIT = re.compile(r"\b(?:next|last|past|this|coming|upcoming|following|a|an|per|every|each)\s+(?:second|minute|hour|day|night|week|fortnight|"
                       r"month|quarter|year|decade|century)\b", re.IGNORECASE)


def _listed(tool: Tool, units: bool = True) -> list:
    """The values the tool's parameters list: an enum's, or those a description lists as the whole set ("i.e.,
    cracks, bubbles"). Examples ("e.g. front, back") are left out: they are an open list, often of common words.
    `units=False` leaves out a unit parameter's: "in kilometers" says how to answer, not what about."""
    props = (tool.parameters or {}).get("properties") or {}
    schemas = [schema for name, schema in props.items() if isinstance(schema, dict) and (units or not is_unit_param(name))]
    return [v for schema in schemas
            for v in (schema.get("enum") or (listed_values({"description": schema.get("description")})
                                             if _WHOLE_SET.search(str(schema.get("description") or "")) else []))
            if isinstance(v, str) and v.strip()]


_WHOLE_SET = re.compile(r"\bi\.\s?e\.|\bone of\b", re.I)


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

