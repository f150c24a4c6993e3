"""Coordinated members of one parameter's closed set: "in both ascending and descending order" is two calls.

A parameter that takes one value from a closed set (its `enum`, or the values its description lists:
"(percentage or fraction)") gets one value per call. When the request names two or more of those members joined
by "and" ("the status and trial date", "the last six months, the last year and the last five years", "genotype
(AA), heterozygous genotype (Aa), and ... (aa)"), a real model makes one call per member. `member_runs(tool,
text)` finds such runs; `one_per_member(tool, text)` gives one text per member, the run replaced by that member
as written, with the parameter and member it is for, for call_plan.py to fill and pin.

What it leaves out on purpose: meaning, and other joints. A run is members with at most four words between two
of them, no sentence end, and an "and" ("&", "as well as", "plus") in at least one gap; "ascending or
descending" asks which, so "or" alone makes no run. A parameter whose members another parameter also takes
(`from_unit`, `to_unit`) is left alone ("from celsius and kelvin" is then no run), as is an array of members
(arguments.py gives it every member said), and a run of names, quotes or numbers that lists.py reads as a list
("Barcelona and Madrid in La Liga and Serie A respectively" is the list rule's, paired).

Example:
    >>> from helpers.offline.conversation import Tool
    >>> sort = Tool("sort_rows", "Sort rows.", {"type": "object", "properties": {
    ...     "order": {"type": "string", "enum": ["ascending", "descending"]}}})
    >>> [member for _, _, member in one_per_member(sort, "Sort them in both ascending and descending order")]
    ['ascending', 'descending']
"""

from __future__ import annotations

import re

from helpers.offline.conversation import Tool
from helpers.offline.enum_match import member_mentions
from helpers.offline.lists import lists_in
from helpers.offline.param_values import listed_values

MAX_GAP_WORDS = 4  # "genotype (AA), heterozygous genotype (Aa)": a member's own head may be said again between
_AND = re.compile(r"\band\b|&|\bas\s+well\s+as\b|\bplus\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;!?]\s|\bthen\b", re.IGNORECASE)


def closed_sets(tool: Tool) -> dict[str, list[str]]:
    """The scalar parameters that take one member of a closed set, each with its members."""
    props = (tool.parameters or {}).get("properties") or {}
    sets: dict[str, list[str]] = {}
    for name, schema in props.items():
        if not isinstance(schema, dict) or schema.get("type") in ("array", "object", "boolean"):
            continue
        members = schema.get("enum") or (listed_values(schema) if schema.get("type", "string") == "string" else [])
        members = [m for m in members if isinstance(m, str) and m.strip()]
        if len(members) >= 2:
            sets[name] = members
    # Members two parameters share ("celsius" for `from_unit` and `to_unit`) are shared out, not one per call.
    return {name: members for name, members in sets.items()
            if not any(other != name and {m.lower() for m in members} & {m.lower() for m in theirs}
                       for other, theirs in sets.items())}


def member_runs(tool: Tool, text: str) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """The runs of coordinated members in the text: (parameter, [(start, end, member), ...]) each, at least two
    different members joined as the module says."""
    runs = []
    listed = [(spans[0][0], spans[-1][1]) for spans in lists_in(text)]
    for name, members in closed_sets(tool).items():
        said = member_mentions(members, text)
        run: list[tuple[int, int, str]] = []
        for mention in said + [None]:
            if mention is not None and run:
                gap = text[run[-1][1]:mention[0]]
                if len(re.findall(r"[^\W_]+", gap)) <= MAX_GAP_WORDS and not _SENTENCE_END.search(gap):
                    run.append(mention)
                    continue
            if len({m for _, _, m in run}) >= 2 and any(_AND.search(text[a[1]:b[0]]) for a, b in zip(run, run[1:],
                                                                                                     strict=False)) \
                    and not any(a < run[-1][1] and run[0][0] < b for a, b in listed):  # names: lists.py's
                runs.append((name, run))
            run = [mention] if mention is not None else []
    return runs


def one_per_member(tool: Tool, text: str) -> list[tuple[str, str | None, str | None]]:
    """One (text, parameter, member) per member of the text's first run, the run replaced by that member as the
    text writes it; the text alone, (text, None, None), when it has no run."""
    runs = member_runs(tool, text)
    if not runs:
        return [(text, None, None)]
    name, run = runs[0]
    start, end = run[0][0], run[-1][1]
    seen: list[str] = []
    texts = []
    for a, b, member in run:
        if member in seen:
            continue
        seen.append(member)
        texts.append((text[:start] + text[a:b] + text[end:], name, member))
    return texts
