"""Write the .pth file that makes rfc3987_syntax build its IRI parser late (helpers/maint/lazy_iri.py says why).

    python -m helpers.maint.lazy_iri_install      # `make install` runs it

What it does: writes `agent_loop_course_lazy_iri.pth` into this environment's site-packages (unchanged when it is
already there). Its one line imports helpers.maint.lazy_iri at every start-up of this environment's Python.
A module of its own because that line imports lazy_iri before anything runs: `python -m helpers.maint.lazy_iri`
would run a module already imported, which runpy warns about.
What it leaves out on purpose: other environments, and removing the file (delete it by hand; imports then build the
parser at once, as before).
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

PTH_NAME = "agent_loop_course_lazy_iri.pth"
# Sorted after __editable__.agent_loop_course_helpers-*.pth (site reads .pth files by name), which makes helpers
# importable; "import" starts the line so that site runs it.
PTH_LINE = "import helpers.maint.lazy_iri; helpers.maint.lazy_iri.install()\n"


def write_pth(site_packages: Path) -> Path:
    """Write the .pth file into `site_packages` (unchanged if it is already there) and return its path.

    Example:
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = write_pth(Path(folder))
        ...     path.name, path.read_text() == PTH_LINE
        ('agent_loop_course_lazy_iri.pth', True)
    """
    path = site_packages / PTH_NAME
    if not path.exists() or path.read_text(encoding="utf-8") != PTH_LINE:
        path.write_text(PTH_LINE, encoding="utf-8")
    return path


def main() -> int:
    path = write_pth(Path(sysconfig.get_paths()["purelib"]))
    print(f"{path}: rfc3987_syntax builds its IRI parser at the first IRI checked (helpers/maint/lazy_iri.py).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
