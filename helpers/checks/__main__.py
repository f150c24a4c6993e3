"""`python -m helpers.checks [NOTEBOOK_OR_DIR ...]`: run the homework notebooks and print the score table."""

import sys

from helpers.checks.runner import main

raise SystemExit(main(sys.argv[1:]))
