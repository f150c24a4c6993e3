"""A pytest plugin: in CI, a skipped test fails the run unless its reason is on the allow-list.

Why: a skip turns a failure into a yellow letter that nobody reads. A broken import behind `importorskip`,
or a missing spec file, would skip dozens of tests and leave CI green. So in CI (CI=true, as GitHub Actions
and .ci/run set it) every skip, expected failure (xfail) and skipped module must match one line of
tests/skips_allowed.txt (or the file named by SKIPS_ALLOWED), or the run ends with exit status 1 and a list.

It sees every item of the session, notebook cells under nbval included: tests/conftest.py registers it as
a plugin for the whole session, not as a conftest hook (those only see items below tests/).

Left out on purpose: enforcement outside CI. On a student's machine a skip is listed (pytest -ra) and that
is all: the reasons there (no network, say) are real, and a red suite would only confuse.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

import pytest

ALLOW_LIST = Path(__file__).resolve().with_name("skips_allowed.txt")


def in_ci() -> bool:
    """True when the CI variable says so (GitHub Actions and .ci/run set CI=true).

    Example: in_ci() -> False on a laptop
    """
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def allowed_patterns(path: Path | None = None) -> list[str]:
    """The allow-list: one shell-style pattern per line, matched against a skip's reason; # starts a comment.

    Example: allowed_patterns() -> ["actionlint is not installed*"]
    """
    path = path or Path(os.environ.get("SKIPS_ALLOWED") or ALLOW_LIST)
    if not path.is_file():
        return []
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def skip_reason(report) -> str:
    """The reason of a skipped (or xfailed) report, without pytest's "Skipped: " prefix.

    Example: skip_reason(report) -> "needs the spec"
    """
    if hasattr(report, "wasxfail"):
        return f"xfail: {report.wasxfail}".strip()
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
    reason = reason.strip()
    return "" if reason == "Skipped" else reason.removeprefix("Skipped:").strip()  # pytest.skip() with no reason


class SkipGuard:
    """Collects every skip of the session; in CI, fails the run for those whose reason is not allowed."""

    def __init__(self) -> None:
        self.skips: list[tuple[str, str]] = []  # (node id, reason)
        self.refused: list[tuple[str, str]] = []

    def _record(self, report) -> None:
        if report.skipped:
            self.skips.append((report.nodeid, skip_reason(report)))

    def pytest_runtest_logreport(self, report) -> None:
        self._record(report)

    def pytest_collectreport(self, report) -> None:
        self._record(report)  # a module skipped as a whole (allow_module_level=True)

    def pytest_sessionfinish(self, session) -> None:
        if not in_ci():
            return
        patterns = allowed_patterns()
        self.refused = [(nodeid, reason) for nodeid, reason in self.skips
                        if not (reason and any(fnmatch.fnmatchcase(reason, p) for p in patterns))]
        if self.refused and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.refused:
            return
        terminalreporter.section("skips not allowed in CI", red=True, bold=True)
        for nodeid, reason in self.refused:
            terminalreporter.line(f"SKIPPED {nodeid}: {reason or '(no reason given)'}", red=True)
        where = os.environ.get("SKIPS_ALLOWED") or ALLOW_LIST
        terminalreporter.line(
            f"{len(self.refused)} skip(s) in CI without an allowed reason, so this run fails. Fix what made "
            f"them skip, or, if the skip is right in CI too, add its reason to {where} with a comment saying why.")


def pytest_configure(config) -> None:
    # Registered as a plugin of its own, its hooks see every item: tests, and nbval's notebook cells.
    if not config.pluginmanager.has_plugin("skip-guard"):
        config.pluginmanager.register(SkipGuard(), "skip-guard")
