"""The names in a request: quoted text, capitalised words and phrases, else the plain words after a preposition.

- `entities(question, tool)`: the names, in order: quotes first, then capitalised phrases that are not a sentence's
  opening verb, nor its opening word before a pronoun, article or comma ("Imagine you", "Later, we"), a request verb whose sentence stop was lost ("Liverpool F.C. Include ..."), a unit's name
  ("(in Joules)"), the tool's own words, or a gloss in brackets ("SNP (Single Nucleotide Polymorphism)");
  Without capitals, the plain words after a preposition, but not the verb after the "to" of an infinitive ("want
  to spend", "looking to buy": a list of the verbs that take one, English grammar);
  A quoted text followed by "function" or "tool" ("the 'fare_estimate' function") names what to call, not a value;
- `entities_for(tool, question)`: the same, for a tool that takes names at all;
- `unwrapped(question)`: a request pasted whole in quotes, without them;
- `tool_words(tool)`: the stems of a tool's name and description, which say what the tool does, not what a call
  is about.

What it leaves out on purpose: knowing what a name is. "Berlin" is a name because it is capitalised, not because
it is a city, and a lower-case name ("the rolling stones") is found only as the words after a preposition.
"""

from __future__ import annotations

import re

from helpers.offline.conversation import Tool
from helpers.offline.text import STOP_WORDS, content_words, stem, word_list
from helpers.offline.unit_params import is_unit_name


def tool_words(tool: Tool) -> tuple[set[str], set[str]]:
    """The stems of a tool's name (without "get", "set") and of its description."""
    name_words = {stem(w) for w in re.split(r"[_\W]+", tool.name.lower()) if w and w not in STOP_WORDS}
    desc_words = {stem(w) for w in content_words(tool.description)}
    return name_words - {"get", "set"}, desc_words


_SENTENCE_START_VERBS = frozenset(word_list("""
compare tell show give find check look search list send book call create make add set turn please let
help explain describe calculate convert translate fetch get what which who where when how is are can
could would should do does did will shall may might i what's whats and or but also then compute
provide analyze analyse retrieve estimate predict identify locate train generate determine obtain display
return run build plan record open close start stop update delete remove order buy sell reserve schedule
include including change modify edit
"""))
# A quote in single quotes may hold an apostrophe between letters ('It's fresh'): the quote ends at a ' no letter
# follows. Up to 300 characters: a review or a message to analyse is quoted whole.
_QUOTED = re.compile(r"\"([^\"]{1,300})\"|(?<!\w)'((?:[^'\n]|(?<=\w)'(?=\w)){1,300})'(?!\w)|\u201c([^\u201d]{1,300})\u201d")
_CAPITALISED = re.compile(r"\b[A-Z][\w.-]*(?:\s+(?:of|de|la|del|von|van|da)?\s*[A-Z][\w.-]*)*"
                          r"(?:\s\d{1,2}(?=[,.;:!?]|\s+and\b|$))?")  # a name may end in a number: "Maroon 5"
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
# What follows a sentence's capitalised first word when that word opens the sentence rather than names something: a
# pronoun, a possessive or an article ("Imagine you", "During your stay", "Plus their cost"), or a comma and a
# lower-case word ("Later, you", "However, the"). A name is followed by its verb ("Oban has", "Mars is").
_OPENER_FOLLOWS = re.compile(r",?\s+(?:you|your|i|i'm|i've|i'd|we|our|us|my|me|they|their|them|he|his|she|her|it|its"
                             r"|the|a|an|this|that|these|those|there|some|every|each|all)\b|,\s+[a-z]")


def unwrapped(question: str) -> str:
    """The request without quotes around the whole of it: a request pasted in quotes is a request, not a quote.

    Example:
        >>> unwrapped('"Find the tide times for Oban."'), unwrapped("Say 'hi' to 'Ana'")
        ('Find the tide times for Oban.', "Say 'hi' to 'Ana'")
    """
    text = question.strip()
    for left, right in (('"', '"'), ("'", "'"), ("\u201c", "\u201d")):
        if len(text) > 2 and text.startswith(left) and text.endswith(right) and left not in text[1:-1] \
                and right not in text[1:-1]:
            return text[1:-1].strip()
    return question


_EXAMPLE_NAME = re.compile(r"['‘\"“]([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*)['’\"”]")


def example_names(tool: Tool) -> set[str]:
    """The stems of the names a tool's description quotes as examples ("Site names are the society's own (e.g.
    'Hillside', 'Riverside')"): values a call may take, so a request's "at Hillside" is still a name, though the
    tool's text has the word.

    Example:
        >>> sorted(example_names(Tool("reserve_plot", "Plots on a site, e.g. 'Hillside' or 'Long Acre'.")))
        ['acr', 'hillsid', 'long']
    """
    return {stem(w.lower()) for name in _EXAMPLE_NAME.findall(tool.description or "") for w in name.split()}


