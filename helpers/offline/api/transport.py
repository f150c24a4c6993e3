"""The offline model in-process: httpx transports the openai SDK sends its requests to.

    client = OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL,
                    http_client=httpx.Client(transport=OfflineTransport()))
    client = AsyncOpenAI(api_key="offline", base_url=OFFLINE_BASE_URL,
                         http_client=httpx.AsyncClient(transport=AsyncOfflineTransport()))

No port, no thread, no network: the SDK builds a real HTTP request, the transport hands it to
`app.handle`, and the SDK parses the reply exactly as it would parse OpenAI's. Every request gets an
HTTP answer (a malformed body a 400 naming the bad field, see app.py), never a Python exception
(except the one the "timeout" fault raises on purpose). A request with `stream=True` gets a streamed
response whose body yields one server-sent event per chunk, which the SDK's `Stream` iterates.

`AsyncOfflineTransport` is the same for `httpx.AsyncClient` / `openai.AsyncOpenAI`, which agent frameworks
(OpenAI Agents SDK, PydanticAI) use: `ThreadedTransport` around `OfflineTransport`. `ThreadedTransport` serves
any sync transport to an async client (helpers.llm.make_async_client uses it for cassettes too).

What it leaves out on purpose: sleeping and pacing. The "timeout" fault raises httpx.ReadTimeout at once
instead of making you wait for the timeout, and a stream's events are all ready at once (the answer is
decided whole before it is streamed), so a client reads them as fast as it can.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import anyio.to_thread
import httpx

from helpers.offline.api.app import Decide, error_response, handle, is_stream, resolve_fault
from helpers.offline.api.context_window import DEFAULT_CONTEXT_WINDOW, check_window
from helpers.offline.api.errors import ApiError
from helpers.offline.api.faults import FaultPlan
from helpers.offline.api.state import ServerState
from helpers.offline.knowledge import Vocabulary


class EventFrames(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body made of chunks (server-sent event frames, say), handed out one per chunk, sync or async.

    Example:
        >>> b"".join(EventFrames([b"data: 1\\n\\n", b"data: [DONE]\\n\\n"]))
        b'data: 1\\n\\ndata: [DONE]\\n\\n'
    """

    def __init__(self, frames: list[bytes]):
        self.frames = frames

    def __iter__(self) -> Iterator[bytes]:
        yield from self.frames

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for frame in self.frames:
            yield frame


def _answer(plan: FaultPlan, state: ServerState, request: httpx.Request, body: bytes,
            vocabulary: Vocabulary | None = None, decide: Decide | None = None) -> httpx.Response:
    """The response to a request whose body is read (the async transport runs the sync one in a thread)."""
    try:
        fault = resolve_fault(plan, dict(request.headers))
    except ApiError as error:  # an unknown mode in the X-Offline-Fault header
        status, headers, content = error_response(error)
        return httpx.Response(status, headers=headers, content=content, request=request)
    if fault == "timeout":
        read = (request.extensions.get("timeout") or {}).get("read")
        waited = f"the client's read timeout of {read}s" if read is not None else "a very long time"
        # A real slow server makes the client wait out its timeout; raising at once has the same
        # effect on your code, without the wait.
        raise httpx.ReadTimeout(f"The offline model did not answer within {waited} (simulated 'timeout' "
                                f"fault).", request=request)
    # raw_path: the path with its query string, as the HTTP server sees it (GET /v1/files?purpose=batch).
    status, headers, content = handle(request.method, request.url.raw_path.decode("ascii"), dict(request.headers),
                                      body, fault, state, vocabulary, decide)
    if is_stream(content):
        # A streamed body, not `content=`: the SDK reads it chunk by chunk, as it reads a real server's events.
        return httpx.Response(status, headers=headers, stream=EventFrames(content), request=request)
    if request.method == "HEAD":  # the headers of a GET, without its body (as the HTTP server does)
        headers, content = {**headers, "content-length": str(len(content))}, b""
    return httpx.Response(status, headers=headers, content=content, request=request)


