"""Identifiers shaped like a parameter's example: "T-4471" for an order number described "e.g. 'T-5002'".

API docs show what an identifier looks like ("Membership number, looks like 'CLB-00123'", "e.g. 'vid_83kd'").
A request token of the same shape (each letter a letter, each digit a digit, the same marks between, in any case)
is a value of that parameter, whatever words stand around it: "where's my order T-4471" gives `orderNumber` its
value, and it points at the tool that takes such identifiers rather than at another tool that shares the word
"order". `shape(token)` writes the shape; `shaped_value(schema, text)` finds the request's token of the shape of
one of the parameter's examples.

An example counts only when it is an identifier: a quoted token of at least four characters with a letter and a
digit ("K2" is too short to tell from a grade or a size; "6a" too). The token must match the example's shape
exactly, length and all.

What it leaves out on purpose: identifiers described by a pattern in prose ("six characters", "starts with SW")
or by a `pattern` keyword, and examples of another length ("T-12" against "T-5002"): a shape that varies is a
regular expression the docs did not write.

Example:
    >>> shape("CLB-00123") == shape("clb-04410"), shape("T-4471") == shape("T-44712")
    (True, False)
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"['\"‘“]([^'\"’”\s]{4,})['\"’”]")
_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9][\w-]*[A-Za-z0-9](?![\w-])")


def shape(token: str) -> str:
    """A token's shape: letters as `a`, digits as `9`, other marks as they are."""
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "a", token))


def _is_identifier(token: str) -> bool:
    return len(token) >= 4 and bool(re.search(r"[A-Za-z]", token)) and bool(re.search(r"\d", token))


def example_shapes(schema: dict) -> set[str]:
    """The shapes of the identifiers a parameter's description shows as examples.

    Example:
        >>> sorted(example_shapes({"description": "The order number, e.g. 'T-4471' or 'TX-0091'."}))
        ['a-9999', 'aa-9999']
    """
    said = str(schema.get("description") or "")
    return {shape(t) for t in _QUOTED.findall(said) if _is_identifier(t)}


def shaped_value(schema: dict, text: str, taken: set[str] | frozenset = frozenset()) -> str | None:
    """The first token of the text shaped like one of the parameter's examples, not one already given.

    Example:
        >>> shaped_value({"description": "Membership number, looks like 'CLB-00123'."}, "freeze CLB-04410 pls")
        'CLB-04410'
        >>> shaped_value({"description": "Membership number, looks like 'CLB-00123'."}, "freeze CLB-044 pls") is None
        True
    """
    shapes = example_shapes(schema)
    if not shapes:
        return None
    return next((t for t in _TOKEN.findall(text) if shape(t) in shapes and t not in taken), None)
