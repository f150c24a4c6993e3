"""Run notebooks top to bottom in a fresh kernel, store their outputs tidily, and time them.

`python -m helpers.maint.nbrun NB_OR_DIR...` is what `make notebooks` runs: each notebook gets a new kernel
started in the notebook's own folder (as nbval and JupyterLab do), every cell runs in order, and the
result is written back through helpers.maint.nbtidy, which merges the stream pieces a kernel splits by timing and
drops widget views with their run-specific ids: two runs in a row write the same bytes (tests/maint/test_nbrun.py).
A cell tagged `nbval-ignore-output` keeps its stored output while its code is unchanged: it shows what the
maintainer's machine has (a .env, a checkout), which nbval doesn't compare and the course shouldn't carry.
`--dry-run` runs and times without writing anything: that is the notebook benchmark (`make bench-notebooks`),
whose figures the README quotes.

The time printed is the kernel's start plus every cell, which is what a student waits for after
"Restart and run all". It leaves out the one-off start-up of Jupyter's own tools.

Left out on purpose: parallel runs (the machine has two cores and the kernels would fight over them).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from helpers.maint.nbtidy import tidy


def find_notebooks(paths: list[str]) -> list[Path]:
    """Notebooks named directly or found below folders, in name order, skipping checkpoints.

    Example:
        >>> from helpers import ROOT
        >>> [path.name for path in find_notebooks([str(ROOT / "notebooks")])][:2]
        ['00-setup.ipynb', '01-faq-search.ipynb']
    """
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif path.suffix == ".ipynb" and path.is_file():
            found.append(path)
        else:
            raise SystemExit(f"{name} is neither a notebook nor a folder. Pass .ipynb files or folders.")
    return found


def run_notebook(path: Path, *, write: bool = True, timeout: int = 300) -> float:
    """Execute one notebook in a fresh kernel; store its outputs unless write=False. Returns seconds.

    Example: (`run_notebook(Path("notebooks/01-faq-search.ipynb"))` returns its seconds, e.g. 4.8; a kernel start
    takes seconds, so here only what a wrong path gives)
        >>> run_notebook(Path("no-such-lesson.ipynb"))
        Traceback (most recent call last):
        FileNotFoundError: ...no-such-lesson.ipynb...
    """
    nb = nbformat.read(path, as_version=4)
    stored = _machine_dependent_outputs(nb)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent.resolve())}})
    started = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - started
    if write:
        _keep_machine_dependent_outputs(nb, stored)
        nbformat.write(nbformat.from_dict(tidy(nb)), path)
    return seconds


# A cell tagged nbval-ignore-output prints what depends on the machine that runs it (lesson 00's doctor reads
# the maintainer's .env; its git cell reads the checkout). Its new output would only be noise in the diff, and
# could carry a maintainer's paths into the course. So it keeps its stored output while its code is the code
# that made it (a hash of the source, kept in the cell's metadata); edit the code and the next run stores anew.
IGNORED_TAG = "nbval-ignore-output"
OUTPUT_OF = "output_of"


def _source_hash(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def _machine_dependent_outputs(nb) -> dict[str, list]:
    return {cell.get("id"): cell.get("outputs", []) for cell in nb.cells
            if cell.cell_type == "code" and IGNORED_TAG in cell.get("metadata", {}).get("tags", [])
            and cell.get("outputs") and cell.metadata.get(OUTPUT_OF) == _source_hash(cell.source)}


def _keep_machine_dependent_outputs(nb, stored: dict[str, list]) -> None:
    for cell in nb.cells:
        if cell.cell_type == "code" and IGNORED_TAG in cell.get("metadata", {}).get("tags", []):
            if cell.get("id") in stored:
                cell.outputs = stored[cell.get("id")]
            cell.metadata[OUTPUT_OF] = _source_hash(cell.source)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run notebooks top to bottom and store their outputs.")
    parser.add_argument("paths", nargs="+", help="notebooks or folders")
    parser.add_argument("--dry-run", action="store_true", help="run and time only; write nothing")
    args = parser.parse_args(argv)

    notebooks = find_notebooks(args.paths)
    times = []
    for path in notebooks:
        try:
            seconds = run_notebook(path, write=not args.dry_run)
        except CellExecutionError as exc:
            # The notebook on disk is untouched: a failed run never replaces good stored outputs.
            print(f"{path}: FAILED, nothing written.\n{str(exc)[-1500:]}", file=sys.stderr)
            return 1
        times.append(seconds)
        print(f"{seconds:6.1f} s  {path}", flush=True)
    if times:
        print(f"{sum(times):6.1f} s  total for {len(times)} notebook(s); slowest {max(times):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
