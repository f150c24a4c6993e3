"""Coordinated lists in a request: what call_plan.py makes one call per item of.

- `lists_in(text)`: names, quoted strings or numbers joined by commas, "and", "or" ("Taylor Swift and Maroon 5",
  "20 minutes and 15 minutes"), a phrase repeated before each item allowed ("the factorial of 5, the factorial of
  7"); "Austin, TX and Boise, ID" is two places; "between 1 and 1000" is a range, not a list; "a Stilton wheel and a Brie wheel" (the same noun after each
  name) is a list; the numbers after "No" ("Case No 28473 and 64725") are the items, not a name; a date in digits is one item; Chinese and Japanese "and" (和, と, 、) joins too;
- `word_lists(text)`: plain words after a preposition ("the resistivity of copper and aluminum"), every item of
  the same number of words;
- `number_groups(text)`: groups of numbers given one by one ("(45, 60) and (81, 27)", "3 and 4, 5 and 12").

What it leaves out on purpose: meaning. A list is read from punctuation, "and" and the kind of its items; "the
mean and standard deviation" (no preposition before it) is no list, and "in celsius and humidity level" (items of
different lengths) neither, while "Paris, France" is one place only because no "and" joins it.
"""

from __future__ import annotations

import re

from helpers.offline.text import MONTHS, STOP_WORDS

# Verbs a request starts with: general English, so a capitalised first word is not taken for a name.
_REQUEST_VERBS = frozenset("""find get calculate compute tell show give search book check convert play list retrieve
fetch predict estimate determine identify provide look send create set make add remove delete update invest withdraw
buy sell order schedule compare what how who where when which can could would please need want wish like hope
plan try""".split())
# Chinese and Japanese say "and" with a character of its own (和, 与, 及, 跟, 或; と, や) or the enumeration comma 、.
_CJK_AND = "和|与|及|跟|或|と|や|、"
_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and|or|&)?|\band\b|\bor\b|&|\bvs\.?|\bversus\b|" + _CJK_AND + r")\s*",
                        re.IGNORECASE)
# A date written in digits ("2022-01-01", "03/15/2024") is one item: its dashes and slashes join no list.
_DIGIT_DATE = r"\d{4}-\d{1,2}-\d{1,2}(?![\d-])|\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])"
_ITEM = re.compile(r"\"[^\"]{1,60}\"|'[^']{1,60}'|\u201c[^\u201d]{1,60}\u201d|" + _DIGIT_DATE + r"|[-−]?\$?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?%?(?:\s?(?!(?:and|or|per|in|on|at|for|with|to|of|from|the|by)\b)[A-Za-zµ°/^²³]+)?"
                   r"|[A-Z][\w.'-]*(?:\s+(?:of|de|la|del|von|van|da|the)?\s*[A-Z0-9][\w.'-]*)*")


