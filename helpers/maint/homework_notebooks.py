"""Write the student homework notebooks from the solutions, so both come from one source.

`make homework-notebooks` runs it.

The solutions in notebooks/homework/solutions/ are the source. In them, the part a student writes is marked
the nbgrader way, and the student notebook in notebooks/homework/ is the solution with each marked part
replaced by a stub:

    def count_entries(documents, course):
        ### BEGIN SOLUTION
        return sum(1 for doc in documents if doc["course"] == course)
        ### END SOLUTION

becomes `# your code here` and `raise NotImplementedError`, indented like the BEGIN line (DEFAULT_STUB).
A region that starts a student with something else says so with `### STUB: <line>` lines (one per stub
line, kept as written after the one space), and a region with `### NO STUB` leaves nothing. In markdown
cells, prose only the solutions show sits between `<!-- BEGIN SOLUTION -->` and `<!-- END SOLUTION -->`
lines (HTML comments, so the solution notebook renders without them). A cell left empty is dropped, which is
how a whole cell stays in the solutions only. Two rules need no marker: the title's " (solutions)" goes, and
a relative link that leaves the solutions/ folder is rewritten for the student notebook's folder (a link to
a sibling notebook stays, so it points to the student's own copy).

`python -m helpers.maint.homework_notebooks` writes each student notebook whose cells differ from the
generated ones (cell types, sources and ids), then re-runs it with helpers.maint.nbrun so that its outputs
come from a clean run; `--check` only lists the notebooks that differ; `--no-run` writes without running.
tests/maint/test_homework_notebooks.py asserts that the committed notebooks are what this module makes.

Left out on purpose: nbgrader itself (its grading database and hidden tests are more than a self-check
course needs; the helpers.checks checks do the grading) and any edit to a student notebook's own outputs,
which come from running it.
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from pathlib import Path

import nbformat

from helpers import ROOT
from helpers.maint.nbtidy import tidy

STUDENT_DIR = ROOT / "notebooks" / "homework"
SOLUTION_DIR = STUDENT_DIR / "solutions"
# The lessons' exercises work the same way: notebooks/solutions/NN-topic.ipynb is the source of the lesson
# notebooks/NN-topic.ipynb, with the exercise's solution in marked regions.
LESSON_DIR = ROOT / "notebooks"
LESSON_SOLUTION_DIR = LESSON_DIR / "solutions"

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB, NO_STUB = "### STUB:", "### NO STUB"
MD_BEGIN, MD_END = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"
DEFAULT_STUB = ["# your code here", "raise NotImplementedError"]
TITLE_SUFFIX = " (solutions)"
# A markdown link or image target: [text](target) or ![alt](target); the target has no spaces.
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


class MarkerError(ValueError):
    """A solution notebook's markers don't pair up. The message names the notebook, the cell and the line."""


def _where(path: Path, cell: int, line: int) -> str:
    return f"{path.name}, cell {cell}, line {line}"


def strip_code_regions(source: str, *, where: tuple[Path, int] = (Path("?"), 0)) -> str:
    """The student's version of one code cell: each solution region replaced by its stub.

    Example:
        >>> print(strip_code_regions("def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION"))
        def f():
            # your code here
            raise NotImplementedError
    """
    out: list[str] = []
    region: dict | None = None  # the open region: its indentation, its stub lines, whether it has none
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker.startswith(BEGIN):
            if region is not None:
                raise MarkerError(f"{_where(*where, number)}: a second {BEGIN} before {END}; regions don't nest.")
            region = {"indent": line[: len(line) - len(line.lstrip())], "stub": [], "none": False, "start": number}
        elif marker.startswith(END):
            if region is None:
                raise MarkerError(f"{_where(*where, number)}: {END} without a {BEGIN} above it.")
            if not region["none"]:
                out += [region["indent"] + stub for stub in (region["stub"] or DEFAULT_STUB)]
            region = None
        elif region is not None:
            if marker.startswith(STUB):
                text = marker[len(STUB):]
                region["stub"].append(text[1:] if text.startswith(" ") else text)
            elif marker == NO_STUB:
                region["none"] = True
            # any other line of the region is solution: it is left out
        elif marker.startswith((STUB, NO_STUB)):
            raise MarkerError(f"{_where(*where, number)}: {marker.split(':')[0]} outside a solution region.")
        else:
            out.append(line)
    if region is not None:
        raise MarkerError(f"{_where(*where, region['start'])}: {BEGIN} is never closed with {END}.")
    return "\n".join(out).strip("\n")


def strip_markdown_regions(source: str, *, where: tuple[Path, int] = (Path("?"), 0)) -> str:
    """The student's version of one markdown cell: solution-only lines and the title suffix removed.

    Example:
        >>> strip_markdown_regions("# HW (solutions)\\n<!-- BEGIN SOLUTION -->\\nRead me.\\n<!-- END SOLUTION -->\\nGo.")
        '# HW\\nGo.'
    """
    out: list[str] = []
    start, just_closed = None, False
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker == MD_BEGIN:
            if start is not None:
                raise MarkerError(f"{_where(*where, number)}: a second {MD_BEGIN} before {MD_END}.")
            start = number
        elif marker == MD_END:
            if start is None:
                raise MarkerError(f"{_where(*where, number)}: {MD_END} without a {MD_BEGIN} above it.")
            start, just_closed = None, True
        elif start is None:
            # A region between two paragraphs leaves a blank line on each side: keep one.
            if just_closed and not marker and out and not out[-1].strip():
                just_closed = False
                continue
            just_closed = False
            if line.startswith("#") and line.endswith(TITLE_SUFFIX):
                line = line[: -len(TITLE_SUFFIX)]
            out.append(line)
    if start is not None:
        raise MarkerError(f"{_where(*where, start)}: {MD_BEGIN} is never closed with {MD_END}.")
    return "\n".join(out).strip("\n")


def rebase_links(markdown: str, source_dir: Path = SOLUTION_DIR, target_dir: Path = STUDENT_DIR) -> str:
    """Rewrite relative links that leave `source_dir` so that they work from `target_dir`.

    Example:
        >>> rebase_links("[README](../../../README.md), [HW 02](02-the-loop.ipynb)")
        '[README](../../README.md), [HW 02](02-the-loop.ipynb)'
    """
    def rebase(match: re.Match) -> str:
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target):  # a URL, an anchor or an absolute path
            return match.group(0)
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(source_dir.as_posix(), path))
        if resolved.startswith(source_dir.as_posix() + "/"):
            return match.group(0)  # a sibling notebook: the student's copy has the same name
        moved = posixpath.relpath(resolved, target_dir.as_posix())
        return match.group(1) + moved + (f"#{anchor}" if anchor else "") + match.group(3)

    return _LINK.sub(rebase, markdown)


def student_notebook(solution: Path, student_dir: Path = STUDENT_DIR) -> dict:
    """The student notebook made from one solution notebook, without outputs (nbrun adds them).

    Example:
        >>> print(student_notebook(SOLUTION_DIR / "01-search-and-rag.ipynb")["cells"][4]["source"])
        def count_entries(documents, course):
            # your code here
            raise NotImplementedError
    """
    nb = nbformat.read(solution, as_version=4)
    cells = []
    for index, cell in enumerate(nb.cells):
        where = (solution, index)
        if cell.cell_type == "code":
            source = strip_code_regions(cell.source, where=where)
            new = nbformat.v4.new_code_cell(source)
        else:
            source = rebase_links(strip_markdown_regions(cell.source, where=where), solution.parent, student_dir)
            make = nbformat.v4.new_markdown_cell if cell.cell_type == "markdown" else nbformat.v4.new_raw_cell
            new = make(source)
        if not source.strip():
            continue  # a cell that only the solutions have
        new.id = cell.id  # stable ids, so a second run changes nothing
        new.metadata = dict(cell.get("metadata", {}))
        cells.append(new)
    student = nbformat.v4.new_notebook(cells=cells, metadata=nb.metadata)
    student.nbformat_minor = nb.nbformat_minor
    return tidy(student)


def shape(nb: dict) -> list[tuple[str, str, str | None]]:
    """What the generator decides about a notebook: each cell's type, source and id (not its outputs).

    Example:
        >>> kind, source, cell_id = shape(student_notebook(SOLUTION_DIR / "01-search-and-rag.ipynb"))[0]
        >>> kind, source.splitlines()[0], cell_id
        ('markdown', '# Homework 01 · Search and RAG', '2e302452')
    """
    return [(c["cell_type"], "".join(c["source"]), c.get("id")) for c in nb["cells"]]


def pairs() -> list[tuple[Path, Path]]:
    """Each solution notebook and the student notebook made from it: the homework's, then the lessons'.

    Example:
        >>> [path.relative_to(ROOT).as_posix() for path in pairs()[0]]
        ['notebooks/homework/solutions/01-search-and-rag.ipynb', 'notebooks/homework/01-search-and-rag.ipynb']
    """
    return [(path, target / path.name) for source, target in ((SOLUTION_DIR, STUDENT_DIR),
                                                              (LESSON_SOLUTION_DIR, LESSON_DIR))
            for path in sorted(source.glob("*.ipynb"))]


def _needs_run(nb: dict) -> bool:
    return any(c["cell_type"] == "code" and c["source"] and c.get("execution_count") is None for c in nb["cells"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.maint.homework_notebooks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the student notebooks that differ")
    parser.add_argument("--no-run", action="store_true", help="write the notebooks without running them")
    args = parser.parse_args(argv)

    stale, to_run = [], []
    for solution, student in pairs():
        try:
            made = student_notebook(solution, student.parent)
        except MarkerError as err:
            print(f"{err} Fix the markers in {solution}.", file=sys.stderr)
            return 2
        current = nbformat.read(student, as_version=4) if student.exists() else None
        if current is not None and shape(current) == shape(made) and current.metadata == made["metadata"]:
            if _needs_run(current):
                to_run.append(student)  # written by an earlier run whose notebook run failed
            continue
        stale.append(student)
        if not args.check:
            nbformat.write(nbformat.from_dict(made), student)
            to_run.append(student)
            print(f"wrote {student.relative_to(ROOT)}")
    if args.check:
        for student in stale:
            print(f"{student.relative_to(ROOT)} differs from its solution notebook: run make homework-notebooks")
        return 1 if stale else 0
    if not stale:
        print("The student notebooks are up to date with the solutions.")
    if to_run and not args.no_run:
        from helpers.maint.nbrun import main as nbrun

        return nbrun([str(path) for path in to_run])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
