"""Dates a request writes, and the same date in the form a parameter's description asks for.

- `date_in(text)`: the first date of a text, as written, with its year, month and day when the text gives them:
  "2022/08/16", "March 17, 1915", "Mar.11, 2022", "17 March 1915", "10th December 2022", "2023 April 4th",
  "June01 2023"; a numeric date with the day first is read so only when its first number can't be a month
  ("25/12/2024").
- `wanted_form(description)`: the form a description asks for, from a pattern it writes ("yyyy-mm-dd",
  "MM/DD/YYYY", "in the format month-day-year") or an example date it gives ("e.g. '2023-01-05'"): the order of
  year, month and day and the separator between them.
- `date_for(description, text, taken)`: the request's date in the asked form when the description asks for one and
  the request gives year, month and day; else the date as written; None when the text holds no date; a date
  another parameter took already (`taken`) gives way to the next ("from May 3rd to May 9th": check-in, check-out).
- `dates_in(text)`: every date, in order; a date with no year after one with a year takes that year.

What it leaves out on purpose: the calendar. "tomorrow", "next Friday" or "this weekend" have no date without a
clock, so they stay as written (param_values.py keeps them); a date with no year is given one only from a date
written before it ("from 2023 April 4th to April 8th"); "03/04/2024"
is read month first (the usual order of the requests this model sees), unless a part is over 12.

Example:
    >>> date_for("The date in yyyy-mm-dd format.", "What happened on March 17, 1915?")
    '1915-03-17'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.text import MONTHS

# Month names to numbers: the names text.MONTHS lists, by their first three letters ("sept" is "sep").
_MONTH_NUMBER = {name: n for n, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
                                                    "oct", "nov", "dec"), start=1)}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"(?P<{0}>\d{{1,2}})(?:st|nd|rd|th)?"
_YEAR = r"(?P<{0}>\d{{4}})"
_FORMS = [
    re.compile(rf"\b{_YEAR.format('y')}(?P<sep>[-/.])(?P<m>\d{{1,2}})(?P=sep){_DAY.format('d')}\b"),
    re.compile(rf"\b(?P<a>\d{{1,2}})(?P<sep>[-/.])(?P<b>\d{{1,2}})(?P=sep){_YEAR.format('y')}\b"),
    re.compile(rf"\b(?P<mn>{_MONTH})\.?\s*{_DAY.format('d')}\b(?:\s*,?\s*{_YEAR.format('y')}\b)?", re.IGNORECASE),
    re.compile(rf"\b{_DAY.format('d')}\s+(?:of\s+)?(?P<mn>{_MONTH})\b\.?(?:\s*,?\s*{_YEAR.format('y')}\b)?", re.IGNORECASE),
    re.compile(rf"\b{_YEAR.format('y')}\s+(?P<mn>{_MONTH})\.?\s+{_DAY.format('d')}\b", re.IGNORECASE),
]


@dataclass(frozen=True)
class Date:
    """A date as written (`text`, where it starts) and the parts the text gives (None when it gives none)."""

    text: str
    start: int
    year: int | None
    month: int | None
    day: int | None


def _month(name: str) -> int | None:
    return _MONTH_NUMBER.get(name.lower()[:3])


def dates_in(text: str) -> list[Date]:
    """Every date of a text, in order (see the module); where two readings overlap, the earlier and then the longer.
    A date written with no year, after one that has a year, is in that year: "from 2023 April 4th to April 8th".

    Example:
        >>> [(d.text, d.year) for d in dates_in("from 2023 April 4th to April 8th")]
        [('2023 April 4th', 2023), ('April 8th', 2023)]
    """
    found: list[Date] = []
    for form in _FORMS:
        for match in form.finditer(text):
            parts = match.groupdict()
            if parts.get("mn") == "may":
                continue  # "you may 2 ..." is the verb; the month is written "May"
            if parts.get("mn"):
                month = _month(parts["mn"])
            elif parts.get("a"):  # 12/03/2024: month first, unless the first part can't be a month
                first, second = int(parts["a"]), int(parts["b"])
                month, parts["d"] = (second, parts["a"]) if first > 12 else (first, parts["b"])
            else:
                month = int(parts["m"])
            day = int(parts["d"]) if parts.get("d") else None
            year = int(parts["y"]) if parts.get("y") else None
            if month is None or not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            found.append(Date(match.group(0).strip(" ,."), match.start(), year, month, day))
    # The earliest date wins; at one place the longest reading ("March 17, 1915" over "March 17").
    out: list[Date] = []
    for date in sorted(found, key=lambda d: (d.start, -len(d.text))):
        if out and date.start < out[-1].start + len(out[-1].text):
            continue  # a shorter reading inside a date already taken
        if date.year is None and out and out[-1].year is not None:
            date = Date(date.text, date.start, out[-1].year, date.month, date.day)
        out.append(date)
    return out


def date_in(text: str) -> Date | None:
    """The first date of a text (see the module), or None.

    Example:
        >>> date_in("Book it for 10th December 2022, please")
        Date(text='10th December 2022', start=12, year=2022, month=12, day=10)
    """
    found = dates_in(text)
    return found[0] if found else None


_PATTERN = re.compile(r"\b(yyyy|yy|mm|dd|m|d)([-/.])(yyyy|yy|mm|dd|m|d)\2(yyyy|yy|mm|dd|m|d)\b", re.IGNORECASE)
_WORDED = re.compile(r"\b(year|month|day)[-/](year|month|day)[-/](year|month|day)\b", re.IGNORECASE)
_EXAMPLE = re.compile(r"\b(?:\d{4}([-/.])\d{2}\1\d{2}|\d{2}([-/.])\d{2}\2\d{4})\b")


@dataclass(frozen=True)
class Form:
    """The order of a date's parts ("y", "m", "d") and the separator a description asks for."""

    order: tuple[str, str, str]
    sep: str


