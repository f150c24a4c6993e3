"""Every lesson's "Next" paragraph follows the lesson order (issue 28, item 7).

A student who follows the links reads the lessons in order: lesson NN's "**Next:**" paragraph links the lesson
after it (homework may come first, but no lesson is skipped and none repeated), every link in it opens a file
that exists, and the last lesson ends its part instead of pointing further. Checked in the lessons and in their
solution notebooks (whose links point one folder up, or to a sibling solution).
"""

import json
import re
from pathlib import Path

import pytest

from helpers import ROOT

NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
SOLUTIONS = sorted((NOTEBOOKS / "solutions").glob("[0-9][0-9]-*.ipynb"))
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_LESSON = re.compile(r"^(\d\d)-[\w-]+\.ipynb$")


def number(path: Path) -> int:
    return int(path.name[:2])


def markdown(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def next_paragraph(path: Path) -> str:
    """The last "**Next:**" paragraph of a notebook: from the marker to the next blank line."""
    text = markdown(path)
    at = text.rfind("**Next:**")
    assert at >= 0, f"{path.relative_to(ROOT)} has no **Next:** paragraph"
    return text[at:].split("\n\n")[0]


def linked_lessons(path: Path, paragraph: str) -> list[int]:
    """The lesson numbers the paragraph links, each link checked to open an existing file."""
    found = []
    for target in _LINK.findall(paragraph):
        if "://" in target:
            continue
        resolved = (path.parent / target.split("#")[0]).resolve()
        assert resolved.exists(), f"{path.relative_to(ROOT)}: the link {target} opens nothing"
        if _LESSON.match(resolved.name) and resolved.parent in (NOTEBOOKS, NOTEBOOKS / "solutions"):
            found.append(number(resolved))
    return found


def test_the_lessons_are_numbered_without_gaps():
    assert [number(p) for p in LESSONS] == list(range(len(LESSONS)))
    assert {p.name for p in SOLUTIONS} <= {p.name for p in LESSONS}


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_next_links_the_following_lesson_and_nothing_else(path):
    last = number(LESSONS[-1])
    lessons = linked_lessons(path, next_paragraph(path))
    if number(path) == last:
        assert lessons == [], f"the last lesson links lessons {lessons} as next"
    else:
        assert lessons == [number(path) + 1], f"lesson {number(path):02d}'s Next links {lessons}"


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_only_the_last_lesson_ends_a_part_after_which_nothing_follows(path):
    text = markdown(path)
    assert "end of the course" not in text.lower() or number(path) == number(LESSONS[-1])
    assert "course's last homework" not in text  # lesson 12 once said so of homework 06
    if number(path) == number(LESSONS[-1]):
        assert re.search(r"^## The end of Part \d", text, re.M), "the last lesson ends its part"


def test_lesson_12_ends_part_1_and_leads_into_part_2():
    text = markdown(NOTEBOOKS / "12-evaluation.ipynb")
    assert re.search(r"^## The end of Part 1", text, re.M)
    assert "13-approval.ipynb" in next_paragraph(NOTEBOOKS / "12-evaluation.ipynb")


def test_the_capstone_ends_part_2_and_leads_to_its_homework():
    text = markdown(NOTEBOOKS / "18-capstone.ipynb")
    assert re.search(r"^## The end of Part 2", text, re.M)
    assert "homework/09-change-one-part.ipynb" in next_paragraph(NOTEBOOKS / "18-capstone.ipynb")


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_a_part_ends_once(path):
    # Lesson 12 ends Part 1 and lesson 18, the capstone, Part 2: a lesson before either doesn't say it ends a part.
    ends = {"## The end of Part 1": 12, "## The end of Part 2": 18}
    text = markdown(path)
    for heading, lesson in ends.items():
        assert heading not in text or number(path) == lesson, f"lesson {number(path):02d} says {heading!r}"
