"""Fault injection: make the offline model fail on purpose, the ways real APIs fail, to test your code.

Modes (set per client with `OfflineTransport(faults=...)`, per server with `--fault`, or per request
with the header `X-Offline-Fault: <mode>`):
- "rate_limit": HTTP 429 with Retry-After (the openai SDK waits 10 ms and retries by itself);
- "insufficient_quota": HTTP 429 with the "no credit on this key" error; retrying does not help;
- "server_error": HTTP 500 (the SDK retries);
- "timeout": no answer before the client's timeout (in-process: raises httpx.ReadTimeout at once);
- "bad_arguments": the model calls a tool with malformed JSON arguments;
- "unknown_tool": the model calls a tool that was not offered;
- "never_stop": the model calls a tool on every turn and never answers (it still answers if no tool
  may be called, e.g. tool_choice="none").

`faults` may be a list, consumed one entry per request (None = no fault for that request), or a
single mode string that applies to every request.

What it leaves out on purpose: random failures. Faults happen exactly where you put them, so a test
that uses them gives the same result every time.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable

HTTP_FAULTS = ("rate_limit", "insufficient_quota", "server_error")
MODEL_FAULTS = ("bad_arguments", "unknown_tool", "never_stop")
FAULT_MODES = (*HTTP_FAULTS, "timeout", *MODEL_FAULTS)
FAULT_HEADER = "x-offline-fault"
_NO_FAULT = (None, "", "none", "ok")


def check_mode(mode: str | None) -> str | None:
    """Return the mode (None for "no fault"), or raise ValueError naming the valid modes.

    Example:
        >>> check_mode("rate_limit")
        'rate_limit'
    """
    if mode in _NO_FAULT:
        return None
    if mode not in FAULT_MODES:
        raise ValueError(f"Unknown offline fault mode {mode!r}. Use one of: {', '.join(FAULT_MODES)} "
                         f"(or None for no fault).")
    return mode


class FaultPlan:
    """Which fault, if any, the next request gets. Thread-safe: the HTTP server serves requests in threads.

    Example:
        >>> plan = FaultPlan(["rate_limit", None])
        >>> plan.next(), plan.next(), plan.next()
        ('rate_limit', None, None)
        >>> always = FaultPlan("server_error")
        >>> always.next(), always.next()
        ('server_error', 'server_error')
    """

    def __init__(self, faults: str | Iterable[str | None] | None = None):
        self._lock = threading.Lock()
        self.persistent: str | None = None
        self.queue: deque[str | None] = deque()
        if isinstance(faults, str):
            self.persistent = check_mode(faults)
        elif faults is not None:
            self.queue.extend(check_mode(f) for f in faults)

    def next(self, header: str | None = None) -> str | None:
        """The fault for the next request: the header's mode if given, else the next queued entry, else
        the persistent mode. A header does not consume a queued entry.

        Example:
            >>> FaultPlan("timeout").next()
            'timeout'
        """
        if header not in _NO_FAULT:
            return check_mode(header.strip().lower())
        with self._lock:
            if self.queue:
                return self.queue.popleft()
        return self.persistent
