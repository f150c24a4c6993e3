"""How well a number fits a parameter: the score binding.py ranks its (parameter, number) pairs by.

`fit(name, schema, mention)` scores one number of the request (a number_mentions.Mention) against one numeric
parameter, from the parameter's name, description, type and unit and the number's context:
- the words before the number: the parameter's own name words weigh most ("base of 10" -> `base`), its
  description's words less, the nearest word most; an ordinal points at an indexed name ("the second charge"
  -> `charge2`); a long mistyped word still counts ("tempreature");
- the unit on the number against the name ("250 grams" -> `sugar_grams`) and against the unit the description
  writes, whole ("in meters/second") or only under a rate ("/second" is not seconds);
- a number word before a noun counts those things ("four lenses" for the "Number of lenses");
- the word after the number, an assignment ("b = -3"), a pairing ("base and height as 6 and 10"), a range's
  start or end, a currency sign for money, a percent sign for a rate, a frequency for a count per year, a year
  for a year; a fraction is no integer.
`counts_things(mention)`: a number word before a plural that is no unit ("four individuals").

What it leaves out on purpose: meaning. A parameter no word points at scores nothing here; binding.py then gives
it a number by its place. The word tables are general measurement and money English, no benchmark's words.
"""

from __future__ import annotations

import re

from helpers.offline.field_roles import name_words
from helpers.offline.number_mentions import ORDINALS, UNIT_WORDS, Mention
from helpers.offline.text import STOP_STEMS, edit_distance, stem, words

_TYPO_LENGTH = 8  # a stem this long one edit from a parameter's word is a typo of it; shorter words differ by one too often
_MONEY_WORDS = {stem(w) for w in "amount money price cost income salary revenue dollars usd payment fee budget "
                "value principal investment balance loan sum".split()}
_RATE_WORDS = {stem(w) for w in "rate percent percentage ratio proportion fraction".split()}
_GENERIC = {stem(w) for w in "the a an of to for in on is be value number given provided this that which "
            "used calculate parameter default optional required float type integer".split()}

_START_WORDS = {stem(w) for w in "start starting lower low min minimum begin beginning initial lowerbound".split()}
_END_WORDS = {stem(w) for w in "end ending upper high max maximum stop final upperbound".split()}


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


def fit(name: str, schema: dict, mention: Mention) -> float:
    """How well a number fits a parameter, from the parameter's words and the number's context.

    Example:
        >>> from helpers.offline.number_mentions import mentions
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
        if word in ORDINALS and name.endswith(ORDINALS[word]):
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
        said = re.findall(r"[a-z]+", " ".join(name_words(name)))
        rate = {stem(w) for w in said[said.index("per") + 1:]} if "per" in said else set()
        if units & (own - rate):
            score += 4.0  # the unit written on a number says most: "250 grams" for sugar_grams
        elif units & rate:
            score += 0.5  # "feeds_per_year": a count per year, not a number of years
        elif units & described or (len(mention.unit) > 1 and mention.unit.lower() in description.lower()):
            score += _described_unit_fit(mention.unit, units, description)
    for word in mention.after:
        if _meets(word, own):
            score += 2.5
    score += measure_fit(name, mention, description)
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
        # The words as written: "times" and "time" share a stem, and a span of time is no frequency.
        said = set(name_words(name)) | set(words(description))
        score += 3.0 if {stem("frequency"), stem("compound")} & (own | described) or (
            {"times", "per"} & said and {"times", "period", "periods"} & said) else -9
    year_like = float(mention.value).is_integer() and 1000 <= mention.value <= 2200 and not mention.unit \
        and not mention.currency  # "$1000" is money, not the year 1000
    if year_like and stem("year") in own | described:
        score += 2.0
    if schema.get("type") == "integer" and not float(mention.value).is_integer():
        score -= 3.0
    return score


_COUNT_WORDS = {stem(w) for w in "number num count total how many".split()}
_MEASURES = {stem(w) for w in list(UNIT_WORDS.values()) + "second minute hour day night week month year decade century "
             "inch foot yard mile metre meter litre liter gram kilogram pound ounce degree percent dollar euro".split()}


def counts_things(mention: Mention) -> bool:
    """A number word before a plural that is no unit: "four individuals", "two circles" count things; "two hours"
    is a measure."""
    unit = mention.unit.lower()
    return mention.spelled and len(unit) > 3 and unit.endswith("s") and stem(unit) not in _MEASURES \
        and stem(unit[:-1]) not in _MEASURES


# What a unit measures, and the words a parameter's name uses for that measure: general measurement English.
_MEASURE_UNITS = {
    "temperature": "kelvin celsius fahrenheit degree degrees k °c °f",
    "mass": "gram grams kilogram kilograms milligram pound pounds ounce ounces tonne tonnes g kg mg lb lbs oz",
    "length": "meter meters metre metres kilometer kilometers kilometre kilometres centimeter centimeters "
              "millimeter millimeters mile miles foot feet inch inches yard yards m km cm mm ft mi",
    "time": "second seconds minute minutes hour hours day days week weeks month months year years s sec secs min "
            "mins h hr hrs ms",
    "amount": "mole moles mol mols",
    "volume": "liter liters litre litres milliliter milliliters gallon gallons l ml",
}
_MEASURE_NAMES = {"temperature": "temperature temp", "mass": "mass weight",
                  "length": "length distance height width depth radius diameter altitude elevation",
                  "time": "time duration", "amount": "moles quantity", "volume": "volume capacity"}
_UNIT_MEASURE = {unit: measure for measure, units in _MEASURE_UNITS.items() for unit in units.split()}
_NAME_MEASURE = {stem(word): measure for measure, names in _MEASURE_NAMES.items() for word in names.split()}


def measure_fit(name: str, mention: Mention, description: str = "") -> float:
    """A number's unit against the measure the parameter's name says: +1 for the same measure ("300 K" for
    `temperature1`, "2 moles" for `quantity1`), -3 for another ("20 kg" is no temperature), 0 when either is
    unknown. A rate ("km/h") or a power ("m^2") is no plain measure. A description that writes a unit of the
    number's measure wins over the name: "Length of the track in seconds" takes "3 minutes".

    Example:
        >>> from helpers.offline.number_mentions import mentions
        >>> [measure_fit(n, m) for n in ("mass2", "temperature2", "ratio") for m in mentions("15 kg")]
        [1.0, -3.0, 0.0]
    """
    unit = mention.unit.lower()
    if not unit or re.search(r"[/^*]|\bper\b", unit):
        return 0.0
    measure = _UNIT_MEASURE.get(unit)
    if measure is not None and measure_of(description) == measure:
        return 1.0
    said = {_NAME_MEASURE[stem(w)] for w in re.findall(r"[a-z]+", " ".join(name_words(name))) if stem(w) in _NAME_MEASURE}
    if measure is None or len(said) != 1:
        return 0.0
    # The same measure says little (a base and a height are both in metres); another measure rules a pairing out.
    return 1.0 if measure in said else -3.0


def measure_of(description: str) -> str | None:
    """The one measure whose unit words a description writes ("in seconds" -> time), else None.

    Example:
        >>> measure_of("Length of the mix track in seconds."), measure_of("The rate in meters/second.")
        ('time', None)
    """
    found = {_UNIT_MEASURE[w] for w in re.findall(r"[a-z]+", description.lower())
             if len(w) > 2 and w in _UNIT_MEASURE}
    return found.pop() if len(found) == 1 else None
