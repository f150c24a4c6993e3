"""`make test-shapes`: every lesson, lesson solution, homework and homework solution, top to bottom, under every
shape of model_shapes.SHAPES, in a fresh kernel that reaches the shape as a real provider (serve.py).

    python tests/shapes/run_shapes.py                      # all notebooks, every shape
    python tests/shapes/run_shapes.py --shape reasoning notebooks/13-approval.ipynb

A notebook fails when a cell raises: a crash, or the cell's own `assert`; a solution notebook fails too when one of
its exercise or homework checks says anything but PASS (the checks record their results in HOMEWORK_RESULTS). Outputs are not compared (nbval compares
the offline model's) and nothing is written back. A notebook runs in its own folder, as nbval runs it.
Prints one line per notebook and shape, then the failures with the cell and the error's last lines; exits 1 if
any failed.

What it leaves out on purpose: running notebooks in parallel (a lesson and its solution write the same files
under data/, and the machine's cores are shared); `--jobs` is not offered for that reason.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from model_shapes import EVERY_SHAPE, SHAPES  # noqa: E402
from serve import ShapeServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIRS = ["notebooks", "notebooks/solutions", "notebooks/homework", "notebooks/homework/solutions"]


def every_notebook() -> list[Path]:
    return [path for folder in NOTEBOOK_DIRS for path in sorted((ROOT / folder).glob("*.ipynb"))]


def is_solution(path: Path) -> bool:
    return path.parent.name == "solutions"


def run_one(path: Path, env: dict[str, str], timeout: int = 600) -> str | None:
    """Run a notebook under the variables `env`; None when no cell raised and, in a solution notebook, every
    exercise or homework check printed PASS; else what went wrong (the failing cell, or the checks that did not
    pass, from the results the checks record in HOMEWORK_RESULTS)."""
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "checks.jsonl"
        failed = _execute(nb, path, {**env, "HOMEWORK_RESULTS": str(results)}, timeout)
        if failed or not is_solution(path):
            return failed
        checks = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    missed = [f"check {c['task']} ({c['title']}): {c['status']}: {c['hint']}" for c in checks if c["status"] != "pass"]
    return "\n    ".join(missed) if missed else None


def _execute(nb, path: Path, env: dict[str, str], timeout: int) -> str | None:
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)  # the kernel inherits this process's environment when it starts
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except CellExecutionError as err:
        lines = re.sub(r"\x1b\[[0-9;]*m", "", str(err)).strip().splitlines()
        index = next((i for i, cell in enumerate(nb.cells) if any(
            o.get("output_type") == "error" for o in cell.get("outputs", []))), None)
        return f"cell {index}: " + "\n    ".join(lines[-6:])
    except Exception as err:  # noqa: BLE001 -- a dead kernel or a timeout is a failure too, with its words
        return f"{type(err).__name__}: {err}"
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks to run (default: every one)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES),
                        help="a shape to run under (repeatable; default: every shape but 'combined')")
    args = parser.parse_args(argv)
    paths = [Path(p).resolve() for p in args.notebooks] or every_notebook()
    shapes = args.shape or EVERY_SHAPE
    failures: list[str] = []
    started = time.monotonic()
    for shape in shapes:
        with ShapeServer(shape) as server:
            for path in paths:
                began = time.monotonic()
                failed = run_one(path, server.env())
                name = path.relative_to(ROOT)
                print(f"{'FAIL' if failed else 'ok  '} {shape:<10} {name} ({time.monotonic() - began:.1f}s)",
                      flush=True)
                if failed:
                    failures.append(f"{shape} {name}: {failed}")
                    print("    " + failed, flush=True)
    total = time.monotonic() - started
    print(f"\n{len(paths) * len(shapes) - len(failures)} of {len(paths) * len(shapes)} notebook runs with no cell "
          f"raising, {len(shapes)} shapes, {total / 60:.1f} min")
    for failure in failures:
        print("\n" + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
