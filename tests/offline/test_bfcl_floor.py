"""The offline model keeps its BFCL scores: a fixed 10% sample of every category, on both APIs.

The sample is every 10th case by index (helpers.maint.bench_offline.sample), the same on every run; the
model is deterministic, so the shares are exact and each must stay at or above the figure committed in
bfcl_floor.json beside this file. Raise the figures when a rule improves them (`python -m
helpers.maint.bench_offline --sample 10 --write-floor tests/offline/bfcl_floor.json`); the full run is
`make bench-offline`. The BFCL data is fetched by the bench's own code (the pinned wheel, checked by
sha256); with no access to PyPI the test fails and says how to fetch it.
"""

import json
from pathlib import Path

import pytest

from helpers.maint.bench_offline import APIS, sample, score
from helpers.maint.bfcl_data import CATEGORIES, BfclDataError, fetch_wheel, load_cases
from helpers.offline import neutral_client

FLOOR = json.loads((Path(__file__).parent / "bfcl_floor.json").read_text())


@pytest.fixture(scope="module")
def wheel():
    try:
        return fetch_wheel()
    except BfclDataError as error:
        pytest.fail(f"the BFCL data is needed for this test and could not be fetched: {error}")


def test_the_floor_names_every_category_and_api():
    assert set(FLOOR) == set(CATEGORIES) and all(set(FLOOR[c]) == set(APIS) for c in FLOOR)


@pytest.mark.parametrize("category", CATEGORIES)
def test_each_category_stays_at_or_above_its_floor(category, wheel):
    cases = sample(load_cases(category, wheel))
    client = neutral_client(max_retries=0)
    for api in APIS:
        result, _ = score(cases, api, client)
        # Counts only: a live category's cases are never printed (GUIDE.md, principle 4).
        assert result.right >= FLOOR[category][api], (
            f"{category} on {api}: {result.right} of {result.cases} right, below the floor of "
            f"{FLOOR[category][api]} (tests/offline/bfcl_floor.json)")
