"""Fetching the BFCL wheel: a wrong file is refused and removed, a failed download says what to run."""

import subprocess

import pytest

from helpers.maint.bfcl_data import WHEEL_NAME, BfclDataError, fetch_wheel


def test_a_wheel_with_another_hash_is_refused_and_removed(tmp_path):
    def downloader(dest):
        (dest / WHEEL_NAME).write_bytes(b"not the pinned wheel")

    with pytest.raises(BfclDataError, match="not the pinned"):
        fetch_wheel(tmp_path, downloader)
    assert not (tmp_path / WHEEL_NAME).exists()


def test_a_failed_download_says_how_to_fetch_it(tmp_path):
    def downloader(dest):
        raise subprocess.CalledProcessError(1, ["pip", "download"])

    with pytest.raises(BfclDataError, match="pip download --no-deps bfcl-eval=="):
        fetch_wheel(tmp_path, downloader)


def test_a_download_that_leaves_no_wheel_is_an_error(tmp_path):
    with pytest.raises(BfclDataError, match="left no"):
        fetch_wheel(tmp_path, lambda dest: None)
