"""What every browser test shares: one headless Chromium for the whole run (tests/ui/lab.py launches it), and one
JupyterLab for every test that needs no settings of its own (each opens its own copy of a lesson in it)."""

import pytest
from lab import chromium, lab_server


@pytest.fixture(scope="session")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def shared_lab(tmp_path_factory):
    """The port of a JupyterLab started once, as `make lab` starts it, with fresh settings and workspaces."""
    with lab_server(tmp_path_factory.mktemp("lab")) as port:
        yield port
