"""Time the test suite: its wall time, the slowest tests, the slowest units (files, notebooks), and the totals.

`python -m helpers.maint.bench_tests [--top N] [--save] -- PYTEST_ARGS` is what `make bench-tests` runs, with the
pytest arguments of `make test`. It runs pytest in this process (pytest.main) with a small plugin that adds up
each test's setup, call and teardown seconds from its reports; under pytest-xdist the reports reach this
process with the seconds measured on the worker. It prints the wall time, the items and workers, the tests'
own seconds (unit tests and notebook cells apart), and the N slowest tests and units. A unit is what
xdist's `--dist loadscope` keeps on one worker: a test file (a test class on its own) or a notebook.
`--save` writes {unit: seconds} to tests/durations.json, which tests/slow_first.py reads to hand the slowest
units out first; commit it when the suite's shape changed.

The figures depend on the machine and on what else runs on it; the README quotes them with both.
Left out: collection and worker start-up per unit (pytest reports none); they are in the wall time only.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DURATIONS = ROOT / "tests" / "durations.json"


def unit_of(nodeid: str) -> str:
    """The unit xdist's loadscope keeps together: the node id up to its last `::` (a file, a class, a notebook).

    Example:
        >>> unit_of("notebooks/01-faq-search.ipynb::Cell 3")
        'notebooks/01-faq-search.ipynb'
    """
    return nodeid.rsplit("::", 1)[0]


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """{unit: seconds} as saved by --save; empty when the file is missing or unreadable.

    Example:
        >>> load_durations(Path("no-such-file.json"))
        {}
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(unit): float(seconds) for unit, seconds in data.items()} if isinstance(data, dict) else {}


def per_unit(seconds: dict[str, float]) -> dict[str, float]:
    """Test seconds added up per unit.

    Example:
        >>> per_unit({"tests/test_a.py::x": 1.0, "tests/test_a.py::y": 2.0})
        {'tests/test_a.py': 3.0}
    """
    units: dict[str, float] = defaultdict(float)
    for nodeid, value in seconds.items():
        units[unit_of(nodeid)] += value
    return dict(units)


class Timings:
    """A pytest plugin: seconds per test (setup + call + teardown), from the reports the session sees."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.workers: set[str] = set()

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] += report.duration
        node = getattr(report, "node", None)  # xdist sets it on the reports a worker sends
        if node is not None:
            self.workers.add(node.gateway.id)


def report(seconds: dict[str, float], wall: float, workers: int, top: int) -> str:
    """The printed summary: totals, then the `top` slowest tests and units.

    Example:
        >>> print(report({"tests/test_a.py::x": 1.5}, wall=3.0, workers=2, top=5).splitlines()[0])
        wall 3.0 s for 1 items on 2 worker(s); the tests' own seconds: 1.5 s (unit tests 1.5 s, notebooks under
        nbval 0.0 s)
    """
    notebooks = sum(s for nodeid, s in seconds.items() if unit_of(nodeid).endswith(".ipynb"))
    total = sum(seconds.values())
    lines = [f"wall {wall:.1f} s for {len(seconds)} items on {workers or 1} worker(s); the tests' own seconds: "
             f"{total:.1f} s (unit tests {total - notebooks:.1f} s, notebooks under nbval {notebooks:.1f} s)",
             "", f"slowest {top} tests (setup + call + teardown):"]
    lines += [f"{s:7.1f} s  {nodeid}" for nodeid, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]]
    lines += ["", f"slowest {top} units (what one worker runs whole: a file, a test class, a notebook):"]
    lines += [f"{s:7.1f} s  {unit}" for unit, s in sorted(per_unit(seconds).items(), key=lambda kv: -kv[1])[:top]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the tests and print the slowest ones and the totals.")
    parser.add_argument("--top", type=int, default=15, help="how many tests and units to list (default 15)")
    parser.add_argument("--save", action="store_true", help=f"write seconds per unit to {DURATIONS.relative_to(ROOT)}")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments, after --")
    args = parser.parse_args(argv)

    import pytest  # here, not at the top: tests/slow_first.py imports this module inside every pytest worker

    timings = Timings()
    started = time.perf_counter()
    status = pytest.main(args.pytest_args, plugins=[timings])
    wall = time.perf_counter() - started
    print()
    print(report(timings.seconds, wall, len(timings.workers), args.top))
    if args.save and status == 0:
        units = {unit: round(s, 1) for unit, s in sorted(per_unit(timings.seconds).items())}
        DURATIONS.write_text(json.dumps(units, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {DURATIONS.relative_to(ROOT)} ({len(units)} units)")
    elif args.save:
        print(f"\nthe run did not pass (pytest exit status {int(status)}): {DURATIONS.relative_to(ROOT)} left as it was")
    return int(status)


if __name__ == "__main__":
    raise SystemExit(main())
