"""The offline model as a real HTTP server on 127.0.0.1, for any client: curl, other SDKs, agent frameworks.

    python -m helpers.offline serve --port 8765
    curl http://127.0.0.1:8765/v1/models

Every request goes through the same `app.handle` as the in-process transport, so both give the same
response bodies. `OfflineServer` runs it in a background thread (for tests and notebooks).

What it leaves out on purpose: TLS, authentication, and listening on other interfaces than 127.0.0.1
by default. It is a local test double, not a service.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from helpers.offline.app import error_response, handle, resolve_fault
from helpers.offline.faults import FaultPlan
from helpers.offline.wire import ApiError

DEFAULT_FAULT_DELAY = 30.0  # seconds the "timeout" fault keeps a request waiting (longer than most timeouts)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai SDK's connection pool expects

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            fault = resolve_fault(self.server.faults, headers)
        except ApiError as error:
            return self._reply(*error_response(error))
        if fault == "timeout":
            # Really wait, in small steps so that stopping the server is not held up.
            self.server.stopping.wait(self.server.fault_delay)
            fault = None
        self._reply(*handle(self.command, self.path, headers, body, fault))

    def _reply(self, status: int, headers: dict, content: bytes) -> None:
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("content-length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

    def log_message(self, format: str, *args) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    faults: FaultPlan
    fault_delay: float
    verbose: bool
    stopping: threading.Event


def make_server(port: int = 0, host: str = "127.0.0.1", faults=None, fault_delay: float = DEFAULT_FAULT_DELAY,
                verbose: bool = False) -> _Server:
    """A ready-to-run HTTP server (port 0 picks a free port; read it from `.server_address[1]`).

    Example: make_server(0).server_address[0] -> "127.0.0.1"
    """
    server = _Server((host, port), _Handler)
    server.faults = FaultPlan(faults)
    server.fault_delay = fault_delay
    server.verbose = verbose
    server.stopping = threading.Event()
    return server


def serve(port: int = 8765, host: str = "127.0.0.1", faults=None, fault_delay: float = DEFAULT_FAULT_DELAY,
          verbose: bool = True) -> None:
    """Serve until Ctrl+C (what `python -m helpers.offline serve` runs).

    Example: serve(8765)  # then: curl http://127.0.0.1:8765/v1/models
    """
    server = make_server(port, host, faults, fault_delay, verbose)
    address = f"http://{host}:{server.server_address[1]}/v1"
    print(f"Offline model serving on {address} (any API key works). Press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.")
    finally:
        server.stopping.set()
        server.server_close()


class OfflineServer:
    """The HTTP server in a background thread, as a context manager.

    Example: with OfflineServer() as srv: OpenAI(base_url=srv.base_url, api_key="x").models.list()
    """

    def __init__(self, port: int = 0, host: str = "127.0.0.1", faults=None,
                 fault_delay: float = DEFAULT_FAULT_DELAY):
        self.server = make_server(port, host, faults, fault_delay, verbose=False)
        self.host, self.port = host, self.server.server_address[1]
        self.base_url = f"http://{host}:{self.port}/v1"
        self._thread: threading.Thread | None = None

    def set_faults(self, faults=None) -> None:
        """Replace the fault plan (a list consumed per request, one mode for all, or None).

        Example: srv.set_faults(["rate_limit"])  # the next request gets a 429
        """
        self.server.faults = FaultPlan(faults)

    def start(self) -> OfflineServer:
        self._thread = threading.Thread(target=self.server.serve_forever, name="offline-model", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
