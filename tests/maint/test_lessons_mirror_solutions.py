"""A lesson is its solution notebook with the exercise taken out, down to the stored outputs, so nbval runs the
solution alone (issue 29: each lesson once, not twice) and this file proves what running the lesson would add.
A homework notebook is its solution with the tasks taken out in the same way, and is checked the same way.

For every lesson that has a solution in notebooks/solutions/, and every homework:
- every code cell the two share (same source) has the same stored outputs, so the solution's clean run under
  nbval vouches for the lesson's too (a cell tagged nbval-ignore-output, such as a wall time, is skipped);
- the names a stub cell defines are used by no later cell except a check cell (one calling `check_...`), so the
  rest of the lesson runs the same whatever the student wrote: the course's promise that no later cell uses
  the student's code, checked statically;
- each check cell, run against the lesson's own stub (in this process, on the offline model), prints the
  output the lesson stores, NOT DONE YET.
The sources themselves are the generator's business (tests/maint/test_homework_notebooks.py).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import re

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from helpers.maint import homework_notebooks as gen

# Every lesson and every homework: a homework notebook is its solution with the tasks taken out, as a lesson is.
# Except the student notebooks the Makefile's NBVAL_ALSO names: their later cells use the student's code, so
# nbval runs them as well (test_nbval_also_names_exactly_the_notebooks_that_use_the_students_code).
NBVAL_ALSO = set(re.search(r"^NBVAL_ALSO := (.*)$", (gen.ROOT / "Makefile").read_text(), re.M).group(1).split())
ALL_PAIRS = list(gen.pairs())
LESSONS = [(sol, les) for sol, les in ALL_PAIRS if les.relative_to(gen.ROOT).as_posix() not in NBVAL_ALSO]
IGNORED = "nbval-ignore-output"


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell) -> str:
    return "".join(cell["source"])


def _text(outputs) -> str:
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append("".join(out["text"]))
        elif "data" in out:
            parts.append("".join(out["data"].get("text/plain", "")))
    return "".join(parts)


def _python(source: str) -> str:
    # A cell may hold IPython syntax (`%matplotlib inline`): turned into plain Python as the kernel does.
    return TransformerManager().transform_cell(source)


def _parse(source: str) -> ast.Module:
    return ast.parse(_python(source))


def _defined(source: str) -> set[str]:
    return {node.name for node in _parse(source).body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}


def _used(source: str) -> set[str]:
    return {node.id for node in ast.walk(_parse(source)) if isinstance(node, ast.Name)}


def _bound(source: str) -> set[str]:
    """Names a cell binds at its top level: definitions, assignments and imports."""
    names = set()
    for node in _parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            names |= {n.id for target in targets if target is not None for n in ast.walk(target)
                      if isinstance(n, ast.Name)}
    return names


def _literals(source: str, namespace: dict) -> None:
    """The imports and constants an earlier cell sets (`from helpers.checks import check_x`, `GUARD = \"\"\"...\"\"\"`),
    which a check cell may use; nothing else of the cell runs here."""
    for node in _parse(source).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            exec(compile(ast.Module([node], []), "import", "exec"), namespace)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError, SyntaxError, TypeError):
                namespace[node.targets[0].id] = ast.literal_eval(node.value)


def _is_check(source: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id.startswith("check_")
               for n in ast.walk(_parse(source)))


def _run(source: str, name: str, namespace: dict) -> str:
    """What a cell shows when run in `namespace`: its prints, then its last expression's value as the kernel
    shows it (text/plain: the repr), unless the value is None."""
    tree = _parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, name, "exec"), namespace)
        value = eval(compile(ast.Expression(last.value), name, "eval"), namespace) if last else None
    return printed.getvalue() + ("" if value is None else repr(value))


def _run_what_it_needs(check: str, earlier: list[str], namespace: dict, name: str) -> None:
    """Run the earlier shared cells that bind a name the check uses and the namespace lacks (a homework's
    `documents = load_faq_data()`), in order, their prints dropped. No later cell uses the student's code
    (test_no_later_cell_uses_the_students_code), so these run the same as in the notebook."""
    missing = _used(check) - namespace.keys() - set(dir(builtins))
    for source in earlier:
        if _bound(source) & missing:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(_parse(source), f"{name} earlier cell", "exec"), namespace)
            missing -= namespace.keys()


def _outputs(cell) -> list:
    # Execution counts differ where the solution has cells the lesson lacks; nbval does not compare them either.
    return [{k: v for k, v in out.items() if k != "execution_count"} for out in cell.get("outputs", [])]


def test_every_lesson_from_03_and_every_homework_has_a_solution():
    assert sum(sol.parent == gen.LESSON_SOLUTION_DIR for sol, _ in LESSONS) >= 15
    assert sum(sol.parent == gen.SOLUTION_DIR for sol, _ in LESSONS) >= 8


def _pairs(solution, lesson):
    """(solution cell, lesson cell) by cell id, in the solution's order; a cell only the solution has comes with
    None (the generator keeps ids and drops cells that are all solution)."""
    by_id = {c["id"]: c for c in _cells(lesson)}
    pairs = [(c, by_id.pop(c["id"], None)) for c in _cells(solution)]
    assert not by_id, f"{lesson.name} has cells its solution lacks: {sorted(by_id)}"
    return pairs


@pytest.mark.parametrize(("solution", "lesson"), LESSONS, ids=lambda p: p.name)
def test_shared_cells_store_the_same_outputs(solution, lesson):
    for a, b in _pairs(solution, lesson):
        if b is None or a["cell_type"] != "code" or _source(a) != _source(b):
            continue
        if IGNORED in a.get("metadata", {}).get("tags", []) or _is_check(_source(a)):
            continue  # a machine's figure; or PASS in the solution, NOT DONE YET in the lesson (run below)
        assert _outputs(a) == _outputs(b), (
            f"{lesson.name} cell {b['id']} stores other outputs than its solution: run `make notebooks`")


def _stub_use(solution, lesson) -> tuple[bool, list[str]]:
    """Whether the lesson has a stub cell, and the names of the student's code that a later cell (not a check)
    uses."""
    stubs, had_stub, leaks = set(), False, []
    for a, b in _pairs(solution, lesson):
        if a["cell_type"] != "code":
            continue
        if b is None:  # a cell only the solution runs: what it defines is not there in the lesson
            stubs |= _bound(_source(a))
            continue
        source = _source(b)
        if _source(a) != source:  # a stub cell
            stubs |= _defined(source)
            had_stub = True
        elif not _is_check(source):
            # A cell may bind the name again first (lesson 15 imports the course's keep_last_turns over yours).
            leaks += sorted((stubs - _bound(source)) & _used(source))
            stubs -= _bound(source)
    return had_stub, leaks


def test_nbval_also_names_exactly_the_notebooks_that_use_the_students_code():
    using = {les.relative_to(gen.ROOT).as_posix() for sol, les in ALL_PAIRS if _stub_use(sol, les)[1]}
    assert using == NBVAL_ALSO, "the Makefile's NBVAL_ALSO must name exactly these student notebooks"


@pytest.mark.parametrize(("solution", "lesson"), LESSONS, ids=lambda p: p.name)
def test_no_later_cell_uses_the_students_code(solution, lesson):
    had_stub, leaks = _stub_use(solution, lesson)
    assert not leaks, f"{lesson.name}: a cell after the exercise uses the solution's {leaks}"
    assert had_stub, f"{lesson.name} has no stub cell"


@pytest.mark.parametrize(("solution", "lesson"), LESSONS, ids=lambda p: p.name)
def test_each_check_on_the_lessons_stub_prints_what_the_lesson_stores(solution, lesson):
    from helpers.llm import make_client

    client, model = make_client(verbose=False)
    namespace: dict = {"client": client, "model": model}
    stubs: set[str] = set()
    earlier: list[str] = []  # the shared cells so far, run only when a check needs what one of them binds
    checked = 0
    for a, b in _pairs(solution, lesson):
        if b is None or b["cell_type"] != "code":
            continue
        source = _source(b)
        _literals(source, namespace)
        if _source(a) == source and not _is_check(source):
            earlier.append(source)
        if _source(a) != source:  # the stub's definitions alone: the rest of its cell may need earlier cells
            tree = _parse(source)
            tree.body = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
            exec(compile(tree, f"{lesson.name} stub", "exec"), namespace)
            stubs |= _defined(source)
        elif _is_check(source) and _used(source) & stubs:  # a check of this lesson's exercise
            _run_what_it_needs(source, earlier, namespace, lesson.name)
            shown = _run(source, f"{lesson.name} check", namespace)
            assert shown == _text(b.get("outputs", [])), f"{lesson.name}: the check shows otherwise"
            assert "NOT DONE YET" in shown
            checked += 1
    assert checked, f"{lesson.name}: no check cell ran against a stub"


def _notebook(path, cells):
    nb = {"cells": [{"cell_type": "code", "id": str(i), "metadata": {}, "source": s, "outputs": o,
                     "execution_count": None} for i, (s, o) in enumerate(cells)],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))
    return path


def test_the_checks_catch_a_leak_and_a_stale_output(tmp_path):
    solution = _notebook(tmp_path / "s.ipynb", [("def f():\n    return 1", []), ("x = f()", []),
                                                ("print(2)", [{"output_type": "stream", "name": "stdout",
                                                               "text": "2\n"}])])
    lesson = _notebook(tmp_path / "l.ipynb", [("def f():\n    raise NotImplementedError", []), ("x = f()", []),
                                              ("print(2)", [])])
    with pytest.raises(AssertionError, match="uses the solution's"):
        test_no_later_cell_uses_the_students_code(solution, lesson)
    with pytest.raises(AssertionError, match="stores other outputs"):
        test_shared_cells_store_the_same_outputs(solution, lesson)
