"""How `make test` runs fast: on every core with a notebook whole on one worker, slowest units first, and a
small fixed budget for the property tests (a deeper one weekly).

The parallel run itself is `make test`; these check the pieces without starting workers or kernels.
"""

import os
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import settings
from slow_first import slowest_first

from helpers.maint.bench_tests import load_durations, per_unit, report, unit_of

ROOT = Path(__file__).resolve().parent.parent


def items(*nodeids):
    return [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]


def ids(found):
    return [item.nodeid for item in found]


def test_a_unit_is_what_loadscope_keeps_on_one_worker():
    assert unit_of("notebooks/01-faq-search.ipynb::Cell 3") == "notebooks/01-faq-search.ipynb"
    assert unit_of("tests/test_a.py::test_x[1]") == "tests/test_a.py"
    assert unit_of("tests/test_a.py::TestThing::test_y") == "tests/test_a.py::TestThing"


def test_slowest_units_come_first_each_whole_and_in_its_own_order():
    collected = items("tests/test_a.py::one", "tests/test_a.py::two", "nb.ipynb::Cell 0", "nb.ipynb::Cell 1",
                      "nb.ipynb::Cell 2", "tests/test_b.py::three")
    durations = {"tests/test_a.py": 1.0, "nb.ipynb": 9.0, "tests/test_b.py": 2.0}
    assert ids(slowest_first(collected, durations)) == [
        "nb.ipynb::Cell 0", "nb.ipynb::Cell 1", "nb.ipynb::Cell 2", "tests/test_b.py::three",
        "tests/test_a.py::one", "tests/test_a.py::two"]


def test_a_unit_not_timed_yet_goes_first_and_no_figures_change_nothing():
    collected = items("tests/test_a.py::one", "tests/test_new.py::x", "tests/test_b.py::y")
    assert ids(slowest_first(collected, {"tests/test_a.py": 5.0, "tests/test_b.py": 1.0})) == [
        "tests/test_new.py::x", "tests/test_a.py::one", "tests/test_b.py::y"]
    assert ids(slowest_first(collected, {})) == ids(collected)


def test_the_committed_figures_name_real_units(tmp_path):
    durations = load_durations()
    assert durations and all(seconds >= 0 for seconds in durations.values())
    assert all((ROOT / unit.split("::")[0]).is_file() for unit in durations), "run make bench-tests to refresh"
    (tmp_path / "bad.json").write_text("[1, 2")
    assert load_durations(tmp_path / "bad.json") == {} and load_durations(tmp_path / "missing.json") == {}


def test_the_benchmark_report_names_the_slowest_and_the_totals():
    seconds = {"tests/test_a.py::x": 1.0, "tests/test_a.py::y": 2.5, "nb.ipynb::Cell 0": 4.0}
    assert per_unit(seconds) == {"tests/test_a.py": 3.5, "nb.ipynb": 4.0}
    text = report(seconds, wall=5.0, workers=2, top=1)
    assert text.startswith("wall 5.0 s for 3 items on 2 worker(s); the tests' own seconds: 7.5 s "
                           "(unit tests 3.5 s, notebooks under nbval 4.0 s)")
    slowest_tests, slowest_units = text.split("slowest 1 units")
    assert "nb.ipynb::Cell 0" in slowest_tests and "tests/test_a.py::y" not in slowest_tests
    assert re.search(r"4\.0 s  nb\.ipynb$", slowest_units, re.M)


def test_make_test_keeps_each_notebook_and_file_on_one_worker():
    # --dist load would send a notebook's cells to different workers, whose kernels lack the earlier cells' work.
    out = subprocess.run(["make", "-n", "--no-print-directory", "test"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    [command] = [line for line in out.splitlines() if "/pytest " in line]
    assert "--nbval" in command and " -n auto" in command
    assert "--dist loadscope" in command and "--no-loadscope-reorder" in command  # our order: slowest first


def test_property_tests_draw_a_fixed_small_budget_unless_the_deep_profile_is_chosen():
    fast, deep = settings.get_profile("fast"), settings.get_profile("deep")
    assert fast.derandomize and fast.database is None and not deep.derandomize
    assert deep.max_examples == 10 * fast.max_examples
    if os.environ.get("HYPOTHESIS_PROFILE", "fast") in ("", "fast"):
        assert settings.default.max_examples == fast.max_examples and settings.default.derandomize


def test_a_kernel_that_never_answers_is_started_once_more_and_then_fails():
    from conftest import _start_kernel_twice

    attempts = []

    def flaky(*args, **kwargs):
        attempts.append(args)
        if len(attempts) == 1:
            raise RuntimeError("Kernel didn't respond in 60 seconds")
        return "km", "kc"

    assert _start_kernel_twice(flaky)("python") == ("km", "kc") and len(attempts) == 2

    def dead(*args, **kwargs):
        raise RuntimeError("Kernel didn't respond in 60 seconds")

    with pytest.raises(RuntimeError):
        _start_kernel_twice(dead)()
