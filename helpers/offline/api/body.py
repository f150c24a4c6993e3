"""Reading a request body: raw bytes to a JSON object, or a 400 that says what is wrong and where.

`load_request(body)` rejects, each with its own message: invalid UTF-8, invalid JSON, NaN and Infinity,
numbers too large for a float, nesting deeper than `MAX_DEPTH`, and text (keys too) with an unpaired
UTF-16 surrogate. `where(path)` and `shown(value)` write a field's path and a bad value the way the
API's error messages do; shapes.py uses them for its field checks.

What it leaves out on purpose: what the fields mean. Whether the object is a valid Responses or Chat
Completions request is shapes.py's question, asked after this one.
"""

from __future__ import annotations

import json
import math

from helpers.offline.api.errors import ApiError

MAX_DEPTH = 64  # levels of nested arrays and objects; real requests (tool schemas included) need far fewer


def load_request(body: bytes) -> dict:
    """The request body as a JSON object, or ApiError 400 saying why it is not one.

    Example:
        >>> load_request(b'{"model": "m", "input": "hi"}')["input"]
        'hi'
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _unparsable(f"byte {exc.start} is not valid UTF-8") from None
    try:
        request = json.loads(text or "null", parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:  # the decoder recurses once per level; thousands of levels exhaust the stack
        raise _too_deep(None) from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, and integers over 4300 digits
        raise _unparsable(str(exc)) from None
    if not isinstance(request, dict):
        raise ApiError(400, "The request body must be a JSON object, like {\"model\": ..., \"input\": ...}.")
    _scan(request)
    return request


def _unparsable(reason: str) -> ApiError:
    return ApiError(400, f"We could not parse the JSON body of your request ({reason}). The API expects a JSON "
                         f"object; check that you send valid JSON with Content-Type: application/json.")


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:30]} is too large for a 64-bit float")
    return value


def _too_deep(at: str | None) -> ApiError:
    what = f"'{at}' is" if at else "The JSON body of your request is"
    return ApiError(400, f"{what[0].upper()}{what[1:]} nested more than {MAX_DEPTH} levels deep (arrays and objects "
                         f"inside each other). No OpenAI request needs that many; check how the body is built.",
                    param=at, code="invalid_value")


def _scan(request: dict) -> None:
    """Check the depth of every value and every string (keys too) for unpaired surrogates, without recursion."""
    stack: list[tuple[object, tuple, int]] = [(request, (), 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, str):
            _check_text(node, path, is_key=False)
        elif isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                raise _too_deep(where(path))
            pairs = node.items() if isinstance(node, dict) else enumerate(node)
            for key, child in pairs:
                if isinstance(key, str):
                    _check_text(key, path, is_key=True)
                stack.append((child, (*path, key), depth + 1))


def _check_text(text: str, path: tuple, is_key: bool) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        place = where(path) if path else "the body"
        what = f"a key of '{place}'" if is_key else f"'{place}'"
        raise ApiError(400, f"Invalid value for {what}: the text has an unpaired UTF-16 surrogate "
                            f"(\\u{ord(text[exc.start]):04x}) at character {exc.start}. Half a surrogate pair is not "
                            f"a character and cannot be encoded as UTF-8. Send valid Unicode text; in JSON a character "
                            f"such as an emoji is escaped as a full pair, like \\ud83d\\ude00.",
                       param=place if path else None, code="invalid_value") from None


def where(path: tuple) -> str:
    """A field's path as the API writes it: keys joined by dots, array positions in brackets.

    Example:
        >>> where(("messages", 2, "tool_calls", 0))
        'messages[2].tool_calls[0]'
    """
    out = ""
    for n, part in enumerate(path):
        if n == 8 and len(path) > 10:  # a path through very deep nesting: the start is enough to find it
            return out + ".\u2026"
        if not isinstance(part, int):
            part = part if len(part) <= 40 else part[:40] + "\u2026"  # a key may be any text, of any length
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def shown(value: object, limit: int = 60) -> str:
    """A value as an error message quotes it: its repr, cut to `limit` characters.

    Example:
        >>> shown("x" * 100, 8)
        "'xxxxxx…"
    """
    text = repr(value[:limit]) if isinstance(value, str) else str(value)  # it quotes strings and numbers only
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
