"""Compaction, as the offline model does it: a long Responses input made short, with one `compaction` item.

OpenAI's API compacts a conversation two ways, and the offline model answers both (wired in api/app.py):
- `client.responses.compact(model=..., input=[...])` (or `previous_response_id=...`) returns every user message
  of the input, then one `compaction` item (`compacted_output`);
- `responses.create(..., context_management=[{"type": "compaction", "compact_threshold": N}])`: when the prompt
  is over N tokens at the start of a turn (its last input item a user message), the earlier turns are compacted
  before the model answers, and the response's output starts with the compaction item (`compact_turn`).
Either way, a later request that carries a compaction item reads it as a note, and the assistant messages,
tool calls and tool outputs before the latest one are not read again (`after_compaction`): they are what it
replaced. User messages are always kept, as the compact endpoint keeps them.

The rule for what the item holds, the general one of recap.py: the fact-carrying sentences (names, numbers,
dates, decisions, what the user said about themselves) of the assistant messages and tool outputs it replaces,
labelled with who said them, at most SUMMARY_WORDS words, the sentences with most facts kept. The item's
`encrypted_content` is that text in base64 after the marker ENCODED, not encrypted: anyone can read it
(`summary_of`).

What it leaves out on purpose: a real model's summary. OpenAI's compaction item is encrypted, written by the
model, and carries its reasoning too; it is "not intended to be human-interpretable" (OpenAI's compaction
guide). This one only picks whole sentences by their surface, so a fact worded without a number, a name or a
decision is lost, and a tool output's details that no sentence marks as a fact (most of a search result) are
gone. It never compacts in the middle of a turn (a real server may), and a long chat of long user messages
still grows: those are kept whole. A compaction item from another provider can't be read here: it is taken as
an empty note.
"""

from __future__ import annotations

import base64
import binascii

from helpers.offline.conversation import Conversation
from helpers.offline.recap import summarise

ENCODED = "offline-compaction-v1:"  # the marker of an item this model wrote: base64 text follows
SUMMARY_WORDS = 200  # the most words one compaction item keeps
SUMMARY_LEAD = "Summary of the compacted conversation (offline model: sentences with facts, not a model's summary):"
UNREADABLE = "A compaction item this model can't read (written by another provider) was here."