def lists_in(text: str) -> list[list[tuple[int, int]]]:
    """The coordinated lists of a text: spans of two or more names, quoted strings or numbers joined by
    commas, "and" or "or" (a phrase repeated before each item, "the factorial of", is allowed).

    Example:
        >>> t = "Play Taylor Swift and Maroon 5 for 20 minutes and 15 minutes respectively"
        >>> [[t[a:b] for a, b in spans] for spans in lists_in(t)]
        [['Taylor Swift', 'Maroon 5'], ['20 minutes', '15 minutes']]
    """
    months = "|".join(MONTHS)
    items = []
    for m in _ITEM.finditer(text):
        start, value = m.start(), m.group(0)
        at_start = start == 0 or re.search(r"[.!?:]\s*$", text[:start]) is not None
        first = value.split()[0]
        if at_start and (first.lower() in STOP_WORDS or first.lower() in _REQUEST_VERBS):
            rest = value[len(first):].lstrip()
            if not rest:
                continue
            start = m.end() - len(rest)  # "Play Taylor Swift": the name without the request's verb
        if re.fullmatch(r"I(?:['’](?:m|d|ve|ll))?", text[start:m.end()]):
            continue  # "Boston, MA and I'm craving sushi": the speaker is no item of a list
        code = re.search(r"\b(?:No\.?|Number|ID|Nr\.?)\s+(\d[\d-]*)$", text[start:m.end()])
        if code:
            start = start + code.start(1)  # "Hive No 28 and 31": the numbers after "No" are the items, not a name
        items.append((start, m.end()))
    items = [(a, b) for a, b in items
             if not re.search(rf"\b(?:{months})\.?\s*\d*,?\s*$", text[:m.start()], re.IGNORECASE)  # a date
             and not re.search(r"[\[(][^\])]*$", text[:m.start()])]  # inside brackets: one value (coordinates)
    found: list[list[tuple[int, int]]] = []
    run: list[tuple[int, int]] = []
    lead = ""
    for start, end in items:
        if run:
            gap = text[run[-1][1]:start]
            trimmed = gap.rstrip()
            if lead and trimmed.endswith(lead):
                trimmed = trimmed[: -len(lead)] + " "  # "5, the factorial of 7": the phrase said again
            joined = (_SEPARATOR.fullmatch(gap) or _SEPARATOR.fullmatch(trimmed) or _same_noun_after(text, gap, end)) \
                and not (re.fullmatch(r",", gap) and "." in text[start:end])
            if joined and _same_kind(text[run[0][0]:run[0][1]], text[start:end]):
                run.append((start, end))
                continue
            if len(run) >= 2:
                found.append(run)
        run = [(start, end)]
        lead = " ".join(text[:start].split()[-3:])
    if len(run) >= 2:
        found.append(run)
    # "between 1 and 1000" is a range, one value of each of two parameters, not a list of two.
    found = [r for r in found if not (len(r) == 2 and re.search(r"\bbetween\s+(?:[a-z]\s*=\s*)?$", text[:r[0][0]],
                                                                re.IGNORECASE))]
    found = [_places(text, r) for r in found]
    # A list says "and" or "or" somewhere: "Paris, France" is one place, "Oslo and Paris" two. A phrase said again
    # before every item says it as well ("the factorial of 5, the factorial of 3, then ..."): the "and" may lie
    # beyond a task's cut.
    found = [r for r in found if any(re.search(r"\b(?:and|or|vs|versus)\b|&|" + _CJK_AND, text[a[1]:b[0]])
                                     for a, b in zip(r, r[1:], strict=False)) or _repeats_lead(text, r)]
    taken = [(r[0][0], r[-1][1]) for r in found]
    for spans in word_lists(text):
        if len(spans) == 2 and re.search(r"\bbetween\s+$", text[:spans[0][0]], re.IGNORECASE):
            continue  # "between New York and Boston", as above: the two ends of one span (an array may take them)
        if not any(a < spans[-1][1] and spans[0][0] < b for a, b in taken):
            found.append(spans)
    return sorted(found)


def _same_noun_after(text: str, gap: str, end: int) -> bool:
    """Whether two names are joined by "and" with the same noun after each: "a Stilton wheel and a Brie wheel" (the
    noun says what both are, so the names are a list). A different noun after each ("a Stilton wheel and a Brie
    knife") joins nothing."""
    m = re.fullmatch(r"\s+([a-z]+)\s+(?:and|or)\s+(?:(?:a|an|the)\s+)?", gap)
    return bool(m) and m.group(1) not in STOP_WORDS and re.match(rf"\s+{m.group(1)}\b", text[end:]) is not None


def _repeats_lead(text: str, run: list[tuple[int, int]]) -> bool:
    """Whether every item of a run but the first comes after the same two or three words that came before the first,
    with a comma ("the factorial of 5, the factorial of 3")."""
    lead = text[:run[0][0]].split()[-3:]
    if len(lead) < 2 or not re.search(r"[A-Za-z]", " ".join(lead)):
        return False
    return all(re.fullmatch(r",\s*" + r"\s+".join(map(re.escape, lead)) + r"\s*", text[a[1]:b[0]])
               for a, b in zip(run, run[1:], strict=False))


_WORD = r"(?!(?:and|or|the|a|an|of|in|for|at|on|to|with|by|from|as|is|are|its|their|each|both|I)\b)[A-Za-z][\w-]*"
_LIST_HEAD = re.compile(r"\b(?:of|for|in|from|about|on|with|between|like|under|at|to|into|over)\s+"
                        r"(?:the\s+|a\s+|an\s+|both\s+|either\s+)?", re.IGNORECASE)


