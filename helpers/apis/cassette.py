"""Record a real run's HTTP traffic to a JSONL cassette, and replay it later with no key and no network.

How it works: `RecordingTransport` sits between the openai SDK and the real transport. For every
request it appends one JSON line: the request (method, endpoint, JSON body) and the response
(status, content type, body). Each line is keyed by a hash of the request's method, endpoint and
canonical JSON body. Headers are left out of the key and out of the file, so an API key can never end up
in a cassette (and any string equal to the key that appears elsewhere is replaced with "[redacted]").

`ReplayTransport` answers each request with the recorded response for its key. A request that was
never recorded fails at once with an error naming the cassette and showing the start of the request.

Endpoints are stored relative to the provider's base URL ("/responses", not "/openai/v1/responses"),
so a cassette recorded against Groq replays from the local replay URL.

What it leaves out on purpose: request headers, timing (replies come back instantly), and matching
"similar" requests. Replay is exact: change one character of a prompt and it is a new request.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from urllib.parse import urlparse

import httpx
import openai

from helpers.setup.errors import ProviderError

PREVIEW_CHARS = 300  # how much of an unseen request an error message shows
TRANSIENT = {408, 409, 429, 500, 502, 503, 504}  # statuses the SDK retries; replay skips them when it can


class CassetteError(ProviderError):
    """A cassette could not be read (missing file, corrupt line)."""


class CassetteMiss(ProviderError, openai.OpenAIError):
    """Replay got a request the cassette does not hold.

    It is also an `openai.OpenAIError` because the SDK passes those straight through: anything else
    raised by a transport is retried and then hidden behind a vague "Connection error".
    """


def canonical_body(content: bytes) -> object:
    """The request body as parsed JSON (so key order and spacing don't matter), or text if not JSON.

    Example:
        >>> canonical_body(b'{"b":1, "a":2}')
        {'b': 1, 'a': 2}
    """
    if not content:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return content.decode("utf-8", errors="replace")


def request_key(method: str, endpoint: str, body: object) -> str:
    """A stable hash of a request: method, endpoint and canonical JSON body; never headers.

    Example:
        >>> key = request_key("GET", "/models", None)
        >>> len(key), key == request_key("get", "/models", None), key[:12]
        (64, True, '7c01305d9212')
    """
    text = json.dumps([method.upper(), endpoint, body], sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _endpoint(request: httpx.Request, base_path: str) -> str:
    path = request.url.path
    if base_path and path.startswith(base_path):
        path = path[len(base_path):]
    query = request.url.query.decode() if isinstance(request.url.query, bytes) else request.url.query
    return path + (f"?{query}" if query else "")


def _base_path(base_url: str) -> str:
    return urlparse(str(base_url)).path.rstrip("/")


def _key_of(request: httpx.Request, base_path: str) -> tuple[str, str, object]:
    endpoint = _endpoint(request, base_path)
    body = canonical_body(request.read())
    return request_key(request.method, endpoint, body), endpoint, body


def load_cassette(path: str | os.PathLike) -> list[dict]:
    """Read a cassette's entries in order; a bad line raises CassetteError naming the file and line.

    Example:
        >>> import tempfile
        >>> from helpers.offline import OfflineTransport
        >>> path = Path(tempfile.mkdtemp()) / "run.jsonl"
        >>> recorder = httpx.Client(transport=RecordingTransport(OfflineTransport(), path,
        ...     "http://offline.invalid/v1"))
        >>> recorder.post("http://offline.invalid/v1/responses", json={"model": "offline-rules-v1",
        ...     "input": "Hi"})
        <Response [200 OK]>
        >>> [(list(entry), entry["request"]) for entry in load_cassette(path)]
        [(['key', 'request', 'response'], {'method': 'POST', 'endpoint': '/responses', 'body': {'model':
        'offline-rules-v1', 'input': 'Hi'}})]
    """
    path = Path(path)
    if not path.is_file():
        raise CassetteError(f"The cassette {path} does not exist. Record one first with "
                            f"make_client(record={str(path)!r}) (or LLM_RECORD) on a real provider, "
                            "or fix LLM_CASSETTE.")
    entries = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if not (isinstance(entry.get("key"), str) and isinstance(entry["request"]["method"], str)
                        and isinstance(entry["response"]["status"], int)):
                    raise TypeError("missing key, request method or response status")
            except (ValueError, KeyError, TypeError, AttributeError) as err:
                raise CassetteError(f"{path}, line {number}, is not a valid cassette entry ({err}). The "
                                    "file may have been cut off or edited by hand: delete that line "
                                    "(or re-record) and try again.") from None
            entries.append(entry)
    return entries


def recorded_model(path: str | os.PathLike) -> str | None:
    """The model named by the first recorded request that names one, or None.

    Example:
        >>> import tempfile
        >>> from helpers.offline import OfflineTransport
        >>> path = Path(tempfile.mkdtemp()) / "run.jsonl"
        >>> recorder = httpx.Client(transport=RecordingTransport(OfflineTransport(), path,
        ...     "http://offline.invalid/v1"))
        >>> recorder.post("http://offline.invalid/v1/responses", json={"model": "offline-rules-v1",
        ...     "input": "Hi"})
        <Response [200 OK]>
        >>> recorded_model(path)
        'offline-rules-v1'
    """
    for entry in load_cassette(path):
        body = entry["request"].get("body")
        if isinstance(body, dict) and isinstance(body.get("model"), str):
            return body["model"]
    return None


def _response_of(entry: dict, request: httpx.Request) -> httpx.Response:
    resp = entry["response"]
    content = (json.dumps(resp["json"], ensure_ascii=False) if "json" in resp else resp.get("text", "")).encode()
    headers = {"content-type": resp.get("content_type") or "application/json", "x-replayed": "true"}
    return httpx.Response(resp["status"], headers=headers, content=content, request=request)


class RecordingTransport(httpx.BaseTransport):
    """Pass requests to `inner` and append each request/response pair to a JSONL cassette.

    Example: (on a real provider the inner transport is httpx.HTTPTransport(); here the offline model's)
        >>> import tempfile
        >>> from helpers.offline import OfflineTransport
        >>> path = Path(tempfile.mkdtemp()) / "run.jsonl"
        >>> recorder = httpx.Client(transport=RecordingTransport(OfflineTransport(), path,
        ...     "http://offline.invalid/v1"))
        >>> recorder.post("http://offline.invalid/v1/responses", json={"model": "offline-rules-v1",
        ...     "input": "Hi"})
        <Response [200 OK]>
        >>> len(load_cassette(path))
        1
    """

    def __init__(self, inner: httpx.BaseTransport, path: str | os.PathLike, base_url: str = ""):
        self.inner = inner
        self.path = Path(path)
        self.base_path = _base_path(base_url)
        self._lock = threading.Lock()  # two threads must never interleave halves of their lines

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key, endpoint, body = _key_of(request, self.base_path)
        response = self.inner.handle_request(request)
        content = response.read()  # decoded bytes; streamed replies are buffered whole
        content_type = response.headers.get("content-type", "")
        recorded: dict = {"status": response.status_code, "content_type": content_type}
        try:
            recorded["json"] = json.loads(content) if content else None
        except ValueError:
            recorded["text"] = content.decode("utf-8", errors="replace")
        entry = {"key": key, "request": {"method": request.method, "endpoint": endpoint, "body": body},
                 "response": recorded}
        self._append(entry, _bearer(request))
        # Hand the SDK a fresh response: the bytes are already decoded, so drop encoding and length headers.
        headers = [(k, v) for k, v in response.headers.multi_items()
                   if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
        return httpx.Response(response.status_code, headers=headers, content=content, request=request)

    def _append(self, entry: dict, secret: str | None) -> None:
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        if secret and len(secret) >= 8 and secret in line:
            line = line.replace(secret, "[redacted]")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            # One write of a complete line, then flush and fsync: a crash leaves whole lines or nothing.
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def close(self) -> None:
        self.inner.close()


def _bearer(request: httpx.Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth.split(" ", 1)[1].strip() if auth.lower().startswith("bearer ") else None


class ReplayTransport(httpx.BaseTransport):
    """Answer requests from a cassette; an unrecorded request raises CassetteMiss.

    Several recordings of one request are served in order, repeating the last. Transient failures
    (429, 5xx) that a retry then fixed are skipped, so a replay runs without the original's waiting.
    Example: (record one request, then replay it: the same request gets the recorded answer)
        >>> import tempfile
        >>> from helpers.offline import OfflineTransport
        >>> path = Path(tempfile.mkdtemp()) / "run.jsonl"
        >>> recorder = httpx.Client(transport=RecordingTransport(OfflineTransport(), path,
        ...     "http://offline.invalid/v1"))
        >>> recorder.post("http://offline.invalid/v1/responses", json={"model": "offline-rules-v1",
        ...     "input": "Hi"})
        <Response [200 OK]>
        >>> player = httpx.Client(transport=ReplayTransport(path, "http://replay.invalid/v1"))
        >>> replayed = player.post("http://replay.invalid/v1/responses", json={"model": "offline-rules-v1",
        ...     "input": "Hi"})
        >>> replayed.headers["x-replayed"], replayed.json()["output"][0]["content"][0]["text"]
        ('true', "Hello! Ask me a question and I'll look it up.")
    """

    def __init__(self, path: str | os.PathLike, base_url: str = ""):
        self.path = Path(path)
        self.base_path = _base_path(base_url)
        self.responses: dict[str, list[dict]] = {}
        for entry in load_cassette(self.path):
            self.responses.setdefault(entry["key"], []).append(entry)
        for key, entries in self.responses.items():
            lasting = [e for e in entries if e["response"]["status"] not in TRANSIENT]
            self.responses[key] = lasting or entries
        self._served: dict[str, int] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key, endpoint, body = _key_of(request, self.base_path)
        entries = self.responses.get(key)
        if not entries:
            preview = json.dumps(body, ensure_ascii=False)[:PREVIEW_CHARS] if body is not None else ""
            raise CassetteMiss(
                f"This request was not recorded in the cassette {self.path}: {request.method} {endpoint} "
                f"{preview}{'...' if len(preview) == PREVIEW_CHARS else ''}\n"
                "Replay only answers the exact requests of the recorded run (same model, input, tools and "
                "options). Re-run the notebook unchanged, or record again with a real provider "
                "(LLM_RECORD=path), or set LLM_PROVIDER=offline.")
        with self._lock:
            n = self._served.get(key, 0)
            self._served[key] = n + 1
        return _response_of(entries[min(n, len(entries) - 1)], request)
