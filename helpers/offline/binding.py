"""Numbers bound to parameters: which number of the request goes to which numeric parameter.

A request often carries several numbers ("a base of 10 and a height of 5", "net income of $2,000,000 over
3 years"). `mentions(text)` reads each number with what surrounds it: the words before it, the unit after it
(also written on it: "6cm", "100µF"), a currency sign, a percent sign, a magnitude ("2 million"), "am"/"pm",
and an explicit assignment ("b = -3"); spelled-out numbers ("five", "zero") and frequencies ("monthly") count
too. `bind_numbers(properties, required, text)` then gives each numeric parameter at most one number and each
number at most one parameter:
1. each (parameter, number) pair is scored by how the parameter's name, description, type and unit fit the
   number's neighbouring words (`fit`): "base of 10" -> base, "5 seconds" -> a time "in seconds", "b = -3" -> b,
   "the second charge" -> charge2, a year for a year, a percentage for a rate;
2. the best pairs are taken first; a required parameter left over gets the next unused number in the order
   the request gives them, in the order the schema lists the parameters ("4 and 5" -> x, y);
3. an optional parameter the request gives no number for is left out.
The conversions the description implies are made on the way: a percentage to a rate when the description
asks for a decimal, "11 PM" to 23 for a 24-hour time, "monthly" to 12 for a count per year.

`number_lists(text)` reads lists of numbers, in brackets or joined by commas and "and", for array parameters.

What it leaves out on purpose: arithmetic and world knowledge. "Started from rest" is not 0, "a dozen" is
12 only where a number word says so, and a value the request leaves to be worked out (the sum of two given
numbers) is never computed; a parameter no neighbouring word points at gets a number only by its place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from helpers.offline.field_roles import name_words
from helpers.offline.text import STOP_STEMS, STOP_WORDS, edit_distance, stem, words

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
_TYPO_LENGTH = 8  # a stem this long one edit from a parameter's word is a typo of it; shorter words differ by one too often
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5"}
# SI prefixes written before a unit's symbol: "100µF" is 100e-6 F, "5 kV" 5e3 V.
_PREFIXES = {"p": 1e-12, "n": 1e-9, "µ": 1e-6, "μ": 1e-6, "u": 1e-6, "m": 1e-3, "c": 1e-2, "k": 1e3, "M": 1e6,
             "G": 1e9}
# Unit symbols and the words a description uses for them (general measurement English).
UNIT_WORDS = {"m": "meter", "s": "second", "sec": "second", "secs": "second", "min": "minute", "mins": "minute",
              "h": "hour", "hr": "hour", "hrs": "hour", "g": "gram", "kg": "kilogram", "km": "kilometer",
              "cm": "centimeter", "mm": "millimeter", "ft": "foot", "feet": "foot", "lb": "pound", "lbs": "pound",
              "f": "farad", "v": "volt", "a": "ampere", "amp": "ampere", "amps": "ampere", "hz": "hertz",
              "w": "watt", "j": "joule", "n": "newton", "c": "coulomb", "pa": "pascal", "l": "liter",
              "ml": "milliliter", "kmh": "kilometer", "mph": "mile", "metre": "meter", "metres": "meter",
              "liter": "liter", "litre": "liter", "ohm": "ohm", "ohms": "ohm", "t": "tesla", "mol": "mole"}
_MONEY_WORDS = {stem(w) for w in "amount money price cost income salary revenue dollars usd payment fee budget "
                "value principal investment balance loan sum".split()}
_RATE_WORDS = {stem(w) for w in "rate percent percentage ratio proportion fraction".split()}
_GENERIC = {stem(w) for w in "the a an of to for in on is be value number given provided this that which "
            "used calculate parameter default optional required float type integer".split()}

_NUMBER = re.compile(r"(?<![\w.^/])(?P<sign>[-−]\s?)?(?P<cur>[$€£¥])?\s?"
                     r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<exp>[eE][-+]?\d+)?"
                     r"(?P<unit>[a-zA-Zµμ°Ω/^*\d]*)(?P<pct>\s?%)?")
# "b = -3" names its parameter; "feeder: 2 litres" or "sugar: 250" is a label, a cue among the words before it.
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
    found = [stem(w) for w in words(head) if w not in STOP_WORDS or w in _ORDINALS]
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
    found: list[Mention] = []
    for match in _NUMBER.finditer(text):
        if re.search(r"[A-Za-z]$", text[:match.start()]) or match.group("unit").startswith("^"):
            continue  # part of a word ("mp3") or of an expression ("x^2")
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
    return out


_NUM = r"[-−]?[$€£¥]?\d[\d,.]*"
_RANGE = re.compile(rf"\b(?:between|from|range\s+of)\s+(?:[a-z]\s*=\s*)?({_NUM})(?:\s*[^\W\d]+\.?){{0,3}}?\s*"
                    rf"(?:and|to|through|until|-|–)\s+(?:[a-z]\s*=\s*)?({_NUM})", re.IGNORECASE)
_START_WORDS = {stem(w) for w in "start starting lower low min minimum begin beginning initial lowerbound".split()}
_END_WORDS = {stem(w) for w in "end ending upper high max maximum stop final upperbound".split()}


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


def _unit_stems(unit: str) -> set[str]:
    """The stems a unit may be described with: "cm" -> centimeter, "seconds" -> second, "m/s^2" -> meter, second."""
    out = set()
    for part in re.split(r"[/^*\d]+", unit.lower()):
        if not part:
            continue
        out |= {stem(part), stem(UNIT_WORDS.get(part, part))}
        if len(part) > 1 and part[0] in "kcmµμun" and part[1:] in UNIT_WORDS:
            out.add(stem(UNIT_WORDS[part[1:]]))
    return out


def _meets(word: str, stems: set[str]) -> bool:
    """A word's stem among `stems`, or sharing a long start with one (the crude stemmer leaves
    "accelerat" and "acceler" apart), or a long word one edit from one (a typo).

    Example:
        >>> _meets(stem("tempreature"), {stem("temperature")}), _meets(stem("heights"), {stem("weight")})
        (True, False)
    """
    return word in stems or any(len(w) >= 5 and len(word) >= 5 and (w.startswith(word) or word.startswith(w))
                                for w in stems) or (
        # a long word one slip from a parameter's word is that word mistyped: "acceleeration of 9.8"
        len(word) >= _TYPO_LENGTH and any(len(w) >= _TYPO_LENGTH - 1 and edit_distance(word, w, 1) <= 1 for w in stems))


def _described_unit_fit(unit: str, units: set[str], description: str) -> float:
    """How well a number's unit fits the unit a description writes, 0.5 to 2.5. The whole unit written as such
    ("meters/second" for "10 meters/second") fits best; "5 seconds" hardly fits a description that has seconds
    only under a rate ("in meters/second^2"): per second is not seconds.

    Example:
        >>> _described_unit_fit("seconds", {"second"}, "The time in seconds.") > _described_unit_fit(
        ...     "seconds", {"second"}, "The acceleration in meters/second^2.")
        True
    """
    low = description.lower()
    per = {stem(w) for w in re.findall(r"(?:/|\bper\s+)([a-z]+)", low)}
    whole = {stem(w) for w in re.findall(r"(?<![/\w])([a-z]+)", re.sub(r"(?:/|\bper\s+)[a-z]+", " ", low))}
    if not units & (whole | per):
        return 2.0  # the unit is written inside a word of the description ("sq" in "square feet")
    if not units & whole and units <= per:
        return 0.5
    score = 1.0 + len(units & (whole | per)) / len(units)
    if len(unit) > 1 and re.search(rf"(?<![\w/]){re.escape(unit.lower())}(?![\w^/])", low):
        score += 0.5
    return score


def _per_words(name: str) -> set[str]:
    """The stems of the words a parameter's name counts against, after "per" (`payment_per_year`: year)."""
    parts = name_words(name)
    return {stem(w) for i, w in enumerate(parts) if i and parts[i - 1] == "per"}