def entities(question: str, tool: Tool | None = None) -> list[str]:
    """Names in a question: quoted strings, then capitalised words and phrases that are not just a
    sentence-initial "What"/"Compare", or words from the tool's own name. Without capitals, the words
    after "in", "for", "at", "of" (and after a following "and").

    Example:
        >>> entities("Compare the weather in Berlin and Madrid")
        ['Berlin', 'Madrid']
    """
    question = unwrapped(question)
    tool_stems = set().union(*tool_words(tool)) - example_names(tool) if tool else set()
    found: list[str] = []
    for match in _QUOTED.finditer(question):
        value = next(g for g in match.groups() if g)
        if _NAMES_A_FUNCTION.match(question, match.end()):
            continue  # "using the 'fare_estimate' function": which tool to call, not a value for it
        if value not in found:
            found.append(value)
    unquoted = _QUOTED.sub(" ", question)
    glosses = _glosses(unquoted)
    for match in _CAPITALISED.finditer(unquoted):
        phrase = match.group(0).strip(" .-")
        first = phrase.split()[0]
        start = match.start()
        if unquoted[start - 1:start] == "°":
            continue  # "0°C", "70°F": a temperature's scale, not a name
        at_sentence_start = start == 0 or re.search(r"[.!?:]\s*$", unquoted[:start]) is not None
        if at_sentence_start and first.lower().strip("'") in _SENTENCE_START_VERBS | STOP_WORDS:
            phrase = " ".join(phrase.split()[1:])
            if not phrase:
                continue
        # A request verb at either end of a phrase starts the next sentence, whose stop was lost ("by Liverpool
        # F.C. Include its statistics", "the neutron Give me the details"): it is no part of the name.
        parts = phrase.split()
        while parts and parts[-1].lower() in _SENTENCE_START_VERBS and len(parts) > 1:
            parts.pop()
        if len(parts) == 1 and parts[0].lower() in _SENTENCE_START_VERBS:
            continue
        if (parts[-1].rstrip(".") in ("No", "Nr", "Number") and re.match(r"\s*\d", unquoted[match.end():])) or (
                len(parts) >= 2 and parts[-2].rstrip(".") in ("No", "Nr", "Number") and parts[-1].isdigit()):
            continue  # "Case No 28473": a label before a number, the number is the value
        if at_sentence_start and len(parts) == 1 and _OPENER_FOLLOWS.match(unquoted, match.end()):
            continue  # "Imagine you ...", "After your trip ...", "Later, you ...": a sentence's opening word
        # "Leith." and "Dallas, TX." end a sentence; "F.C." keeps its dot (a word with a dot inside is an abbreviation).
        phrase = re.sub(r"(?<=[A-Za-z]{2})\.$", "", " ".join(parts)) if "." not in parts[-1][:-1] else " ".join(parts)
        if phrase.lower() in STOP_WORDS or stem(phrase.lower()) in tool_stems or phrase == "I":
            continue
        lead = phrase.split()
        own = next((i for i, w in enumerate(lead) if stem(w.lower()) not in tool_stems), len(lead))
        if own >= 2 and own + 1 < len(lead) and lead[own] == "of":
            phrase = " ".join(lead[own + 1:])  # "the Glaze Viscosity of Tenmoku": the tool's two words, then the name
        if all(stem(w.lower()) in tool_stems for w in phrase.split()) or phrase in glosses:
            continue  # "the Population Density" for a density tool; "SNP (Single Nucleotide Polymorphism)"
        if " " not in phrase and is_unit_name(phrase):
            continue  # "(in Joules)": a unit, not a name
        if phrase not in found:
            found.append(phrase)
    if not found:
        lowered = unquoted.lower()
        tail = [m.groups() for m in re.finditer(r"\b(?:in|for|at|of|about|from|to)\s+([a-z][\w-]+)"
                                                r"((?:\s*(?:,|and)\s*[a-z][\w-]+)*)", lowered)
                if not _INFINITIVE.search(lowered[:m.start(1)])]
        for head, rest in tail:
            for word in [head] + re.findall(r"[a-z][\w-]+", rest):
                if word not in STOP_WORDS and word != "and" and stem(word) not in tool_stems and not is_unit_name(word):
                    value = word.title()
                    if value not in found:
                        found.append(value)
    return found


# "to" after a verb that takes an infinitive ("want to spend", "would like to include", "how to get") marks the verb
# after it, not a place: general English grammar, so "a ride to downtown" still gives "downtown".
_INFINITIVE = re.compile(r"\b(?:want|wants|wanted|need|needs|needed|like|love|wish|plan|planning|planned|try|trying|"
                         r"tried|looking|going|have|has|had|able|decide|decided|hope|hoping|ought|used|prefer|choose|seem|"
                         r"how|order|intend|intending|aim|aiming|expect|expecting|learn|forget|remember)\s+to\s+$")


_NAMES_A_FUNCTION = re.compile(r"\s+(?:function|tool|method|api|endpoint)s?\b", re.IGNORECASE)


def _glosses(text: str) -> set[str]:
    """The phrases in brackets that spell out, or abbreviate, the word just before them: "SNP (Single Nucleotide
    Polymorphism)", "Body Mass Index (BMI)". They say the same thing again, so they are no name of their own."""
    found = set()
    for match in re.finditer(r"\b([A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)*)\s*\(([^()]{2,60})\)", text):
        before, inside = match.group(1), match.group(2).strip()
        initials = "".join(w[0] for w in re.split(r"[\s-]+", inside) if w).upper()
        if re.fullmatch(r"[A-Z0-9]{2,}", before.split()[-1]) and initials == before.split()[-1].upper():
            found.add(inside)  # an abbreviation, then what it stands for
        elif re.fullmatch(r"[A-Z0-9]{2,}", inside) and "".join(w[0] for w in before.split()[-len(inside):]).upper() == inside:
            found.add(inside)  # the words, then their abbreviation
    return found


def entities_for(tool: Tool, question: str) -> list[str]:
    """The names in the question that could fill the tool's parameters; none for a tool without any.

    Example:
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...                {"properties": {"city": {"type": "string"},
        ...                                "units": {"type": "string", "enum": ["metric", "imperial"]}},
        ...                 "required": ["city"]})
        >>> entities_for(weather, "Weather in Berlin and Madrid?")
        ['Berlin', 'Madrid']
    """
    if not (tool.parameters or {}).get("properties") and not (tool.parameters or {}).get("required"):
        return []
    return entities(question, tool)
