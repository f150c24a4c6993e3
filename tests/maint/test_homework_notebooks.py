"""The student homework notebooks are made from the solutions (helpers.maint.homework_notebooks).

The committed student notebooks must be exactly what the generator makes from the committed solutions
(cell types, sources and ids; their outputs are nbval's business), and nothing of a solution region may
reach a student.
"""

import json

import pytest

from helpers.maint import homework_notebooks as gen
from helpers.maint.homework_notebooks import (
    MarkerError,
    rebase_links,
    strip_code_regions,
    strip_markdown_regions,
)

PAIRS = gen.pairs()


def test_every_homework_has_a_solution():
    homework = [s.name for s, student in PAIRS if student.parent == gen.STUDENT_DIR]
    assert homework == sorted(p.name for p in gen.STUDENT_DIR.glob("*.ipynb"))
    assert len(homework) == 9  # 01-06, and Part 2's 07, 08 and 09


def test_every_lesson_solution_has_its_lesson():
    for solution, student in PAIRS:
        if solution.parent == gen.LESSON_SOLUTION_DIR:
            assert student.parent == gen.LESSON_DIR and student.exists(), f"{solution.name} has no lesson"


@pytest.mark.parametrize(("solution", "student"), PAIRS, ids=lambda p: p.name)
def test_committed_student_notebook_is_what_the_generator_makes(solution, student):
    committed = json.loads(student.read_text(encoding="utf-8"))
    made = gen.student_notebook(solution, student.parent)
    assert gen.shape(committed) == gen.shape(made), "run `make homework-notebooks` and commit the result"
    assert committed["metadata"] == made["metadata"]


def _region_lines(source: str, begin: str, end: str) -> tuple[set[str], set[str]]:
    """The lines inside solution regions, and the lines outside them (both stripped, markers left out)."""
    inside, outside, depth = set(), set(), False
    for line in source.split("\n"):
        marker = line.strip()
        if marker.startswith(begin):
            depth = True
        elif marker.startswith(end):
            depth = False
        elif marker.startswith("### STUB:"):
            outside.add(marker[len("### STUB:"):].strip())  # the student sees a stub line: it gives nothing away
        elif marker != "### NO STUB":
            (inside if depth else outside).add(marker)
    return inside, outside


@pytest.mark.parametrize(("solution", "student"), PAIRS, ids=lambda p: p.name)
def test_no_solution_reaches_the_student(solution, student):
    solution_cells = json.loads(solution.read_text(encoding="utf-8"))["cells"]
    student_text = "\n".join("".join(c["source"]) for c in json.loads(student.read_text(encoding="utf-8"))["cells"])
    hidden, shown = set(), set()
    for cell in solution_cells:
        source = "".join(cell["source"])
        markers = (gen.BEGIN, gen.END) if cell["cell_type"] == "code" else (gen.MD_BEGIN, gen.MD_END)
        inside, outside = _region_lines(source, *markers)
        hidden |= inside
        shown |= outside
    secret = {line for line in hidden - shown if len(line) > 3}  # a lone ")" or "]" tells nothing
    assert secret, "a solution notebook without solution regions"
    assert sorted(secret & {line.strip() for line in student_text.split("\n")}) == []
    for word in ("BEGIN SOLUTION", "END SOLUTION", "### STUB", "(solutions)", "Reference solutions"):
        assert word not in student_text


def test_a_region_becomes_the_default_stub_at_its_indentation():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    y = x + 1\n    return y\n    ### END SOLUTION"
    assert strip_code_regions(source) == "def f(x):\n    # your code here\n    raise NotImplementedError"


def test_stub_lines_replace_the_default_and_no_stub_leaves_nothing():
    source = ("### BEGIN SOLUTION\n### NO STUB\nimport math\n\n### END SOLUTION\n\n\n"
              "### BEGIN SOLUTION\n### STUB: # your code here\n### STUB: RATE = None\nRATE = math.pi\n"
              "### END SOLUTION\n\n\ndef area(r):\n    ### BEGIN SOLUTION\n    ### STUB: return 0  # fix me\n"
              "    return RATE * r * r\n    ### END SOLUTION")
    assert strip_code_regions(source) == ("# your code here\nRATE = None\n\n\ndef area(r):\n"
                                          "    return 0  # fix me")


def test_a_cell_that_is_all_solution_is_dropped(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Quiz (solutions)\n\n<!-- BEGIN SOLUTION -->\nThe answers.\n"
                                      "<!-- END SOLUTION -->\n\nAnswer one question."),
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\n### NO STUB\nprint(42)\n### END SOLUTION"),
        nbformat.v4.new_markdown_cell("<!-- BEGIN SOLUTION -->\nWhy 42.\n<!-- END SOLUTION -->"),
        nbformat.v4.new_code_cell("answer = None"),
    ])
    path = tmp_path / "quiz.ipynb"
    nbformat.write(nb, path)
    made = gen.student_notebook(path)
    assert [(c, s) for c, s, _ in gen.shape(made)] == [("markdown", "# Quiz\n\nAnswer one question."),
                                                      ("code", "answer = None")]
    assert [c["id"] for c in made["cells"]] == [nb.cells[0].id, nb.cells[3].id]  # ids stay: reruns don't churn


@pytest.mark.parametrize("source", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION",
    "### STUB: x = None",
])
def test_markers_that_dont_pair_up_are_refused_with_the_place(source, tmp_path):
    with pytest.raises(MarkerError, match=r"hw\.ipynb, cell 3, line \d"):
        strip_code_regions(source, where=(tmp_path / "hw.ipynb", 3))


def test_an_unclosed_markdown_region_is_refused():
    with pytest.raises(MarkerError, match="never closed"):
        strip_markdown_regions("<!-- BEGIN SOLUTION -->\nsecret")


def test_links_that_leave_the_solutions_folder_are_rebased():
    text = ("[README](../../../README.md) [next](02-the-loop.ipynb) [lesson](../../04-agentic-loop.ipynb#the-loop) "
            "[site](https://example.org/a) [here](#top)")
    assert rebase_links(text) == ("[README](../../README.md) [next](02-the-loop.ipynb) "
                                  "[lesson](../04-agentic-loop.ipynb#the-loop) [site](https://example.org/a) "
                                  "[here](#top)")


def test_check_mode_reports_nothing_when_up_to_date(capsys):
    assert gen.main(["--check"]) == 0
    assert capsys.readouterr().out == ""
