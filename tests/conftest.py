"""Shared test fixtures. The FAQ snapshot and the OpenAI spec come from FAQ_ARCHIVE and OPENAI_SPEC (CI points
them at ../shared).

Also registers tests/skip_guard.py (in CI, a skip whose reason is not in tests/skips_allowed.txt fails the run)
and tests/slow_first.py (under pytest-xdist, the slowest files and notebooks are handed out first), and chooses
the hypothesis profile of the property tests (HYPOTHESIS_PROFILE, below).
"""

import io
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from helpers.ingest import FAQ_COMMIT

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SHARED_ARCHIVE = SHARED / "data" / "faq-7757d2a0e71dc376d0fc93f419162c306e7582b3.zip"

# Tests never reach a real provider, whatever the developer's .env says.
os.environ["LLM_PROVIDER"] = "offline"
SHARED_SPEC = SHARED / "spec" / "openai-openapi.yaml"
# This project's own machines keep the pinned files beside the clone; a student's clone has no ../shared.
for variable, copy in (("FAQ_ARCHIVE", SHARED_ARCHIVE), ("OPENAI_SPEC", SHARED_SPEC)):
    if not os.environ.get(variable) and copy.is_file():
        os.environ[variable] = str(copy)


# Property tests (hypothesis). `make test` draws a small, fixed set of examples: derandomize gives the same
# examples on every run, so a red run is never bad luck and a green one never good luck, and it keeps `make test`
# fast. The weekly CI job (HYPOTHESIS_PROFILE=deep) searches ten times further, with new random examples each
# week; a failure there prints the example and a @reproduce_failure blob that replays it. Each test asks for a
# multiple of the profile's max_examples (settings.default.max_examples), so both profiles keep the tests'
# relative weights: a cheap in-process call gets more examples than a request over a socket.
_PROPERTY_TESTS = dict(database=None, deadline=None, print_blob=True,
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fast", max_examples=10, derandomize=True, **_PROPERTY_TESTS)
settings.register_profile("deep", max_examples=100, derandomize=False, **_PROPERTY_TESTS)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "fast")  # an unknown name stops with hypothesis' error

pytest_plugins = ["pytester"]  # tests/test_skip_guard.py runs tiny suites in-process


def pytest_configure(config):
    config.pluginmanager.import_plugin("skip_guard")
    config.pluginmanager.import_plugin("slow_first")


def make_faq_zip(files: dict[str, str], commit: str | None = FAQ_COMMIT, top: str | None = None,
                 comment: str | None = None) -> bytes:
    """Build a zip laid out like GitHub's archive of the FAQ repo at `commit`, from {relative path: text}:
    top folder faq-<commit>/ and the commit as the zip comment, as GitHub writes them (override either)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for rel, text in files.items():
            zf.writestr(f"{top or f'faq-{commit}'}/{rel}", text)
        zf.comment = (comment if comment is not None else commit or "").encode("ascii")
    return buf.getvalue()


def question_file(id_, question, sort_order, answer):
    return f"---\nid: {id_}\nquestion: '{question}'\nsort_order: {sort_order}\n---\n\n{answer}\n"


TINY_FAQ = {
    "_questions/beta-course/_metadata.yaml": "course: beta-course\nsections:\n  - id: intro\n    name: Introduction\n"
                                            "  - id: general\n    name: General questions\n",
    "_questions/beta-course/general/001_aaaaaaaaa1_join.md": question_file("aaaaaaaaa1", "Can I join late?", 1,
                                                                           "Yes, you can join late."),
    "_questions/beta-course/intro/002_aaaaaaaaa3_setup.md": question_file("aaaaaaaaa3", "How do I set up?", 2,
                                                                          "Install Python."),
    "_questions/beta-course/intro/001_aaaaaaaaa2_what.md": question_file("aaaaaaaaa2", "What is it?", 1,
                                                                         "A course."),
    "_questions/alpha-course/_metadata.yaml": "course: alpha-course\nsections:\n  - id: general\n    name: General\n",
    "_questions/alpha-course/general/001_bbbbbbbbb1_cert.md": question_file("bbbbbbbbb1", "Do I get a certificate?",
                                                                            1, "Only with a project."),
}


@pytest.fixture
def tiny_archive(tmp_path) -> Path:
    path = tmp_path / "tiny-faq.zip"
    path.write_bytes(make_faq_zip(TINY_FAQ))
    return path


@pytest.fixture
def restore_environ():
    """Put os.environ back as it was after the test: loading a .env writes variables monkeypatch can't see."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def _start_kernel_twice(start):
    """nbval's kernel start, tried once more if the kernel never answers. In one fresh-clone CI run of 2026-12-02 a
    kernel started beside the other worker's kernels, the shapes tests' kernels and test-ui's JupyterLab never
    answered (60 s), and 22 cells of one notebook errored; run alone, the same notebook passes. The cause was not
    confirmed (jupyter_client chooses a kernel's ports before the kernel binds them, so another process can take
    one in between). nbval has already shut the failed kernel down; a kernel that fails twice still fails the run."""

    def start_new_kernel(*args, **kwargs):
        try:
            return start(*args, **kwargs)
        except RuntimeError:
            return start(*args, **kwargs)

    return start_new_kernel


import nbval.kernel  # noqa: E402 -- here, beside the one thing it is imported for

nbval.kernel.start_new_kernel = _start_kernel_twice(nbval.kernel.start_new_kernel)
