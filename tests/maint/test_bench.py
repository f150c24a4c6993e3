"""helpers.maint.bench: the lean serialization sends fewer tokens and leads to the same answers (offline model)."""

import dataclasses

import pytest

from helpers.maint import (
    bench,  # an ImportError here must fail the suite, never skip it
)

ROWS = [  # labelled like the ground truth: the id of the FAQ entry that answers the question
    {"question": "I just discovered the course. Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"},
    {"question": "How do I run Olama locally?", "course": "llm-zoomcamp", "document": "1d0b969028"},
    {"question": "Can I use Groq instead of OpenAI?", "course": "llm-zoomcamp", "document": "ee43413718"},
]
TECHNIQUES = {t.name: t for t in bench.techniques()}


@pytest.fixture(scope="module")
def index():
    from helpers.search import default_index

    return default_index()


@pytest.fixture(scope="module")
def runs(index):
    names = ["lesson 04's loop", "lean fields", "no repeated results", "combined (helpers.lean_search)"]
    return {name: bench.run_technique(TECHNIQUES[name], ROWS, index, progress=False) for name in names}


def test_every_technique_answers_and_cites_like_lesson_04(runs):
    for name, measured in runs.items():
        assert [m.question for m in measured] == [r["question"] for r in ROWS]
        assert all(m.stop_reason == "answered" for m in measured), name
        assert [m.cited for m in measured] == [True, True, True], name


def test_the_token_columns_are_the_offline_models_own_usage(index):
    transport = bench.RecordingTransport()
    client = bench.recording_client(transport)
    from helpers.loop import agent_loop
    from helpers.offline import OFFLINE_MODEL

    technique = TECHNIQUES["lesson 04's loop"]
    result = agent_loop(client, OFFLINE_MODEL, ROWS[1]["question"], technique.tools(index, "llm-zoomcamp"),
                        schemas=technique.schemas, verbose=False)
    exchanges = list(transport.exchanges)
    measured = bench._measure(transport, True, ROWS[1], result)
    assert measured.calls == len(result.calls) == 3  # the typo costs a second search
    assert measured.input_tokens == sum(c.input_tokens for c in result.calls)
    assert measured.output_tokens == sum(c.output_tokens for c in result.calls)
    assert measured.cached_tokens == sum(c.cached_input_tokens for c in result.calls)
    assert transport.exchanges == [] and len(exchanges) == 3  # taken by _measure: the next question starts clean


def test_lean_fields_and_no_repeats_send_fewer_tokens(runs):
    plain, lean, no_repeats = runs["lesson 04's loop"], runs["lean fields"], runs["no repeated results"]
    for p, le in zip(plain, lean, strict=True):
        assert le.input_tokens < p.input_tokens and le.answer == p.answer
    # Only the question that searches twice can repeat a result, and there it saves tokens.
    assert no_repeats[1].input_tokens < plain[1].input_tokens
    assert [m.input_tokens for m in no_repeats][::2] == [m.input_tokens for m in plain][::2]


def test_summary_ratio_and_verdict(runs):
    base = bench.summarize(runs["lesson 04's loop"], runs["lesson 04's loop"])
    combined = bench.summarize(runs["combined (helpers.lean_search)"], runs["lesson 04's loop"])
    assert base["ratio"] == 1.0 and base["answered"] == base["cited"] == 3
    assert 0 < combined["ratio"] < 1 and combined["usd_per_answered"] < base["usd_per_answered"]
    assert bench.verdict(base, {**combined, "ratio": 0.5}).startswith("Goal met: 0.50x")
    assert bench.verdict(base, {**combined, "ratio": 0.75}) == (
        "Goal not met: 0.75x lesson 04's input tokens, 0.05 above the goal of 0.7.")
    assert "1 fewer correctly cited" in bench.verdict(base, {**combined, "ratio": 0.5, "cited": 2})


def test_summary_needs_at_least_one_answered_question(runs):
    failed = [dataclasses.replace(m, stop_reason="error") for m in runs["lesson 04's loop"]]
    with pytest.raises(ValueError, match="answered"):
        bench.summarize(failed)


def test_dollars_are_priced_on_a_fixed_day(runs):
    from helpers.cost import price_tokens

    measured = runs["lesson 04's loop"]
    tokens_in = sum(m.input_tokens for m in measured)
    tokens_out = sum(m.output_tokens for m in measured)
    expected = price_tokens(bench.PRICE_AS, tokens_in, tokens_out, 0, at=bench.PRICES_AT) / 3
    assert bench.summarize(measured)["usd_per_answered"] == pytest.approx(expected)


def test_sessions_mix_the_rows_the_same_way_every_time():
    rows = [{"question": f"question {i}", "course": "c", "document": str(i)} for i in range(10)]
    first = bench.sessions(rows, size=4)
    assert [len(s) for s in first] == [4, 4, 2]
    assert bench.sessions(list(reversed(rows)), size=4) == first
    assert sorted(r["document"] for s in first for r in s) == sorted(r["document"] for r in rows)


def test_dropping_old_outputs_shrinks_later_questions_of_a_conversation(index):
    kept, dropped = (bench.run_conversations(t, ROWS, index, size=3, progress=False)
                     for t in bench.conversation_techniques()[::2][:2])
    assert kept[0].input_tokens == dropped[0].input_tokens  # nothing to drop before the first question
    assert all(d.input_tokens < k.input_tokens for k, d in zip(kept[1:], dropped[1:], strict=True))
    assert [m.cited for m in kept] == [m.cited for m in dropped]


def test_cached_tokens_are_counted_only_when_the_technique_says_so(index):
    plain, cached = (bench.run_conversations(t, ROWS, index, size=3, progress=False)
                     for t in bench.conversation_techniques()[:2])
    assert sum(m.cached_tokens for m in plain) == 0
    assert sum(m.cached_tokens for m in cached) > 0  # later questions re-send an earlier prompt verbatim
    assert all(m.cached_tokens % 128 == 0 and m.cached_tokens <= m.input_tokens for m in cached)
