"""The Batch API of the offline model: a JSONL file of requests in, a job, output and error files out.

Routes (served through app.handle, /v1 optional): `POST /batches` (`input_file_id`, `endpoint`,
`completion_window`, `metadata`), `GET /batches` (`limit`, `after`), `GET /batches/{id}`,
`POST /batches/{id}/cancel`; `serve_batch_api` also hands /files... to files.py. The batch object has the
shape of the OpenAPI description's `Batch`; each line of the output and error files is
`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`, as the real API writes them.

How a batch moves, without a clock. The real API runs a batch in the background and you poll it; here each
`GET /batches/{id}` moves it one step along the real sequence, so a polling loop sees every status:
- create: `validating` (request counts 0);
- 1st retrieve: `failed` if a line of the input file is wrong (`errors.data` lists every bad line, with the real
  codes `empty_file`, `too_many_tasks`, `invalid_json_line`, `duplicate_custom_id`, `url_mismatch`,
  `model_mismatch`; `missing_required_parameter` and `invalid_value` for a line without or with a wrong
  `custom_id`, `method` or `body` are this model's own), else `in_progress` (total set);
- 2nd retrieve: every line is answered, each by the same `handle` path as a live request to its URL, then
  `finalizing` (completed and failed counts set);
- 3rd retrieve: `completed`, with `output_file_id` (the 200 answers) and `error_file_id` (every other
  status: a request that fails goes to the error file, with its error body), and the summed `usage`.
`POST /batches/{id}/cancel` before `finalizing` makes it `cancelling`, and the next retrieve `cancelled` (no
request was answered, so no files). Listing batches does not move them. Timestamps come from the state's
logical clock (files.tick), ids from hashes: the same requests in the same order give the same bytes.

The output file is NOT in the input's order: lines are ordered by a hash of the batch id and custom_id, so
code that zips results with its questions by position gets wrong pairs, as it would on the real API. Join on
`custom_id`.

What it leaves out on purpose: endpoints other than /v1/responses and /v1/chat/completions (a clear 400),
expiry (nothing runs for 24 hours), partial results of a cancelled batch (the real API keeps the requests it
had finished), `output_expires_after` (accepted and ignored) and pricing: the usage is the live one; the batch
discount (50%) is applied by whoever prices it (helpers.batch, with genai-prices' batch prices).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from helpers.offline.api.body import load_request
from helpers.offline.api.errors import ApiError
from helpers.offline.api.files import get_file, page, query_limit, serve_files, store_file, tick

# The endpoints the spec's CreateBatchRequest names, and the two the offline model serves.
SPEC_ENDPOINTS = ("/v1/responses", "/v1/chat/completions", "/v1/embeddings", "/v1/completions", "/v1/moderations",
                  "/v1/images/generations", "/v1/images/edits", "/v1/videos")
SERVED_ENDPOINTS = ("/v1/responses", "/v1/chat/completions")
MAX_REQUESTS = 50_000  # the real API's limit per batch file
WINDOW_SECONDS = 24 * 3600  # completion_window "24h"

# (method, path, headers, body) -> (status, headers, content): app.handle, with the server's state bound.
Answer = Callable[[str, str, dict, bytes], tuple]


@dataclass
class BatchJob:
    """One batch: what it was created with, where it stands, and what it produced.

    Example:
        >>> BatchJob("batch_1", "/v1/responses", "file-1", {}, 1767225601).to_object()["status"]
        'validating'
    """

    id: str
    endpoint: str
    input_file_id: str
    metadata: dict | None
    created_at: int
    status: str = "validating"
    times: dict = field(default_factory=dict)  # in_progress_at, finalizing_at, completed_at, ... as reached
    errors: list = field(default_factory=list)  # BatchError objects of a failed validation
    requests: list = field(default_factory=list)  # the validated lines of the input file
    results: list = field(default_factory=list)  # one output line per request, once answered
    counts: dict = field(default_factory=lambda: {"total": 0, "completed": 0, "failed": 0})
    model: str | None = None
    output_file_id: str | None = None
    error_file_id: str | None = None
    usage: dict | None = None

    def to_object(self) -> dict:
        """The batch object, as the API returns it (unset times and files are null, as there).

        Example:
            >>> BatchJob("batch_1", "/v1/responses", "file-1", None, 1767225601).to_object()["expires_at"]
            1767312001
        """
        stamps = {f"{name}_at": self.times.get(name) for name in
                  ("in_progress", "expires", "finalizing", "completed", "failed", "expired", "cancelling",
                   "cancelled")}
        stamps["expires_at"] = self.created_at + WINDOW_SECONDS
        data = {"id": self.id, "object": "batch", "endpoint": self.endpoint, "model": self.model,
                "errors": {"object": "list", "data": self.errors} if self.errors else None,
                "input_file_id": self.input_file_id, "completion_window": "24h", "status": self.status,
                "output_file_id": self.output_file_id, "error_file_id": self.error_file_id,
                "created_at": self.created_at, **stamps, "request_counts": dict(self.counts),
                "usage": self.usage, "metadata": self.metadata}
        if self.model is None:  # the real API names the model once it has read the file
            del data["model"]
        return data


def is_batch_api(route: str) -> bool:
    """Whether a route (without /v1 and query) belongs to the Files or Batch API.

    Example:
        >>> is_batch_api("/batches/batch_1"), is_batch_api("/responses")
        (True, False)
    """
    return route.split("/")[1] in ("files", "batches") if route.startswith("/") else False


def serve_batch_api(method: str, route: str, query: str, headers: dict, body: bytes, state,
                    answer: Answer) -> tuple[int, dict | bytes]:
    """Answer one Files or Batch API request: (status, the JSON object, or a file's bytes).

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> serve_batch_api("GET", "/batches", "", {}, b"", ServerState(), answer=None)
        (200, {'object': 'list', 'data': [], 'first_id': None, 'last_id': None, 'has_more': False})
    """
    if route.startswith("/files"):
        return serve_files(method, route, query, headers, body, state)
    parts = route.strip("/").split("/")  # ["batches"], ["batches", id] or ["batches", id, "cancel"]
    expected = {1: ("GET", "POST"), 2: ("GET",), 3: ("POST",)}.get(len(parts))
    if expected is None or (len(parts) == 3 and parts[2] != "cancel"):
        raise ApiError(404, f"Invalid URL ({method} /v1{route}). The Batch API serves /v1/batches, "
                            f"/v1/batches/{{batch_id}} and /v1/batches/{{batch_id}}/cancel.")
    if method not in expected and not (method == "HEAD" and "GET" in expected):
        raise ApiError(405, f"Invalid method for URL ({method} /v1{route}): use {' or '.join(expected)}.",
                       headers={"allow": ", ".join(expected)})
    if len(parts) == 1:
        if method == "POST":
            return 200, create(state, load_request(body)).to_object()
        jobs = sorted(state.batches.values(), key=lambda j: j.created_at, reverse=True)  # newest first
        options = parse_qs(query)
        return 200, page([j.to_object() for j in jobs], (options.get("after") or [None])[0],
                         query_limit(options, 100, 20))
    job = state.batches.get(parts[1])
    if job is None:
        raise ApiError(404, f"No batch found with id '{parts[1]}'.", param="batch_id")
    if len(parts) == 3:
        return 200, cancel(state, job).to_object()
    return 200, advance(state, job, answer).to_object()


def create(state, request: dict) -> BatchJob:
    """Check a create request (the file must exist and have the purpose `batch`) and store a new job.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> create(ServerState(), {"input_file_id": "file-1", "endpoint": "/v1/responses",
        ...                        "completion_window": "1h"})
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Invalid value for 'completion_window': '1h'. Only '24h' is supported.
    """
    for name in ("input_file_id", "endpoint", "completion_window"):
        if name not in request:
            raise ApiError(400, f"Missing required parameter: '{name}'.", param=name,
                           code="missing_required_parameter")
        if not isinstance(request[name], str):
            raise ApiError(400, f"Invalid type for '{name}': expected a string, but got "
                                f"{type(request[name]).__name__}.", param=name, code="invalid_type")
    endpoint, window = request["endpoint"], request["completion_window"]
    if endpoint not in SPEC_ENDPOINTS:
        raise ApiError(400, f"Invalid value for 'endpoint': {endpoint!r}. Supported values are: "
                            f"{', '.join(repr(e) for e in SPEC_ENDPOINTS)}.", param="endpoint", code="invalid_value")
    if endpoint not in SERVED_ENDPOINTS:
        raise ApiError(400, f"The offline model runs batches for {' and '.join(SERVED_ENDPOINTS)} only, not "
                            f"{endpoint}.", param="endpoint", code="invalid_value")
    if window != "24h":
        raise ApiError(400, f"Invalid value for 'completion_window': {window!r}. Only '24h' is supported.",
                       param="completion_window", code="invalid_value")
    metadata = request.get("metadata")
    if metadata is not None and not (isinstance(metadata, dict) and len(metadata) <= 16
                                     and all(isinstance(v, str) for v in metadata.values())):
        raise ApiError(400, "Invalid 'metadata': expected an object of at most 16 string values.", param="metadata",
                       code="invalid_value")
    source = get_file(state, request["input_file_id"], param="input_file_id")
    if source.purpose != "batch":
        raise ApiError(400, f"The input file {source.id} was uploaded with the purpose {source.purpose!r}; a batch "
                            f"needs a file uploaded with purpose='batch'.", param="input_file_id",
                       code="invalid_value")
    created = tick(state)
    digest = hashlib.sha256(f"{created}/{source.id}/{endpoint}".encode()).hexdigest()[:24]
    job = BatchJob(f"batch_{digest}", endpoint, source.id, metadata, created)
    job.requests, job.errors = read_requests(source.content, endpoint)
    state.batches[job.id] = job
    return job


def read_requests(content: bytes, endpoint: str) -> tuple[list[dict], list[dict]]:
    """(the requests, the BatchError objects) of a batch input file: one JSON object a line with `custom_id`,
    `method` "POST", `url` equal to the batch's endpoint and `body`; unique custom_ids and one model.

    Example:
        >>> lines = b'{"custom_id": "a", "method": "POST", "url": "/v1/responses", "body": {}}\\nnot json\\n'
        >>> read_requests(lines, "/v1/responses")[1]
        [{'code': 'invalid_json_line', 'message': 'This line is not parseable as valid JSON.', 'param': None, 'line': 2}]
    """
    def error(code: str, message: str, line: int | None, param: str | None = None) -> dict:
        return {"code": code, "message": message, "param": param, "line": line}

    lines = [(n, text) for n, text in enumerate(content.decode("utf-8", "replace").splitlines(), 1) if text.strip()]
    if not lines:
        return [], [error("empty_file", "The input file is empty: it holds no requests.", None)]
    if len(lines) > MAX_REQUESTS:
        return [], [error("too_many_tasks", f"The input file holds {len(lines):,} requests; a batch takes at most "
                                            f"{MAX_REQUESTS:,}.", None)]
    requests, errors, seen, models = [], [], set(), set()
    for n, text in lines:
        try:
            request = json.loads(text)
        except ValueError:
            request = None
        if not isinstance(request, dict):
            errors.append(error("invalid_json_line", "This line is not parseable as valid JSON.", n))
            continue
        missing = next((k for k in ("custom_id", "method", "url", "body") if k not in request), None)
        if missing:
            errors.append(error("missing_required_parameter", f"This line has no '{missing}'.", n, missing))
        elif not isinstance(request["custom_id"], str) or not request["custom_id"]:
            errors.append(error("invalid_value", "The custom_id must be a non-empty string.", n, "custom_id"))
        elif request["method"] != "POST":
            errors.append(error("invalid_value", f"The method must be 'POST', not {request['method']!r}.", n, "method"))
        elif request["url"] != endpoint:
            errors.append(error("url_mismatch", f"The URL provided for this request ({request['url']!r}) does not "
                                                f"match the batch endpoint ({endpoint!r}).", n, "url"))
        elif not isinstance(request["body"], dict):
            errors.append(error("invalid_value", "The body must be a JSON object: the request's body, as you would "
                                                 "send it to the endpoint.", n, "body"))
        elif request["custom_id"] in seen:
            errors.append(error("duplicate_custom_id", f"The custom_id {request['custom_id']!r} is a duplicate of "
                                                       f"another request's. The custom_id must be unique for each "
                                                       f"request in a batch.", n, "custom_id"))
        else:
            seen.add(request["custom_id"])
            if isinstance(request["body"].get("model"), str):
                models.add(request["body"]["model"])
                if len(models) > 1:
                    errors.append(error("model_mismatch", f"Every request in a batch must use the same model; "
                                                          f"this line uses {request['body']['model']!r}, an earlier "
                                                          f"one {sorted(models - {request['body']['model']})[0]!r}.",
                                        n, "body.model"))
                    models.discard(request["body"]["model"])
            requests.append(request)
    return requests, errors


def advance(state, job: BatchJob, answer: Answer) -> BatchJob:
    """Move a job one step along validating -> in_progress -> finalizing -> completed (or failed, or
    cancelling -> cancelled); a finished job stays as it is.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> state = ServerState()
        >>> job = BatchJob("batch_1", "/v1/responses", "file-1", None, 1767225601, errors=[{"code": "empty_file"}])
        >>> advance(state, job, answer=None).status
        'failed'
    """
    if job.status == "validating":
        if job.errors:
            job.status, job.times["failed"] = "failed", tick(state)
        else:
            job.status, job.times["in_progress"] = "in_progress", tick(state)
            job.counts["total"] = len(job.requests)
            job.model = next((r["body"]["model"] for r in job.requests if isinstance(r["body"].get("model"), str)),
                             None)
    elif job.status == "in_progress":
        job.results = [_run(job, request, answer) for request in job.requests]
        failed = sum(line["response"]["status_code"] != 200 for line in job.results)
        job.counts.update(completed=len(job.results) - failed, failed=failed)
        job.status, job.times["finalizing"] = "finalizing", tick(state)
    elif job.status == "finalizing":
        _write_files(state, job)
        job.status, job.times["completed"] = "completed", tick(state)
    elif job.status == "cancelling":
        job.status, job.times["cancelled"] = "cancelled", tick(state)
    return job


def cancel(state, job: BatchJob) -> BatchJob:
    """Cancel a job that has not started finalizing; a cancelled or cancelling one is returned as it is.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> cancel(ServerState(), BatchJob("batch_1", "/v1/responses", "file-1", None, 1767225601)).status
        'cancelling'
    """
    if job.status in ("validating", "in_progress"):
        job.status, job.times["cancelling"] = "cancelling", tick(state)
    elif job.status not in ("cancelling", "cancelled"):
        raise ApiError(400, f"Cannot cancel a batch with status '{job.status}': only a batch that is validating or "
                            f"in progress can be cancelled.", param="batch_id")
    return job


def _run(job: BatchJob, request: dict, answer: Answer) -> dict:
    """Answer one request of the batch through the live path; its output line."""
    custom_id = request["custom_id"]
    line_id = "batch_req_" + hashlib.sha256(f"{job.id}/{custom_id}".encode()).hexdigest()[:24]
    if request["body"].get("stream") is True:  # a file holds one answer per request: there is no stream to read
        status, request_id = 400, "req_error"
        body = {"error": {"message": "A batch request cannot stream: remove 'stream' from its body.",
                          "type": "invalid_request_error", "param": "stream", "code": "invalid_value"}}
    else:
        status, headers, content = answer("POST", request["url"], {"content-type": "application/json"},
                                          json.dumps(request["body"]).encode())
        request_id, body = headers.get("x-request-id", "req_error"), json.loads(content)
    return {"id": line_id, "custom_id": custom_id,
            "response": {"status_code": status, "request_id": request_id, "body": body}, "error": None}


def _write_files(state, job: BatchJob) -> None:
    """Store the output file (200 answers) and the error file (the rest), each in a hashed, not the input, order;
    and sum the usage of the answered requests."""
    def shuffled(lines: list[dict]) -> bytes:
        ordered = sorted(lines, key=lambda line: hashlib.sha256(f"{job.id}/{line['custom_id']}".encode()).digest())
        return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
                       for line in ordered).encode("utf-8")

    answered = [line for line in job.results if line["response"]["status_code"] == 200]
    failed = [line for line in job.results if line["response"]["status_code"] != 200]
    if answered:
        job.output_file_id = store_file(state, f"{job.id}_output.jsonl", "batch_output", shuffled(answered)).id
    if failed:
        job.error_file_id = store_file(state, f"{job.id}_error.jsonl", "batch_output", shuffled(failed)).id
    job.usage = summed_usage([line["response"]["body"].get("usage") or {} for line in answered])


def summed_usage(usages: list[dict]) -> dict:
    """The batch's `usage` (Responses field names) summed over its answers, in either API's shape.

    Example:
        >>> summed_usage([{"input_tokens": 10, "output_tokens": 2}, {"prompt_tokens": 5, "completion_tokens": 1,
        ...                "prompt_tokens_details": {"cached_tokens": 3}}])["input_tokens_details"]
        {'cached_tokens': 3}
    """
    def count(usage: dict, *path: str) -> int:
        value = usage
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value if isinstance(value, int) else 0

    inputs = sum(count(u, "input_tokens") + count(u, "prompt_tokens") for u in usages)
    cached = sum(count(u, "input_tokens_details", "cached_tokens") + count(u, "prompt_tokens_details", "cached_tokens")
                 for u in usages)
    outputs = sum(count(u, "output_tokens") + count(u, "completion_tokens") for u in usages)
    reasoning = sum(count(u, "output_tokens_details", "reasoning_tokens")
                    + count(u, "completion_tokens_details", "reasoning_tokens") for u in usages)
    return {"input_tokens": inputs, "input_tokens_details": {"cached_tokens": cached}, "output_tokens": outputs,
            "output_tokens_details": {"reasoning_tokens": reasoning}, "total_tokens": inputs + outputs}
