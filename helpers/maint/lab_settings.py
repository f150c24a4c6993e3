"""The course's JupyterLab settings for this environment: widget state saved, no news pop-up.

- Widget state (lesson 10's chat): JupyterLab saves none by default. A lesson-10 notebook it has saved then
  shows "Error displaying widget: model not found" once reopened without a running kernel. With the
  `saveState` setting on, the widgets reopen as they were last drawn (marked as not connected until the cells
  run again).
- News: with `fetchNews` at its default, "none" (Ask), JupyterLab's announcements plugin opens "Would you
  like to get notified about official Jupyter news?" in the bottom right of every fresh lab, over lesson 13's
  approval bar. "false" (Never) means no question and no request to the news feed; `checkForUpdates` only
  works when news are fetched, and is turned off with it. (Read from JupyterLab 4.6's own schema,
  share/jupyter/lab/schemas/@jupyterlab/apputils-extension/notification.json, and its announcements plugin,
  which asks only when `fetchNews` is "none".)

    python -m helpers.maint.lab_settings      # `make install` runs it; the pip-only set-up in the README too

What it does: writes one settings file in this Python environment's `share/jupyter/lab/settings/overrides.d/`,
which every JupyterLab started from the environment reads. Nothing outside the environment changes, and a
setting you change in JupyterLab's Settings editor still wins.
What it leaves out on purpose: VS Code and other notebook front ends, which keep their own settings.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SETTINGS = {
    "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    # A string, not a boolean: the schema's values are "true", "false" and "none".
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}
FILE_NAME = "agent-loop-course.json"


def settings_path(prefix: str | Path = sys.prefix) -> Path:
    """Where the settings file goes for the environment at `prefix`.

    Example:
        >>> settings_path("/repo/.venv").as_posix()
        '/repo/.venv/share/jupyter/lab/settings/overrides.d/agent-loop-course.json'
    """
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / FILE_NAME


def write_settings(prefix: str | Path = sys.prefix) -> Path:
    """Write the settings file (again) and return its path.

    Example: (`make install` writes it into .venv; here into a temporary folder)
        >>> import tempfile
        >>> print(write_settings(tempfile.mkdtemp()).read_text())
        {
          "@jupyter-widgets/jupyterlab-manager:plugin": {
            "saveState": true
          },
          "@jupyterlab/apputils-extension:notification": {
            "fetchNews": "false",
            "checkForUpdates": false
          }
        }
    """
    path = settings_path(prefix)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(SETTINGS, indent=2) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"JupyterLab will save widget state and ask nothing about news: {write_settings()}")
