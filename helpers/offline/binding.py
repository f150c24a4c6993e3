"""Numbers bound to parameters: which number of the request goes to which numeric parameter.

A request often carries several numbers ("a base of 10 and a height of 5", "net income of $2,000,000 over
3 years"). number_mentions.py reads each with its context; `bind_numbers(properties, required, text)` gives
each numeric parameter at most one number and each number at most one parameter:
1. each (parameter, number) pair is scored by number_fit.fit: "base of 10" -> base, "5 seconds" -> a time
   "in seconds", "b = -3" -> b, "the second charge" -> charge2, a year for a year, a percentage for a rate;
2. the best pairs are taken first; a required parameter left over gets the next unused number in the order
   the request gives them, in the order the schema lists the parameters ("4 and 5" -> x, y);
3. an optional parameter the request gives no number for is left out; a parameter that counts days takes a
   span said with no number ("the next week" -> 7).
The conversions the description implies are made on the way (`converted`): a percentage to a rate when the
description asks for a decimal, "11 PM" to 23 for a 24-hour time, an SI prefix for a value in the base unit
("50mH" for henries: 0.05), a time in the unit of time the description asks for ("3 minutes" "in seconds": 180).

What it leaves out on purpose: arithmetic and world knowledge. "Started from rest" is not 0, "a dozen" is
12 only where a number word says so, and a value the request leaves to be worked out (the sum of two given
numbers) is never computed; a parameter no neighbouring word points at gets a number only by its place.
"""

from __future__ import annotations

import re

from helpers.offline.field_roles import name_words
from helpers.offline.number_fit import counts_things, fit
from helpers.offline.number_mentions import UNIT_WORDS, Mention, mentions
from helpers.offline.text import stem, words

# SI prefixes written before a unit's symbol: "100µF" is 100e-6 F, "5 kV" 5e3 V.
_PREFIXES = {"p": 1e-12, "n": 1e-9, "µ": 1e-6, "μ": 1e-6, "u": 1e-6, "m": 1e-3, "c": 1e-2, "k": 1e3, "M": 1e6,
             "G": 1e9}


# SI symbols as written, case and all, where the lower-case table would misread them: "50mH" is millihenries.
_SI_SYMBOLS = {"H": "henry", "Hz": "hertz", "Pa": "pascal", "Wb": "weber", "S": "siemens"}
# Lengths of time in seconds, for a description that asks for one unit of time and a number written in another.
_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}


def _time_unit(word: str) -> str | None:
    word = UNIT_WORDS.get(word.lower(), word.lower())
    word = word[:-1] if word.endswith("s") else word
    return word if word in _SECONDS else None


def _in_described_time(value: float, unit: str, description: str) -> float:
    """A time written in one unit for a description that asks for another: "3 minutes" for "in seconds" is 180.
    Only when the description names exactly one unit of time after "in" ("in seconds", "in hours")."""
    written = _time_unit(unit) if unit else None
    asked = {u for w in re.findall(r"\bin\s+([a-z]+)", description) if (u := _time_unit(w))}
    if written is None or len(asked) != 1 or written in asked:
        return value
    return value * _SECONDS[written] / _SECONDS[asked.pop()]


def converted(name: str, schema: dict, mention: Mention):
    """The number a parameter takes for a mention, with the conversions its description implies (see the module).

    Example:
        >>> converted("rate", {"type": "number", "description": "The rate."}, mentions("at 5%")[0])
        0.05
        >>> converted("length", {"type": "integer", "description": "Length in seconds."}, mentions("3 minutes")[0])
        180
    """
    value = mention.value
    description = str(schema.get("description") or "").lower()
    as_percent = re.search(r"percent|%", description) and not re.search(
        r"decimal|fraction|\d\s?%\s*(?:is|=|->|→|as|becomes)\s*0?\.\d", description)  # "Enter as a decimal, 5% is 0.05"
    if mention.percent and not as_percent:
        value = round(value / 100, 10)  # "5%" for a rate the description doesn't call a percentage: 0.05
    if mention.clock == "pm" and value < 12 and "24" in description:
        value += 12
    if mention.unit and len(mention.unit) >= 2 and mention.unit[0] in _PREFIXES:
        base = _SI_SYMBOLS.get(mention.unit[1:]) or UNIT_WORDS.get(mention.unit[1:].lower(), mention.unit[1:].lower())
        prefixed = UNIT_WORDS.get(mention.unit.lower())
        if stem(base) in {stem(w) for w in words(description)} and not (
                prefixed and stem(prefixed) in {stem(w) for w in words(description)}):
            # "100µF" for a value in farads; 12 significant digits, so 100 * 1e-6 is 0.0001, not 9.999999999999999e-05
            value = float(f"{value * _PREFIXES[mention.unit[0]]:.12g}")
    value = _in_described_time(value, mention.unit, description)
    if schema.get("type") == "integer" and float(value).is_integer():
        return int(value)
    return int(value) if float(value).is_integer() and schema.get("type") != "number" else value


