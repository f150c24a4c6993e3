"""Keep committed notebooks tidy and stable, in the spirit of nbdev's clean step.

`python -m helpers.maint.nbtidy NB...` rewrites notebooks in place; `--check` only reports (CI uses the test
in tests/test_notebook_hygiene.py, which calls `problems()`). helpers.maint.nbrun passes every run through
`tidy()`, so `make notebooks` run twice writes the same bytes twice.

Tidy means:
- no per-cell execution timestamps, no stray cell metadata except tags (and nbrun's output_of), and notebook metadata reduced to
  the kernelspec and language name (so no saved widget state either);
- consecutive stream outputs of one name merged into one, with carriage returns and backspaces applied
  as a terminal would: how the kernel splits printed text into messages depends on timing, not on the code;
- no widget views in outputs. Without the saved widget state (dropped above) a view can't be drawn, and
  its `model_id` is new every run; the widget's text summary (its `text/plain`) stays, so a saved notebook
  shows that line until you run the cell. nbval ignores widget views, so it is not affected.

It leaves the outputs' content alone: that comes from `make notebooks`, a clean top-to-bottom run.
Left out on purpose: merging streams that are not next to each other (stdout, stderr, stdout), because
that would change the order a student sees.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat

KEEP_CELL_METADATA = {"tags", "output_of"}  # output_of: see helpers.maint.nbrun (machine-dependent cells)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# The same rules nbval applies before it compares streams: text before a lone \r is overwritten, and a
# character followed by \b is erased.
_CARRIAGE_RETURN = re.compile(r"^.*\r(?=[^\n])", re.MULTILINE)
_BACKSPACE = re.compile("[^\n]\x08")  # \x08 is the backspace character (a raw \b would be a word boundary)


def _text(output: dict) -> str:
    text = output.get("text", "")
    return "".join(text) if isinstance(text, list) else text


def _as_terminal_shows(text: str) -> str:
    """Apply backspaces and carriage returns.

    Example:
        >>> _as_terminal_shows("10%\\r50%\\nab\\x08c\\n")
        '50%\\nac\\n'
    """
    while True:
        shorter = _BACKSPACE.sub("", text)
        if shorter == text:
            break
        text = shorter
    return _CARRIAGE_RETURN.sub("", text)


def tidy_outputs(outputs: list[dict]) -> list[dict]:
    """Merge neighbouring streams of one name and drop widget views; other outputs are kept as they are.

    Example:
        >>> tidy_outputs([{"output_type": "stream", "name": "stdout", "text": "a\\n"},
        ...               {"output_type": "stream", "name": "stdout", "text": "b\\n"}])
        [{'output_type': 'stream', 'name': 'stdout', 'text': 'a\\nb\\n'}]
    """
    tidied: list[dict] = []
    for output in outputs:
        output = dict(output)  # a shallow copy is enough: only top-level keys are replaced
        previous = tidied[-1] if tidied else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] = _text(previous) + _text(output)
            continue
        data = output.get("data")
        if isinstance(data, dict) and WIDGET_VIEW in data:
            others = {k: v for k, v in data.items() if k != WIDGET_VIEW}
            # An empty model_id makes JupyterLab hide the output instead of reporting a missing model.
            output["data"] = others or {WIDGET_VIEW: {**data[WIDGET_VIEW], "model_id": ""}}
        tidied.append(output)
    for output in tidied:
        if output.get("output_type") == "stream":
            text = _text(output)
            shown = _as_terminal_shows(text)
            if shown != text:
                output["text"] = shown
    return tidied


def tidy(nb: dict) -> dict:
    """Return a tidied copy of a notebook (as loaded JSON).

    Example:
        >>> tidy({"cells": [], "metadata": {"widgets": {}, "kernelspec": {"name": "python3"}}})
        {'cells': [], 'metadata': {'kernelspec': {'name': 'python3'}}}
    """
    nb = json.loads(json.dumps(nb))
    meta = nb.get("metadata", {})
    nb["metadata"] = {k: v for k, v in meta.items() if k == "kernelspec"}
    if "language_info" in meta:
        nb["metadata"]["language_info"] = {"name": meta["language_info"].get("name", "python")}
    for cell in nb.get("cells", []):
        cell["metadata"] = {k: v for k, v in cell.get("metadata", {}).items() if k in KEEP_CELL_METADATA}
        if "outputs" in cell:
            cell["outputs"] = tidy_outputs(cell["outputs"])
    return nb


def problems(path: Path) -> list[str]:
    """What keeps a committed notebook from being clean (empty when it is clean).

    Example:
        >>> from helpers import ROOT
        >>> problems(ROOT / "notebooks" / "01-faq-search.ipynb")
        []
    """
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    if tidy(nb) != nb:
        found.append("untidy (metadata, split stream outputs or widget views): run `make notebooks` "
                     "(or python -m helpers.maint.nbtidy FILE)")
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
