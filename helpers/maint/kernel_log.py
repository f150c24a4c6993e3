"""Drop ipykernel's "Kernel is running over TCP without encryption" warning from the kernels the course starts.

ipykernel 7 (ipykernel/kernelapp.py, init_sockets) logs it at every kernel start unless CurveZMQ keys are set.
It is written for kernels reachable by other people. The course's kernels listen on 127.0.0.1 only (jupyter_client's
default `ip`), JupyterLab, nbclient and nbval start them on the student's own machine or codespace, and every
message is signed with the key in the kernel's connection file; so the line says nothing a student can act on,
and it shows up in the terminal of `make lab`, `make notebooks` and `make test` at every start.

    python -m helpers.maint.kernel_log      # `make install` runs it; the pip-only set-up in the README too

What it does: writes `etc/ipython/ipython_kernel_config.json` in this Python environment (IPython reads config
from `sys.prefix/etc/ipython`), adding a logging filter to the kernel's console handler that drops that one
message. Every other kernel message still shows, and nothing outside the environment changes.
What it leaves out on purpose: kernels started from another environment, and encrypting the transport (CurveZMQ
keys need a kernel manager that provisions them; JupyterLab 4 does not).
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

MESSAGE_START = "Kernel is running over TCP without encryption"
CONFIG = {
    "IPKernelApp": {
        "logging_config": {
            "filters": {"course_tcp_notice": {"()": "helpers.maint.kernel_log.DropTcpNotice"}},
            "handlers": {"console": {"filters": ["course_tcp_notice"]}},
        }
    }
}


class DropTcpNotice(logging.Filter):
    """A logging filter that drops the TCP-without-encryption notice and keeps every other record.

    Example:
        >>> keep = DropTcpNotice().filter
        >>> keep(logging.makeLogRecord({"msg": MESSAGE_START + ". All communication ..."}))
        False
        >>> keep(logging.makeLogRecord({"msg": "Starting the kernel at pid: 1"}))
        True
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(MESSAGE_START)


def config_path(prefix: str | Path = sys.prefix) -> Path:
    """Where the kernel config goes for the environment at `prefix`.

    Example:
        >>> config_path("/repo/.venv").as_posix()
        '/repo/.venv/etc/ipython/ipython_kernel_config.json'
    """
    return Path(prefix) / "etc" / "ipython" / "ipython_kernel_config.json"


def write_config(prefix: str | Path = sys.prefix) -> Path:
    """Write the kernel config (again) and return its path.

    Example: (`make install` writes it into .venv; here into a temporary folder)
        >>> import tempfile
        >>> json.loads(write_config(tempfile.mkdtemp()).read_text()) == CONFIG
        True
    """
    path = config_path(prefix)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(CONFIG, indent=2) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"Kernels of this environment leave out the TCP notice: {write_config()}")
