"""The context window: how many prompt tokens one request may hold, and what happens past it.

What it does, as OpenAI's APIs do:
- a request whose prompt (tokenizer.py: tool schemas, instructions, every input item or message) has more
  tokens than the window gets the real 400 `context_length_exceeded`, with param `input` (Responses) or
  `messages` (Chat Completions) and the real message, followed by the two figures;
- Responses' `truncation: "auto"` drops the oldest input items instead, until the prompt fits. A function call
  and its output go together (a call without its output, or an output without its call, is itself a 400).
  `truncation: "disabled"` (the default) answers the 400.

The window is set per client transport or server (state.ServerState.context_window); the default,
DEFAULT_CONTEXT_WINDOW, is the 128,000 tokens of gpt-4o-mini, far above what any lesson sends.

What it leaves out on purpose: room for the answer (a real model also needs the output to fit: input plus
`max_output_tokens` within the window), and the model-specific windows (one window for the one model).
"""

from __future__ import annotations

from helpers.offline.api.errors import ApiError
from helpers.offline.api.tokenizer import REPLY_PRIMING, prompt_ids, responses_prompt

DEFAULT_CONTEXT_WINDOW = 128_000  # tokens: gpt-4o-mini's context window


def check_window(window: object) -> int:
    """A context window as given to a transport or server: a positive integer, else ValueError.

    Example:
        >>> check_window(4096)
        4096
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"context_window must be a positive number of tokens, not {window!r}.")
    return window


def prompt_tokens(segments: list[tuple[str, str]]) -> int:
    """Tokens of a prompt given as tokenizer segments (what `usage` reports as input tokens).

    Example:
        >>> prompt_tokens([("user", "How do I bake rye bread at home?")])
        17
    """
    return len(prompt_ids(segments))


def _too_long(param: str, window: int, tokens: int) -> ApiError:
    if param == "messages":  # Chat Completions' wording
        message = (f"This model's maximum context length is {window} tokens. However, your messages resulted in "
                   f"{tokens} tokens. Please reduce the length of the messages.")
    else:  # the Responses API's wording, with the figures a learner needs after it
        message = (f"Your input exceeds the context window of this model. Please adjust your input and try again. "
                   f"(The offline model's context window is {window:,} tokens; this input has {tokens:,}.)")
    return ApiError(400, message, param=param, code="context_length_exceeded")


def fit_responses(body: dict, window: int, param: str = "input") -> dict:
    """The Responses request (shape checked; `input` a list of items) that fits the window: itself, or with
    `truncation: "auto"` a copy without its oldest items (a function call leaves with its output). Raises the
    400 `context_length_exceeded` when it does not fit (or, truncated, only its instructions and tools would),
    naming `param` and worded as its API words it ("messages": a Chat Completions body through its door, door.py).

    Example:
        >>> items = [{"role": "user", "content": "word " * 40}, {"role": "user", "content": "Hi"}]
        >>> [i["content"] for i in fit_responses({"model": "m", "input": items, "truncation": "auto"}, 30)["input"]]
        ['Hi']
    """
    tokens = prompt_tokens(responses_prompt(body))
    if tokens <= window:
        return body
    items = body["input"]
    if body.get("truncation") != "auto" or not isinstance(items, list):
        raise _too_long(param, window, tokens)
    costs = [prompt_tokens(responses_prompt({"input": [item]})) - REPLY_PRIMING for item in items]
    dropped: set[int] = set()
    for first in range(len(items)):
        if tokens <= window:
            break
        if first in dropped:
            continue
        group = {first} | _partners(items, first)
        dropped |= group
        tokens -= sum(costs[i] for i in group)
    kept = [item for i, item in enumerate(items) if i not in dropped]
    if tokens > window or not kept:
        raise _too_long(param, window, tokens)
    return {**body, "input": kept}


def _partners(items: list[dict], index: int) -> set[int]:
    """The items that must leave with items[index]: a call's outputs, an output's call (same call_id)."""
    item = items[index]
    if item.get("type") not in ("function_call", "function_call_output"):
        return set()
    return {i for i, other in enumerate(items)
            if other.get("type") in ("function_call", "function_call_output")
            and other.get("call_id") == item.get("call_id")}
