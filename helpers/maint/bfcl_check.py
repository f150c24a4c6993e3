"""An AST checker for BFCL's single-turn categories, written from BFCL's published rules.

A model's answer is a list of calls, each (name, arguments). `check(case, calls)` says whether it is right
and, when not, the kind of failure (`Verdict.kind`), one of `KINDS`:
- no call is right in the irrelevance categories, and any call in live_relevance;
- otherwise the number of calls must be the number of possible answers, and each call must match one
  answer, in any order (parallel calls are matched as a set, each answer used once);
- a call matches an answer when its name is the function's (dots may be underscores, since the API forbids
  dots), every required parameter is given, every given parameter is one the function knows and the answer
  lists, its value is of the schema's type and one of the allowed values, and every listed parameter left
  out has "" among its allowed values (it is optional);
- values compare by type: strings case-insensitively and ignoring spaces and the marks `,./-_*^` (and '
  against "), as BFCL does, so "April 1, 2024" equals "april 1 2024"; numbers as numbers (an integer is
  accepted for a float); lists item by item, in order; objects key by key, with the same rule for optional
  keys. A value of another type than the schema's is accepted when the allowed values themselves are of
  that type (BFCL's "variable" case, such as a name where the schema says integer).

What it leaves out on purpose: Java and JavaScript (their values come as strings to convert), the
multi-turn categories (checked by state, not by AST), and BFCL's greedy matching order: a parallel answer
is matched here by trying every pairing, so a right answer never fails for the order it lists its calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.maint.bfcl_data import NO_CALL_RIGHT, SOME_CALL_RIGHT, Case, api_name

KINDS = ("called when no tool fits", "no call", "wrong number of calls", "wrong function", "missing required",
         "unexpected parameter", "wrong type", "wrong value", "missing optional not allowed", "arguments not JSON")

_SCALARS = {"string": str, "any": str, "integer": int, "float": float, "number": float, "boolean": bool,
            "bool": bool, "array": list, "list": list, "tuple": list, "dict": dict, "object": dict}


@dataclass(frozen=True)
class Verdict:
    """Whether an answer is right; when not, the kind of failure (one of KINDS) and a detail line."""

    ok: bool
    kind: str = ""
    detail: str = ""


def standardize(text: str) -> str:
    """A string as BFCL compares it: lower case, without spaces and `,./-_*^`, single quotes as double.

    Example:
        >>> standardize("April 1, 2024") == standardize("april 1 2024")
        True
    """
    return re.sub(r"[ ,./\-_*^]", "", text).lower().replace("'", '"')


def _is_type(value, kind: str) -> bool:
    expected = _SCALARS.get(kind, str)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


def _same(value, allowed) -> bool:
    """One value against one allowed value, by BFCL's comparison for its type."""
    if isinstance(value, str) and isinstance(allowed, str):
        return standardize(value) == standardize(allowed)
    if isinstance(value, bool) or isinstance(allowed, bool):
        return type(value) is type(allowed) and value == allowed
    if isinstance(value, int | float) and isinstance(allowed, int | float):
        return float(value) == float(allowed)
    if isinstance(value, list) and isinstance(allowed, list):
        return len(value) == len(allowed) and all(_same(v, a) for v, a in zip(value, allowed, strict=True))
    if isinstance(value, dict) and isinstance(allowed, dict):
        return _dict_matches(value, allowed)
    return False


def _dict_matches(value: dict, allowed: dict) -> bool:
    """An object against an allowed object whose keys each list allowed values ("" = may be left out)."""
    for key, item in value.items():
        options = allowed.get(key)
        if not isinstance(options, list) or not any(_same(item, a) for a in options if a != ""):
            return False
    return all(key in value or (isinstance(options, list) and "" in options) for key, options in allowed.items())


