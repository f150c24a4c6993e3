"""The offline model as a real HTTP server on 127.0.0.1, for any client: curl, other SDKs, agent frameworks.

    python -m helpers.offline serve --port 8765
    curl http://127.0.0.1:8765/v1/models

Every request goes through the same `app.handle` as the in-process transport, so both give the same
response bodies. `OfflineServer` runs it in a background thread (for tests and notebooks).

Every request gets an answer in OpenAI's error JSON when it cannot be served, never a dropped
connection or an HTML page:
- the body: at most MAX_BODY_BYTES (413), sent with a valid Content-Length (400) or chunked; a body
  that stops arriving for `read_timeout` seconds gets a 408;
- the request line and headers: whatever http.server rejects (too long, too many, bad syntax) gets
  the same JSON, through `send_error`;
- every method: GET/POST as routed by app.py, HEAD like GET without the body, OPTIONS and unknown
  methods a 405 (known URL, with an Allow header) or 404;
- keep-alive (HTTP/1.1), as the openai SDK's connection pool expects. After an error that leaves the
  stream in an unknown state (a bad length, an unread body), the reply says `Connection: close`, and
  the server reads and discards what the client still sends before closing, so the client is never
  reset before it has read the reply. Idle connections close after `read_timeout` seconds (the SDK's
  pool drops its own after 5 s, so it never sends on a connection the server is closing).

Why the standard library's ThreadingHTTPServer, hardened, and not uvicorn + Starlette (in the lock via mcp):
tried (uvicorn 0.54 with h11, an ASGI app calling the same `handle`), it meets "no 5xx" but drops or hangs
connections this server answers. A client that half-closes after its request (netcat -N; the fuzz tests) gets
no reply: H11Protocol.eof_received lets asyncio close the socket (test_offline_fuzz.py's
test_server_answers_any_request_head: 30 of 300 heads dropped, a valid GET /v1/models too;
test_a_body_cut_short_by_the_client_gets_400). Headers that stop arriving are never answered nor closed
(test_headers_that_stop_arriving_get_408). h11's framing errors are a plain-text 400 (246 of the 300 heads;
the Content-Length, chunked and request-line tests of test_offline_server.py). Fixing those means overriding
three methods of H11Protocol, which uvicorn does not offer as an extension point. SSE fit this server as they
are: the handler thread writes each event as one chunk of `Transfer-Encoding: chunked`.

Streaming (`"stream": true`): the answer is a `text/event-stream` sent in chunks, one event per chunk,
ended by the zero-length chunk; the connection then stays open for the next request (an HTTP/1.0 client
gets the events unchunked and the connection closes). A request that fails is answered before the
stream starts, as JSON with a Content-Length. A client that hangs up mid-stream costs nothing: the
write fails, the connection closes, and nothing is logged.

What it leaves out on purpose: TLS, authentication, listening on other interfaces than 127.0.0.1 by
default, and a total time limit per request (the read timeout counts from the last bytes received).
It is a local test double, not a service. It stays one module of about 410 lines because the plain and the
streamed answer share one request handler and its error path; split, both halves would need its internals.
"""

from __future__ import annotations

import logging
import re
import socket
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from helpers.offline.api.app import (
    MAX_BODY_BYTES,
    Decide,
    body_too_large,
    error_response,
    handle,
    is_stream,
    resolve_fault,
)
from helpers.offline.api.context_window import DEFAULT_CONTEXT_WINDOW, check_window
from helpers.offline.api.errors import ApiError
from helpers.offline.api.faults import FaultPlan
from helpers.offline.api.state import ServerState
from helpers.offline.knowledge import Vocabulary

DEFAULT_FAULT_DELAY = 30.0  # seconds the "timeout" fault keeps a request waiting (longer than most timeouts)
READ_TIMEOUT = 10.0  # seconds without a byte from the client before the server gives up on a request
LINGER_SECONDS = 2.0  # after a closing error reply, how long to discard what the client still sends
MAX_CHUNK_LINE = 4096  # longest chunk-size or trailer line of a chunked body
# How often OfflineServer's serving thread looks whether stop() was asked. socketserver's default, 0.5 s, is how
# long each stop() waited: half a second per test that starts a server (25 in test_offline_batch.py alone), an idle
# core's worth of waiting. Twenty looks a second cost no measurable CPU.
STOP_POLL_SECONDS = 0.05
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")
log = logging.getLogger(__name__)


