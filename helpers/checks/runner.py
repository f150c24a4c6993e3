"""The runner behind `make homework`: run each homework notebook headlessly and print a score table.

Each notebook runs in a fresh kernel (nbclient) with HOMEWORK_RESULTS naming a JSONL file; the checks append
their results there, so the runner never parses cell outputs. A task whose check never ran is listed as NOT
RUN, with the reason. Left out on purpose: grading scales and uploads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from helpers.checks.core import HOMEWORK_DIR, STATUS_MARK, TASKS, CheckResult
from helpers.tools import preview


def run_notebook(path: Path, timeout: int = 120) -> list[CheckResult]:
    """Execute one homework notebook headlessly and return the results of its checks, one per task.

    Example: (`make homework` runs each of notebooks/homework/*.ipynb so; a kernel start takes seconds, so here
    only what a wrong path gives)
        >>> run_notebook(Path("no-such-homework.ipynb"))
        Traceback (most recent call last):
        FileNotFoundError: ...no-such-homework.ipynb...
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as tmp:
        results_file = Path(tmp) / "results.jsonl"
        results_file.touch()
        previous = os.environ.get("HOMEWORK_RESULTS")
        os.environ["HOMEWORK_RESULTS"] = str(results_file)  # the kernel inherits this environment
        crashed = None
        try:
            # allow_errors: a broken cell must not hide the checks of later tasks.
            # The kernel's own stderr (start-up warnings) would clutter the table; cell errors are in outputs.
            NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                           resources={"metadata": {"path": str(path.parent)}}).execute(stderr=subprocess.DEVNULL)
        except Exception as e:  # noqa: BLE001 -- a dead kernel or a timeout still gets a score table
            crashed = f"{type(e).__name__}: {preview(str(e), 120)}"
        finally:
            if previous is None:
                os.environ.pop("HOMEWORK_RESULTS", None)
            else:
                os.environ["HOMEWORK_RESULTS"] = previous
        found = {}
        for line in results_file.read_text(encoding="utf-8").splitlines():
            r = CheckResult(**json.loads(line))
            found[r.task] = r  # a check run twice: the last run counts
    name = path.stem
    why = (f"the notebook stopped ({crashed})" if crashed else "its check didn't run: look for an error in the "
           "cells above it, or a deleted check cell")
    expected = TASKS.get(name, [(task, r.title) for task, r in sorted(found.items())])
    return [found.get(task) or CheckResult(name, task, title, "not run", why) for task, title in expected]


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def format_table(results: list[CheckResult]) -> str:
    """The score table `make homework` prints.

    Example:
        >>> print(format_table([CheckResult("01-search-and-rag", "1.1", "Count", "pass"),
        ...                     CheckResult("01-search-and-rag", "1.2", "Biggest", "fail", "count every section")]))
        notebook           task         status  hint
        -----------------------------------------------------------
        01-search-and-rag  1.1 Count    PASS
        01-search-and-rag  1.2 Biggest  FAIL    count every section
        <BLANKLINE>
        1/2 tasks pass.
    """
    rows = [("notebook", "task", "status", "hint")]
    rows += [(r.notebook, f"{r.task} {r.title}", STATUS_MARK.get(r.status, r.status), preview(r.hint, 90))
             for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True)) + "  " + row[3] for row in rows]
    lines.insert(1, "-" * min(max(len(line) for line in lines), 120))
    score = sum(r.passed for r in results)
    lines.append(f"\n{score}/{len(results)} tasks pass.")
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str]) -> int:
    targets = [Path(a) for a in argv] or [HOMEWORK_DIR]
    paths = []
    for target in targets:
        if target.is_dir():
            paths += sorted(p for p in target.glob("*.ipynb"))
        elif target.suffix == ".ipynb" and target.is_file():
            paths.append(target)
        else:
            print(f"{target}: not a notebook or a folder of notebooks. Pass e.g. notebooks/homework/.",
                  file=sys.stderr)
            return 2
    if not paths:
        print(f"No homework notebooks found in {', '.join(map(str, targets))}.", file=sys.stderr)
        return 2
    results = []
    for path in paths:
        print(f"running {_relative(path)} ...", flush=True)
        results += run_notebook(path)
    print()
    print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
