"""The offline model in-process: an httpx transport the openai SDK sends its requests to.

    client = OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL,
                    http_client=httpx.Client(transport=OfflineTransport()))

No port, no thread, no network: the SDK builds a real HTTP request, the transport hands it to
`app.handle`, and the SDK parses the reply exactly as it would parse OpenAI's. Every request gets an
HTTP answer (a malformed body a 400 naming the bad field, see app.py), never a Python exception
(except the one the "timeout" fault raises on purpose).

What it leaves out on purpose: async clients (use the HTTP server with AsyncOpenAI) and sleeping. The
"timeout" fault raises httpx.ReadTimeout at once instead of making you wait for the timeout.
"""

from __future__ import annotations

import httpx

from helpers.offline.app import error_response, handle, resolve_fault
from helpers.offline.errors import ApiError
from helpers.offline.faults import FaultPlan

OFFLINE_BASE_URL = "http://offline.invalid/v1"  # .invalid never resolves, so nothing can leak to a network


class OfflineTransport(httpx.BaseTransport):
    """An httpx transport answered by the offline model. `faults`: a list consumed one per request, or one
    mode for every request (see helpers.offline.faults).

    Example: httpx.Client(transport=OfflineTransport()).get("http://x/v1/models").json()["data"][0]["id"]
             -> "offline-rules-v1"
    """

    def __init__(self, faults: str | list | None = None):
        self.faults = FaultPlan(faults)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        try:
            fault = resolve_fault(self.faults, dict(request.headers))
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
        if request.method == "HEAD":  # the headers of a GET, without its body (as the HTTP server does)
            headers, content = {**headers, "content-length": str(len(content))}, b""
        return httpx.Response(status, headers=headers, content=content, request=request)
