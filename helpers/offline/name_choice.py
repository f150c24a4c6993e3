"""Which name of the request a text parameter takes, when several are left: by the words before each name, by
the parameter's own noun at a name's end, by "in"/"near" for a place; and a place's region.

- `left_for(name, question, pool, others)`: the names this parameter may take, in order, and those left to the
  other open text parameters (`others`, their names);
- `named_for(name, value)`: a name ending in the parameter's noun ("Premier League" for `league`); `noun_after`: a
  name the request follows with that noun ("the 'European' region" for `region`);
- `slot_before(schema, question, value)`: a description ending in a preposition ("the depot trams start from")
  is filled by the name after that preposition ("from Gorgie");
- `place_aware(name, question, pool, open_place)`: a place parameter takes the name set after "in", "near" or
  "around"; another parameter leaves it to an open place parameter;
- `with_region(...)`: "Boston, Massachusetts" is one place: the region joins it when the description asks for a
  city with its state, and is never a value of its own.

What it leaves out on purpose: what a name is. A name is a place by where it stands ("in Oslo"), never by a
gazetteer, so "Boston" never becomes "Boston, MA".
"""

from __future__ import annotations

import re

from helpers.offline.field_roles import name_words
from helpers.offline.noun_phrases import pointed_at
from helpers.offline.text import stem

PLACE_PARAM = re.compile(r"location|city|place|area|region|country|state|address|town", re.IGNORECASE)
_AT_PLACE = re.compile(r"\b(?:in|near|around)\s+$", re.IGNORECASE)


# A description that asks for a place with its region: "The city and state", "format it as City, State", an
# example written "Austin, TX".
_WANTS_REGION = re.compile(r"\bcity\s+and\s+(?:the\s+)?(?:state|country|province|region)\b|\bcity,\s*(?:state|country)\b|"
                           r"\b(?:e\.g\.|for example|such as|like)\s*,?\s*'?(?:\d+\w?\s)?[A-Z][\w.]*(?:\s[A-Z][\w.]*)*,\s*[A-Z]",
                           re.IGNORECASE)


def left_for(name: str, question: str, pool: list[str], others: list[str]) -> tuple[list[str], set[str]]:
    """The names this text parameter may take, and those left to other open text parameters. A name that ends in
    a parameter's own noun ("Premier League" for `league`) is that parameter's; then a name the word before it
    points at ("by Michelangelo" for `artist`, "during the Civil War" for `event`, "in Oslo" for `city`); the rest
    is free for whichever parameter comes first.

    Example:
        >>> left_for("title", "the bowl 'Moon' by Lucie Rie", ["Lucie Rie", "Moon"], ["artist"])
        (['Moon'], {'Lucie Rie'})
    """
    named = {e for e in pool if named_for(name, e) or noun_after(name, question, e)}
    named_others = {e for e in pool for n in others if named_for(n, e) or noun_after(n, question, e)} - named
    pointed = [e for e in pool if pointed_at(name, question, e) and e not in named_others]
    theirs = named_others | {e for e in pool for n in others if pointed_at(n, question, e)} - named - set(pointed)
    mine = [e for e in pool if e in named] + [e for e in pointed if e not in named]
    return mine + [e for e in pool if e not in mine and e not in theirs], theirs


def named_for(name: str, value: str) -> bool:
    """A name whose last word is the parameter's own noun: "Premier League" for `league`, "Hilton Hotel" for
    `hotel_name`.

    Example:
        >>> named_for("league", "Lothian Cycling League"), named_for("club", "Lothian Cycling League")
        (True, False)
    """
    own = {stem(w) for w in re.split(r"[_\W]+", name.lower()) if w} - {"name", "id", "type"}
    return len(value.split()) > 1 and stem(value.split()[-1].lower()) in own


