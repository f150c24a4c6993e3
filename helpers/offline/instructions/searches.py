"""How the instructions ask the model to search: how many times, with what words, in what order.

The grammar:
- an exact count, in digits or words: "two searches", "make 3 queries", "a single search", "search
  twice", "search the catalogue 4 times", "only one search"; "at least N" makes it a minimum (more
  searches may follow while results are poor), "at most N" / "no more than N" a maximum;
- several, with no count: "several / multiple / different / various searches or keywords", "search more
  than once", "perform more searches", "search again": SEVERAL_SEARCHES;
- research in rounds: "first search, read the results, then search again with new keywords from the
  results": one search per response, the next one in the NEXT response, made of words taken from the
  results (search_policy.py), as many rounds as the count says ("two rounds"; two when it says none,
  or says "once" of the first round).

`read_searches(text)` -> `SearchPlan(count, limit, sequential)`; `wanted_searches(text)` the count.

What it leaves out on purpose: counts over MAX_SEARCHES (more queries would only repeat the same
keywords) and any count it can't find next to a search word: "various" or "twice" alone, with no word
about searching, changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.instructions.clauses import near, unwrap
from helpers.offline.instructions.numbers import COUNT, count_in

SEVERAL_SEARCHES = 3  # "several searches" with no number: enough variety to show, few enough to read
MAX_SEARCHES = 5  # "at least 10 searches" is capped: more queries only repeat the same keywords
SEQUENTIAL_ROUNDS = 2  # "first search, then search again" with no count: two rounds

_SEARCH_WORD = r"(?:search(?:es|ing)?|quer(?:y|ies)|look-?ups?|lookups?)"
_BOUND = r"(?:at\s+least|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|only|exactly|just|max(?:imum)?(?:\s+of)?)"
_COUNTED = re.compile(
    rf"(?:{_BOUND}\s+)?(?<![\w-])(?P<n>{COUNT})\s+(?:\w+\s+){{0,2}}?{_SEARCH_WORD}\b"
    rf"|\b(?:search|query|look\s+up)\b(?:\s+[\w'-]+){{0,4}}?\s+(?:{_BOUND}\s+)?(?<!than )(?P<m>{COUNT})\s+times\b"
    rf"|\b(?:search|query|look\s+up)\b(?:\s+[\w'-]+){{0,4}}?\s+(?:{_BOUND}\s+)?(?<!than )(?P<k>once|twice|thrice)\b"
    rf"|(?:{_BOUND}\s+)?(?<![\w-])(?P<r>{COUNT})\s+(?:rounds?|passes)\b",
    re.IGNORECASE)
_SEVERAL = re.compile(
    r"\b(?:multiple|several|different|various|many|a few|diverse|varied)\s+(?:\w+\s+){0,2}?"
    r"(?:search(?:es)?|quer(?:y|ies)|keywords?|phrasings?|formulations?|search terms)\b"
    r"|\bsearch(?:es)?\s+(?:more than once|several times|multiple times|repeatedly|again)"
    r"|\bmore than one\s+(?:search|query)"
    r"|\b(?:perform|make|do|run|try)\s+(?:\w+\s+){0,2}?(?:more|other|further|additional|follow-up)\s+"
    r"(?:search(?:es)?|quer(?:y|ies))\b"
    r"|\bsearch\s+(?:\w+\s+){0,3}?(?:again|more)\b(?!\s+than)",
    re.IGNORECASE)
# Research in rounds: a later search that depends on what the first one found.
_ROUNDS = re.compile(
    r"\b(?:keywords?|words?|terms?|ideas?|names?|clues?)\s+(?:\w+\s+){0,3}?(?:from|in|found\s+in|seen\s+in|taken\s+from)"
    r"\s+(?:the\s+|those\s+|these\s+|your\s+|its\s+|their\s+)?(?:first\s+)?(?:results?|findings|entries|documents|answers?)"
    r"|\b(?:read|analy[sz]e|study|review|look\s+at|check)\s+(?:\w+\s+){0,2}?(?:results?|findings"
    r"|what\s+(?:you|it)\s+(?:found|find|got|get|learn(?:ed|t)?))\b[^.\n]{0,60}?"
    r"\b(?:then|and\s+then|before|after\s+that|next)\b[^.\n]{0,40}?\bsearch"
    r"|\b(?:based\s+on|using|from)\s+what\s+(?:you|it)\s+(?:found|find|learn(?:ed|t)?|read)\b[^.\n]{0,40}?\bsearch"
    r"|\bsearch\b[^.\n]{0,60}?\b(?:based\s+on|using|from)\s+what\s+(?:you|it)\s+(?:found|find|learn(?:ed|t)?|read)",
    re.IGNORECASE)


_CUE = ("search", "quer", "look")


@dataclass(frozen=True)
class SearchPlan:
    """How many searches to make (`count`), the most it may make in all (`limit`: an exact count or an
    "at most"; None: retries while results are poor are allowed), and whether they come in rounds, one
    per response (`sequential`).

    Example:
        >>> read_searches("Search twice before you answer.")
        SearchPlan(count=2, limit=2, sequential=False)
    """

    count: int = 1
    limit: int | None = None
    sequential: bool = False


_AT_MOST = {"at most", "no more than", "not more than", "up to", "max", "maximum", "maximum of"}


def read_searches(text: str) -> SearchPlan:
    """The search plan the instructions ask for; one search, retries allowed, when they ask for none.

    Example:
        >>> read_searches("First search, read the results, then search again with words from them.")
        SearchPlan(count=2, limit=None, sequential=True)
    """
    text = near(unwrap(text or ""), _CUE)
    sequential = bool(_ROUNDS.search(text))
    match = _COUNTED.search(text)
    n = count_in(next(g for g in match.group("n", "m", "k", "r") if g)) if match else None
    if n and match:  # n comes from the match
        n = max(1, min(n, MAX_SEARCHES))
        said = re.search(_BOUND, match.group(0), re.IGNORECASE)
        bound = " ".join(said.group(0).lower().split()) if said else ""
        if bound in _AT_MOST:  # a maximum, not a request: search as usual, never past it
            return SearchPlan(min(SEQUENTIAL_ROUNDS if sequential else 1, n), n, sequential and n > 1)
        if sequential:  # "search once, read, then search again": the count names the first round
            n = max(n, SEQUENTIAL_ROUNDS)
            return SearchPlan(n, None if bound == "at least" else n, True)
        return SearchPlan(n, None if bound == "at least" else n, False)
    if sequential:
        return SearchPlan(SEQUENTIAL_ROUNDS, None, True)
    if _SEVERAL.search(text):
        return SearchPlan(SEVERAL_SEARCHES)
    return SearchPlan()


def wanted_searches(instructions: str) -> int:
    """How many searches the instructions ask for: 1 unless they ask for a count or for several.

    Example:
        >>> wanted_searches("Make at least 3 searches with different keywords")
        3
    """
    return read_searches(instructions).count
