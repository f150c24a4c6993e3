"""Numbers as a request writes them: each number with what surrounds it (the mention reader).

`mentions(text)` reads each number of a text with its context: the words before it (back to the previous number,
so "3 bedrooms, 2 bathrooms" gives 2 nothing of "bedrooms"), the unit written on it or after it ("6cm",
"100µF", "12 seconds"), a currency sign, a percent sign, a magnitude ("2 million", "$300K"), "am"/"pm", a clock
time ("6:30"), an explicit assignment ("b = -3"), the word just after it ("200 mm aperture"), whether it opens or
closes a range ("between 8 and 12") and the name a pairing gives it ("base and height as 6cm and 10cm").
Spelled-out numbers ("five", "zero", "a dozen") and frequencies ("monthly": 12 a year) are mentions too.
`ranges(text)` gives the [start, end] pairs a text writes; `number_lists(text)` the lists of numbers, in
brackets or joined by commas and "and", for array parameters.

This module only reads: which parameter a number goes to is binding.py's choice (scored by number_fit.py).
What it leaves out on purpose: terms of a formula ("2x" and "- 1" in "3x^2 + 2x - 1" are not numbers of their
own; formulas.py reads formulas), a number inside a word ("mp3"), and number words past "thousand" or
compounded ("twenty-one").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from helpers.offline.text import STOP_WORDS, stem, words

_WORD_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                 "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                 "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                 "hundred": 100, "thousand": 1000, "dozen": 12}
# How often a year something happens: general English for a count per year (a compounding frequency).
FREQUENCIES = {"daily": 365, "weekly": 52, "monthly": 12, "quarterly": 4, "annually": 1, "yearly": 1,
               "semiannually": 2, "biannually": 2}
_MAGNITUDES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9,
               "b": 1e9, "trillion": 1e12}
_MONEY_ONLY = {"k", "m", "b", "mn", "bn"}  # "300K" is kelvin unless money is meant: "$300K"
ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5"}
# Unit symbols and the words a description uses for them (general measurement English).
UNIT_WORDS = {"m": "meter", "s": "second", "sec": "second", "secs": "second", "min": "minute", "mins": "minute",
              "h": "hour", "hr": "hour", "hrs": "hour", "g": "gram", "kg": "kilogram", "km": "kilometer",
              "cm": "centimeter", "mm": "millimeter", "ft": "foot", "feet": "foot", "lb": "pound", "lbs": "pound",
              "f": "farad", "v": "volt", "a": "ampere", "amp": "ampere", "amps": "ampere", "hz": "hertz",
              "w": "watt", "j": "joule", "n": "newton", "c": "coulomb", "pa": "pascal", "l": "liter",
              "ml": "milliliter", "kmh": "kilometer", "mph": "mile", "metre": "meter", "metres": "meter",
              "liter": "liter", "litre": "liter", "ohm": "ohm", "ohms": "ohm", "t": "tesla", "mol": "mole"}

_NUMBER = re.compile(r"(?<![\w.^/])(?P<sign>[-−]\s?)?(?P<cur>[$€£¥])?\s?"
                     r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<exp>[eE][-+]?\d+)?"
                     r"(?P<unit>[a-zA-Zµμ°Ω/^*\d]*)(?P<pct>\s?%)?")
# "b = -3" names its parameter; "feeder: 2 litres" or "sugar: 250" is a label, a cue among the words before it.
# A date in ISO form, YYYY-MM-DD (with a time or not): its numbers are the date's, never a count's.
_ISO_DATE = re.compile(r"(?<![\w.-])\d{4}-\d{1,2}-\d{1,2}(?![\d.])")
_ASSIGNED = re.compile(r"([A-Za-z_][\w]*)\s*=\s*$")
_BRACKETS = re.compile(r"\[([^\[\]]*)\]|\(([^()]*,[^()]*)\)")


@dataclass(frozen=True)
class Mention:
    """One number of the request and what surrounds it."""

    value: float
    start: int
    end: int
    before: tuple[str, ...]  # the stems of up to four words before it, nearest last
    unit: str = ""  # the unit written on it or after it ("cm", "seconds", "m/s^2"), as written
    currency: bool = False
    percent: bool = False
    assigned: str = ""  # the name in "b = -3"
    frequency: bool = False  # "monthly": a count per year
    clock: str = ""  # "am" / "pm"
    spelled: bool = False  # written in words ("two sides", "zero")
    after: tuple[str, ...] = ()  # the stems of the words just after it and its unit ("200 mm aperture", "3 l of water")
    bound: str = ""  # "start" or "end": the number opens or closes a range ("between 1 and 1000", "from 25 to 100")
    named: str = ""  # the stem of the word a "base and height as 6cm and 10cm" pairing gives this number


def _words_before(text: str, start: int, since: int = 0) -> tuple[str, ...]:
    """The stems of up to four words before `start`, back to the sentence's start or to the end of the
    previous number and its unit (so "3 bedrooms, 2 bathrooms" gives 2 nothing of "bedrooms")."""
    head = re.split(r"[.;!?\n]", text[since:start])[-1]
    found = [stem(w) for w in words(head) if w not in STOP_WORDS or w in ORDINALS]
    return tuple(found[-4:])


def _in_formula(text: str, match: re.Match) -> bool:
    """A term of a formula: a coefficient on a one-letter variable beside an operator ("2x" in "x^2 + 2x - 1"), or a
    constant an operator joins to a variable term ("- 1" after "2x"). A unit symbol ("5 m", "3 s") is no variable."""
    unit = match.group("unit") or ""
    before, after = text[:match.start()].rstrip(), text[match.end():].lstrip()
    if re.fullmatch(r"[a-z]", unit) and unit not in UNIT_WORDS:
        return bool(re.search(r"[-+*/=]$", before) or re.match(r"[-+*/)]", after))
    return not unit and bool(re.search(r"(?<![A-Za-z])\d*[a-z](?:\^\d+)?\s*[-+]$", before)) and not match.group("sign")


def mentions(text: str) -> list[Mention]:
    """The numbers of a text with their context, in order (see the module).

    Example:
        >>> [(m.value, m.unit, m.before) for m in mentions("a base of 10 units and 6cm, b = -3")]
        [(10.0, 'units', ('bas',)), (6.0, 'cm', ()), (-3.0, '', ('b',))]
    """
    return list(_read_mentions(text))


# Cached: one request's rules read the same texts' numbers again and again (the question, each clause, each
# parameter's description: bind_numbers, tool_fit, records and clause_values each call mentions), and a
# conversation's later requests carry the same texts. Mention is frozen and callers get a list of their own.
@lru_cache(maxsize=2048)
def _read_mentions(text: str) -> tuple[Mention, ...]:
    found: list[Mention] = []
    dates = [d.span() for d in _ISO_DATE.finditer(text)]
    for match in _NUMBER.finditer(text):
        if re.search(r"[A-Za-z]$", text[:match.start()]) or match.group("unit").startswith("^"):
            continue  # part of a word ("mp3") or of an expression ("x^2")
        if any(a <= match.start() < b for a, b in dates):
            continue  # a part of a written date ("2026-04-30"): the date rules take it whole, no count or limit does
        if re.match(r"[a-z]\^|[a-z]\*\*", match.group("unit") or "") or re.match(r"[a-z]\s*\^", text[match.end():]):
            continue  # a coefficient of an expression ("3x^2"): the expression rule takes it ("10 m^3" is a volume)
        if _in_formula(text, match):
            continue  # "2x" and "- 1" in "3x^2 + 2x - 1": terms of a formula, not numbers of their own
        value = float(match.group("num").replace(",", "") + (match.group("exp") or ""))
        if match.group("sign"):
            value = -value
        unit, end = match.group("unit").strip("/*"), match.end()
        rest = text[end:]
        if not unit:
            after = re.match(r"\s*([A-Za-zµμ°Ω][\w/^µμ°Ω]*)", rest)
            if after and after.group(1).lower() not in STOP_WORDS | {"and", "or"}:
                unit = after.group(1)
        magnitude = _MAGNITUDES.get(unit.lower())
        if unit.lower() in _MONEY_ONLY and not match.group("cur"):
            magnitude = None
        if magnitude:
            value *= magnitude
            unit = ""
        clock = unit.lower() if unit.lower() in ("am", "pm", "a.m.", "p.m.") else ""
        if re.match(r":\d\d\b", rest):
            unit = "hours"  # a clock time "6:30": hours, then minutes
        elif re.search(r"\d:$", text[:match.start()]):
            unit, clock = "minutes", ""
        assigned = _ASSIGNED.search(text[:match.start()].rstrip(" -"))
        found.append(Mention(value, match.start(), end, _words_before(text, match.start()), unit,
                             bool(match.group("cur")), bool(match.group("pct")) or unit.lower() in ("percent", "pct"),
                             assigned.group(1) if assigned else "", clock=clock.replace(".", "")))
    for match in re.finditer(r"\b[a-z]+\b", text.lower()):
        word = match.group(0)
        if word in _WORD_NUMBERS and not (word == "one" and re.match(r"\s+(?:of|another)\b", text[match.end():])):
            unit = re.match(r"\s*([a-z]+)", text[match.end():].lower())
            found.append(Mention(float(_WORD_NUMBERS[word]), match.start(), match.end(),
                                 _words_before(text, match.start()), unit.group(1) if unit else "", spelled=True))
        elif word in FREQUENCIES:
            found.append(Mention(float(FREQUENCIES[word]), match.start(), match.end(),
                                 _words_before(text, match.start()), frequency=True))
    found.sort(key=lambda m: m.start)
    starts, ends = _range_bounds(text)
    pairs = _paired_names(text)
    out: list[Mention] = []
    since = 0
    for m in found:
        if m.start in pairs:
            m = replace(m, named=pairs[m.start])
        if m.start in starts or m.start in ends:
            m = replace(m, bound="start" if m.start in starts else "end")
        unit_at = text.find(m.unit, m.end) if m.unit else -1
        unit_end = unit_at + len(m.unit) if 0 <= unit_at - m.end <= 2 else m.end
        tail = re.match(r"\s*(?:of\s+)?([A-Za-z]+)", text[unit_end:])
        after = (stem(tail.group(1).lower()),) if tail and tail.group(1).lower() not in STOP_WORDS else ()
        out.append(replace(m, before=_words_before(text, m.start, since), after=after))
        since = max(m.end, unit_end)
    return tuple(_shared_after(text, out))


def _shared_after(text: str, found: list[Mention]) -> list[Mention]:
    """Numbers joined by "and" or commas, with the same unit, share the word right after the last: "440Hz and
    880Hz frequency" says frequency of both ("2 and 3 of distance" does not: "of" may say the last one's only)."""
    out = list(found)
    for i in range(len(out) - 2, -1, -1):
        m, n = out[i], out[i + 1]
        gap = text[_unit_end(text, m):n.start]
        direct = re.match(r"\s*(?!of\b)[A-Za-z]", text[_unit_end(text, n):])
        if not m.after and n.after and direct and m.unit.lower() == n.unit.lower() and not (m.spelled or n.spelled) \
                and re.fullmatch(r"[\s,]*(?:and|or)?\s*", gap):
            out[i] = replace(m, after=n.after)
    return out