class _Handler(BaseHTTPRequestHandler):
    # socketserver sets it to the _Server that made the handler; typeshed types it as any BaseServer.
    server: _Server  # ty: ignore[incompatible-mutable-override]
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai SDK's connection pool expects
    server_version = "offline-model"
    disable_nagle_algorithm = True  # headers and body go out as two writes; don't hold the second back

    def setup(self) -> None:
        # Per connection, read by StreamRequestHandler.setup (typeshed calls it a ClassVar; the stdlib reads
        # self.timeout).
        self.timeout = self.server.read_timeout  # ty: ignore[invalid-attribute-access]
        self._linger = False
        super().setup()

    def __getattr__(self, name: str):
        # http.server looks up do_<METHOD>; every method, known or not, is routed, so app.py can answer an
        # unknown one with a JSON 405 or 404 (http.server's own answer would be an HTML 501 page).
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)

    # --- one request ----------------------------------------------------------------------------------

    def _serve(self) -> None:
        try:
            try:
                body = self._read_body()
            except ApiError as error:  # a bad length or chunked framing: the rest of the stream is unknown
                return self._fail(error)
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                fault = resolve_fault(self.server.faults, headers)
            except ApiError as error:
                return self._fail(error, close=False)
            if fault == "timeout":
                # Really wait, in small steps so that stopping the server is not held up.
                self.server.stopping.wait(self.server.fault_delay)
                fault = None
            self._reply(*handle(self.command, self.path, headers, body, fault, self.server.state,
                                self.server.vocabulary, self.server.decide))
        except TimeoutError:
            self._fail(ApiError(408, f"The request body stopped arriving: nothing came for {self.server.read_timeout:g}"
                                     f" s. Send the whole body, and a Content-Length that matches it.",
                                code="request_timeout"))
        except OSError:  # the client hung up: nobody to answer
            self.close_connection = True
        except Exception:  # a bug in this module (app.handle catches its own): still answer, then close
            log.exception("The offline server failed on %s %s", self.command, self.path)
            self._fail(ApiError(500, "The offline server failed on this request. This is a bug in the offline model; "
                                     "please report it.", type="server_error"))

    def _framing(self) -> int | None:
        """How the body is framed, from the headers alone: its Content-Length, or None for chunked. Raises
        ApiError (400, 413) for framing that is wrong or a body too large, before a byte of it is read."""
        lengths = self.headers.get_all("content-length") or []
        codings = self.headers.get_all("transfer-encoding") or []
        if codings:
            if lengths:  # a request smuggling pattern: which of the two frames the body is ambiguous
                raise ApiError(400, "The request has both Transfer-Encoding and Content-Length headers. Send one "
                                    "of them.", code="invalid_request")
            if [c.strip().lower() for v in codings for c in v.split(",") if c.strip()] != ["chunked"]:
                raise ApiError(400, f"Unsupported Transfer-Encoding {', '.join(codings)!r}. Send the body with a "
                                    f"Content-Length header, or with Transfer-Encoding: chunked.",
                               code="invalid_request")
            return None
        values = {v.strip() for v in lengths}
        if len(values) > 1:
            raise ApiError(400, f"The request has several different Content-Length headers ({', '.join(lengths)}). "
                                f"Send one.", code="invalid_request")
        value = values.pop() if values else "0"
        if not (value.isascii() and value.isdigit()):  # int() would also take "+5", " 5" and "5_000"
            raise ApiError(400, f"Invalid Content-Length header {value[:40]!r}: expected the size of the body as a "
                                f"whole number of bytes, like 'Content-Length: 42'.", code="invalid_request")
        size = int(value) if len(value) <= 30 else None  # no int() of a 5000-digit number
        if size is None or size > MAX_BODY_BYTES:
            raise body_too_large(size)
        return size

    def _read_body(self) -> bytes:
        """The request body, read exactly as its framing says (a Content-Length of bytes, or chunks)."""
        size = self._framing()
        if size is None:
            return self._read_chunked()
        body = self.rfile.read(size) if size else b""
        if len(body) < size:
            raise ApiError(400, f"The request body ended after {len(body):,} of the {size:,} bytes its Content-Length "
                                f"announced.", code="invalid_request")
        return body

    def _read_chunked(self) -> bytes:
        """A Transfer-Encoding: chunked body (RFC 9112, section 7.1), trailer fields read and ignored."""
        def bad(reason: str) -> ApiError:
            return ApiError(400, f"Invalid chunked request body: {reason}.", code="invalid_request")

        body = bytearray()
        while True:
            line = self.rfile.readline(MAX_CHUNK_LINE)
            if not line.endswith(b"\n"):
                raise bad("a chunk-size line is cut off or too long")
            size_text = line.split(b";", 1)[0].strip()
            if not _CHUNK_SIZE.fullmatch(size_text):
                raise bad(f"{size_text[:20].decode('latin-1')!r} is not a chunk size in hexadecimal")
            size = int(size_text, 16)
            if size == 0:
                break
            if len(body) + size > MAX_BODY_BYTES:
                raise body_too_large(None)
            chunk = self.rfile.read(size)
            if len(chunk) < size:
                raise bad("the body ended inside a chunk")
            body += chunk
            if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                raise bad("a chunk is longer than its size says")
        for _ in range(64):
            line = self.rfile.readline(MAX_CHUNK_LINE)
            if line in (b"\r\n", b"\n"):
                return bytes(body)
            if not line.endswith(b"\n"):
                raise bad("the trailer is cut off")
        raise bad("the trailer has too many lines")

    def _fail(self, error: ApiError, close: bool = True) -> None:
        self._reply(*error_response(error), close=close)

    def _reply(self, status: int, headers: dict, content: bytes | list[bytes], close: bool = False) -> None:
        try:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if is_stream(content):
                return self._send_events(content)
            self.send_header("content-length", str(len(content)))
            if close:
                self.send_header("connection", "close")  # also sets self.close_connection
                self._linger = True
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(content)
        except OSError:  # the client hung up
            self.close_connection = True

    def _send_events(self, frames: list[bytes]) -> None:
        """Send server-sent events, one frame per write, so a client reads each event as soon as it is sent.
        HTTP/1.1 gets them as `Transfer-Encoding: chunked` (one chunk per event; the connection stays open
        for the next request); HTTP/1.0 knows no chunks, so its body ends when the connection closes.
        A client that hangs up mid-stream raises OSError, which `_reply` turns into a quiet close."""
        chunked = self.request_version == "HTTP/1.1"
        if chunked:
            self.send_header("transfer-encoding", "chunked")
        else:
            self.send_header("connection", "close")  # also sets self.close_connection
        self.end_headers()
        if self.command == "HEAD":
            return
        for frame in frames:
            # wfile is unbuffered (StreamRequestHandler.wbufsize = 0) and Nagle is off: each write leaves at once.
            self.wfile.write(b"%x\r\n%b\r\n" % (len(frame), frame) if chunked else frame)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")  # the last chunk: the response is complete, keep-alive goes on

    # --- errors http.server finds itself, and closing -------------------------------------------------

    def parse_request(self) -> bool:
        try:
            return super().parse_request()
        except TimeoutError:  # the headers stopped arriving halfway
            self._fail(ApiError(408, f"The request headers stopped arriving: nothing came for "
                                     f"{self.server.read_timeout:g} s.", code="request_timeout"))
            return False

    def handle_expect_100(self) -> bool:
        # A client that asks before sending its body (curl does, for large bodies) learns at once that the
        # body is too large or badly framed, and does not send it.
        try:
            self._framing()
        except ApiError as error:
            self._fail(error)
            return False
        return super().handle_expect_100()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # http.server calls this for what it rejects itself: a malformed request line, headers too long or
        # too many, an unsupported HTTP version. Same JSON as every other error, and the connection closes.
        if self.request_version == "HTTP/0.9":  # set while the request line is unread: answer with a status line
            self.request_version = "HTTP/1.0"
        short, long = self.responses.get(code, ("Error", ""))
        text = f"{message or short}. {long}".rstrip(". ") + ". Check the request line and headers your client sends."
        # Its 5xx answers (505 for an HTTP version other than 1.x) are about a request it cannot read: the
        # client's error, so a 400 like every other malformed request.
        self._fail(ApiError(code if code < 500 else 400, text))

    def finish(self) -> None:
        super().finish()
        if self._linger:
            self._discard_rest()

    def _discard_rest(self) -> None:
        """Close gently after an error reply sent before the whole request was read: signal the end of the
        reply, then read what the client still sends (for at most LINGER_SECONDS). Closing a socket with
        unread data makes the kernel send a reset, which can destroy the reply before the client reads it."""
        try:
            self.connection.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + LINGER_SECONDS
            while (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(left)
                if not self.connection.recv(65536):
                    break
        except OSError:  # timed out, or the client is gone
            pass

    def log_message(self, format: str, *args) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # pending connections; the default (5) refuses a burst of parallel clients
    faults: FaultPlan
    state: ServerState  # one prompt cache (and all the rest) for every client of this server
    vocabulary: Vocabulary | None
    decide: Decide | None
    fault_delay: float
    read_timeout: float
    verbose: bool
    stopping: threading.Event

    def server_bind(self) -> None:
        # HTTPServer.server_bind also looks up the host's fully qualified name, a reverse DNS query that can
        # take seconds on a machine without network. Nothing here uses that name.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client that hung up is not a bug
        super().handle_error(request, client_address)


def make_server(port: int = 0, host: str = "127.0.0.1", faults=None, fault_delay: float = DEFAULT_FAULT_DELAY,
                verbose: bool = False, read_timeout: float = READ_TIMEOUT,
                vocabulary: Vocabulary | None = None, context_window: int | None = None,
                decide: Decide | None = None) -> _Server:
    """A ready-to-run HTTP server (port 0 picks a free port; read it from `.server_address[1]`).
    `vocabulary`, `context_window`, `decide` (the model behind the wire): as for OfflineTransport, optional. All clients of the server share its
    state: stored responses and conversations made through one client are there for the others.

    Example:
        >>> server = make_server(0)
        >>> server.server_address[0], server.server_address[1] > 0
        ('127.0.0.1', True)
        >>> server.server_close()
    """
    server = _Server((host, port), _Handler)
    state = ServerState(context_window=check_window(context_window or DEFAULT_CONTEXT_WINDOW))
    vars(server).update(faults=FaultPlan(faults), state=state, vocabulary=vocabulary, decide=decide,
                        fault_delay=fault_delay,
                        read_timeout=read_timeout, verbose=verbose, stopping=threading.Event())
    return server


def serve(port: int = 8765, host: str = "127.0.0.1", faults=None, fault_delay: float = DEFAULT_FAULT_DELAY,
          verbose: bool = True, vocabulary: Vocabulary | None = None, context_window: int | None = None) -> None:
    """Serve until Ctrl+C (what `python -m helpers.offline serve` runs).

    Example: (`serve(8765)` runs until Ctrl+C; then `curl http://127.0.0.1:8765/v1/models` answers. A port that
    cannot exist stops it at once)
        >>> serve(70000)
        Traceback (most recent call last):
        OverflowError: bind(): port must be 0-65535.
    """
    server = make_server(port, host, faults, fault_delay, verbose, vocabulary=vocabulary,
                         context_window=context_window)
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

    Example:
        >>> from openai import OpenAI
        >>> with OfflineServer() as srv:
        ...     OpenAI(base_url=srv.base_url, api_key="x").models.list().data[0].id
        'offline-rules-v1'
    """

    def __init__(self, port: int = 0, host: str = "127.0.0.1", faults=None,
                 fault_delay: float = DEFAULT_FAULT_DELAY, read_timeout: float = READ_TIMEOUT,
                 vocabulary: Vocabulary | None = None, context_window: int | None = None,
                 decide: Decide | None = None):
        self.server = make_server(port, host, faults, fault_delay, verbose=False, read_timeout=read_timeout,
                                  vocabulary=vocabulary, context_window=context_window, decide=decide)
        self.host, self.port = host, self.server.server_address[1]
        self.base_url = f"http://{host}:{self.port}/v1"
        self._thread: threading.Thread | None = None

    def set_faults(self, faults=None) -> None:
        """Replace the fault plan (a list consumed per request, one mode for all, or None).

        Example: (the next request gets a 429, the one after it an answer)
            >>> import openai
            >>> with OfflineServer() as srv:
            ...     srv.set_faults(["rate_limit"])
            ...     client = openai.OpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
            ...     try:
            ...         client.models.list()
            ...     except openai.RateLimitError as err:
            ...         print(err.status_code, client.models.list().data[0].id)
            429 offline-rules-v1
        """
        self.server.faults = FaultPlan(faults)

    def start(self) -> Self:
        self._thread = threading.Thread(target=self.server.serve_forever, args=(STOP_POLL_SECONDS,),
                                        name="offline-model", daemon=True)
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
