"""What one clause gives a tool on its own, and whether two clauses are one call or two: read by call_plan.py.

- `own_values(tool, text)`: the parameters a clause gives values of its own (written in it, not guessed; a number
  word only where a count parameter counts those things: "the first five primes", not "two different funds"; a
  text value only when no enum of the call took it: "a Picnic Area" for `amenities` is no place);
- `gives_values`, `from_text`: whether a clause gives a tool anything, whether a value was written in a text;
- `overlaps(tool, before, text)`: the clause gives again a parameter the clause before gave, so it is another
  call, unless `one_call` finds that the two read together fill one call with every value each gives alone
  ("The first sample is 5 moles at 300 K. The second is 3 moles at 500 K" for quantity1..temperature2);
- `adds_to(tool, before, text)`: the clause gives only parameters the call before has no value for yet.

What it leaves out on purpose: meaning. Values are compared as the argument rules bind them; when those rules
bind a number to the wrong parameter, the comparison is wrong the same way.
"""

from __future__ import annotations

import re

from helpers.offline.arguments import entities, fill_arguments, unwrapped
from helpers.offline.binding import bind_numbers
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.number_fit import fit
from helpers.offline.number_mentions import mentions
from helpers.offline.text import STOP_STEMS, stem

# The ordinal part of a parameter's name: `temperature1` and `temperature2`, `first_city` and `second_city` are
# one kind of value.
ORDINAL_PART = re.compile(r"(?:^|_)(?:first|second|third|fourth|1st|2nd|3rd|4th|other|another)(?=_|$)|\d+$|_?[ab]$")


MOVE_CUE = 2.0  # a number read together may move to a parameter whose own words name it this strongly
_FLAG_WORDS = {stem(w) for w in "include is has with show get use return flag enable".split()}


def gives_values(tool: Tool, text: str) -> bool:
    """Whether a clause gives the tool anything: a number, a name, a listed or enum value it binds."""
    args = fill_arguments(tool, text, None, names_in(tool, text))
    required = set((tool.parameters or {}).get("required") or [])
    return any(name not in required or from_text(value, text) for name, value in args.items())


def own_values(tool: Tool, text: str, args: dict | None = None, guessed: set[str] | None = None) -> set[str]:
    """The parameters a clause gives values of its own: written in it, not guessed, not a number word that
    counts things ("two different funds"). `args` and `guessed`: the call's arguments as the plan filled them."""
    if args is None:
        guessed = set()
        args = fill_arguments(tool, text, None, names_in(tool, text), guessed)
    guessed = guessed or set()
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or []
    bound = bind_numbers(props, required, unwrapped(text))  # a number not bound here is a default, not the clause's
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    own = set()
    for name, value in args.items():
        if name in guessed:
            continue
        if isinstance(value, bool):
            # A flag the clause names ("provide the species information"), not one left at its default.
            if {stem(w) for w in name_words(name)} - _FLAG_WORDS & said:
                own.add(name)
            continue
        if isinstance(value, int | float) and name not in bound:
            continue
        if isinstance(value, int | float):
            # A number word is the clause's own only where the parameter's words name it ("the first five primes"
            # for a count of primes), not where it counts the story's things ("two different funds").
            written = [m for m in mentions(text) if not m.frequency
                       and (not m.spelled or counts_things(name, props.get(name) or {}, m, text))]
            if any(abs(m.value - value) < 1e-9 or abs(m.value / 100 - value) < 1e-9 for m in written):
                own.add(name)
        elif from_text(value, text) and not _member_elsewhere(props, args, name):
            own.add(name)
    return own


def _member_elsewhere(props: dict, args: dict, name: str) -> bool:
    """Whether a free-text argument is only a member another parameter's enum took ("a Picnic Area" for
    `amenities` is no place for `location`): the clause gives it once, to the parameter that lists it."""
    value = args.get(name)
    if not isinstance(value, str) or (props.get(name) or {}).get("enum"):
        return False
    for other, held in args.items():
        schema = props.get(other) or {}
        members = schema.get("enum") or (schema.get("items") or {}).get("enum") if isinstance(schema, dict) else None
        if other != name and members and value in (held if isinstance(held, list) else [held]):
            return True
    return False


COUNT_WORDS = re.compile(r"\b(?:count|number\s+of|num|quantity|how\s+many)\b", re.IGNORECASE)


def counts_things(name: str, schema: dict, mention, text: str) -> bool:
    """Whether a number word is what a count parameter counts: the parameter says "count" or "number of", and
    a thing named in the three words after the number is in its words ("the first five prime numbers" for "the
    number of primes")."""
    said = f"{' '.join(name_words(name))} {schema.get('description') or ''}"
    if not COUNT_WORDS.search(said):
        return False
    after = re.findall(r"[A-Za-z]+", text[mention.end:])[:3]
    return bool({stem(w.lower()) for w in after} - STOP_STEMS
                & {stem(w.lower()) for w in re.findall(r"[A-Za-z]+", said)})