def _text(content: object) -> str:
    """A message's content or a tool output as text: a string, or the "text" of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict)).strip()
    return "" if content is None else str(content)


def _is_user(item: dict) -> bool:
    return (item.get("type") or "message") == "message" and item.get("role") == "user"


def summary_of(item: dict) -> str:
    """The note a compaction item stands for: the summary this model wrote into it, or UNREADABLE.

    Example:
        >>> summary_of(compaction_item("User said: I'm Ana.", "cmp_1"))
        "User said: I'm Ana."
        >>> summary_of({"type": "compaction", "encrypted_content": "gAAAA..."}) == UNREADABLE
        True
    """
    content = str(item.get("encrypted_content") or "")
    if not content.startswith(ENCODED):
        return UNREADABLE
    try:
        return base64.b64decode(content[len(ENCODED):], validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return UNREADABLE


def compaction_item(summary: str, item_id: str) -> dict:
    """A `compaction` output item holding `summary` (base64 after the ENCODED marker).

    Example:
        >>> compaction_item("x", "cmp_1")["encrypted_content"]
        'offline-compaction-v1:eA=='
    """
    encoded = base64.b64encode(summary.encode("utf-8")).decode("ascii")
    return {"id": item_id, "type": "compaction", "encrypted_content": ENCODED + encoded, "created_by": "offline-rules-v1"}


def summarise_items(items: list[dict], max_words: int = SUMMARY_WORDS) -> str:
    """The summary of the items a compaction replaces: the fact-carrying sentences of their assistant messages,
    tool outputs and earlier compaction notes (recap.py's rule), labelled, within `max_words`. User messages
    are left out: compaction keeps them whole.

    Example:
        >>> summarise_items([{"role": "user", "content": "When is my ferry?"},
        ...                  {"type": "function_call_output", "call_id": "c1", "output": '{"ferry": "07:30 from Split"}'},
        ...                  {"role": "assistant", "content": "Your ferry leaves Split at 07:30."}])[len(SUMMARY_LEAD):]
        ' Tool: ferry: 07:30 from Split. Assistant: Your ferry leaves Split at 07:30.'
    """
    transcript: list[tuple[str, str]] = []
    for item in items:
        kind = item.get("type") or "message"
        if kind == "message" and item.get("role") != "user":
            transcript.append(("assistant" if item.get("role") == "assistant" else "developer",
                               _text(item.get("content"))))
        elif kind == "function_call_output":
            transcript.append(("tool", _text(item.get("output"))))
        elif kind == "compaction":
            transcript.append(("developer", summary_of(item)))
    transcript = [(role, text) for role, text in transcript if text.strip()]
    body = summarise(Conversation(transcript=transcript), max_words) if transcript else ""
    return f"{SUMMARY_LEAD} {body}".strip()


def compacted_output(items: list[dict], item_id: str) -> list[dict]:
    """What `responses.compact` returns for `items`: every user message (as an output message), then one
    compaction item for everything else.

    Example:
        >>> out = compacted_output([{"role": "user", "content": "Hi, I'm Ana."},
        ...                         {"role": "assistant", "content": "Hello Ana."}], "cmp_1")
        >>> [(o["type"], o.get("role")) for o in out]
        [('message', 'user'), ('compaction', None)]
    """
    users = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": _text(item.get("content"))}]}
             for item in items if _is_user(item)]  # as the API reference's example gives them: no id
    return [*users, compaction_item(summarise_items(items), item_id)]


def after_compaction(items: list[dict]) -> list[dict]:
    """The items a request is read from: before the latest compaction item only the user messages are kept
    (the rest is what the item replaced); the item itself and everything after it stay.

    Example:
        >>> items = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
        ...          compaction_item("s", "cmp_1"), {"role": "user", "content": "Next?"}]
        >>> [i.get("role") or i["type"] for i in after_compaction(items)]
        ['user', 'compaction', 'user']
    """
    last = max((i for i, item in enumerate(items) if item.get("type") == "compaction"), default=None)
    if last is None:
        return items
    return [item for item in items[:last] if _is_user(item)] + items[last:]


def compaction_threshold(context_management: object) -> int | None:
    """The `compact_threshold` of a request's `context_management` compaction entry, or None (no entry, or
    none with a threshold).

    Example:
        >>> compaction_threshold([{"type": "compaction", "compact_threshold": 50000}])
        50000
        >>> compaction_threshold(None) is None
        True
    """
    for entry in context_management if isinstance(context_management, list) else ():
        if isinstance(entry, dict) and entry.get("type") == "compaction":
            threshold = entry.get("compact_threshold")
            if isinstance(threshold, int) and not isinstance(threshold, bool):
                return threshold
    return None


def compact_turn(items: list[dict], item_id: str) -> tuple[list[dict], dict | None]:
    """(the input to answer from, the compaction item or None) for a request over its compact_threshold: at
    the start of a turn (the last item a user message), the earlier user messages, then one compaction item
    for everything else before the last user message, then that message. Mid-turn (a call waiting for its
    answer) or with nothing to compact, the items are returned as they are.

    Example:
        >>> items = [{"role": "user", "content": "I'm Ana."}, {"role": "assistant", "content": "Noted, Ana."},
        ...          {"role": "user", "content": "What was my name again?"}]
        >>> kept, item = compact_turn(items, "cmp_1")
        >>> [i.get("role") or i["type"] for i in kept], item["type"]
        (['user', 'compaction', 'user'], 'compaction')
    """
    if not items or not _is_user(items[-1]):
        return items, None
    earlier = items[:-1]
    if not any(not _is_user(item) for item in earlier):
        return items, None
    item = compaction_item(summarise_items(earlier), item_id)
    return [*(i for i in earlier if _is_user(i)), item, items[-1]], item
