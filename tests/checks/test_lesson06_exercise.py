"""Lesson 06's exercise (helpers.checks.lessons.lesson06): pricing a call from its usage. The right solution passes, the
stub is not done yet, and the usual mistakes (cached tokens at the full price, cached tokens charged twice, no
division by a million, output forgotten, a dict-only or SDK-only reader) fail with a hint that gives no price."""

import hints
from hints import stub

from helpers.checks.lessons.lesson06 import CASES, PRICES, check_price, cost


def field(obj, key):
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def tokens(usage):
    details = field(usage, "input_tokens_details")
    cached = (field(details, "cached_tokens") or 0) if details is not None else 0
    return field(usage, "input_tokens"), cached, field(usage, "output_tokens")


def right(usage, prices):
    i, c, o = tokens(usage)
    return ((i - c) * prices["input"] + c * prices["cached_input"] + o * prices["output"]) / 1_000_000


def assert_fails(result, *needles):
    wanted = [cost(i, c, o, PRICES) for _, i, c, o, _sdk in CASES]  # the hint never gives the price it wanted
    hints.assert_fails(result, leaks=[shown for want in wanted
                                      for shown in (f"{want:.6f}", f"{want:.8f}".rstrip("0"), repr(want))],
                       says=needles)


def test_right_solution_passes():
    result = check_price(right)
    assert result.passed, result
    assert "SDK objects and dicts" in result.hint


def test_stub_is_not_done_yet():
    result = check_price(stub)
    hints.assert_todo(result)
    assert check_price(lambda usage, prices: None).status == "todo"


def test_cached_tokens_at_the_full_input_price():
    def no_subtraction(usage, prices):
        i, _, o = tokens(usage)
        return (i * prices["input"] + o * prices["output"]) / 1_000_000
    assert_fails(check_price(no_subtraction), "full input price", "with cached tokens")


def test_cached_tokens_charged_twice():
    def twice(usage, prices):
        i, c, o = tokens(usage)
        return (i * prices["input"] + c * prices["cached_input"] + o * prices["output"]) / 1_000_000
    assert_fails(check_price(twice), "charged twice")


def test_no_division_by_a_million():
    def per_token(usage, prices):
        return right(usage, prices) * 1_000_000
    assert_fails(check_price(per_token), "per million")


def test_output_tokens_ignored():
    def input_only(usage, prices):
        i, c, _ = tokens(usage)
        return ((i - c) * prices["input"] + c * prices["cached_input"]) / 1_000_000
    assert_fails(check_price(input_only), "output tokens are missing")


def test_output_at_the_input_price():
    def one_price(usage, prices):
        i, c, o = tokens(usage)
        return ((i - c + o) * prices["input"] + c * prices["cached_input"]) / 1_000_000
    assert_fails(check_price(one_price), "output has its own price")


def test_a_reader_for_dicts_only():
    def dicts_only(usage, prices):
        cached = usage["input_tokens_details"]["cached_tokens"]
        return ((usage["input_tokens"] - cached) * prices["input"] + cached * prices["cached_input"]
                + usage["output_tokens"] * prices["output"]) / 1_000_000
    assert_fails(check_price(dicts_only), "raised TypeError", "SDK usage")


def test_a_usage_without_details():
    def needs_details(usage, prices):
        details = field(usage, "input_tokens_details")
        i, c, o = field(usage, "input_tokens"), field(details, "cached_tokens"), field(usage, "output_tokens")
        return ((i - c) * prices["input"] + c * prices["cached_input"] + o * prices["output"]) / 1_000_000
    assert_fails(check_price(needs_details), "without input_tokens_details")


def test_a_string_is_not_a_price():
    assert_fails(check_price(lambda usage, prices: f"${right(usage, prices):.6f}"), "float")


def test_the_cases_cover_sdk_dict_and_cache():
    assert {sdk for *_, sdk in CASES} == {True, False}
    assert any(c for _, _, c, _, sdk in CASES if sdk) and any(c for _, _, c, _, sdk in CASES if not sdk)
    assert any(c == 0 for _, _, c, _, _ in CASES)
