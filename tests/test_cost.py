"""Tests for helpers.cost: usage records, genai-prices lookups, the meter and the run report."""

import socket
import threading
import warnings
from datetime import UTC, date, datetime

import pytest
import time_machine
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from helpers.billing import prices
from helpers.cost import (
    CallRecord,
    CostMeter,
    UnknownPriceWarning,
    price_per_mtok,
    price_tokens,
    print_report,
    record_call,
    register_price,
    run_report,
    to_utc,
)

AT = "2026-11-30T12:00Z"  # the moment the price assertions below were checked against the bundled data


@pytest.fixture(autouse=True)
def clean_custom_prices():
    saved = dict(prices._CUSTOM_PRICES)
    yield
    prices._CUSTOM_PRICES.clear()
    prices._CUSTOM_PRICES.update(saved)


def responses_dict(model="gpt-5.4-mini", inp=812, cached=0, out=40, reasoning=0, status="completed"):
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1_700_000_000,
        "model": model,
        "status": status,
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Yes.", "annotations": []}],
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": inp,
            "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
            "output_tokens": out,
            "output_tokens_details": {"reasoning_tokens": reasoning},
            "total_tokens": inp + out,
        },
    }


def chat_dict(model="deepseek-flash", prompt=500, cached=100, completion=20, finish="tool_calls"):
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": "Hi"}}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
            "completion_tokens_details": {"reasoning_tokens": 5},
        },
    }


# --- prices from genai-prices -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model, provider",
    [
        ("gpt-5.4-mini", "openai"),
        ("gpt-5.4-nano", "openai"),
        ("gpt-5-mini", "openai"),
        ("deepseek-flash", "deepseek"),
    ],
)
def test_course_models_have_positive_prices(model, provider):
    p = price_per_mtok(model, provider, at=AT)
    assert p["input"] > 0 and p["output"] > 0 and 0 < p["cached_input"] <= p["input"]


def test_gpt_5_4_mini_price_matches_bundled_data():
    # The figure courses often get wrong ($0.15/$0.60): the maintained data says $0.75/$4.50.
    assert price_per_mtok("gpt-5.4-mini", at=AT) == {"input": 0.75, "cached_input": 0.075, "output": 4.5}
    nano = price_per_mtok("gpt-5.4-nano", "openai", at=AT)
    mini = price_per_mtok("gpt-5-mini", "openai", at=AT)
    assert nano == {"input": 0.2, "cached_input": 0.02, "output": 1.25}
    assert mini == {"input": 0.25, "cached_input": 0.025, "output": 2.0}


def test_hand_price_agrees_with_genai_prices():
    p = price_per_mtok("gpt-5.4-mini", at=AT)
    inp, cached, out = 10_000, 4_000, 500
    by_hand = ((inp - cached) * p["input"] + cached * p["cached_input"] + out * p["output"]) / 1e6
    assert price_tokens("gpt-5.4-mini", inp, out, cached, at=AT) == pytest.approx(by_hand)


def test_vendor_prefixed_name_on_unknown_provider_is_found():
    # A router (Hugging Face, OpenRouter) calls it "openai/gpt-5-mini"; genai-prices has no "huggingface" provider.
    routed = price_per_mtok("openai/gpt-5-mini", "huggingface", at=AT)
    assert routed == price_per_mtok("gpt-5-mini", "openai", at=AT)


