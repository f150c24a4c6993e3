"""`python -m helpers.homework [NOTEBOOK_OR_DIR ...]`: run the homework notebooks and print the score table."""

import sys

from helpers.homework.runner import main

raise SystemExit(main(sys.argv[1:]))