def wanted_form(description: str) -> Form | None:
    """The date form a description asks for (see the module), or None when it asks for none.

    Example:
        >>> wanted_form("The date (month-day-year) you want"), wanted_form("e.g. '2023-01-05'")
        (Form(order=('m', 'd', 'y'), sep='-'), Form(order=('y', 'm', 'd'), sep='-'))
    """
    pattern = _PATTERN.search(description)
    if pattern:
        first, second, third = (part.lower()[0] for part in (pattern.group(1), pattern.group(3), pattern.group(4)))
        if sorted((first, second, third)) == ["d", "m", "y"]:
            return Form((first, second, third), pattern.group(2))
    worded = _WORDED.search(description)
    if worded:
        first, second, third = (part.lower()[0] for part in worded.groups())
        sep = description[worded.end(1)]
        if sorted((first, second, third)) == ["d", "m", "y"]:
            return Form((first, second, third), sep)
    example = _EXAMPLE.search(description)
    if example:
        text = example.group(0)
        sep = example.group(1) or example.group(2)
        # A four-digit year first is year-month-day; last, the month comes first (as the module reads dates).
        return Form(("y", "m", "d") if re.match(r"\d{4}", text) else ("m", "d", "y"), sep)
    return None


def date_for(description: str, text: str, taken: frozenset | set = frozenset()) -> str | None:
    """The text's date in the form the description asks for (see the module); as written when it asks for none or
    the text lacks a part; None when the text holds no date. A date given to another parameter already (`taken`)
    is passed over for the next one: a check-out date after the check-in date.

    Example:
        >>> date_for("Date in MM-DD-YYYY.", "the ferry on 2025/07/04"), date_for("Date in MM-DD-YYYY.", "on 4 July")
        ('07-04-2025', '4 July')
        >>> date_for("yyyy-mm-dd", "from 2026 May 3rd to May 9th", {"2026-05-03"})
        '2026-05-09'
    """
    written = [_in_form(description, found) for found in dates_in(text)]
    return next((w for w in written if w not in taken), written[0] if written else None)


def _in_form(description: str, found: Date) -> str:
    form = wanted_form(description)
    if form is None or None in (found.year, found.month, found.day):
        return found.text
    parts = {"y": f"{found.year:04d}", "m": f"{found.month:02d}", "d": f"{found.day:02d}"}
    return form.sep.join(parts[p] for p in form.order)
