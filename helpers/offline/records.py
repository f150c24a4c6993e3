"""A clause cut into records: one piece per call when it gives a parameter a second value.

- `numeric_records(tool, text)`: a numeric parameter given again, named by its own word or unit ("a loan of
  $500 from HSBC ... and for Wells Fargo a loan of $700");
- `coordinated_records(tool, text)`: a part after "and" (or after a comma before an amount or a quote) that
  gives again a value the part before gave: a text or number parameter, or two list parameters ("a flight from
  Oban to Tiree on 3 May and another from Tiree to Barra on 9 May"; "for 'Kestrel' in Ullapool and for 'Osprey'
  in Mallaig");
- `records(tool, text)`: both, in that order.
A list of items ("Oban and Mallaig") is lists.py's, not a record: a joint inside a list cuts nothing, nor does
the "and" of "between A and B", nor a part that points back ("and is it busy?"), nor one whose two parts read together fill one call ("a base of 10 and a
height of 5", though each part alone would give its number to `base`).

What it leaves out on purpose: meaning. A record is found by the values the argument rules bind in each part;
where they bind a word wrongly (a name read from a contraction), a record may be cut where none is.
"""

from __future__ import annotations

import re

from helpers.offline.arguments import param_type
from helpers.offline.clause_values import one_call, own_values
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.lists import lists_in
from helpers.offline.number_fit import fit
from helpers.offline.number_mentions import mentions
from helpers.offline.text import stem

STRONG_CUE = 2.0  # a number starts another call only when its parameter's own word or unit names it


def _slots(tool: Tool, text: str) -> list[tuple[int, str]]:
    """Where each number of the text stands and the numeric parameter it fills, when a word or its unit points at
    that parameter strongly (number_fit.fit). Names are left out: "Seattle, Washington" is one place, not two."""
    props = (tool.parameters or {}).get("properties") or {}
    numeric = {n: s for n, s in props.items() if isinstance(s, dict) and param_type(s) in ("integer", "number")}
    found: list[tuple[int, str]] = []
    for m in mentions(text):
        if m.spelled or m.frequency or not numeric:
            continue
        score, name = max((fit(n, s, m), n) for n, s in numeric.items())
        if score >= STRONG_CUE:
            found.append((m.start, name))
    return sorted(found)


def numeric_records(tool: Tool, text: str) -> list[str]:
    """A clause cut into one piece per call when it gives a numeric parameter a second value ("a loan of
    $500,000 from HSBC ... and for Wells Fargo a loan of $700,000"): the cut is at the last "and", comma or "another" before the
    value that repeats a slot.

    Example:
        >>> loan = Tool("loan_check", "Loan eligibility", {"type": "object", "properties": {
        ...     "bank": {"type": "string"}, "amount": {"type": "integer", "description": "The loan amount."}}})
        >>> numeric_records(loan, "Check a loan amount of $500 at HSBC and a loan amount of $700 at Barclays")
        ['Check a loan amount of $500 at HSBC', 'a loan amount of $700 at Barclays']
    """
    slots = _slots(tool, text)
    props = (tool.parameters or {}).get("properties") or {}
    numeric = [n for n, s in props.items() if isinstance(s, dict) and param_type(s) in ("integer", "number")]
    if len(slots) <= len(numeric):
        return [text]  # no more numbers than numeric parameters: one call takes them all
    listed = lists_in(text)
    pieces, begin, seen, last_end = [], 0, {}, 0
    for position, slot in slots:
        same_list = slot in seen and any(any(a <= seen[slot] < b for a, b in spans) and any(
            a <= position < b for a, b in spans) for spans in listed)
        if slot in seen and not same_list:  # a list ("Ana and Ben") is the list rule's, not a new record
            joints = list(re.finditer(r",\s*(?:and\s+|while\s+)?|\s+and\s+|\banother\b|;\s*|\.\s+(?=[A-Z])",
                                      text[last_end:position]))
            if joints:
                cut = last_end + joints[-1].start()
                pieces.append(text[begin:cut])
                begin, seen = last_end + joints[-1].end(), {}
        seen[slot] = position
        last_end = position + 1
    pieces.append(text[begin:])
    return [p.strip(" ,") for p in pieces if p.strip(" ,")]


# Where a record may end: "and" (after a comma or not), a semicolon, or a comma before an amount or a quote.
_JOINT = re.compile(r",?\s+and\s+(?:also\s+)?|;\s*|,\s+(?=[$€£\"'\u201c])", re.IGNORECASE)
_POINTS_BACK = re.compile(r"\b(?:they|them|their|it|its|he|him|his|she|her)\b", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|(?<!\w)'(?:[^'\n]|(?<=\w)'(?=\w))*'(?!\w)")


def _names(parameter: str, text: str) -> bool:
    """Whether the text says the parameter's own word ("body" for `body`, "message body" for `message_body`)."""
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    own = {stem(w) for w in name_words(parameter) if len(w) > 2}
    return bool(own) and own <= said


def coordinated_records(tool: Tool, text: str) -> list[str]:
    """The clause cut before each part that gives again a value the part before it gave (see the module).

    Example:
        >>> ferry = Tool("book_ferry", "Book a ferry crossing.", {"type": "object", "required": ["origin", "port"],
        ...     "properties": {"origin": {"type": "string"}, "port": {"type": "string"}}})
        >>> coordinated_records(ferry, "Book a ferry from Oban to Tiree and another ferry from Tiree to Barra")
        ['Book a ferry from Oban to Tiree', 'another ferry from Tiree to Barra']
    """
    inside = [(spans[0][0], spans[-1][1]) for spans in lists_in(text)]
    inside += [m.span() for m in _QUOTED.finditer(text)]
    joints = [m for m in _JOINT.finditer(text) if not any(a < m.start() < b for a, b in inside)]
    if not joints:
        return [text]
    props = (tool.parameters or {}).get("properties") or {}
    pieces: list[str] = []
    begin = 0
    for index, joint in enumerate(joints):
        end = joints[index + 1].start() if index + 1 < len(joints) else len(text)
        left, right = text[begin:joint.start()], text[joint.end():end]
        if re.search(r"\bbetween\s+(?!.*\band\b)[^,;]*$", left, re.IGNORECASE):
            continue  # "between Oban and Tiree": one call with both
        if _POINTS_BACK.search(right):
            continue  # "..., and is it busy in summer?": about the subject already named, not another record
        if lists_in(right):
            continue  # "a term of 15, 20 and 30 years": the list rule's, one call per item
        common = own_values(tool, left) & own_values(tool, right)
        # "... with the subject 'Robes' and body 'Bring them'": a part that names a parameter by its own word, which
        # the part before never named, gives it for the first time (the left's value for it was only a fill).
        common = {n for n in common if not (_names(n, right) and not _names(n, left))}
        scalars = {n for n in common if param_type(props.get(n) or {}) != "array"}
        if (scalars or len(common) >= 2) and not one_call(tool, left, right):
            pieces.append(left)
            begin = joint.end()
    pieces.append(text[begin:])
    return [p.strip(" ,") for p in pieces if p.strip(" ,")]


def records(tool: Tool, text: str) -> list[str]:
    """The clause cut into one piece per call: `numeric_records`, then `coordinated_records` on each piece."""
    return [piece for part in numeric_records(tool, text) for piece in coordinated_records(tool, part)]