def word_lists(text: str) -> list[list[tuple[int, int]]]:
    """Lists of plain words after a preposition: "the resistivity of copper and aluminum", "for navy, purple and
    maroon". Every item has the same number of words (one or two), so "of copper and aluminum wire" is copper and
    aluminum; a list that no preposition leads ("the mean and standard deviation") is not read as one.

    Example:
        >>> t = "Check the soil moisture in the orchard for apples, pears and plums, please"
        >>> [[t[a:b] for a, b in spans] for spans in word_lists(t)]
        [['apples', 'pears', 'plums']]
        >>> word_lists("the temperature in celsius and humidity level")  # "humidity level": not one-word items
        []
    """
    found: list[list[tuple[int, int]]] = []
    for head in _LIST_HEAD.finditer(text):
        for size in (2, 1):
            item = r"\s+".join([_WORD] * size)
            pattern = re.compile(rf"({item})((?:\s*,\s*(?:{item}))*)\s*,?\s+(?:and|or)\s+({item})(?![\w-])"
                                 rf"(?!\s+{_WORD})")
            m = pattern.match(text, head.end())
            if not m:
                continue
            spans = [m.span(1)]
            for inner in re.finditer(item, m.group(2)):
                spans.append((m.start(2) + inner.start(), m.start(2) + inner.end()))
            spans.append(m.span(3))
            words = [text[a:b] for a, b in spans]
            if any(re.search(r"\d", w) and not re.search(r"[A-Za-z]", w) for w in words):
                break
            if not any(text[a:b].lower() in _REQUEST_VERBS for a, b in spans):
                found.append(spans)
            break
    return found


def _places(text: str, run: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A list of names written "Place, Region" ("Austin, TX and Boise, ID") as one item per place: an even
    number of names where every "and"/"or" comes between two pairs and a bare comma inside each pair.

    Example:
        >>> t = "ferries from Oban, Argyll and Ullapool, Ross"
        >>> [t[a:b] for a, b in _places(t, lists_in(t)[0])]
        ['Oban, Argyll', 'Ullapool, Ross']
    """
    if len(run) < 4 or len(run) % 2 or re.search(r"\d", text[run[0][0]:run[0][1]]):
        return run
    gaps = [text[a[1]:b[0]] for a, b in zip(run, run[1:], strict=False)]
    inside, between = gaps[0::2], gaps[1::2]
    if not all(re.fullmatch(r",\s*", g) for g in inside):
        return run
    if not any(re.search(r"\b(?:and|or)\b", g) for g in between):
        return run
    return [(run[i][0], run[i + 1][1]) for i in range(0, len(run), 2)]


def _same_kind(a: str, b: str) -> bool:
    number = re.compile(r"[-−]?\$?\d")
    return bool(number.match(a)) == bool(number.match(b))


_GROUP = re.compile(r"[\[(]\s*(-?\d[\d.]*(?:\s*,\s*-?\d[\d.]*)+)\s*[\])]")
_PAIR = re.compile(r"(?<![\w.,])(-?\d[\d.]*)\s+and\s+(-?\d[\d.]*)(?![\w.]|,\d)")


def number_groups(text: str) -> list[tuple[int, int, int]]:
    """Groups of numbers a text gives one by one: bracketed ("(45, 60) and (81, 27)", "[1, 2], [3, 4]") or pairs
    joined by "and" and set apart by commas ("3 and 4, 5 and 12"); (start, end, size) each, at least two groups of
    one size, else none.

    Example:
        >>> t = "Splice ropes of 3 and 4, 5 and 12"
        >>> [t[a:b] for a, b, _ in number_groups(t)]
        ['3 and 4', '5 and 12']
    """
    for pattern, size_of in ((_GROUP, lambda m: len(m.group(1).split(","))), (_PAIR, lambda m: 2)):
        found = [(m.start(), m.end(), size_of(m)) for m in pattern.finditer(text)]
        if pattern is _PAIR:  # pairs must follow each other, set apart by a comma: "3 and 4, 5 and 12"
            chained = [g for i, g in enumerate(found) if any(
                re.fullmatch(r"\s*,\s*(?:and\s+)?", text[min(g[1], o[1]):max(g[0], o[0])]) for o in found[:i] + found[i + 1:])]
            found = chained
        if len(found) >= 2 and len({size for _, _, size in found}) == 1:
            return found
    return []
