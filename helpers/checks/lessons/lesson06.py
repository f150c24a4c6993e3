"""Lesson 06's exercise: price one call from its Responses API usage, cached tokens included.

The student writes `price(usage, prices) -> float`: USD for one call, from `usage` (a Responses usage, the SDK
object or a dict: `input_tokens` with `input_tokens_details.cached_tokens` among them, and `output_tokens`) and
`prices` in USD per million tokens (`{"input", "cached_input", "output"}`). The check prices several usages,
SDK objects and dicts, with and without cached tokens, one without `input_tokens_details` at all (a provider
that reports no cache), and names the usual mistake when a price is off.

Homework 04 task 4.1 prices three numbers; this exercise reads them from the usage the API returns.
Left out on purpose: reasoning tokens (already inside `output_tokens`), cache writes, and the price lookup
(`prices` is passed in; helpers.cost reads it from genai-prices).
"""

from __future__ import annotations

from openai.types.responses import ResponseUsage

from helpers.checks.core import CheckFailed, fail_if, run_student_code, task_check

PRICES = {"input": 0.75, "cached_input": 0.075, "output": 4.5}  # gpt-5.4-mini, USD per million tokens


def sdk_usage(input_tokens: int, cached: int, output_tokens: int) -> ResponseUsage:
    """A Responses usage as the SDK returns it.

    Example:
        >>> sdk_usage(3_456, 2_048, 120).input_tokens_details.cached_tokens
        2048
    """
    return ResponseUsage.model_validate({
        # cache_write_tokens: OpenAI bills no cache writes, and the SDK requires the field.
        "input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
        "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + output_tokens})


def cost(input_tokens: int, cached: int, output_tokens: int, prices: dict) -> float:
    """The right price in USD: uncached input, cached input and output, each at its own price per million.

    Example:
        >>> round(cost(10_000, 8_000, 500, PRICES), 6)
        0.00435
    """
    return ((input_tokens - cached) * prices["input"] + cached * prices["cached_input"]
            + output_tokens * prices["output"]) / 1_000_000


# (what the usage is, input tokens, cached tokens, output tokens, as an SDK object?)
CASES = [
    ("an SDK usage without cached tokens", 2_000, 0, 300, True),
    ("an SDK usage with cached tokens", 3_456, 2_048, 120, True),
    ("a dict usage with cached tokens", 10_000, 8_000, 500, False),
    ("a dict usage with cached_tokens 0", 1_000_000, 0, 0, False),
    ("a dict usage without input_tokens_details", 812, 0, 40, False),
]


def usage_for(i: int, c: int, o: int, sdk: bool, details: bool = True):
    """The usage of one case: an SDK object, or the dict the API's JSON holds (details left out on request).

    Example:
        >>> usage_for(812, 0, 40, sdk=False, details=False)
        {'input_tokens': 812, 'output_tokens': 40, 'total_tokens': 852}
    """
    if sdk:
        return sdk_usage(i, c, o)
    usage = {"input_tokens": i, "output_tokens": o, "total_tokens": i + o}
    if details:
        usage["input_tokens_details"] = {"cached_tokens": c}
    return usage


def _close(got: float, want: float) -> bool:
    return abs(got - want) <= 1e-12 + 1e-9 * abs(want)


@task_check("06-cost-accounting", "E06", title="Price a call from its usage")
def check_price(price):
    """Check `price(usage, prices) -> float` (USD) on SDK and dict usages, with and without cached tokens.

    Example:
        >>> def stub(usage, prices):
        ...     raise NotImplementedError
        >>> check_price(stub)
        [NOT DONE YET] Task E06 · Price a call from its usage: replace `raise NotImplementedError` with your code.
    """
    for label, i, c, o, sdk in CASES:
        usage = usage_for(i, c, o, sdk, details="without input_tokens_details" not in label)
        got = run_student_code(price, usage, dict(PRICES), what=f"price() on {label}")
        fail_if(isinstance(got, bool) or not isinstance(got, (int, float)), f"price() returned a "
                f"{type(got).__name__} for {label}; return dollars as a float.")
        want = cost(i, c, o, PRICES)
        if _close(got, want):
            continue
        where = f"For {label} ({i:,} input tokens, {c:,} of them cached, {o:,} output tokens) the price is off:"
        fail_if(_close(got, want * 1_000_000), f"{where} a million times too big. Prices are per million tokens.")
        fail_if(c and _close(got, cost(i, 0, o, PRICES)), f"{where} the cached tokens cost the full input price. "
                "They are billed at the cached-input price.")
        fail_if(c and _close(got, cost(i, 0, o, PRICES) + c * PRICES["cached_input"] / 1_000_000), f"{where} the "
                "cached tokens are charged twice. input_tokens already counts them.")
        fail_if(o and _close(got, cost(i, c, 0, PRICES)), f"{where} the output tokens are missing from the bill.")
        fail_if(o and _close(got, cost(i + o, c, 0, PRICES)), f"{where} the output tokens cost the input price; "
                "output has its own price.")
        raise CheckFailed(f"{where} compare each kind of token (uncached input, cached input, output) with the "
                          "price it is billed at.")
    return f"right for {len(CASES)} usages: SDK objects and dicts, with and without cached tokens."
