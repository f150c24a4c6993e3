"""One function serves every request: `handle(method, path, headers, body) -> (status, headers, body)`.

Both ways of running the offline model call it: the in-process httpx transport and the HTTP server.
So a notebook using the transport and curl talking to the server get the same bytes back.

Routes: POST /v1/responses, POST /v1/chat/completions, GET /v1/models, GET /v1/models/{id}
(the /v1 prefix is optional). Anything else gets the OpenAI error JSON with status 404 or 405.

What it leaves out on purpose: authentication (any API key is accepted: there is nothing to protect)
and the "timeout" fault, which needs to stop the clock of the caller and so lives in the transports.
"""

from __future__ import annotations

import json

from helpers.offline.engine import decide
from helpers.offline.faults import FAULT_HEADER, FAULT_MODES, HTTP_FAULTS, FaultPlan
from helpers.offline.wire import (
    OFFLINE_MODEL,
    ApiError,
    model_object,
    models_list,
    parse_chat,
    parse_responses,
    render_chat,
    render_response,
    request_hash,
)

JSON_HEADERS = {"content-type": "application/json"}


def _encode(data: dict) -> bytes:
    # Fixed separators and key order (insertion order), so equal dicts give equal bytes.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def resolve_fault(plan: FaultPlan | None, headers: dict) -> str | None:
    """The fault for this request: header X-Offline-Fault first, then the plan. Raises ApiError for an
    unknown mode named in the header.

    Example: resolve_fault(None, {"x-offline-fault": "server_error"}) -> "server_error"
    """
    header = next((v for k, v in headers.items() if k.lower() == FAULT_HEADER), None)
    try:
        return (plan or FaultPlan()).next(header)
    except ValueError:
        raise ApiError(400, f"Unknown X-Offline-Fault mode {header!r}. Use one of: {', '.join(FAULT_MODES)}.",
                       param=None, code="invalid_value") from None


def handle(method: str, path: str, headers: dict, body: bytes, fault: str | None = None) -> tuple[int, dict, bytes]:
    """Serve one request. `fault` is the already-resolved fault mode (see `resolve_fault`).

    Example: handle("GET", "/v1/models", {}, b"")[0] -> 200
    """
    try:
        status, data = _route(method, path, body, fault)
        seed = request_hash(path, data) if status == 200 else ""
        return status, {**JSON_HEADERS, "x-request-id": f"req_{seed[:24] or 'error'}"}, _encode(data)
    except ApiError as error:
        return error_response(error)


def error_response(error: ApiError) -> tuple[int, dict, bytes]:
    """(status, headers, body) of an API error.

    Example: error_response(ApiError(404, "Invalid URL"))[0] -> 404
    """
    return error.status, {**JSON_HEADERS, **error.headers}, _encode(error.body())


def _route(method: str, path: str, body: bytes, fault: str | None) -> tuple[int, dict]:
    route = path.split("?", 1)[0].rstrip("/")
    if route.startswith("/v1/") or route == "/v1":
        route = route[3:]
    routes = {"/responses": "POST", "/chat/completions": "POST", "/models": "GET"}
    expected = routes.get(route) or ("GET" if route.startswith("/models/") else None)
    if expected is None:
        raise ApiError(404, f"Invalid URL ({method} {path}). The offline model serves POST /v1/responses, "
                            f"POST /v1/chat/completions and GET /v1/models.")
    if method != expected:
        raise ApiError(405, f"Invalid method for URL ({method} {path}): use {expected}.",
                       headers={"allow": expected})
    if fault in HTTP_FAULTS:
        raise _http_fault(fault)
    if route == "/models":
        return 200, models_list()
    if route.startswith("/models/"):
        model = route[len("/models/"):]
        if model != OFFLINE_MODEL:
            raise ApiError(404, f"The model '{model}' does not exist. The offline model serves only "
                                f"'{OFFLINE_MODEL}'.", param="model", code="model_not_found")
        return 200, model_object()

    try:
        request = json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, f"We could not parse the JSON body of your request ({exc}). The API expects a "
                            f"JSON object; check that you send valid JSON with Content-Type: "
                            f"application/json.") from None
    if not isinstance(request, dict):
        raise ApiError(400, "The request body must be a JSON object, like {\"model\": ..., \"input\": ...}.")

    seed = request_hash(route, request, fault)
    if route == "/responses":
        conv, texts, tools = parse_responses(request, fault)
        return 200, render_response(request, conv, decide(conv), texts, tools, seed)
    conv, texts, tools = parse_chat(request, fault)
    return 200, render_chat(request, decide(conv), texts, tools, seed)


def _http_fault(fault: str) -> ApiError:
    note = f"(Simulated by the offline model's '{fault}' fault.)"
    if fault == "rate_limit":
        return ApiError(429, f"Rate limit reached for {OFFLINE_MODEL} on requests per min. Please try again in "
                             f"10ms. {note}", type="requests", code="rate_limit_exceeded",
                        headers={"retry-after": "1", "retry-after-ms": "10"})
    if fault == "insufficient_quota":
        return ApiError(429, f"You exceeded your current quota, please check your plan and billing details. "
                             f"{note} Retrying does not help: add credit to the account, or use another "
                             f"provider.", type="insufficient_quota", code="insufficient_quota",
                        headers={"x-should-retry": "false"})
    return ApiError(500, f"The server had an error while processing your request. Sorry about that! {note} "
                         f"The openai SDK retries this by itself.", type="server_error",
                    headers={"retry-after-ms": "10"})