def from_text(value, text: str) -> bool:
    """Whether a value was written in the text (a number among its numbers, a string in its words)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return any(abs(m.value - value) < 1e-9 or abs(m.value / 100 - value) < 1e-9 for m in mentions(text))
    if isinstance(value, str):
        # "five_years" is written "five years": an enum member's joints are spaces in the text.
        return value.lower() in text.lower() or re.sub(r"[_]+", " ", value.lower()) in text.lower()
    if isinstance(value, list):
        return any(from_text(v, text) for v in value)
    return False


def overlaps(tool: Tool, before: str, text: str, together: bool = True) -> bool:
    """Whether a clause gives again a parameter the previous clause for the same tool gave (a new call), unless
    the two read together are one call (`one_call`; not asked when `together` is false)."""
    guessed_before: set[str] = set()
    guessed_now: set[str] = set()
    earlier = {k for k, v in fill_arguments(tool, before, None, names_in(tool, before), guessed_before).items()
               if from_text(v, before)}
    now = {k for k, v in fill_arguments(tool, text, None, names_in(tool, text), guessed_now).items() if from_text(v, text)}
    return bool((earlier - guessed_before) & (now - guessed_now)) and not (together and one_call(tool, before, text))


def one_call(tool: Tool, before: str, text: str) -> bool:
    """Whether two clauses read together are one call: every value the second gives alone, and every name and
    list the first gives, is still used when both are read together. "The first sample is 5 moles at 300 K. The second is 3 moles at 500 K" for
    quantity1..temperature2 is one call, though the second sentence alone binds `temperature1`; two triangles'
    bases and heights are two (read together, the second base is left over). A value read together may go to
    another parameter only to one alike (`temperature2`) or one its words fit as well ("the face value is
    $1000" to `face_value` rather than `period`), not to whatever is left ("5.88 light years" to a speed).
    A phrase read from the words (not a name) is not compared: only numbers, names, enum members, lists and flags;
    a parameter with no twin that both clauses name strongly with different numbers makes two calls."""
    props = (tool.parameters or {}).get("properties") or {}

    def base(name: str) -> str:
        return ORDINAL_PART.sub("", name.lower()) or name.lower()

    def strength(name: str, value, part: str) -> float:
        found = [m for m in mentions(part) if isinstance(value, int | float) and abs(m.value - value) < 1e-9]
        return max((fit(name, props.get(name) or {}, m) for m in found), default=0.0)

    alone = []
    numbers: list[dict] = []
    numeric = [n for n, sc in props.items() if isinstance(sc, dict) and sc.get("type") in ("integer", "number")]
    for part in (before, text):
        guessed: set[str] = set()
        names = names_in(tool, part)
        args = fill_arguments(tool, part, None, names, guessed)
        own = own_values(tool, part, args, guessed)
        # A number named strongly, or the one number of a clause for the tool's one numeric parameter.
        sole = len(numeric) == 1 and len([m for m in mentions(part) if not m.spelled]) == 1
        numbers.append({k: args[k] for k in own if isinstance(args[k], int | float) and not isinstance(args[k], bool)
                        and (sole or strength(k, args[k], part) >= MOVE_CUE)})
        alone += [(k, args[k], part) for k in own
                  if (not isinstance(args[k], str) or is_name(args[k], names)
                      or args[k] in ((props.get(k) or {}).get("enum") or []))  # a member: "the past year"
                  and not (isinstance(args[k], list) and len(args[k]) < 2)  # one number is no list given
                  # The first clause's numbers are not compared: alone, it may bind one its words don't name.
                  and not (part is before and isinstance(args[k], int | float))]
    together = f"{before}. {text}"
    guessed = set()
    joined = fill_arguments(tool, together, None, names_in(tool, together), guessed)
    held = {k: joined[k] for k in own_values(tool, together, joined, guessed)}
    # The same parameter, one of its kind, named strongly in both with two numbers, one of which the two read together
    # leave over ("the top 10 artworks ... the top 5 artworks"): two calls.
    def used(number) -> bool:  # held as a value, or inside a name read together ("Windows 10")
        return number in held.values() or any(isinstance(v, str) and re.search(rf"(?<![\d.]){number:g}(?![\d.])", v)
                                              for v in held.values())

    if any(numbers[0][k] != v and sum(base(n) == base(k) for n in props) == 1
           and not (used(numbers[0][k]) and used(v)) for k, v in numbers[1].items() if k in numbers[0]):
        return False
    for name, value, part in alone:
        if held.get(name) == value:
            continue
        if isinstance(value, int | float) and any(isinstance(v, str) and re.search(rf"(?<![\d.]){value:g}(?![\d.])", v)
                                                  for v in held.values()):
            continue  # "Windows 10": the number is part of a name read together
        moved = [k for k, v in held.items() if v == value and not isinstance(v, bool)]
        # A name has no strength to compare: it may move to a parameter alike, or one the clause names by its own
        # word ("at the 'Northside' studio" to `studio`), not to whatever is left ("Ullapool" to `service`).
        if not any(base(k) == base(name) or (strength(k, value, part) >= min(strength(name, value, part), MOVE_CUE)
                                             if not isinstance(value, str) else said_of(k, part)) for k in moved):
            return False
    return True


def said_of(parameter: str, text: str) -> bool:
    """Whether the text says a word of the parameter's name ("studio" for `studio_name`)."""
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    return bool({stem(w) for w in name_words(parameter) if len(w) > 2} - STOP_STEMS & said)


def is_name(value: str, names: list[str]) -> bool:
    """Whether a value is one of the names, or a place written with its region, each part a name ("Houston, TX").

    Example:
        >>> is_name("Houston, TX", ["Houston", "TX"]), is_name("the houston area", ["Houston"])
        (True, False)
    """
    return value in names or ("," in value and all(part.strip() in names for part in value.split(",")))


def adds_to(tool: Tool, before: str, text: str) -> bool:
    """Whether a clause gives the previous call only parameters it has no value for yet (more of the same call)."""
    guessed_before: set[str] = set()
    guessed_now: set[str] = set()
    earlier = {k for k, v in fill_arguments(tool, before, None, names_in(tool, before), guessed_before).items()
               if from_text(v, before)} - guessed_before
    now = {k for k, v in fill_arguments(tool, text, None, names_in(tool, text), guessed_now).items()
           if from_text(v, text)} - guessed_now
    return bool(now) and not now & earlier


def names_in(tool: Tool, text: str) -> list[str]:
    """The names a clause gives (arguments.entities), for filling the tool's arguments from it."""
    return entities(text, tool)
