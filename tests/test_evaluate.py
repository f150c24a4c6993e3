"""helpers.evaluate (metrics, split, fast ranks, grid search) and helpers.maint.bench_search's report."""

import random
import re

import pytest

from helpers import evaluate
from helpers.evaluate import (
    FieldScores,
    GroundTruthError,
    answerable,
    boost_grid,
    cites,
    fewest_results,
    load_ground_truth,
    rank_of,
    says_not_found,
    scores,
    split_by_entry,
    tune,
)
from helpers.maint.bench_search import main
from helpers.search import BOOST, TUNED_BOOST, build_index

GT_CSV = ("question,course,document\n"
          "I just discovered the course. Can I still join?,llm-zoomcamp,74eb249bbf\n"
          "How to install Ollama?,llm-zoomcamp,1d0b969028\n"
          "Something removed upstream,llm-zoomcamp,0000000000\n")


def test_scores():
    assert scores([1, None, 2]) == (pytest.approx(2 / 3), pytest.approx(0.5))
    assert scores([]) == (0.0, 0.0)
    assert scores([None, None]) == (0.0, 0.0)
    assert scores([1, 1, 1]) == (1.0, 1.0)


def test_report_prints_both_row_sets(tmp_path, capsys):
    csv = tmp_path / "gt.csv"
    csv.write_text(GT_CSV)
    assert main(["--csv", str(csv), "--agent"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^all rows +3 +0\.667 +0\.667$", out, re.MULTILINE)
    assert re.search(r"^rows whose answer is in the snapshot +2 +1\.000 +1\.000$", out, re.MULTILINE)
    assert "Held-back half (1 rows, 1 entries, never used for tuning)" in out
    assert "final answer cites the right FAQ entry: 2 (100%)" in out


def test_missing_file_says_how_to_pass_one(tmp_path):
    with pytest.raises(SystemExit, match="No ground-truth file.*question, course and document"):
        main(["--csv", str(tmp_path / "none.csv")])


def test_a_file_without_the_columns_is_refused(tmp_path):
    path = tmp_path / "gt.csv"
    path.write_text("question,answer\nQ?,A.\n")
    with pytest.raises(GroundTruthError, match="lacks the column.*course, document"):
        load_ground_truth(path)


def test_an_empty_or_binary_file_is_refused(tmp_path):
    path = tmp_path / "gt.csv"
    path.write_text("question,course,document\n")
    with pytest.raises(GroundTruthError, match="no rows"):
        load_ground_truth(path)
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(GroundTruthError, match="not a UTF-8 text file"):
        load_ground_truth(path)


def test_a_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "gt.csv"
    path.write_bytes("\ufeff".encode() + GT_CSV.encode())  # as spreadsheet programs save CSV
    assert load_ground_truth(path)[0]["question"] == "I just discovered the course. Can I still join?"


def test_answerable_keeps_rows_whose_entry_exists(tmp_path):
    path = tmp_path / "gt.csv"
    path.write_text(GT_CSV)
    rows = answerable(load_ground_truth(path), [{"id": "74eb249bbf"}, {"id": "1d0b969028"}])
    assert [r["document"] for r in rows] == ["74eb249bbf", "1d0b969028"]


def rows_about(entries: int, per_entry: int = 5) -> list[dict]:
    return [{"question": f"q{e}-{i}", "course": "c", "document": f"entry{e:02d}"}
            for e in range(entries) for i in range(per_entry)]


def test_the_split_is_by_entry_and_the_same_every_time():
    rows = rows_about(12)
    validation, held_back = split_by_entry(rows)
    assert len(validation) == len(held_back) == 30
    assert not {r["document"] for r in validation} & {r["document"] for r in held_back}
    shuffled = rows[:]
    random.Random(7).shuffle(shuffled)
    again = split_by_entry(shuffled)
    assert {r["question"] for r in again[0]} == {r["question"] for r in validation}
    other, _ = split_by_entry(rows, salt="split-1:")
    assert {r["document"] for r in other} != {r["document"] for r in validation}
    assert len(split_by_entry(rows, share=0.25)[0]) == 15


def test_a_share_outside_zero_and_one_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_by_entry(rows_about(2), share=1.0)


@pytest.fixture(scope="module")
def tiny_index():
    docs = [
        {"id": "a", "course": "c", "section": "Setup", "question": "How do I install Docker?",
         "answer": "Download Docker Desktop from the website."},
        {"id": "b", "course": "c", "section": "Docker", "question": "Why does my container stop?",
         "answer": "Install the missing package, then restart Docker and install again."},
        {"id": "c", "course": "c", "section": "Homework", "question": "Where is the homework form?",
         "answer": "The form link is on the course page."},
        {"id": "d", "course": "other", "section": "Setup", "question": "How do I install Docker?",
         "answer": "Another course: install Docker with apt."},
    ]
    return build_index(docs)


TINY_ROWS = [{"question": "install docker", "course": "c", "document": "a"},
             {"question": "install missing package restart", "course": "c", "document": "b"},
             {"question": "homework form link", "course": "c", "document": "c"}]


@pytest.mark.parametrize("boost", [BOOST, TUNED_BOOST, {"question": 0.5, "section": 0.0, "answer": 4.0}])
def test_fast_ranks_equal_real_searches(tiny_index, boost):
    for k in (1, 2, 5):
        assert FieldScores(tiny_index, TINY_ROWS).ranks(boost, k) == [rank_of(r, tiny_index, k, boost)
                                                                       for r in TINY_ROWS]


def test_fast_ranks_equal_real_searches_on_the_faq():
    from helpers.search import default_index

    rows = [{"question": q, "course": "llm-zoomcamp", "document": d} for q, d in [
        ("I just discovered the course. Can I still join?", "74eb249bbf"), ("How do I run Olama locally?", "1d0b969028"),
        ("Can I use Groq instead of OpenAI?", "ee43413718"), ("Is the homework graded?", "nonexistent")]]
    index = default_index()
    for boost in boost_grid()[::17]:
        assert FieldScores(index, rows).ranks(boost, 5) == [rank_of(r, index, 5, boost) for r in rows]


def test_the_grid_search_finds_the_boost_that_ranks_best(tiny_index):
    grid = [{"question": 1.0, "section": 0.0, "answer": 0.0}, {"question": 0.0, "section": 0.0, "answer": 1.0}]
    trials = tune(FieldScores(tiny_index, TINY_ROWS[1:2]), grid)
    assert trials[0].boost == grid[1] and trials[0].mrr == 1.0
    assert [t.boost for t in trials] == [grid[1], grid[0]]


def test_ties_keep_the_grid_order(tiny_index):
    grid = [{"question": 1.0}, {"question": 2.0}]  # scale alone never changes a ranking
    assert [t.boost for t in tune(FieldScores(tiny_index, TINY_ROWS), grid)] == grid


def test_the_grid_has_a_hundred_settings_and_no_all_zero_one():
    grid = boost_grid()
    assert len(grid) == 100 and all(any(b.values()) for b in grid)
    assert len(boost_grid({"question": [0.0, 1.0], "answer": [0.0, 1.0]})) == 3


def test_fewest_results_reaches_the_target(tiny_index):
    scores_ = FieldScores(tiny_index, TINY_ROWS)
    ranks = scores_.ranks(BOOST, 5)
    worst = max(r for r in ranks if r is not None)
    assert fewest_results(scores_, BOOST, scores(ranks)[0]) == worst
    assert fewest_results(scores_, BOOST, 2.0, most=4) == 4  # unreachable: the most allowed


def test_citations_and_not_found_are_read_from_the_answer():
    assert cites('According to the FAQ entry "Can I join?" [74eb249bbf]: Yes.', "74eb249bbf")
    assert not cites("See 74eb249bbf", "74eb249bbf")
    assert says_not_found("I searched the FAQ but found nothing relevant to your question.")
    assert says_not_found("Sorry, I couldn't find that in the FAQ.")
    assert not says_not_found("Yes, you can still join.")


def test_agent_benchmark_records_each_question():
    from helpers.search import default_index

    rows = [{"question": "I just discovered the course. Can I still join?", "course": "llm-zoomcamp",
             "document": "74eb249bbf"},
            {"question": "How do I bake sourdough bread?", "course": "llm-zoomcamp", "document": "74eb249bbf"}]
    outcomes = evaluate.agent_benchmark(rows, default_index(), price_as="gpt-5.4-mini", progress=False)
    assert [(o.cited, o.not_found) for o in outcomes] == [(True, False), (False, True)]
    assert all(o.stop_reason == "answered" and o.calls >= 2 and o.cost_usd > 0 for o in outcomes)
