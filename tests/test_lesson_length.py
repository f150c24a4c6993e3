"""Part 2's length rule (issue 28): each lesson from 13 on has at most 1,500 words of prose, what a student reads
in the lesson notebook (markdown cells, words split on whitespace). Part 1's lessons 10-12 predate the rule."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PART_2 = sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if int(p.name[:2]) >= 13)
MAX_WORDS = 1_500


def prose_words(path: Path) -> int:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(len(re.findall(r"\S+", "".join(c["source"]))) for c in cells if c["cell_type"] == "markdown")


def test_part_2_has_its_lessons():
    assert [p.name[:2] for p in PART_2] == ["13", "14", "15", "16", "17", "18"]


@pytest.mark.parametrize("lesson", PART_2, ids=lambda p: p.name)
def test_a_part_2_lesson_is_within_the_length_rule(lesson):
    assert prose_words(lesson) <= MAX_WORDS, f"{lesson.name}: {prose_words(lesson):,} words of prose"


def test_the_count_is_of_prose_only(tmp_path):
    nb = {"cells": [{"cell_type": "markdown", "source": ["# A title\n", "two words"]},
                    {"cell_type": "code", "source": ["print('not prose at all')"]}]}
    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    assert prose_words(tmp_path / "x.ipynb") == 5
