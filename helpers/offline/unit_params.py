"""Parameters that take a unit of measure, and the unit a request writes.

- `is_unit_param(name)`: "unit", "units", "length_unit";
- `unit_in(question, numbers)`: the unit written after the request's first number that has one ("4 inches");
- `is_unit_word(word)`: a word that names a unit, not a thing counted.

What it leaves out on purpose: conversions between unit systems, and units no table here names.
"""

from __future__ import annotations

import re

from helpers.offline.number_mentions import UNIT_WORDS, mentions
from helpers.offline.text import stem


def is_unit_param(name: str) -> bool:
    """A parameter that takes a unit of measure ("unit", "units", "length_unit").

    Example:
        >>> is_unit_param("length_unit"), is_unit_param("community")
        (True, False)
    """
    return any(w in ("unit", "units") for w in re.split(r"[_\W]+", name.lower()))


def unit_in(question: str, numbers: dict | None = None, fixed: str = "") -> str | None:
    """The unit a unit parameter takes: the one the request asks its answer in ("the speed in km/h", "the distance
    in miles": "in" or "into" and a unit no number stands before), else the unit written after the question's first
    number that has one ("4 inches" -> "inches"). `fixed`: the names and descriptions of the numeric parameters; a
    unit they name already ("a weight of 85 kg" for a weight "in kilograms") is that number's own unit, not what
    the unit parameter asks for, and is passed over.

    Example:
        >>> unit_in("a radius of 4 inches"), unit_in("a weight of 85 kg", fixed="weight: in kilograms")
        ('inches', None)
        >>> unit_in("the pace of a 12 km ride in km/h", fixed="distance: in kilometres")
        'km/h'
    """
    for match in _TARGET.finditer(question):
        if re.search(r"\d\s*$", question[:match.start()]):
            continue  # "12 in" is a number's unit
        unit = match.group("unit")
        if all(is_unit_word(part) for part in unit.split("/")):
            return unit
    said = {stem(w) for w in re.findall(r"[a-zµμ]+", fixed.lower())}
    for mention in mentions(question):
        if mention.spelled or not mention.unit or not re.fullmatch(r"[A-Za-z]+", mention.unit):
            continue  # "four circles", "two right-angled triangles": a count of things, not a measure
        if is_unit_word(mention.unit) and not _unit_stems(mention.unit) & said:
            return mention.unit
    return None


_TARGET = re.compile(r"\b(?:in|into)\s+(?P<unit>[A-Za-zµμ]+(?:/[A-Za-zµμ]+)?)\b(?![/.]?\w)")


def _unit_stems(unit: str) -> set[str]:
    low = unit.lower()
    found = {stem(low), stem(UNIT_WORDS.get(low, low))}
    if len(low) > 1 and low[0] in "kcmµμun" and low[1:] in UNIT_WORDS and low not in UNIT_WORDS:
        found.add(stem(UNIT_WORDS[low[1:]]))
    return found - {""}


# Units of measure by name: the short forms binding.py reads, their names, and the everyday ones beside them.
_NAMED_UNITS = set(UNIT_WORDS.values()) | set("""inch inches foot mile yard acre
hectare degree degrees celsius fahrenheit kelvin unit units ounce oz ton tonne gallon pint quart cup teaspoon
tablespoon day week month year hour minute second byte kb mb gb tb pixel px dpi meters metres kilometers kilometres
centimeters millimeters grams kilograms pounds liters litres miles inches yards feet watts volts amperes hertz
joules newtons pascals calories kcal kwh""".split())
_UNIT_NAMES = {stem(w) for w in set(UNIT_WORDS) | _NAMED_UNITS}


def is_unit_name(word: str) -> bool:
    """Whether a word is the written name of a unit ("Joules", "kilograms", "Celsius"), matched whole: stricter
    than `is_unit_word`, whose stems let "water" pass for "watts".

    Example:
        >>> is_unit_name("Joules"), is_unit_name("water"), is_unit_name("C")
        (True, False, False)
    """
    low = word.lower()
    return low in _NAMED_UNITS or (low.endswith("s") and low[:-1] in _NAMED_UNITS)


def is_unit_word(word: str) -> bool:
    """Whether a word names a unit of measure ("inches", "kg", "metres"), not a thing counted ("circles").

    Example:
        >>> is_unit_word("inches"), is_unit_word("km"), is_unit_word("circles")
        (True, True, False)
    """
    low = word.lower()
    return stem(low) in _UNIT_NAMES or low in UNIT_WORDS or (len(low) > 1 and low[0] in "kcmµμun" and low[1:] in UNIT_WORDS)