def fit(name: str, schema: dict, mention: Mention) -> float:
    """How well a number fits a parameter, from the parameter's words and the number's context.

    Example:
        >>> m = mentions("falling for 5 seconds from 300 meters")
        >>> fit("time", {"type": "integer", "description": "The time in seconds."}, m[0]) > fit(
        ...     "time", {"type": "integer", "description": "The time in seconds."}, m[1])
        True
    """
    own = {stem(w) for w in re.findall(r"[a-z]+|\d+", " ".join(name_words(name)))} - _GENERIC
    description = str(schema.get("description") or "")
    described = {stem(w) for w in words(description)} - _GENERIC - STOP_STEMS
    score = 0.0
    if mention.assigned:
        if mention.assigned.lower() == name.lower():
            return 12.0
        if len(name) == 1 or len(mention.assigned) > 1:
            return -5.0  # "b = -3" is not a; "n_max = 5" is not limit
        # "from x = -2 to x = 3": the variable's name, not a parameter's; the other words decide
    before = list(mention.before)
    for distance, word in enumerate(reversed(before)):
        weight = 1.0 / (1 + distance)  # the nearest word says most: "velocity after accelerating at 2"
        if _meets(word, own):
            score += 3.0 * weight
        elif _meets(word, described):
            score += 1.0 * weight
        if word in _ORDINALS and name.endswith(_ORDINALS[word]):
            score += 3.0 * weight
    counted = mention.spelled and mention.unit and stem(mention.unit.lower()) not in _MEASURES and \
        stem(mention.unit.lower()[:-1]) not in _MEASURES
    if counted:
        # A number word before a noun counts those things ("two charges of 5C and 7C", "its three sides are 5, 4
        # and 3", "four chords"): the value of a count of them, never of one of the things counted, and no unit.
        units = _unit_stems(mention.unit)
        if units & (own | described) and (own | {stem(w) for w in words(description)}) & _COUNT_WORDS:
            score += 4.0
        elif units & own:
            return score - 3.0
    elif mention.unit and not mention.frequency:
        units = _unit_stems(mention.unit)
        if units & own and not (units & own <= _per_words(name) and not re.search(r"/|\bper\b", mention.unit)):
            score += 4.0  # the unit written on a number says most: "250 grams" for sugar_grams
        elif units & own:
            # "30 years" for `payment_per_year`: a word after "per" is what the value is counted against, not its
            # unit; a plain span of years fits `years` better, a rate ("km/h", "per year") still fits it.
            score += 1.0
        elif units & described or (len(mention.unit) > 1 and mention.unit.lower() in description.lower()):
            score += _described_unit_fit(mention.unit, units, description)
    for word in mention.after:
        if _meets(word, own):
            score += 2.5
    if mention.named:
        score += 5.0 if _meets(mention.named, own) else -2.0  # "base and height as 6cm and 10cm"
    if mention.bound:  # a range's first number for the start, lower, minimum ...; its last for the end
        mine, other = (_START_WORDS, _END_WORDS) if mention.bound == "start" else (_END_WORDS, _START_WORDS)
        said = own if own & (mine | other) else {stem(w) for w in words(description)}  # the name says most
        if said & mine and not said & other:
            score += 3.5
        elif said & other and not said & mine:
            score -= 3.0
    if mention.currency and (own | described) & _MONEY_WORDS:
        score += 1.5
    if mention.percent and (own | described) & _RATE_WORDS:
        score += 2.0
    if mention.frequency:
        # A count per year fits a frequency, a compounding or "times per ...", not a time span in years.
        per = re.search(r"\btimes\b|\bper\b", description, re.IGNORECASE) or stem("times") in own
        score += 3.0 if {stem("frequency"), stem("compound")} & (own | described) or (
            per and {stem("times"), stem("period")} & (own | described)) else -9
    year_like = float(mention.value).is_integer() and 1000 <= mention.value <= 2200 and not mention.unit \
        and not mention.currency  # "$1000" is money, not the year 1000
    if year_like and stem("year") in own | described:
        score += 2.0
    if schema.get("type") == "integer" and not float(mention.value).is_integer():
        score -= 3.0
    return score


