"""pytest's hook file for the docstring examples of helpers/ (`pytest --doctest-modules helpers`, run by make
unit and make test): they never reach a real provider, whatever the developer's .env says, the same rule as
tests/conftest.py. It lives inside the package, as helpers.conftest, so that it never clashes with
tests/conftest.py (both would otherwise be imported as the module `conftest`). Nothing in the course imports it.
"""

import os

# As the Makefile's OFFLINE does: blank values still win over .env (make_client never lets .env override).
os.environ.update(LLM_PROVIDER="offline", LLM_MODEL="", OPENAI_BASE_URL="", LLM_RECORD="")