def value_ok(value, schema: dict, allowed: list) -> tuple[bool, str]:
    """Whether a value fits the parameter, and the failure's kind should it not ("wrong type" / "wrong value").

    Example:
        >>> value_ok(5, {"type": "float"}, [5.0]), value_ok("5", {"type": "integer"}, [5])
        ((True, 'wrong value'), (False, 'wrong type'))
    """
    kind = str(schema.get("type") or "string")
    candidates = [a for a in allowed if a != ""]
    if not _is_type(value, kind):
        # BFCL's "variable" case: the allowed values are of another type than the schema says.
        if candidates and all(type(a) is not _SCALARS.get(kind, str) for a in candidates) and any(
                type(value) is type(a) for a in candidates):
            return (any(_same(value, a) for a in candidates), "wrong value")
        return False, "wrong type"
    if kind in ("dict", "object") and candidates and all(isinstance(a, dict) for a in candidates):
        return any(_dict_matches(value, a) for a in candidates), "wrong value"
    return any(_same(value, a) for a in candidates), "wrong value"


def call_matches(function: dict, answer: dict, name: str, args: dict) -> Verdict:
    """One call against one possible answer ({function name: {parameter: [allowed values]}}).

    Example:
        >>> f = {"name": "math.hypot", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"},
        ...      "y": {"type": "integer"}, "z": {"type": "integer"}}, "required": ["x", "y"]}}
        >>> answer = {"math.hypot": {"x": [4], "y": [5], "z": ["", 0]}}
        >>> call_matches(f, answer, "math_hypot", {"x": 4, "y": 5}).ok
        True
        >>> call_matches(f, answer, "math_hypot", {"x": 4, "y": 4, "z": 4}).kind
        'wrong value'
    """
    expected, allowed = next(iter(answer.items()))
    if name not in (expected, api_name(expected)):
        return Verdict(False, "wrong function", f"{name} instead of {api_name(expected)}")
    parameters = function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    for required in parameters.get("required") or []:
        if required not in args:
            return Verdict(False, "missing required", required)
    for param, value in args.items():
        if param not in properties or param not in allowed:
            return Verdict(False, "unexpected parameter", param)
        ok, kind = value_ok(value, properties[param], allowed[param])
        if not ok:
            return Verdict(False, kind, f"{param}={value!r}")
    for param, options in allowed.items():
        if param not in args and "" not in options:
            return Verdict(False, "missing optional not allowed", param)
    return Verdict(True)


def _functions_by_name(case: Case) -> dict:
    return {f["name"]: f for f in case.functions}


def check(case: Case, calls: list[tuple[str, object]]) -> Verdict:
    """Whether `calls` (name, arguments as a dict, or a string that did not parse) answer the case right.

    Example:
        >>> case = Case("c1", "parallel", [], [{"name": "play", "parameters": {"type": "dict",
        ...     "properties": {"artist": {"type": "string"}}, "required": ["artist"]}}],
        ...     [{"play": {"artist": ["Maroon 5"]}}, {"play": {"artist": ["Taylor Swift"]}}])
        >>> check(case, [("play", {"artist": "taylor swift"}), ("play", {"artist": "Maroon 5"})]).ok
        True
        >>> check(case, [("play", {"artist": "Taylor Swift"})]).kind
        'wrong number of calls'
    """
    if case.category in NO_CALL_RIGHT:
        return Verdict(not calls, "" if not calls else "called when no tool fits")
    if case.category in SOME_CALL_RIGHT:
        return Verdict(bool(calls), "" if calls else "no call")
    if not calls:
        return Verdict(False, "no call")
    if any(not isinstance(args, dict) for _, args in calls):
        return Verdict(False, "arguments not JSON")
    if len(calls) != len(case.answers):
        return Verdict(False, "wrong number of calls", f"{len(calls)} instead of {len(case.answers)}")
    functions = _functions_by_name(case)
    first_miss: list[Verdict] = []

    def pair(answer_index: int, free: frozenset) -> bool:
        # Try every pairing of answers to calls: a right answer passes whatever order it lists its calls in.
        if answer_index == len(case.answers):
            return True
        answer = case.answers[answer_index]
        function = functions.get(next(iter(answer)), {})
        for index in sorted(free):
            name, args = calls[index]
            verdict = call_matches(function, answer, name, args)  # type: ignore[arg-type]
            if verdict.ok and pair(answer_index + 1, free - {index}):
                return True
            if not verdict.ok and not first_miss:
                first_miss.append(verdict)
        return False

    if pair(0, frozenset(range(len(calls)))):
        return Verdict(True)
    return first_miss[0] if first_miss else Verdict(False, "wrong value", "no pairing of calls to answers fits")
