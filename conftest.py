"""The docstring examples in helpers/ (pytest --doctest-modules helpers) never reach a real provider either,
whatever the developer's .env says: the same rule as tests/conftest.py, for a run that does not load it."""

import os

os.environ["LLM_PROVIDER"] = "offline"
