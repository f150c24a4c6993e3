"""helpers.bench: the lean serialization sends fewer tokens and leads to the same answers (offline model)."""

import json

import pytest

from helpers import bench

offline = pytest.importorskip("helpers.offline", reason="helpers/offline is not built yet")

QUESTIONS = bench.QUESTIONS[:3]  # enough to compare, quick to run


@pytest.fixture(scope="module")
def pairs():
    return bench.run_bench(questions=QUESTIONS)


def test_both_variants_answer_every_question_the_same_way(pairs):
    assert [p.question for p, _ in pairs] == QUESTIONS
    for plain, lean in pairs:
        assert (plain.variant, lean.variant) == ("plain", "lean")
        assert plain.stop_reason == lean.stop_reason == "answered"
        assert plain.answer == lean.answer


def test_lean_tool_outputs_and_inputs_are_smaller(pairs):
    for plain, lean in pairs:
        assert 0 < lean.tool_output_tokens < plain.tool_output_tokens
        assert lean.input_tokens < plain.input_tokens
    summary = bench.summarize(pairs)
    assert summary["answered"] == summary["same_answers"] == len(QUESTIONS)
    assert 0 < summary["tool_output_ratio"] < 1 and 0 < summary["input_ratio"] < 1


def test_the_two_tools_differ_only_in_serialization():
    plain = json.loads(bench.plain_search_tool()("join the course late"))
    lean = bench.lean_search_tool()("join the course late")
    assert "\\u" not in lean and ", " not in lean[:40]
    assert json.loads(lean) == [{k: doc[k] for k in bench.LEAN_FIELDS} for doc in plain]


def test_summary_needs_at_least_one_answered_question(pairs):
    plain, lean = pairs[0]
    lean.stop_reason = "error"
    with pytest.raises(ValueError, match="answered"):
        bench.summarize([(plain, lean)])
    lean.stop_reason = "answered"


def test_report_prints_both_ratios(pairs, capsys):
    summary = bench.report(pairs)
    printed = capsys.readouterr().out
    assert "tokens in tool outputs" in printed and "total input tokens" in printed
    assert f"{summary['tool_output_ratio']:.2f}" in printed
