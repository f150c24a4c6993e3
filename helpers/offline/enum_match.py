"""Enum members the request says: by their words in any form, spelled-out numbers too.

- `enum_value(enum, question, taken)`: the one member the question mentions ("the next six months" ->
  `six_months`), the member with most words winning;
- `enum_values(enum, question)`: every member said as a phrase, for an array of enum members ("avoiding
  highways and toll roads").

What it leaves out on purpose: meaning. A member is said when all its words are in the request (any word form,
"six" for "6"); a member of one or two letters ("A", "UK") only as written, case and all; a synonym ("backstage
access" for "Backstage Pass") is not.
"""

from __future__ import annotations

import re

from helpers.offline.instructions.numbers import NUMBER_WORDS
from helpers.offline.text import STOP_STEMS, STOP_WORDS, stem

_DIGITS = {word: str(value) for word, value in NUMBER_WORDS.items() if " " not in word and word not in
           ("single", "once", "twice", "thrice", "both")}


def _canonical(text: str) -> set[str]:
    """The stems of a text, with spelled-out numbers as digits, so "six months" meets "6_months"."""
    return {_DIGITS.get(w, stem(w)) for w in re.split(r"[_\W]+", text.lower()) if w}


def enum_value(enum: list, question: str, taken: frozenset | set = frozenset()):
    """The enum member the question mentions, by its words in any form (numbers spelled out or not), the
    member with the most words winning, then the one the question says first; a member in `taken` (given
    to another parameter already) only when no other is mentioned; None when none is mentioned.

    Example:
        >>> enum_value(["one_month", "six_months", "one_year"], "Forecast the next six months, please")
        'six_months'
    """
    asked, lowered = _canonical(question), question.lower()
    found = []  # (member, how many of its words, where the question says it)
    for member in enum:
        if isinstance(member, bool) or member is None:
            continue
        if isinstance(member, int | float):
            if re.search(rf"(?<![\w.]){re.escape(str(member))}(?![\w.])", question):
                found.append((member, 1, question.find(str(member))))
            continue
        own = _canonical(str(member)) - STOP_STEMS
        if own and own <= asked:
            where = lowered.find(str(member).lower())
            found.append((member, len(own), where if where >= 0 else len(question)))
    fresh = [f for f in found if f[0] not in taken] or found
    return max(fresh, key=lambda f: (f[1], -f[2]))[0] if fresh else None


def enum_values(enum: list, question: str) -> list:
    """Every enum member the question says as a phrase (its words in a row, in any form), in the question's order:
    what an array of enum members takes ("avoiding highways and toll roads" -> ["highways", "tolls"]).

    Example:
        >>> enum_values(["Pottery Classes", "Glaze Classes", "Kilns"], "a kiln shop that offers glaze classes")
        ['Kilns', 'Glaze Classes']
        >>> enum_values(["A", "C", "G", "T"], "a strand with more G and C"), enum_values(["AM", "PM"], "at 9 pm")
        (['G', 'C'], ['PM'])
    """
    raw = [w for w in re.split(r"[_\W]+", question) if w]
    tokens = [_DIGITS.get(w.lower(), stem(w.lower())) for w in raw]
    found = []
    for member in enum:
        if not isinstance(member, str) or not member.strip():
            continue
        if len(member.strip()) <= 2 and member.strip().isalpha():
            # A code of one or two letters ("A", "G", "PM") is said in any case, but a lower-case stop word is the
            # word, not the code: "a" is no "A", "us" no "US", while "pm" is "PM".
            code = member.strip().lower()
            at = next((i for i, w in enumerate(raw) if w.lower() == code and not (w.islower() and w in STOP_WORDS)),
                      None)
            if at is not None:
                found.append((at, member))
            continue
        own = [_DIGITS.get(w, stem(w)) for w in re.split(r"[_\W]+", member.lower()) if w]
        at = next((i for i in range(len(tokens) - len(own) + 1) if tokens[i:i + len(own)] == own), None)
        if own and at is not None:
            found.append((at, member))
    return [member for _, member in sorted(found, key=lambda f: f[0])]



def member_mentions(members: list, text: str) -> list[tuple[int, int, str]]:
    """Where the text says each member of a closed set, as (start, end, member), in the text's order: a member's
    words in a row in any form, the longest member winning where two overlap. Members that differ only in case
    ("AA", "Aa", "aa") are matched in their own case.

    Example:
        >>> t = "rain for the last six months and the last year"
        >>> [(t[a:b], m) for a, b, m in member_mentions(["six_months", "year", "five_years"], t)]
        [('six months', 'six_months'), ('year', 'year')]
    """
    strings = [m for m in members if isinstance(m, str) and m.strip()]
    lowered = [m.lower() for m in strings]
    exact = len(set(lowered)) < len(lowered)  # only case tells them apart

    def canon(word: str) -> str:
        return word if exact else _DIGITS.get(word.lower(), stem(word.lower()))

    tokens = [(m.start(), m.end(), canon(m.group(0))) for m in re.finditer(r"[^_\W]+", text)]
    found = []
    for member in strings:
        own = [canon(w) for w in re.split(r"[_\W]+", member) if w]
        for i in range(len(tokens) - len(own) + 1):
            if own and [t[2] for t in tokens[i:i + len(own)]] == own:
                found.append((tokens[i][0], tokens[i + len(own) - 1][1], member))
    kept: list[tuple[int, int, str]] = []
    for start, end, member in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
        if not any(a < end and start < b for a, b, _ in kept):
            kept.append((start, end, member))
    return sorted(kept)
