"""`make test-shapes`: every lesson, lesson solution, homework and homework solution runs top to bottom under every
shape of a real model (model_shapes.SHAPES) with no cell raising, and in every solution notebook each exercise and
homework check prints PASS.

Not part of `make test` (pyproject's --ignore; naming this file on the command line collects it): 49 notebooks
under six shapes took 18 min on two cores on 2026-12-02. `make test` runs lesson 04's solution under the
combined shape (test_shapes.py); the weekly GitHub job runs this file. Each pytest-xdist worker serves its own
shapes (a proxy per shape, started when first needed).
"""

import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_shapes import EVERY_SHAPE  # noqa: E402
from run_shapes import ROOT, every_notebook, run_one  # noqa: E402
from serve import ShapeServer  # noqa: E402

_servers: dict[str, ShapeServer] = {}


@pytest.fixture(scope="module", autouse=True)
def _stop_servers():
    yield
    for server in _servers.values():
        server.__exit__()


def server_for(shape: str) -> ShapeServer:
    if shape not in _servers:
        _servers[shape] = ShapeServer(shape).__enter__()
    return _servers[shape]


# A lesson and its solution (and a homework and its solution) write the same files under data/: every run of one
# stem stays on one pytest-xdist worker (--dist loadgroup), one after another; different stems run side by side.
CASES = [pytest.param(shape, str(path.relative_to(ROOT)), marks=pytest.mark.xdist_group(path.stem),
                      id=f"{shape}-{path.relative_to(ROOT)}")
         for path in every_notebook() for shape in EVERY_SHAPE]


@contextmanager
def one_run_of(stem: str):
    """Runs of one stem one after another, whichever worker has them: on 2026-12-02 the xdist_group marks above
    were seen not to keep lesson 13's runs on one worker (its two notebooks then raced on data/lesson13/), and
    with pytest 9.2 and pytest-xdist 3.8 `--dist loadgroup` did not group even four marked cases of a bare test
    file. The marks stay for the day it does again (a worker then never waits on this lock); the lock file per
    stem makes sure of it meanwhile. fcntl is POSIX, as the weekly job's runner is."""
    import fcntl

    folder = ROOT / "data" / "shape-locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{stem}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.mark.parametrize("shape, notebook", CASES)
def test_every_notebook_runs_and_every_solution_passes_its_checks(shape, notebook):
    with one_run_of(Path(notebook).stem):
        failed = run_one(ROOT / notebook, server_for(shape).env())
    assert failed is None, f"{notebook} under the {shape} shape: {failed}"
