"""A pytest plugin: under pytest-xdist, the slowest test files and notebooks are handed out first.

Why: `make test` runs on every core with `--dist loadscope`. Each test file (a test class on its own) and each
notebook is one unit of work that one worker runs whole and in order: a notebook's cells depend on the cells
before them, and a file's module fixtures are set up once. Workers take units in the order collected, and a
slow notebook collected last would keep one worker busy while the others sit idle. So, on the workers, the
items are reordered by the seconds each unit took in the last `make bench-tests` (tests/durations.json),
slowest first; the idle tail is then one of the quick units. A unit missing from the file (a new one) goes
first, since it may be slow. Within a unit the order never changes.

A lesson and its solution notebook (the same file name, in notebooks/ and notebooks/solutions/; likewise a
homework and its solution) form one unit of work: they run the same cells, which write the same files under
data/ (lesson 07's trace, lesson 15's fact store, lesson 16's git repository), so two workers running them at
once would read each other's writes. `PairedNotebooks` keeps each pair on one worker, one after the other.

Left out on purpose: a run without xdist (`pytest tests/test_x.py`) keeps pytest's own order, file after file
as a reader expects. And the figures are only a guide: stale ones cost a few seconds of balance, never a
wrong result.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

import pytest
from xdist.scheduler import LoadScopeScheduling

from helpers.maint.bench_tests import load_durations, unit_of


def slowest_first(items: list, durations: dict[str, float]) -> list:
    """The items regrouped by unit, units slowest first (unknown units before all), each unit's order kept.

    Example: slowest_first(items, {"tests/test_a.py": 1.0, "tests/test_b.py": 5.0}) -> test_b's items, then test_a's
    """
    if not durations:
        return list(items)
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(unit_of(item.nodeid), len(first_seen))
    unknown = float("inf")
    # sorted() is stable and the key only depends on the unit, so a unit's items keep their order.
    return sorted(items, key=lambda item: (-durations.get(unit_of(item.nodeid), unknown),
                                           first_seen[unit_of(item.nodeid)]))


@pytest.hookimpl(trylast=True)  # after any other plugin has reordered: units stay whole
def pytest_collection_modifyitems(session, config, items) -> None:
    # Only on xdist's workers: every worker must collect the same list in the same order, and this order
    # depends only on the committed file, so it is the same on each.
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = slowest_first(items, load_durations())


class PairedNotebooks(LoadScopeScheduling):
    """--dist loadscope, except that notebooks with the same file name (a lesson and its solution) are one scope.

    Example: "notebooks/07-safety-nets.ipynb::Cell 3" and "notebooks/solutions/07-safety-nets.ipynb::Cell 9"
    -> both "notebook 07-safety-nets.ipynb"; "tests/test_a.py::test_b" -> "tests/test_a.py"; a test that runs a
    notebook and names it as its parameter, "tests/shapes/test_shapes.py::test_x[notebooks/13-approval.ipynb]",
    -> "notebook 13-approval.ipynb": it writes the same files under data/ as nbval's run of that notebook.
    """

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        if path.endswith(".ipynb"):
            return f"notebook {PurePosixPath(path).name}"
        if found := re.search(r"\[([^\[\]]*\.ipynb)\]$", nodeid):
            return f"notebook {PurePosixPath(found.group(1)).name}"
        return super()._split_scope(nodeid)


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: `-p no:xdist` has no such hook
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadscope":
        return PairedNotebooks(config, log)
    return None