def numeric(schema: dict) -> bool:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind in ("integer", "number")


# A span of time said with no number ("the next week", "the upcoming month") and its length in days, for a
# parameter that counts days: the calendar's fixed lengths, a month taken as 30 days and a year as 365.
_SPAN = re.compile(r"\b(?:next|coming|upcoming|following|this)\s+(week|fortnight|month|year)\b", re.IGNORECASE)
_SPAN_DAYS = {"week": 7, "fortnight": 14, "month": 30, "year": 365}


def _counts_days(name: str, schema: dict) -> bool:
    """A parameter that counts days: "days" in its name, or a description about a number of days."""
    said = str(schema.get("description") or "").lower()
    return "day" in name_words(name) or "days" in name_words(name) or bool(
        re.search(r"\b(?:number of|in|how many)\s+days\b", said))


_DEFAULTED_RANK = 2.0


def _defaulted(name: str, schema: dict, required) -> bool:
    """An optional parameter whose schema or description gives a default."""
    return name not in required and ("default" in schema or "default" in str(schema.get("description") or "").lower())


def bind_numbers(properties: dict, required: list | set, text: str, used: set[int] | None = None) -> dict:
    """Each numeric parameter's number (see the module); parameters with none are left out. `used`: the
    starts of numbers already taken by other parameters (updated).

    Example:
        >>> props = {"x": {"type": "integer"}, "y": {"type": "integer"}, "z": {"type": "integer",
        ...          "description": "Optional. Default is 0."}}
        >>> bind_numbers(props, ["x", "y"], "the other two sides are 4 and 5")
        {'x': 4, 'y': 5}
    """
    used = set() if used is None else used
    found = [m for m in mentions(text) if m.start not in used]
    targets = {name: schema for name, schema in properties.items() if isinstance(schema, dict) and numeric(schema)}
    # Best fit first; between equal fits, the earlier number, then a required parameter before an optional one.
    # An optional parameter with a default ranks a little lower: a request that changes a default names it, so a
    # number its description only brushes against goes to the required one ("5 mol of glucose": `mols`, not
    # `joules_per_mol`, "default value for glucose is 2800 kJ/mol").
    pairs = sorted(((fit(name, schema, m), i, name) for name, schema in targets.items()
                    for i, m in enumerate(found)),
                   key=lambda p: (-p[0] + (_DEFAULTED_RANK if _defaulted(p[2], targets[p[2]], required) else 0.0),
                                  p[1], p[2] not in required))
    chosen: dict[str, Mention] = {}
    taken: set[int] = set()
    digits = any(not m.spelled and not m.frequency for m in found)
    for score, index, name in pairs:
        if score < 1.0 or name in chosen or index in taken:
            continue
        if found[index].spelled and score < 3.0 and (digits or counts_things(found[index])):
            continue  # "two side lengths: 3 and 4", "for four individuals": a number word counts, unless its word names this
        chosen[name] = found[index]
        taken.add(index)
    # A number word beside digits is mostly a count of what follows ("the two sides 4 and 5"): it is bound
    # only where a word points at it, never by its place.
    left = [i for i, m in enumerate(found) if i not in taken and not m.frequency
            and not (m.spelled and (digits or counts_things(m)))
            and m.value not in {c.value for c in chosen.values()}]
    for name in [n for n in targets if n in required and n not in chosen]:
        # Parameters no word points at take the numbers left, in the order both are given.
        fits = [i for i in left if fit(name, targets[name], found[i]) > -2]
        if fits:
            chosen[name] = found[fits[0]]
            left.remove(fits[0])
    used |= {m.start for m in chosen.values()}
    bound = {name: converted(name, targets[name], m) for name, m in chosen.items()}
    span = _SPAN.search(text)
    for name, schema in targets.items():
        if name not in bound and span and _counts_days(name, schema):
            bound[name] = _SPAN_DAYS[span.group(1).lower()]  # "for the next week": 7 for a number of days
    return {name: bound[name] for name in targets if name in bound}