def _converted(name: str, schema: dict, mention: Mention):
    value = mention.value
    description = str(schema.get("description") or "").lower()
    as_percent = re.search(r"percent|%", description) and not re.search(
        r"decimal|fraction|\d\s?%\s*(?:is|=|->|→|as|becomes)\s*0?\.\d", description)  # "Enter as a decimal, 5% is 0.05"
    if mention.percent and not as_percent:
        value = round(value / 100, 10)  # "5%" for a rate the description doesn't call a percentage: 0.05
    if mention.clock == "pm" and value < 12 and "24" in description:
        value += 12
    if mention.unit and len(mention.unit) >= 2 and mention.unit[0] in _PREFIXES:
        base = UNIT_WORDS.get(mention.unit[1:].lower(), mention.unit[1:].lower())
        prefixed = UNIT_WORDS.get(mention.unit.lower())
        if stem(base) in {stem(w) for w in words(description)} and not (
                prefixed and stem(prefixed) in {stem(w) for w in words(description)}):
            value = value * _PREFIXES[mention.unit[0]]  # "100µF" for a value in farads
    if schema.get("type") == "integer" and float(value).is_integer():
        return int(value)
    return int(value) if float(value).is_integer() and schema.get("type") != "number" else value


_COUNT_WORDS = {stem(w) for w in "number num count total how many".split()}
_MEASURES = {stem(w) for w in list(UNIT_WORDS.values()) + "second minute hour day night week month year decade century "
             "inch foot yard mile metre meter litre liter gram kilogram pound ounce degree percent dollar euro".split()}


def _counts_things(mention: Mention) -> bool:
    """A number word before a plural that is no unit: "four individuals", "two circles" count things; "two hours"
    is a measure."""
    unit = mention.unit.lower()
    return mention.spelled and len(unit) > 3 and unit.endswith("s") and stem(unit) not in _MEASURES \
        and stem(unit[:-1]) not in _MEASURES


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
        if found[index].spelled and score < 3.0 and (digits or _counts_things(found[index])):
            continue  # "two side lengths: 3 and 4", "for four individuals": a number word counts, unless its word names this
        chosen[name] = found[index]
        taken.add(index)
    # A number word beside digits is mostly a count of what follows ("the two sides 4 and 5"): it is bound
    # only where a word points at it, never by its place.
    left = [i for i, m in enumerate(found) if i not in taken and not m.frequency
            and not (m.spelled and (digits or _counts_things(m)))
            and m.value not in {c.value for c in chosen.values()}]
    for name in [n for n in targets if n in required and n not in chosen]:
        # Parameters no word points at take the numbers left, in the order both are given.
        fits = [i for i in left if fit(name, targets[name], found[i]) > -2]
        if fits:
            chosen[name] = found[fits[0]]
            left.remove(fits[0])
    used |= {m.start for m in chosen.values()}
    bound = {name: _converted(name, targets[name], m) for name, m in chosen.items()}
    span = _SPAN.search(text)
    for name, schema in targets.items():
        if name not in bound and span and _counts_days(name, schema):
            bound[name] = _SPAN_DAYS[span.group(1).lower()]  # "for the next week": 7 for a number of days
    return {name: bound[name] for name in targets if name in bound}


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