class OfflineTransport(httpx.BaseTransport):
    """An httpx transport answered by the offline model. `faults`: a list consumed one per request, or one
    mode for every request (see helpers.offline.api.faults). Each transport has its own state (prompt cache and all), as one
    client of a real provider does: `usage` reports the prefix its earlier requests share as cached.
    `vocabulary`: an optional knowledge.Vocabulary of the documents the model will be asked about, for word
    rarity, topic and typo repair; without one, it knows only the words each request brings.
    `context_window`: the prompt tokens one request may hold (default context_window.DEFAULT_CONTEXT_WINDOW);
    a longer one gets the real 400 `context_length_exceeded`. `decide`: the model behind the wire, any
    `decide(conversation) -> Decision` (app.Decide; None: the offline model's rules), so a scripted double
    speaks the same wire.

    Example:
        >>> httpx.Client(transport=OfflineTransport()).get("http://x/v1/models").json()["data"][0]["id"]
        'offline-rules-v1'
        >>> httpx.Client(transport=OfflineTransport("rate_limit")).get("http://x/v1/models").status_code
        429
        >>> OfflineTransport(context_window=4096).state.context_window
        4096
        >>> from helpers.offline.conversation import Decision
        >>> always = OfflineTransport(decide=lambda conv: Decision(text="Always this."))
        >>> httpx.Client(transport=always).post("http://x/v1/responses", json={"model": "m", "input": "Hi"}).json(
        ...     )["output"][0]["content"][0]["text"]
        'Always this.'
    """

    def __init__(self, faults: str | list | None = None, vocabulary: Vocabulary | None = None,
                 context_window: int | None = None, decide: Decide | None = None):
        self.faults = FaultPlan(faults)
        self.state = ServerState(context_window=check_window(context_window or DEFAULT_CONTEXT_WINDOW))
        self.vocabulary = vocabulary
        self.decide = decide

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return _answer(self.faults, self.state, request, request.read(), self.vocabulary, self.decide)


class ThreadedTransport(httpx.AsyncBaseTransport):
    """Serve an async client (httpx.AsyncClient, openai.AsyncOpenAI) with a sync transport: the offline model,
    or helpers.apis.cassette's replay and recording. Each request runs in a worker thread, so the event loop never
    waits on it (a request with a large handed-in vocabulary may take a moment). The
    reply's body is read in that thread and handed back in the chunks it came in, so a stream's events still
    arrive one by one. Fine for answers that are ready at once; a real provider without recording gets the
    SDK's own async transport, which passes bytes on as they arrive.

    Example:
        >>> import asyncio
        >>> async def first_model():
        ...     async with httpx.AsyncClient(transport=ThreadedTransport(OfflineTransport())) as client:
        ...         return (await client.get("http://x/v1/models")).json()["data"][0]["id"]
        >>> asyncio.run(first_model())
        'offline-rules-v1'
    """

    def __init__(self, inner: httpx.BaseTransport):
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()  # the body, read once here: the sync transport's request.read() gets it back
        # anyio, not asyncio: httpx (and so the SDK) also runs under trio.
        return await anyio.to_thread.run_sync(self._send, request)

    def _send(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        try:
            chunks = list(response.iter_bytes())  # decoded: drop the headers that describe the encoded bytes
        finally:
            response.close()
        headers = [(k, v) for k, v in response.headers.multi_items()
                   if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
        return httpx.Response(response.status_code, headers=headers, stream=EventFrames(chunks), request=request,
                              extensions={k: v for k, v in response.extensions.items() if k == "http_version"})

    async def aclose(self) -> None:
        await anyio.to_thread.run_sync(self.inner.close)


class AsyncOfflineTransport(ThreadedTransport):
    """The same as OfflineTransport, for httpx.AsyncClient (and so openai.AsyncOpenAI).

    Example:
        >>> import asyncio
        >>> async def status():
        ...     async with httpx.AsyncClient(transport=AsyncOfflineTransport()) as client:
        ...         return (await client.get("http://x/v1/models")).status_code
        >>> asyncio.run(status())
        200
    """

    def __init__(self, faults: str | list | None = None, vocabulary: Vocabulary | None = None,
                 context_window: int | None = None, decide: Decide | None = None):
        super().__init__(OfflineTransport(faults, vocabulary, context_window, decide))