def _unit_end(text: str, m: Mention) -> int:
    """Where a mention ends with the unit written on it or right after it."""
    at = text.find(m.unit, m.end) if m.unit else -1
    return at + len(m.unit) if 0 <= at - m.end <= 2 else m.end


_NUM = r"[-−]?[$€£¥]?\d[\d,.]*"
_RANGE = re.compile(rf"\b(?:between|from|range\s+of)\s+(?:[a-z]\s*=\s*)?({_NUM})(?:\s*[^\W\d]+\.?){{0,3}}?\s*"
                    rf"(?:and|to|through|until|-|–)\s+(?:[a-z]\s*=\s*)?({_NUM})", re.IGNORECASE)


def _range_bounds(text: str) -> tuple[set[int], set[int]]:
    """Where the numbers that open and close a range stand: "between 1 and 1000", "from x=1 to x=5", "from 25
    degrees Celsius to 100"."""
    starts, ends = set(), set()
    for match in _RANGE.finditer(text):
        starts.add(match.start(1) - (1 if match.group(1)[0] in "$€£¥" else 0))
        ends.add(match.start(2) - (1 if match.group(2)[0] in "$€£¥" else 0))
        starts.add(match.start(1))
        ends.add(match.start(2))
    return starts, ends


_PAIRED = re.compile(rf"\b([A-Za-z]+)\s+and\s+([A-Za-z]+)\b[^.;]{{0,40}}?\b(?:as|are|is|were|of|=|:)\s+({_NUM})"
                     rf"(?:\s?[A-Za-zµ°/^²³]+)?\s*(?:,\s*)?and\s+({_NUM})", re.IGNORECASE)