def noun_after(name: str, question: str, value: str) -> bool:
    """A name the request writes right before a noun of the parameter's name: "the Okonjo household" for
    `household_name`, "the 'Harbour' route" for `route`, "the LSTM model" for `model` (the noun says what the name
    is, as a name ending in it does).

    Two ways in, one guard. A parameter whose name says "name" takes the name before its noun wherever it stands;
    any other parameter only after "the", since "a Tennis player" or "a C scale" says a kind of player or scale.
    A noun that another name follows labels that name instead ("the Leith team Hibernian"), and a noun of no word
    of the parameter's name ("the La Liga season" for `season`'s neighbour) fills nothing.

    Example:
        >>> noun_after("household_name", "put the Okonjo household down at Hillside", "Okonjo")
        True
        >>> noun_after("site", "put the Okonjo household down at Hillside", "Okonjo")
        False
        >>> noun_after("player_name", "the rank of a Tennis player, Serena Williams", "Tennis")
        False
        >>> noun_after("route", "Sail the 'Harbour' route", "Harbour"), noun_after("route", "Sail a Harbour route", "Harbour")
        (True, False)
    """
    said = name_words(name)
    own = {stem(w) for w in said if len(w) > 2} - {"name", "type"}
    if not own:
        return False
    asks_a_name = "name" in said
    for match in re.finditer(rf"(?<![\w-]){re.escape(value)}['\"\u201d]?\s+([A-Za-z]+)(\W*)(\w?)", question):
        # A name right after the noun (or after a comma) is the one the noun labels; after a sentence's stop it
        # starts the next sentence.
        if stem(match.group(1).lower()) not in own or (match.group(3).isupper() and match.group(2).strip() in ("", ",")):
            continue
        if asks_a_name or re.search(r"\bthe\s+['\"\u201c]?$", question[:match.start()], re.IGNORECASE):
            return True
    return False


_SLOT_END = re.compile(r"\b(on|in|at|for|from|with|by|into)\s*\.?\s*$", re.IGNORECASE)


def slot_before(schema: dict, question: str, value: str) -> bool:
    """A description that ends with a preposition leaves a slot after it ("The platform the user plays on."): the
    name the request writes after that preposition ("on Switch") fills it.

    Example:
        >>> slot_before({"description": "The depot the tram runs from."}, "Trams from Leith at 9", "Leith")
        True
        >>> slot_before({"description": "The depot of the tram."}, "Trams from Leith at 9", "Leith")
        False
    """
    found = _SLOT_END.search(str(schema.get("description") or ""))
    return bool(found) and re.search(rf"\b{found.group(1)}\s+{re.escape(value)}\b", question, re.IGNORECASE) is not None


def with_region(name: str, schema: dict, question: str, place: str, pool: list[str], props: dict,
                 args: dict) -> tuple[str, list[str]]:
    """A place parameter's value with the region the request writes after it ("Boston, Massachusetts"), and the
    names left. The region is no value of its own ("from Paris, France to Rome, Italy": the end is Rome); it joins
    the place when the description asks for a city with its state or country. A parameter left open for a country
    or a state keeps it ("Tokyo, Japan" for `city` and `country`)."""
    if not isinstance(place, str) or not PLACE_PARAM.search(name):
        return place, pool
    if any(_REGION_PARAM.search(n) and n not in args and n != name for n in props):
        return place, pool
    region = region_of(question, place)
    if region is None:
        return place, pool
    pool = [e for e in pool if e != region]
    return (f"{place}, {region}" if _WANTS_REGION.search(str(schema.get("description") or "")) else place), pool


_REGION_PARAM = re.compile(r"country|state|province|region|county", re.IGNORECASE)


def region_of(question: str, place: str) -> str | None:
    """The region the request writes right after a place, after a comma ("Boston, Massachusetts", "Paris, France");
    None when it writes none, or when the comma runs a list ("Oban, Mallaig and Tobermory", "Oban, Mallaig, Tobermory")."""
    for match in re.finditer(re.escape(place) + r",\s*([A-Z][\w.]*(?:\s+[A-Z][\w.]*)*)", question):
        # A region ends at a sentence's stop: "Dallas, TX. Could you ..." is Texas, not "TX. Could".
        region = re.split(r"(?<=\s[A-Za-z]{2}\.)\s|(?<=^[A-Za-z]{2}\.)\s|(?<=[a-z]{3}\.)\s", match.group(1))[0].rstrip(".")
        if not re.match(r"\s*(?:,|\band\b|\bor\b|&)", question[match.end():]):
            return region
    return None


def place_aware(name: str, question: str, pool: list[str], open_place: bool) -> str:
    """The name a place parameter takes from the pool: the first name set right after "in", "near" or "around"
    ("the best sushi restaurant in Boston"), else the first name. Another parameter takes the first name, leaving
    the placed ones to a place parameter still open ("a tea room in Pitlochry serving Darjeeling")."""
    placed = [e for e in pool if (at := question.find(e)) > 0 and _AT_PLACE.search(question[:at])]
    if PLACE_PARAM.search(name):
        return placed[0] if placed else pool[0]
    if open_place:
        return next((e for e in pool if e not in placed), pool[0])
    return pool[0]
