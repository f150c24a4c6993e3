"""Every `Example:` in a helpers docstring runs: it is followed by a `>>>` line, so `pytest --doctest-modules helpers`
(make unit, make test) runs it and checks its output. An example written as prose ("f(x) -> y") never ran, and
3 of 10 such examples were found wrong; this keeps new ones from coming back."""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parent.parent / "helpers"
MODULES = sorted(HELPERS.rglob("*.py"))


def examples_without_doctest(source: str) -> list[str]:
    """The functions and classes whose docstring says `Example:` with no `>>>` line after it, as "name (line N)"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        doc = ast.get_docstring(node, clean=False) or ""
        for after in doc.split("Example:")[1:]:  # each Example: up to the next one
            if not any(line.lstrip().startswith(">>>") for line in after.splitlines()):
                found.append(f"{node.name} (line {node.lineno})")
    return found


def test_the_rule_sees_a_prose_example_and_passes_a_doctest():
    prose = 'def f(x):\n    """Double. Example: f(2) -> 4"""\n'
    doctest = 'def f(x):\n    """Double.\n\n    Example:\n        >>> f(2)\n        4\n    """\n'
    assert examples_without_doctest(prose) == ["f (line 1)"]
    assert examples_without_doctest(doctest) == []


def test_there_are_helpers_modules():
    assert len(MODULES) > 20


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(HELPERS)))
def test_every_example_is_a_doctest(path):
    assert examples_without_doctest(path.read_text(encoding="utf-8")) == []


# pytest --doctest-modules skips __main__.py files, so their examples run here.
@pytest.mark.parametrize("module", ["helpers.__main__", "helpers.offline.__main__"])
def test_the_examples_of_main_modules_run(module):
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(importlib.import_module(module), optionflags=flags)
    assert result.attempted > 0 and result.failed == 0