def _paired_names(text: str) -> dict[int, str]:
    """Numbers a pairing names in order: "its base and height as 6cm and 10cm" gives 6 "base" and 10 "height"."""
    found: dict[int, str] = {}
    for match in _PAIRED.finditer(text):
        first, second = match.group(1).lower(), match.group(2).lower()
        if first in STOP_WORDS or second in STOP_WORDS:
            continue
        for group, word in ((3, first), (4, second)):
            found[match.start(group)] = stem(word)
            found[match.start(group) - 1] = stem(word)  # a mention may start at the space before it
    return found


def ranges(text: str) -> list[list[float]]:
    """The ranges a text writes, as [start, end] pairs: what an interval or a bounds array takes.

    Example:
        >>> ranges("the area under the curve from x=1 to x=3"), ranges("cups of 2 and 3")
        ([[1.0, 3.0]], [])
    """
    found = mentions(text)
    starts = [m for m in found if m.bound == "start"]
    ends = [m for m in found if m.bound == "end"]
    return [[a.value, b.value] for a, b in zip(starts, ends, strict=False)]


def number_lists(text: str) -> list[list[float]]:
    """Lists of numbers in a text: in brackets, or runs joined by commas and "and".

    Example:
        >>> number_lists("scores [90, 85.5, 70] and the multiples of 3 and 5")
        [[90.0, 85.5, 70.0], [3.0, 5.0]]
    """
    out = []
    masked = text
    for match in _BRACKETS.finditer(text):
        inside = match.group(1) if match.group(1) is not None else match.group(2)
        items = [i.strip() for i in inside.split(",") if i.strip()]
        try:
            out.append([float(i) for i in items])
        except ValueError:
            continue
        masked = masked[:match.start()] + " " * (match.end() - match.start()) + masked[match.end():]
    found = [m for m in mentions(masked) if not m.frequency]
    run: list[Mention] = []
    for m in found + [None]:  # type: ignore[list-item]
        joined = m is not None and run and re.fullmatch(r"[\s,]*(?:and|&|or)?\s*", masked[run[-1].end:m.start] or "")
        if joined:
            run.append(m)  # type: ignore[arg-type]
            continue
        if len(run) >= 2:
            out.append([r.value for r in run])
        run = [m] if m is not None else []
    return out

