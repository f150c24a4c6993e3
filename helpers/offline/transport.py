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
(OpenAI Agents SDK, PydanticAI) use.

What it leaves out on purpose: sleeping and pacing. The "timeout" fault raises httpx.ReadTimeout at once
instead of making you wait for the timeout, and a stream's events are all ready at once (the answer is
decided whole before it is streamed), so a client reads them as fast as it can.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import anyio.to_thread
import httpx

from helpers.offline.app import error_response, handle, is_stream, resolve_fault
from helpers.offline.errors import ApiError
from helpers.offline.faults import FaultPlan

OFFLINE_BASE_URL = "http://offline.invalid/v1"  # .invalid never resolves, so nothing can leak to a network


class EventFrames(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body made of server-sent event frames, handed out one frame per chunk (sync or async).

    Example: b"".join(EventFrames([b"data: 1\\n\\n", b"data: [DONE]\\n\\n"])) -> b"data: 1\\n\\ndata: [DONE]\\n\\n"
    """

    def __init__(self, frames: list[bytes]):
        self.frames = frames

    def __iter__(self) -> Iterator[bytes]:
        yield from self.frames

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for frame in self.frames:
            yield frame


def _answer(plan: FaultPlan, request: httpx.Request, body: bytes) -> httpx.Response:
    """The response to a request whose body is read: shared by the sync and the async transport."""
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
    status, headers, content = handle(request.method, request.url.path, dict(request.headers), body, fault)
    if is_stream(content):
        # A streamed body, not `content=`: the SDK reads it chunk by chunk, as it reads a real server's events.
        return httpx.Response(status, headers=headers, stream=EventFrames(content), request=request)
    if request.method == "HEAD":  # the headers of a GET, without its body (as the HTTP server does)
        headers, content = {**headers, "content-length": str(len(content))}, b""
    return httpx.Response(status, headers=headers, content=content, request=request)


class OfflineTransport(httpx.BaseTransport):
    """An httpx transport answered by the offline model. `faults`: a list consumed one per request, or one
    mode for every request (see helpers.offline.faults).

    Example: httpx.Client(transport=OfflineTransport()).get("http://x/v1/models").json()["data"][0]["id"]
             -> "offline-rules-v1"
    """

    def __init__(self, faults: str | list | None = None):
        self.faults = FaultPlan(faults)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return _answer(self.faults, request, request.read())


class AsyncOfflineTransport(httpx.AsyncBaseTransport):
    """The same as OfflineTransport, for httpx.AsyncClient (and so openai.AsyncOpenAI).

    Example: (await httpx.AsyncClient(transport=AsyncOfflineTransport()).get("http://x/v1/models")).status_code
             -> 200
    """

    def __init__(self, faults: str | list | None = None):
        self.faults = FaultPlan(faults)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        # The rules run in a worker thread, so the event loop never waits on them (the first request reads
        # the FAQ's vocabulary: about half a second). anyio, not asyncio: httpx runs under trio as well.
        return await anyio.to_thread.run_sync(_answer, self.faults, request, body)
