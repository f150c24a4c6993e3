"""The plain words a request lists, for a parameter that takes a list of texts.

A list of names ("Ana and Ben") is read from capitals (names.py); a list of things is often written in lower case:
"a recipe that uses chicken and mushrooms", "stats including points per game, assists, and minutes per game",
"I am efficient, organized, easy going and compassionate". `plain_items(text)` reads such a list: items joined by
commas and "and" (or "or", "and also"), each one to three lower-case words that neither start nor end with a stop
word. The last item ends at a stop word or a mark; the first starts after a stop word, a request word, a verb in
-ing ("selling tomatoes") or a mark, and is no longer than the last, so "uses chicken and mushrooms" lists chicken.
Of several lists, the one with most items (then the first) is given.

What it leaves out on purpose: meaning. "a vegetarian pasta with cheese" is no list (no "and"), "the mean and
standard deviation" is one, and a list mixing names and plain words is read only by its plain words.

Example:
    >>> plain_items("Find a stew that uses leeks and barley")
    ['leeks', 'barley']
"""

from __future__ import annotations

import re

from helpers.offline.noun_phrases import REQUEST_WORDS
from helpers.offline.text import STOP_WORDS

_MAX_WORDS = 3
_JOINERS = {",", "and", "or", "also"}
_INNER = {"per", "of"}  # "points per game", "bag of rice": a stop word inside an item


def _item_words(words: list[str]) -> list[str]:
    """A segment's words up to its first stop word (but "per", "of"), at most three; an item may not end with a stop word."""
    out: list[str] = []
    for word in words:
        if word in STOP_WORDS and word not in _INNER or word in REQUEST_WORDS or len(out) == _MAX_WORDS:
            break
        out.append(word)
    while out and out[-1] in STOP_WORDS:
        out.pop()
    return out


def _first_words(words: list[str], most: int) -> list[str]:
    """A first item: the segment's last words, no more than the last item has, back to a stop word, a request word
    or a verb in -ing ("selling tomatoes and pet food")."""
    out: list[str] = []
    for word in reversed(words):
        if word in STOP_WORDS and word not in _INNER or word in REQUEST_WORDS or word.endswith("ing") or len(out) == most:
            break
        out.insert(0, word)
    while out and out[0] in STOP_WORDS:
        out.pop(0)
    return out


def plain_items(text: str) -> list[str]:
    """The longest list of plain lower-case items the text writes (see the module); empty when it writes none.

    Example:
        >>> plain_items("the stats including points per game, assists, and minutes per game")
        ['points per game', 'assists', 'minutes per game']
        >>> plain_items("a shop selling tomatoes and also pet food"), plain_items("a pasta with cheese")
        (['tomatoes', 'pet food'], [])
    """
    # Segments of plain lower-case words, and what joins each to the next: its joiner words, or None for a break.
    segments: list[list[str]] = [[]]
    joins: list[list[str] | None] = []
    for token in re.findall(r"[A-Za-z][\w'-]*|\d[\w.]*|[^\w\s]", text):
        if token in _JOINERS:
            if segments[-1]:
                segments.append([])
                joins.append([token])
            elif joins and joins[-1] is not None:
                joins[-1].append(token)
        elif re.fullmatch(r"[a-z][a-z-]*", token):
            segments[-1].append(token)
        elif segments[-1]:
            segments.append([])
            joins.append(None)
    best: list[str] = []
    i = 0
    while i < len(segments):
        j = i  # the list runs from segment i over every joined segment after it
        while j < len(joins) and joins[j] is not None and segments[j + 1]:
            j += 1
        # A run that reads as no list may end in one: "a 4.5 star rating, selling tomatoes and also pet food".
        joined = [join for join in joins[i:j] if join is not None]  # all of them: the run stops at a None
        items = next((found for k in range(i, j) if (found := _list_of(segments[k:j + 1], joined[k - i:]))), [])
        if len(items) > len(best):
            best = items
        i = j + 1
    return best


def _list_of(segments: list[list[str]], joins: list[list[str]]) -> list[str]:
    """The items of joined segments; empty unless "and" or "or" joins the last two."""
    if len(segments) < 2 or not {"and", "or"} & set(joins[-1]):
        return []
    last = _item_words(segments[-1])
    first = _first_words(segments[0], max(1, len(last)))
    middle = [_item_words(segment) for segment in segments[1:-1]]
    if not last or not first or any(len(m) != len(seg) or not m for m, seg in zip(middle, segments[1:-1], strict=True)):
        return []
    return [" ".join(item) for item in [first, *middle, last]]
