"""Counts written in plain English: digits, number words, and the words that mean a count ("twice").

- `count_in`: the count a phrase states: "3", "three", "a single", "once", "twice", "a couple of".

What it leaves out on purpose: arithmetic and large numbers in words ("twenty-one"): instructions that
ask for a count of searches, words or sentences use small numbers, and digits cover the rest.
"""

from __future__ import annotations

import re

NUMBER_WORDS = {"one": 1, "a single": 1, "single": 1, "once": 1, "two": 2, "twice": 2,
                "a couple of": 2, "a pair of": 2, "both": 2, "three": 3, "thrice": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100}
# Longest first, so "a single" wins over "single". "a" and "an" are no counts: "a search tool".
_ALTERNATIVES = "|".join(re.escape(w) for w in sorted(NUMBER_WORDS, key=len, reverse=True))
COUNT = rf"(?:\d{{1,4}}|{_ALTERNATIVES})"  # a regex piece for a count, for the grammar modules


def count_in(phrase: str) -> int | None:
    """The count a phrase states, as digits or words; None when it states none.

    Example:
        >>> count_in("three"), count_in("twice"), count_in("12"), count_in("some")
        (3, 2, 12, None)
    """
    phrase = " ".join(phrase.lower().split())
    if phrase.isdigit():
        return int(phrase)
    return NUMBER_WORDS.get(phrase)