def test_pricing_needs_no_network_and_starts_no_updater(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("helpers.cost tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(prices, "_SNAPSHOT", None)  # force the bundled data to load again under the block
    assert price_tokens("gpt-5.4-mini", 1_000_000, 1_000_000, at=AT) == pytest.approx(5.25)
    assert prices._snapshot().from_auto_update is False
    assert not any(t.name.startswith("genai_prices") for t in threading.enumerate())


# --- prices at a moment -------------------------------------------------------------------------------

# A Tuesday, first inside DeepSeek's 06:00-10:00 UTC peak window, then outside both windows.
PEAK, OFF_PEAK = "2026-11-17T08:00Z", "2026-11-17T20:00Z"


def test_a_listing_without_a_moment_says_how_to_give_one():
    with pytest.raises(TypeError, match=r"price_per_mtok\('gpt-5.4-mini'\) needs at=.*created_at"):
        price_per_mtok("gpt-5.4-mini")
    with pytest.raises(TypeError, match=r"price_tokens\('gpt-5.4-mini'\) needs at="):
        price_tokens("gpt-5.4-mini", 10, 10)


@pytest.mark.parametrize(
    "at",
    [
        "2026-11-17T20:00Z",
        "2026-11-17 20:00+00:00",
        "2026-11-17T21:00+01:00",
        datetime(2026, 11, 17, 20, 0),  # naive: read as UTC
        datetime(2026, 11, 17, 20, 0, tzinfo=UTC),
        1_794_945_600,  # the Unix timestamp of the same moment, as a response's created_at
        1_794_945_600.0,
    ],
)
def test_every_form_of_a_moment_means_the_same_utc_time(at):
    assert to_utc(at) == datetime(2026, 11, 17, 20, 0, tzinfo=UTC)


def test_a_date_means_midnight_utc():
    assert to_utc(date(2026, 11, 17)) == to_utc("2026-11-17") == datetime(2026, 11, 17, tzinfo=UTC)


@pytest.mark.parametrize("bad", ["tomorrow", "", [2026, 11, 17], True, float("nan"), 1e30])
def test_a_moment_that_cannot_be_read_is_a_clear_error(bad):
    with pytest.raises((TypeError, ValueError), match="ISO 8601"):
        price_per_mtok("gpt-5.4-mini", at=bad)


def test_deepseek_off_peak_is_half_the_peak_price():
    # DeepSeek's price list halves every rate outside its weekday peak windows; genai-prices encodes it.
    peak = price_per_mtok("deepseek-flash", "deepseek", at=PEAK)
    off_peak = price_per_mtok("deepseek-flash", "deepseek", at=OFF_PEAK)
    assert peak != off_peak
    assert {k: v / 2 for k, v in peak.items()} == pytest.approx(off_peak)


def test_dated_price_changes_follow_the_date():
    # deepseek-v4-flash (now a legacy name) was repriced on 2026-08-17 and again on 2026-09-10.
    prices = [price_per_mtok("deepseek-v4-flash", "deepseek", at=f"{day}T20:00Z")
              for day in ("2026-08-03", "2026-08-20", "2026-11-17")]
    assert len({tuple(p.values()) for p in prices}) == 3


@pytest.mark.parametrize(
    "clock", ["2026-11-30T03:00Z", "2026-11-30T08:00Z", "2026-11-30T20:00Z", "2031-06-01T12:00Z"]
)
def test_listings_do_not_read_the_wall_clock(clock):
    with time_machine.travel(clock, tick=False):
        assert price_per_mtok("deepseek-flash", "deepseek", at=PEAK)["input"] == pytest.approx(
            2 * price_per_mtok("deepseek-flash", "deepseek", at=OFF_PEAK)["input"]
        )
        million_in = price_tokens("deepseek-flash", 1_000_000, 0, provider="deepseek", at=OFF_PEAK)
        assert million_in == pytest.approx(price_per_mtok("deepseek-flash", "deepseek", at=OFF_PEAK)["input"])


# --- records ------------------------------------------------------------------------------------------


def test_record_from_responses_sdk_object():
    resp = Response.model_validate(responses_dict(inp=2000, cached=1000, out=100, reasoning=30))
    r = record_call(resp, provider="openai", latency_s=0.5)
    assert (r.model, r.provider, r.api, r.finish) == ("gpt-5.4-mini", "openai", "responses", "completed")
    assert (r.input_tokens, r.cached_input_tokens, r.output_tokens, r.reasoning_tokens) == (
        2000,
        1000,
        100,
        30,
    )
    assert r.total_tokens == 2100 and r.latency_s == 0.5 and r.estimated is False
    assert r.cost_usd == pytest.approx((1000 * 0.75 + 1000 * 0.075 + 100 * 4.5) / 1e6)
    assert "gpt-5.4-mini" in r.price_note


def test_record_from_chat_sdk_object_and_dict_agree():
    obj = ChatCompletion.model_validate(chat_dict())
    a = record_call(obj, provider="deepseek", latency_s=1.0)
    b = record_call(chat_dict(), provider="deepseek", latency_s=1.0)
    assert a == b
    assert (a.api, a.finish, a.input_tokens, a.cached_input_tokens, a.output_tokens) == (
        "chat",
        "tool_calls",
        500,
        100,
        20,
    )
    assert a.reasoning_tokens == 5 and a.cost_usd > 0


def test_a_call_is_priced_when_it_was_made_not_when_it_is_recorded():
    peak_body, off_body = chat_dict(cached=0), chat_dict(cached=0)
    peak_body["created"] = int(to_utc(PEAK).timestamp())
    off_body["created"] = int(to_utc(OFF_PEAK).timestamp())
    for clock in ("2026-11-30T03:00Z", "2026-11-30T20:00Z"):
        with time_machine.travel(clock, tick=False):
            peak = record_call(peak_body, provider="deepseek", latency_s=0)
            off = record_call(off_body, provider="deepseek", latency_s=0)
        assert peak.cost_usd == pytest.approx(2 * off.cost_usd)
        assert (peak.priced_at, off.priced_at) == ("2026-11-17T08:00:00Z", "2026-11-17T20:00:00Z")
        assert "current time" not in peak.price_note


def test_responses_created_at_and_an_explicit_at_set_the_pricing_moment():
    body = responses_dict(model="deepseek-flash", inp=1_000_000, out=0)
    body["created_at"] = to_utc(OFF_PEAK).timestamp()
    off = record_call(body, provider="deepseek", latency_s=0)
    assert off.priced_at == "2026-11-17T20:00:00Z"
    peak = record_call(body, provider="deepseek", latency_s=0, at=PEAK)
    assert peak.priced_at == "2026-11-17T08:00:00Z" and peak.cost_usd == pytest.approx(2 * off.cost_usd)
    as_if = record_call(body, provider="offline", latency_s=0, price_as="deepseek-flash")
    assert as_if.cost_usd == off.cost_usd and as_if.priced_at == off.priced_at


def test_a_response_without_timestamp_is_priced_now_and_says_so():
    body = responses_dict()
    del body["created_at"]
    r = record_call(body, provider="openai", latency_s=0)
    assert r.price_note.endswith("no timestamp in the response, priced at the current time")
    assert r.priced_at is not None and r.cost_usd > 0
    local = record_call({"model": "llama3.2"}, provider="ollama", latency_s=0)
    assert local.priced_at is None and "current time" not in local.price_note  # nothing was priced


def test_deepseek_cache_hit_field_counts_as_cached():
    body = chat_dict(cached=0)
    body["usage"]["prompt_cache_hit_tokens"] = 300
    assert record_call(body, provider="deepseek", latency_s=0).cached_input_tokens == 300


def test_incomplete_status_keeps_the_reason():
    body = responses_dict(status="incomplete")
    body["incomplete_details"] = {"reason": "max_output_tokens"}
    assert record_call(body, provider="openai", latency_s=0).finish == "incomplete (max_output_tokens)"


@pytest.mark.parametrize("body", [{"model": "gpt-5.4-mini"}, {"model": "gpt-5.4-mini", "usage": None}, {}])
@pytest.mark.filterwarnings("ignore::helpers.cost.UnknownPriceWarning")  # {} has no model name to price
def test_missing_usage_gives_zeros_not_a_crash(body):
    r = record_call(body, provider="openai", latency_s=None)
    assert (r.input_tokens, r.output_tokens, r.total_tokens, r.finish) == (0, 0, 0, None)


def test_unknown_model_warns_with_fix_and_costs_none():
    with pytest.warns(UnknownPriceWarning, match=r"register_price\('my-finetune'"):
        r = record_call(responses_dict(model="my-finetune"), provider="vllm", latency_s=0)
    assert r.cost_usd is None and "register" in r.price_note
    with pytest.raises(LookupError, match="register_price"):
        price_per_mtok("my-finetune", at=AT)


def test_register_price_makes_unknown_model_priced():
    register_price("my-finetune", 1.0, 2.0, cached_input_per_mtok=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no UnknownPriceWarning any more
        r = record_call(
            responses_dict(model="my-finetune", inp=3000, cached=1000, out=500), provider="x", latency_s=0
        )
    assert r.cost_usd == pytest.approx((2000 * 1.0 + 1000 * 0.5 + 500 * 2.0) / 1e6)
    assert r.price_note == "registered price"
    assert price_per_mtok("my-finetune", at=AT) == {"input": 1.0, "cached_input": 0.5, "output": 2.0}
    with pytest.raises(ValueError, match="USD per million"):
        register_price("bad", -1, 1)


def test_local_providers_cost_zero_and_say_so():
    r = record_call(responses_dict(model="llama3.2"), provider="ollama", latency_s=0)
    assert r.cost_usd == 0.0 and r.price_note.startswith("local: $0") and r.estimated is False
    off = record_call(responses_dict(model="offline-rules-v1"), provider="offline", latency_s=0)
    assert off.cost_usd == 0.0 and off.estimated is True
    assert price_per_mtok("anything", "ollama", at=AT) == {"input": 0.0, "cached_input": 0.0, "output": 0.0}


def test_offline_priced_as_if_real_model_keeps_estimated_flag():
    body = responses_dict(model="offline-rules-v1", inp=1_000_000, out=1_000_000)
    r = record_call(body, provider="offline", latency_s=0, price_as="gpt-5.4-mini")
    assert r.estimated is True and r.price_note == "as if gpt-5.4-mini"
    assert r.cost_usd == pytest.approx(5.25)


def test_provider_preset_object_is_accepted():
    class Preset:  # stands in for helpers.llm.Provider
        name, local = "ollama", True

    r = record_call(responses_dict(model="qwen3"), provider=Preset(), latency_s=0)
    assert r.provider == "ollama" and r.cost_usd == 0.0


def test_replay_is_priced_as_the_recorded_call():
    r = record_call(responses_dict(inp=1_000_000, out=0), provider="replay", latency_s=0)
    assert r.cost_usd == pytest.approx(0.75) and r.price_note.startswith("replay")


# --- meter and report ---------------------------------------------------------------------------------


def make_records():
    return [
        CallRecord(
            "gpt-5.4-mini", "openai", "responses", 1000, 0, 50, 0, 1050, 0.4, "completed", False, 0.001, "p"
        ),
        CallRecord(
            "gpt-5.4-mini", "openai", "responses", 2000, 0, 30, 0, 2030, 0.6, "completed", False, 0.002, "p"
        ),
        CallRecord(
            "deepseek-flash", "deepseek", "chat", 1130, 0, 0, 0, 1130, 0.2, "stop", False, 0.0001, "p"
        ),
    ]


def test_meter_sums_and_prints_one_line():
    m = CostMeter()
    for r in make_records():
        assert m.add(r) is r
    assert len(m) == 3 and m.total_tokens == 4210 and m.total_cost == pytest.approx(0.0031)
    assert str(m) == "3 calls · 4,210 tokens · $0.0031"
    assert str(CostMeter()) == "0 calls · 0 tokens · $0"


def test_meter_flags_estimates_local_and_unpriced():
    off = record_call(responses_dict(model="offline-rules-v1"), provider="offline", latency_s=0)
    assert str(CostMeter([off])) == "1 call · 852 tokens · $0 (local, estimated)"
    unpriced = CallRecord("mystery", "x", "chat", total_tokens=10)
    assert str(CostMeter([unpriced])) == "1 call · 10 tokens · $? (no known price)"
    mixed = CostMeter([*make_records(), unpriced])
    assert mixed.unpriced == 1 and "+ 1 unpriced call" in str(mixed)


def test_record_call_adds_to_a_given_meter_only():
    meter = CostMeter()
    record_call(responses_dict(), provider="openai", latency_s=0, meter=meter)
    record_call(responses_dict(), provider="openai", latency_s=0)
    assert len(meter) == 1


def test_run_report_counts_and_stats():
    df = run_report(make_records())
    assert list(df.columns) == ["count", "min", "max", "mean", "sum"]
    assert df.loc["calls", "count"] == 3
    assert (df.loc["input tokens", "min"], df.loc["input tokens", "max"]) == (1000, 2000)
    assert df.loc["input tokens", "sum"] == 4130 and df.loc["input tokens", "mean"] == pytest.approx(1376.7)
    assert df.loc["total tokens", "sum"] == 4210
    assert df.loc["finish: completed", "count"] == 2 and df.loc["finish: stop", "count"] == 1
    assert df.loc["model: gpt-5.4-mini", "count"] == 2 and df.loc["model: deepseek-flash", "count"] == 1
    assert "latency (s)" not in df.index
    with_latency = run_report(make_records(), latency=True)
    assert with_latency.loc["latency (s)", "sum"] == pytest.approx(1.2)
    assert with_latency.loc["latency (s)", "max"] == pytest.approx(0.6)


def test_run_report_accepts_dicts_and_empty():
    dicts = [r.to_dict() for r in make_records()]
    assert run_report(dicts).equals(run_report(make_records()))
    assert run_report([]).loc["calls", "count"] == 0


def test_print_report_is_deterministic_and_hides_latency(capsys):
    print_report(make_records())
    first = capsys.readouterr().out
    records = make_records()
    for r in records:
        r.latency_s *= 7  # different timings, same report
    print_report(records)
    assert capsys.readouterr().out == first
    assert "latency" not in first and "4,130" in first and "completed 2 · stop 1" in first
    print_report(make_records(), latency=True)
    assert "latency (s)" in capsys.readouterr().out
