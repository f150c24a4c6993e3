"""A parameter that asks for a kind of thing, and the word the request puts before that thing.

Many parameters ask what kind a thing is: `room_type` ("a *single* room"), `crime_type` ("*theft* crimes"), a
`genre` described as "Genre of the concert" ("a *classical* concert"), a `cuisine` described as "Cuisine of the
restaurant" ("the highest rated *sushi* restaurant"). English puts
that kind right before the thing's noun, so `kind_value(name, schema, question)` reads it there:
- the thing is the parameter's own noun: its name without the kind word (`room_type` -> room, `roomType` -> room),
  or, for a name that is only a kind word (`genre`, `cuisine`, `style`, `breed`), the noun its description says
  it belongs to ("Genre of the concert" -> concert; "The key of the scale" is no kind);
- the kind is the run of plain words right before that noun (any word form: "crimes" for crime): one or two
  words ("a historical fiction book"); of a longer run, the last ("the highest rated sushi restaurant" -> sushi);
  capitalised words right before the noun, all of them ("offering Thai food" -> Thai).
  Stop words, request words ("find", "upcoming"), numbers and time words ("month", "weekend") end the run.

A name, an identifier or a place (`hotel_name`, `room_id`, `location`) is not a kind: "the Marriott hotel" is no
location and a name is read from its capitals (names.py).

What it leaves out on purpose: meaning. The kind must be written before the noun: "a room that is single", a
kind the request leaves to be inferred ("brownies" for a dessert) or a thing the request names by another word
("concerts" for "events") give nothing, and a name of two plain words with no kind word in it (`dominant_color`)
is not read as a kind.

Example:
    >>> kind_value("room_type", {"type": "string"}, "Book a single room for two nights")
    'single'
"""

from __future__ import annotations

import re

from helpers.offline.instructions.numbers import NUMBER_WORDS
from helpers.offline.noun_phrases import REQUEST_WORDS
from helpers.offline.text import STOP_WORDS, stem

# The words that make a name ask for a kind (general English); "type" may stand first or last: `type_of_room`.
KIND_WORDS = frozenset("type kind genre style category class variety sort cuisine breed flavor flavour".split())
# A name that asks for a name, an identifier or a place: read by other rules, never as a kind.
_NOT_KIND = re.compile(r"name|title|^id$|_id$|Id$|location|city|place|address|country|state|region|date|time",
                       re.IGNORECASE)
# A count before a thing is no kind ("two organ recitals"); "single" is ("a single room").
_COUNTS = frozenset(w for w in NUMBER_WORDS if " " not in w) - {"single"}
_TIME_WORDS = frozenset("day days week weeks weekend month months year years today tomorrow tonight morning "
                        "evening night hour hours minute minutes".split())
# "Genre of the concert", "Cuisine of the restaurant", "The type of room to be booked": what the attribute is of.
# "The genre of music of the recital": the last noun is the thing ("recital"), the one before it also tried.
_OF_THING = re.compile(r"^\s*(?:the\s+)?(?P<attr>[a-z]+)\s+of\s+(?:the\s+|a\s+|an\s+)?(?P<thing>[a-z]+)"
                       r"(?:\s+of\s+(?:the\s+|a\s+|an\s+)?(?P<whole>[a-z]+))?", re.IGNORECASE)


def _name_parts(name: str) -> list[str]:
    return [w.lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]


def things(name: str, schema: dict) -> list[list[str]]:
    """The nouns (as word lists) whose kind the parameter asks for; empty when it asks for no kind.

    Example:
        >>> things("room_type", {}), things("genre", {"description": "Genre of the concert."})
        ([['room']], [['concert']])
        >>> things("dominant_color", {}), things("hotel_name", {"description": "The type of hotel."})
        ([], [])
    """
    if _NOT_KIND.search(name):
        return []
    parts = _name_parts(name)
    rest = [w for w in parts if w not in KIND_WORDS and w not in STOP_WORDS]
    if len(rest) < len(parts) and rest:
        return [rest]  # `room_type`, `type_of_room`: the kind of a room
    described = _OF_THING.match(str(schema.get("description") or ""))
    if described and described.group("attr").lower() in KIND_WORDS and set(parts) & KIND_WORDS:
        # "Genre of the concert": the kind of concert; "The genre of music of the recital": of a recital first.
        return [[noun.lower()] for noun in (described.group("whole"), described.group("thing")) if noun]
    # A name of two plain words (`dominant_color`, `page_size`, `sort_order`) says no kind word: most such
    # parameters take a value of their own, not the word a request puts before them.
    return []


def kind_value(name: str, schema: dict, question: str) -> str | None:
    """The kind the request writes before the parameter's thing (see the module), or None.

    Example:
        >>> kind_value("crime_type", {}, "Retrieve cases about theft crimes in Leeds")
        'theft'
        >>> kind_value("genre", {"description": "Genre of the book."}, "Find a historical fiction book")
        'historical fiction'
        >>> kind_value("room_type", {}, "Book a room at the Ritz") is None
        True
    """
    tokens = re.findall(r"[A-Za-z](?:[\w-]|'(?=\w))*|\d[\w.,/-]*|[^\w\s]", question)  # "'small'" is no word
    low = [stem(t.lower()) for t in tokens]
    for thing in things(name, schema):
        want = [stem(w) for w in thing]
        for i in range(len(tokens) - len(want) + 1):
            if low[i:i + len(want)] != want:
                continue
            run: list[str] = []
            j = i - 1
            while j >= 0 and _modifier(tokens[j]):
                run.insert(0, tokens[j])
                j -= 1
            if run and run[-1][0].isupper():
                # A name before the thing is its kind whole: "a used Gibson Les Paul guitar", "offering Thai food".
                k = len(run)
                while k > 0 and run[k - 1][0].isupper():
                    k -= 1
                return " ".join(run[k:])
            if run:
                return " ".join(run if len(run) <= 2 else run[-1:])
    return None


def _modifier(token: str) -> bool:
    """A word that can say what kind a thing is: a plain word, no stop word, request word, number or time word."""
    word = token.lower()
    return bool(re.fullmatch(r"[a-z][a-z'-]*", word)) and word not in STOP_WORDS and word not in REQUEST_WORDS \
        and word not in _TIME_WORDS and word not in _COUNTS and not word.endswith("'s")  # "two organ recitals"
