"""One function serves every request: `handle(method, path, headers, body) -> (status, headers, body)`.

Both ways of running the offline model call it: the in-process httpx transport and the HTTP server.
So a notebook using the transport and curl talking to the server get the same bytes back.

Routes: POST /v1/responses, POST /v1/chat/completions, GET /v1/models, GET /v1/models/{id};
the stored state (stored.py, conversations.py): GET and DELETE /v1/responses/{id},
GET /v1/responses/{id}/input_items, POST /v1/conversations, GET, POST and DELETE /v1/conversations/{id},
GET and POST /v1/conversations/{id}/items, GET and DELETE /v1/conversations/{id}/items/{item_id};
the Files and Batch APIs under /v1/files and /v1/batches (files.py, batches.py: a batch's lines are answered
by this same `handle`). The /v1 prefix is optional; HEAD works wherever GET does. Anything else gets the OpenAI error JSON
with status 404 or 405.

A Responses request is continued from its previous response or conversation (stored.py), fitted to the
context window (context_window.py), decided, and remembered. A Chat Completions request goes through its door
(door.py) into the Responses shape, then through the same window check and reading; only its answer is
rendered in Chat's shape.

Streaming: a valid request with `"stream": true` is decided and rendered exactly as without it, then
answered as server-sent events (`content-type: text/event-stream`, the frames built by stream.py): the
body is then a list of frames instead of bytes, so the HTTP server can send them one at a time.
`stream_options` without `stream` gets the real API's 400. Errors, including the HTTP faults, are
answered before any event, as plain JSON, as real servers do; the model faults stream their broken answer.

Every other request gets a JSON answer: a body over MAX_BODY_BYTES a 413, a malformed body a 400 naming the
bad field (see body.py and shapes.py), and, as a last resort, an unexpected exception a 500 that says it is a bug
of the offline model (the engine should never see a body it cannot read, so this is not expected).

The model is a seam: `handle` takes any `decide(conversation) -> Decision` (`Decide`); without one, the
offline model's rules (engine.decide, with the vocabulary handed in). A test double or a scripted model passed
there gets the whole wire for free: shape checks, context window, usage, ids, stored state, streaming.

What it leaves out on purpose: authentication (any API key is accepted: there is nothing to protect)
and the "timeout" fault, which needs to stop the clock of the caller and so lives in the transports.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from functools import partial

from typing_extensions import TypeIs  # typing.TypeIs from Python 3.13

from helpers.offline.api.batches import is_batch_api, serve_batch_api
from helpers.offline.api.body import load_request
from helpers.offline.api.context_window import fit_responses, prompt_tokens
from helpers.offline.api.conversations import serve_conversation
from helpers.offline.api.door import chat_as_responses
from helpers.offline.api.errors import ApiError
from helpers.offline.api.faults import FAULT_HEADER, FAULT_MODES, HTTP_FAULTS, FaultPlan
from helpers.offline.api.shapes import check_responses
from helpers.offline.api.state import ServerState
from helpers.offline.api.stored import continue_request, remember, serve_response
from helpers.offline.api.stream import SSE_HEADERS, chat_frames, response_frames
from helpers.offline.api.tokenizer import responses_prompt
from helpers.offline.api.wire import (
    CREATED_AT,
    OFFLINE_MODEL,
    model_object,
    models_list,
    parse_responses,
    render_chat,
    render_response,
    request_hash,
    usage_counts,
)
from helpers.offline.compaction import (
    after_compaction,
    compact_turn,
    compacted_output,
    compaction_threshold,
    summary_of,
)
from helpers.offline.conversation import Conversation, Decision
from helpers.offline.engine import decide as rules_decide
from helpers.offline.knowledge import Vocabulary

# The model seam: what answers a request once the wire has read it into a Conversation.
Decide = Callable[[Conversation], Decision]

JSON_HEADERS = {"content-type": "application/json"}
# The largest request body accepted. A long agent conversation with search tool outputs is well under 1 MiB;
# OpenAI's own limit is larger, but a local test double needs no more.
MAX_BODY_BYTES = 8 * 1024 * 1024
log = logging.getLogger(__name__)


def _encode(data: dict) -> bytes:
    # Fixed separators and key order (insertion order), so equal dicts give equal bytes.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def resolve_fault(plan: FaultPlan | None, headers: dict) -> str | None:
    """The fault for this request: header X-Offline-Fault first, then the plan. Raises ApiError for an
    unknown mode named in the header.

    Example:
        >>> resolve_fault(None, {"x-offline-fault": "server_error"})
        'server_error'
    """
    header = next((v for k, v in headers.items() if k.lower() == FAULT_HEADER), None)
    try:
        return (plan or FaultPlan()).next(header)
    except ValueError:
        raise ApiError(400, f"Unknown X-Offline-Fault mode {header!r}. Use one of: {', '.join(FAULT_MODES)}.",
                       param=None, code="invalid_value") from None


def handle(method: str, path: str, headers: dict, body: bytes, fault: str | None = None,
           state: ServerState | None = None, vocabulary: Vocabulary | None = None, decide: Decide | None = None
           ) -> tuple[int, dict, bytes | list[bytes]]:
    """Serve one request. `fault` is the already-resolved fault mode (see `resolve_fault`). `state` is what the
    client or server that got the request remembers (state.py; None: a fresh state that is then forgotten, so
    nothing is ever cached); `vocabulary`
    the one handed to the transport or server, if any (see engine.decide); `decide` the model that answers
    (None: the offline model's rules). The content is
    bytes for a JSON answer, or, for a request with `"stream": true`, the list of its server-sent event
    frames (`b"".join(frames)` is the whole body), so a server can send them one by one.

    Example:
        >>> handle("GET", "/v1/models", {}, b"")[0]
        200
    """
    try:
        if len(body) > MAX_BODY_BYTES:
            raise body_too_large(len(body))
        state = state or ServerState()
        model = decide or partial(rules_decide, vocab=vocabulary)
        if is_batch_api(_route_of(path)):  # the Files and Batch APIs (files.py, batches.py)
            return _batch_api(method, path, headers, body, fault, state, model)
        status, data, streamed = _route(method, path, body, fault, state, model)
        seed = request_hash(path, data) if status == 200 else ""
        request_id = {"x-request-id": f"req_{seed[:24] or 'error'}"}
        if streamed is not None:  # the events are built here, inside the try: a bug in them is still a JSON 500
            return status, {**SSE_HEADERS, **request_id}, streamed(data)
        return status, {**JSON_HEADERS, **request_id}, _encode(data)
    except ApiError as error:
        return error_response(error)
    except Exception as exc:  # a bug in the offline model: still a JSON answer, and a traceback in the log
        log.exception("The offline model failed on %s %s", method, path)
        return error_response(ApiError(
            500, f"The offline model failed on this request ({type(exc).__name__}: {exc}). This is a bug in the "
                 f"offline model, not in your code: please report it with the request body.",
            type="server_error", headers={"x-should-retry": "false"}))  # the same request would fail again


def _route_of(path: str) -> str:
    route = path.split("?", 1)[0].rstrip("/")
    return route[3:] if route.startswith("/v1/") or route == "/v1" else route


def _batch_api(method: str, path: str, headers: dict, body: bytes, fault: str | None, state: ServerState,
               model: Decide) -> tuple[int, dict, bytes]:
    """A Files or Batch API request; each line of a batch is answered by `handle`, as a live request is."""
    if fault in HTTP_FAULTS:
        raise _http_fault(fault)
    status, data = serve_batch_api(method, _route_of(path), path.partition("?")[2], headers, body, state,
                                   answer=partial(handle, state=state, decide=model))
    request_id = {"x-request-id": "req_" + hashlib.sha256(path.encode() + body).hexdigest()[:24]}
    if isinstance(data, bytes):  # a file's content, as uploaded
        return status, {"content-type": "application/octet-stream", **request_id}, data
    return status, {**JSON_HEADERS, **request_id}, _encode(data)


def body_too_large(size: int | None) -> ApiError:
    """The 413 error for a body over MAX_BODY_BYTES (`size` None: the length is not known yet).

    Example:
        >>> body_too_large(10**11).status
        413
    """
    told = f"{size:,} bytes" if size is not None else "larger than that"
    return ApiError(413, f"The request body is {told}; the offline model accepts at most {MAX_BODY_BYTES:,} bytes "
                         f"({MAX_BODY_BYTES // 2**20} MiB). Send a shorter conversation or shorter tool outputs.",
                    code="request_too_large")


def error_response(error: ApiError) -> tuple[int, dict, bytes]:
    """(status, headers, body) of an API error.

    Example:
        >>> error_response(ApiError(404, "Invalid URL"))[0]
        404
    """
    return error.status, {**JSON_HEADERS, **error.headers}, _encode(error.body())


StreamWriter = Callable[[dict], list[bytes]]  # the final object in, its SSE frames out (see stream.py)


def is_stream(content: bytes | list[bytes]) -> TypeIs[list[bytes]]:
    """Whether `handle` answered with server-sent event frames rather than one JSON body.

    Example:
        >>> is_stream(handle("GET", "/v1/models", {}, b"")[2])
        False
    """
    return not isinstance(content, bytes | bytearray)


def _stream_choice(request: dict) -> tuple[bool, bool]:
    """(stream, include_usage) of a request whose shape is checked (shapes.py types stream_options' fields);
    400 for stream_options without stream."""
    options = request.get("stream_options")
    if options is None:
        return request.get("stream") is True, False
    if request.get("stream") is not True:
        # The real API's words (param "stream_options", no code), for both APIs.
        raise ApiError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                       param="stream_options")
    return True, options.get("include_usage") is True


def _route(method: str, path: str, body: bytes, fault: str | None,
           state: ServerState, model: Decide) -> tuple[int, dict, StreamWriter | None]:
    route = path.split("?", 1)[0].rstrip("/")
    if route.startswith("/v1/") or route == "/v1":
        route = route[3:]
    query = path.split("?", 1)[1] if "?" in path else ""
    if route == "/responses/compact" and method == "POST":  # compaction (compaction.py)
        return 200, _compact(load_request(body), state), None
    if route.startswith("/responses/") or route.split("/")[1:2] == ["conversations"]:  # stored state
        if fault in HTTP_FAULTS:
            raise _http_fault(fault)
        method = "GET" if method == "HEAD" else method
        return 200, (serve_response(method, route, query, state) if route.startswith("/responses/") else
                     serve_conversation(method, route, query, body, state.conversations)), None
    routes = {"/responses": "POST", "/chat/completions": "POST", "/models": "GET"}
    expected = routes.get(route) or ("GET" if route.startswith("/models/") else None)
    if expected is None:
        raise ApiError(404, f"Invalid URL ({method} {path}). The offline model serves POST /v1/responses, "
                            f"POST /v1/chat/completions, GET /v1/models, /v1/responses/{{id}}, "
                            f"/v1/conversations, /v1/files and /v1/batches.")
    if method != expected and not (method == "HEAD" and expected == "GET"):  # HEAD: GET's headers, no body
        raise ApiError(405, f"Invalid method for URL ({method} {path}): use {expected}.",
                       headers={"allow": "GET, HEAD" if expected == "GET" else expected})
    if fault in HTTP_FAULTS:  # before any event: a real server answers these as plain JSON errors too
        raise _http_fault(fault)
    if route == "/models":
        return 200, models_list(), None
    if route.startswith("/models/"):
        named = route[len("/models/"):]
        if named != OFFLINE_MODEL:
            raise ApiError(404, f"The model '{named}' does not exist. The offline model serves only "
                                f"'{OFFLINE_MODEL}'.", param="model", code="model_not_found")
        return 200, model_object(), None

    request = load_request(body)
    seed = request_hash(route, request, fault)
    if route == "/responses":
        check_responses(request)
        # The earlier items first (a previous response's or a conversation's: stored.py), then the window.
        full, seed = continue_request(request, state, seed)
        full, compacted = _managed(full, seed)  # context_management: compaction (compaction.py)
        fitted = fit_responses(full, state.context_window)
        conv, tools = parse_responses(fitted, fault)
        stream, _ = _stream_choice(request)
        # Streamed or not, the answer is decided and rendered whole first; stream.py only replays it as events.
        response = render_response(fitted, conv, model(conv), tools, seed, state.cache)
        response["output"][:0] = [compacted] if compacted else []
        remember(state, request, full, response)
        return 200, response, (response_frames if stream else None)
    # Chat Completions through its door (door.py): from here on, the same reading, window and prompt as Responses.
    converted = fit_responses(chat_as_responses(request), state.context_window, param="messages")
    conv, _ = parse_responses(converted, fault)
    stream, include_usage = _stream_choice(request)
    completion = render_chat(request, model(conv), seed, state.cache, converted)
    return 200, completion, (partial(chat_frames, include_usage=include_usage) if stream else None)


def _managed(body: dict, seed: str) -> tuple[dict, dict | None]:
    """The request read after its latest compaction item, and compacted when `context_management` asks for it
    and the prompt is over its threshold: (body, the new compaction item or None)."""
    items = after_compaction(body["input"])
    threshold = compaction_threshold(body.get("context_management"))
    if threshold is None or prompt_tokens(responses_prompt({**body, "input": items})) <= threshold:
        return {**body, "input": items}, None
    items, item = compact_turn(items, f"cmp_{seed[:24]}")
    return {**body, "input": items}, item


def _compact(request: dict, state: ServerState) -> dict:
    """POST /responses/compact: the input (or a stored response's chain) as its user messages and one
    compaction item, with the usage of reading it."""
    check_responses({**request, "input": request.get("input") or []})
    seed = request_hash("/responses/compact", request)
    full, _ = continue_request({**request, "input": request.get("input") or []}, state, seed)
    items = after_compaction(full["input"])
    output = compacted_output(items, f"cmp_{seed[:24]}")
    tokens_in, cached, tokens_out = usage_counts(responses_prompt({**full, "input": items}),
                                                 [summary_of(output[-1])], state.cache, None)
    return {"id": f"resp_{seed[:24]}", "object": "response.compaction", "created_at": CREATED_AT, "output": output,
            "usage": {"input_tokens": tokens_in, "input_tokens_details": {"cached_tokens": cached},
                      "output_tokens": tokens_out, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": tokens_in + tokens_out}}


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
