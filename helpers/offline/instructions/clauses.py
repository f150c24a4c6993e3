r"""The parts of a long instruction text worth parsing: the text around a cue word.

The grammar modules' patterns are slow over megabytes of text (they try a count or a label at every
position), and a form only ever stands near its cue word ("search", "words", "only"). `near(text, cue)`
gives just the text within REACH characters of each cue, so parsing costs one fast scan when a text
holds no cue at all.

`unwrap(text)` joins the lines of a sentence that the writer wrapped by hand ("First perform search,
analyze the results\nand then perform more searches."), so a form is read across the line break.

What it leaves out on purpose: a form spread further than REACH characters from its cue word; no
instruction sentence is that long. A wrapped line is told from a list item only by its ends: a line
that stops without punctuation, followed by one that starts in lower case, continues the same sentence.
"""

from __future__ import annotations

import re

REACH = 300  # characters kept on each side of a cue: more than any one instruction sentence
# A line break inside a sentence: the line before ends in a word or a comma (no full stop, colon or other
# closing mark), the next line starts with a lower-case letter (a list item or a new sentence would not).
_WRAPPED = re.compile(r"(?<=[\w,;'\"”)])[ \t]*\n[ \t]*(?=[a-z])")


def unwrap(text: str) -> str:
    r"""The text with hand-wrapped sentences joined into one line each; lists and paragraphs stay.

    Example:
        >>> unwrap("First search, analyze the results\nand then search again.\n- a list item\nNext.")
        'First search, analyze the results and then search again.\n- a list item\nNext.'
    """
    return _WRAPPED.sub(" ", text) if "\n" in text else text


def near(text: str, cue: re.Pattern | tuple[str, ...]) -> str:
    """The text within REACH characters of every match of `cue` (a pattern, or lowercase words found
    with `str.find`, much faster over megabytes), pieces joined by blank lines.

    Example:
        >>> near("Be brief. " * 1000 + "Search twice.", ("search",))[-13:]
        'Search twice.'
    """
    if isinstance(cue, tuple):
        lowered = text.lower()
        starts = sorted(i for word in cue for i in _positions(lowered, word))
        hits = [(i, i + 1) for i in starts]
    else:
        hits = [m.span() for m in cue.finditer(text)] if len(text) > 4 * REACH else (
            [(0, 0)] if cue.search(text) else [])
    if len(text) <= 4 * REACH:
        return text if hits else ""
    spans: list[list[int]] = []
    for hit_start, hit_end in hits:
        start, end = max(0, hit_start - REACH), min(len(text), hit_end + REACH)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return "\n\n".join(text[a:b] for a, b in spans)


def _positions(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while at != -1:
        found.append(at)
        at = text.find(word, at + REACH)  # one hit per reach is enough: its window covers the rest
    return found
