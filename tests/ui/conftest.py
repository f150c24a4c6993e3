"""What every browser test shares: one headless Chromium for the whole run (tests/ui/lab.py launches it)."""

import pytest
from lab import chromium


@pytest.fixture(scope="session")
def browser():
    with chromium() as launched:
        yield launched
