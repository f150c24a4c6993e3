"""The search benchmark: its arithmetic, and its report on a small labelled file."""

import pytest

from helpers.evaluate import main, scores


def test_scores():
    assert scores([1, None, 2]) == (pytest.approx(2 / 3), pytest.approx(0.5))
    assert scores([]) == (0.0, 0.0)


def test_report_prints_both_row_sets(tmp_path, capsys):
    csv = tmp_path / "gt.csv"
    csv.write_text("question,course,document\n"
                   "I just discovered the course. Can I still join?,llm-zoomcamp,74eb249bbf\n"
                   "How to install Ollama?,llm-zoomcamp,1d0b969028\n"
                   "Something removed upstream,llm-zoomcamp,0000000000\n")
    assert main(["--csv", str(csv), "--agent"]) == 0
    out = capsys.readouterr().out
    assert "all rows                                  3     0.667   0.667" in out
    assert "rows whose answer is in the snapshot      2     1.000   1.000" in out
    assert "final answer cites the right FAQ entry: 2 (100%)" in out


def test_missing_file_says_how_to_pass_one(tmp_path):
    with pytest.raises(SystemExit, match="--csv PATH"):
        main(["--csv", str(tmp_path / "none.csv")])
