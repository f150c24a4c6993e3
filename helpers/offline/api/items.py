"""Input items as the API stores them, and lists of them as the API pages them.

What it does:
- `stored_items(raw, seed)` turns a Responses `input` (a string, or a list of items) into the items a provider
  keeps: each with an `id` and a `status`, a message's content as a list of parts (`input_text` for what the
  user, system or developer said, `output_text` for the assistant). Stored responses (stored.py) and
  conversations (conversations.py) keep items in this form, and they go back into a later request's input
  unchanged: the rules read them exactly as the items they came from (same text, same token count);
- `item_id(prefix, *parts)` makes an id from a hash of its parts: no clock, no randomness, so a notebook's
  stored output is the same on every run;
- `page(items, query)` answers a list request (`limit`, `order`, `after`) in the API's list shape
  (`object`, `data`, `first_id`, `last_id`, `has_more`).

What it leaves out on purpose: item types the offline model does not read (images are kept as given, other
tools' calls are refused when a request uses them, in wire.py), and the `include` query parameter (no
item here has optional parts to include).
"""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qs

from helpers.offline.api.body import shown
from helpers.offline.api.errors import ApiError

# The prefix of a stored item's id, by type; OpenAI's own ids use these prefixes too.
PREFIXES = {"message": "msg", "function_call": "fc", "function_call_output": "fco", "reasoning": "rs"}
TEXT_PARTS = ("text", "input_text", "output_text")
MAX_LIMIT = 100  # a list request's `limit` ranges from 1 to 100 (default 20), as on OpenAI


def item_id(prefix: str, *parts: object) -> str:
    """An id made of a prefix and a hash of `parts` (a seed, a counter, a position).

    Example:
        >>> item_id("msg", "seed", 0)
        'msg_b0943760c66211bf86782361'
    """
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:24]
    return f"{prefix}_{digest}"


def stored_item(item: dict, new_id: str) -> dict:
    """One input item (its shape already checked, shapes.py) in its stored form. An id the item already has
    (a function call handed back from an earlier response's output) is kept; else it gets `new_id`.

    Example:
        >>> stored_item({"role": "user", "content": "Hi"}, "msg_1")
        {'id': 'msg_1', 'type': 'message', 'status': 'completed', 'role': 'user', 'content': [{'type': 'input_text', 'text': 'Hi'}]}
    """
    kind = item.get("type") or "message"
    if kind != "message":
        return {"id": item.get("id") or new_id, **{k: v for k, v in item.items() if k != "id"},
                **({"status": item.get("status") or "completed"} if kind != "reasoning" else {})}
    role = item["role"]
    part_type = "output_text" if role == "assistant" else "input_text"
    content = item["content"]
    parts = [{"type": part_type, "text": content}] if isinstance(content, str) else [
        {**part, "type": part_type} if part.get("type") in TEXT_PARTS else part for part in content]
    if role == "assistant":  # an output_text part has annotations (empty here), as in a Response's output
        parts = [{**part, "annotations": part.get("annotations") or []} if part["type"] == "output_text" else part
                 for part in parts]
    return {"id": item.get("id") or new_id, "type": "message", "status": item.get("status") or "completed",
            "role": role, "content": parts}


def stored_items(raw: str | list, seed: str) -> list[dict]:
    """A request's `input` in stored form, new ids derived from `seed` and each item's position.

    Example:
        >>> [item["content"][0]["text"] for item in stored_items("Hello", "s1")]
        ['Hello']
    """
    items = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else raw
    return [stored_item(item, item_id(PREFIXES.get(item.get("type") or "message", "item"), seed, "in", i))
            for i, item in enumerate(items)]


def page(items: list[dict], query: str) -> dict:
    """The API's list object for `items` (oldest first), as the query asks: `limit` (1 to 100, default 20),
    `order` (`desc`, the default, newest first; or `asc`), `after` (an item id: the page starts after it).

    Example:
        >>> listed = page([{"id": "a"}, {"id": "b"}, {"id": "c"}], "limit=2&order=asc")
        >>> [item["id"] for item in listed["data"]], listed["has_more"], listed["last_id"]
        (['a', 'b'], True, 'b')
    """
    params = {key: values[-1] for key, values in parse_qs(query, keep_blank_values=True).items()}
    limit = params.get("limit", "20")
    if not limit.isdigit() or not 1 <= int(limit) <= MAX_LIMIT:
        raise ApiError(400, f"Invalid 'limit': {shown(limit)}. Expected an integer between 1 and {MAX_LIMIT}.",
                       param="limit", code="invalid_value")
    order = params.get("order", "desc")
    if order not in ("asc", "desc"):
        raise ApiError(400, f"Invalid value for 'order': {shown(order)}. Supported values are: 'asc' and 'desc'.",
                       param="order", code="invalid_value")
    ordered = items if order == "asc" else items[::-1]
    if "after" in params:
        ids = [item["id"] for item in ordered]
        if params["after"] not in ids:
            raise ApiError(400, f"Invalid 'after': no item with id {shown(params['after'])} in this list.",
                           param="after", code="invalid_value")
        ordered = ordered[ids.index(params["after"]) + 1:]
    data = ordered[: int(limit)]
    return {"object": "list", "data": data, "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None, "has_more": len(ordered) > len(data)}
