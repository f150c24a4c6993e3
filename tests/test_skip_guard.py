"""tests/skip_guard.py: in CI a skip without an allowed reason fails the run, for tests and notebook cells."""

import json

import pytest

SUITE = {
    "test_plain.py": "def test_ok():\n    assert True\n",
    "test_skips.py": (
        "import pytest\n\n"
        "def test_skipped_for_a_listed_reason():\n    pytest.skip('the network is down')\n\n"
        "@pytest.mark.skipif(True, reason='spec missing')\n"
        "def test_skipped_by_a_mark():\n    pass\n"
    ),
}


class Result:
    def __init__(self, outcome):
        self.returncode, self.stdout = int(outcome.ret), outcome.stdout.str()


def run(pytester, monkeypatch, files, ci=True, allowed="", extra=()):
    """Run a tiny suite in-process (pytester) with the guard loaded as `make test` loads it."""
    for name, text in files.items():
        (pytester.path / name).write_text(text)
    allow_list = pytester.path / "allowed.txt"
    allow_list.write_text(allowed)
    monkeypatch.setenv("SKIPS_ALLOWED", str(allow_list))
    monkeypatch.delenv("CI", raising=False)
    if ci:
        monkeypatch.setenv("CI", "true")
    # Without hypothesis's plugin: pytester re-imports whatever a run imports, and hypothesis takes seconds.
    return Result(pytester.runpytest("-p", "skip_guard", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                                     "-q", *extra))


def test_unlisted_skips_fail_the_run_in_ci_and_are_named(pytester, monkeypatch):
    result = run(pytester, monkeypatch, SUITE, allowed="the network is down\n")
    assert result.returncode == 1, result.stdout
    assert "skips not allowed in CI" in result.stdout
    assert "test_skips.py::test_skipped_by_a_mark: spec missing" in result.stdout
    assert "test_skipped_for_a_listed_reason" not in result.stdout.split("skips not allowed in CI")[1]


def test_listed_skips_pass_in_ci(pytester, monkeypatch):
    result = run(pytester, monkeypatch, SUITE, allowed="# comment\nthe network * down\nspec missing\n")
    assert result.returncode == 0, result.stdout
    assert "2 skipped" in result.stdout


def test_outside_ci_skips_are_only_reported(pytester, monkeypatch):
    result = run(pytester, monkeypatch, SUITE, ci=False)
    assert result.returncode == 0, result.stdout
    assert "skips not allowed" not in result.stdout


def test_a_module_skipped_at_import_and_an_xfail_count_too(pytester, monkeypatch):
    files = {
        "test_module.py": "import pytest\npytest.skip('engine not built', allow_module_level=True)\n",
        "test_xfail.py": "import pytest\n\n@pytest.mark.xfail(reason='known bug')\ndef test_x():\n    assert False\n",
    }
    result = run(pytester, monkeypatch, files)
    assert result.returncode == 1, result.stdout
    assert "test_module.py: engine not built" in result.stdout
    assert "test_xfail.py::test_x: xfail: known bug" in result.stdout


def test_importorskip_of_a_broken_module_cannot_hide_in_ci(pytester, monkeypatch):
    files = {"test_imports.py": "import pytest\nengine = pytest.importorskip('no_such_engine_module')\n\n"
                                "def test_a():\n    pass\n\ndef test_b():\n    pass\n"}
    result = run(pytester, monkeypatch, files)
    assert result.returncode == 1 and "no_such_engine_module" in result.stdout


def test_a_failure_keeps_its_own_exit_status(pytester, monkeypatch):
    files = {**SUITE, "test_fail.py": "def test_fails():\n    assert False\n"}
    result = run(pytester, monkeypatch, files)
    assert result.returncode == 1 and "1 failed" in result.stdout


def test_skipped_notebook_cells_under_nbval_are_caught(pytester, monkeypatch):
    notebook = {"cells": [
        {"cell_type": "code", "id": "a1", "execution_count": 1, "metadata": {}, "outputs": [
            {"name": "stdout", "output_type": "stream", "text": ["2\n"]}], "source": ["print(1 + 1)"]},
        {"cell_type": "code", "id": "a2", "execution_count": 2, "metadata": {}, "outputs": [], "source": ["# NBVAL_SKIP\n", "x = 1"]},
    ], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}
    result = run(pytester, monkeypatch, {"lesson.ipynb": json.dumps(notebook)}, extra=("--nbval", "--nbval-current-env"))
    assert "1 passed, 1 skipped" in result.stdout, result.stdout + result.stderr
    assert result.returncode == 1
    assert "lesson.ipynb::Cell 1: (no reason given)" in result.stdout


@pytest.mark.parametrize("reason,expected", [("Skipped: x", "x"), ("plain", "plain"), ("Skipped", "")])
def test_skip_reason_strips_pytests_prefix(reason, expected):
    from skip_guard import skip_reason

    class Report:
        longrepr = ("file.py", 1, reason)

    assert skip_reason(Report()) == expected


def test_the_real_allow_list_parses_and_is_short():
    from skip_guard import ALLOW_LIST, allowed_patterns

    patterns = allowed_patterns(ALLOW_LIST)
    assert 0 < len(patterns) <= 3  # every entry needs a reason; the goal is none
    assert not any(p in {"*", "?*"} for p in patterns)
