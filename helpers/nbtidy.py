"""Keep committed notebooks tidy, in the spirit of nbdev's clean step.

`python -m helpers.nbtidy NB...` rewrites notebooks in place; `--check` only reports (CI uses the test
in tests/test_notebook_hygiene.py, which calls `problems()`).

Tidy means: no per-cell execution timestamps, no widget state blobs, no stray cell metadata except tags,
and notebook metadata reduced to the kernelspec and language name. It leaves outputs alone: those come
from `make notebooks`, a clean top-to-bottom run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat

KEEP_CELL_METADATA = {"tags"}


def tidy(nb: dict) -> dict:
    """Return a tidied copy of a notebook (as loaded JSON).

    Example: tidy({"cells": [], "metadata": {"widgets": {...}}, ...})["metadata"] -> {}
    """
    nb = json.loads(json.dumps(nb))
    meta = nb.get("metadata", {})
    nb["metadata"] = {k: v for k, v in meta.items() if k == "kernelspec"}
    if "language_info" in meta:
        nb["metadata"]["language_info"] = {"name": meta["language_info"].get("name", "python")}
    for cell in nb.get("cells", []):
        cell["metadata"] = {k: v for k, v in cell.get("metadata", {}).items() if k in KEEP_CELL_METADATA}
    return nb


def problems(path: Path) -> list[str]:
    """What keeps a committed notebook from being clean (empty when it is clean).

    Example: problems(Path("notebooks/01-faq-search.ipynb")) -> []
    """
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    if tidy(nb) != nb:
        found.append("untidy metadata: run `make notebooks` (or python -m helpers.nbtidy FILE)")
    counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code" and c["source"]]
    if counts != list(range(1, len(counts) + 1)):
        found.append(f"execution counts {counts} are not 1..{len(counts)}: outputs must come from one clean "
                     f"top-to-bottom run (`make notebooks`)")
    for i, cell in enumerate(nb["cells"]):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors and "raises-exception" not in cell["metadata"].get("tags", []):
            found.append(f"cell {i} stores an error ({errors[0].get('ename')}) without the raises-exception tag")
    return found


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"]
    files = [p for a in paths for p in (sorted(a.rglob("*.ipynb")) if a.is_dir() else [a])]
    status = 0
    for path in files:
        if ".ipynb_checkpoints" in path.parts:
            continue
        if check:
            for problem in problems(path):
                print(f"{path}: {problem}")
                status = 1
        else:
            nb = json.loads(path.read_text(encoding="utf-8"))
            # nbformat writes the same layout as Jupyter and nbconvert, so a tidy pass makes no noisy diff.
            nbformat.write(nbformat.from_dict(tidy(nb)), path)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
