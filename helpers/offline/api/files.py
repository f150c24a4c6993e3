"""The Files API of the offline model: upload, list, retrieve, download and delete files, kept in memory.

Routes (served through app.handle, the /v1 prefix optional): `POST /files` (a multipart/form-data upload with
the fields `file` and `purpose`, what `client.files.create(file=..., purpose="batch")` sends), `GET /files`
(`purpose`, `limit`, `order`, `after`), `GET /files/{id}`, `GET /files/{id}/content` (the bytes as uploaded),
`DELETE /files/{id}`. Objects have the shapes of the OpenAPI description (OpenAIFile, ListFilesResponse,
DeleteFileResponse). The batch jobs of batches.py store their output and error files here too, with the
purpose `batch_output`.

Ids and times never come from the clock: a file's id is a hash of what it holds and of its place in the
sequence of stored objects, its `created_at` the fixed creation time of wire.py plus that place (a logical
clock, `ServerState.ticks`). The same uploads in the same order give the same ids and times on every machine.

What it leaves out on purpose: purposes other than the spec's (each gets the 400), checks of the content for
purposes other than `batch` (batches.py reads a batch file when a batch uses it, as the real API does),
`expires_after` (accepted, files never expire: nothing here runs on the clock), and uploads larger than app.py's
MAX_BODY_BYTES (8 MiB; the real API takes up to 512 MB, 200 MB for a batch file).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from urllib.parse import parse_qs

from helpers.offline.api.errors import ApiError

PURPOSES = ("assistants", "batch", "fine-tune", "vision", "user_data", "evals")  # what an upload may say
CREATED_AT = 1767225600  # wire.py's fixed creation time (2026-01-01T00:00:00Z); ticks are added to it


@dataclass
class StoredFile:
    """One file the offline model keeps: its bytes and the fields of its OpenAIFile object.

    Example:
        >>> StoredFile("file-1", "a.jsonl", "batch", b"{}", 1767225601).to_object()["bytes"]
        2
    """

    id: str
    filename: str
    purpose: str
    content: bytes
    created_at: int

    def to_object(self) -> dict:
        """The file object, as the API returns it (no `expires_at`: nothing here expires).

        Example:
            >>> StoredFile("file-1", "a.jsonl", "batch", b"{}", 1767225601).to_object()["object"]
            'file'
        """
        return {"id": self.id, "object": "file", "bytes": len(self.content), "created_at": self.created_at,
                "filename": self.filename, "purpose": self.purpose, "status": "processed"}


def tick(state) -> int:
    """Advance the state's logical clock by one and return the new time (a Unix timestamp): every stored file
    and every step of a batch gets its own second, in the order they happened.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> state = ServerState()
        >>> tick(state) - CREATED_AT, tick(state) - CREATED_AT
        (1, 2)
    """
    state.ticks += 1
    return CREATED_AT + state.ticks


def store_file(state, filename: str, purpose: str, content: bytes) -> StoredFile:
    """Keep a file in `state` and return it. Its id is `file-` and a hash of its place and content.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> stored = store_file(ServerState(), "q.jsonl", "batch", b'{"custom_id": "1"}')
        >>> stored.id.startswith("file-"), stored.created_at
        (True, 1767225601)
    """
    created = tick(state)
    digest = hashlib.sha256(f"{created}/{filename}/{purpose}/".encode() + content).hexdigest()[:24]
    stored = StoredFile(f"file-{digest}", filename, purpose, content, created)
    state.files[stored.id] = stored
    return stored


def get_file(state, file_id: str, param: str | None = None) -> StoredFile:
    """The stored file with this id, or the API's 404.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> get_file(ServerState(), "file-nope")
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: No such File object: file-nope
    """
    stored = state.files.get(file_id)
    if stored is None:
        raise ApiError(404, f"No such File object: {file_id}", param=param, code=None)
    return stored


def serve_files(method: str, route: str, query: str, headers: dict, body: bytes, state) -> tuple[int, dict | bytes]:
    """Answer one request to /files...: (status, the JSON object, or the file's bytes for .../content).

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> serve_files("GET", "/files", "", {}, b"", ServerState())
        (200, {'object': 'list', 'data': [], 'first_id': None, 'last_id': None, 'has_more': False})
    """
    parts = route.strip("/").split("/")  # ["files"], ["files", id] or ["files", id, "content"]
    if len(parts) == 1:
        _allow(method, route, "GET", "POST")
        if method == "POST":
            return 200, _upload(headers, body, state).to_object()
        return 200, _list(state, parse_qs(query))
    if len(parts) == 2:
        _allow(method, route, "GET", "DELETE")
        stored = get_file(state, parts[1])
        if method == "DELETE":
            del state.files[stored.id]
            return 200, {"id": stored.id, "object": "file", "deleted": True}
        return 200, stored.to_object()
    if len(parts) == 3 and parts[2] == "content":
        _allow(method, route, "GET")
        return 200, get_file(state, parts[1]).content
    raise ApiError(404, f"Invalid URL ({method} /v1{route}). The Files API serves /v1/files, /v1/files/{{file_id}} "
                        f"and /v1/files/{{file_id}}/content.")


def _allow(method: str, route: str, *allowed: str) -> None:
    if method not in allowed and not (method == "HEAD" and "GET" in allowed):
        raise ApiError(405, f"Invalid method for URL ({method} /v1{route}): use {' or '.join(allowed)}.",
                       headers={"allow": ", ".join(allowed)})


def _upload(headers: dict, body: bytes, state) -> StoredFile:
    """Read a multipart/form-data upload (with the standard library's MIME parser) and store its file."""
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    if not content_type.lower().startswith("multipart/form-data"):
        raise ApiError(400, f"POST /v1/files takes a multipart/form-data body with the fields 'file' and 'purpose', "
                            f"not {content_type or 'a body without a Content-Type'!r}. With the openai SDK: "
                            f"client.files.create(file=open('requests.jsonl', 'rb'), purpose='batch').")
    # A multipart body is a MIME message without its header: give it back its Content-Type and parse it.
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n"
                                                  + body)
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts() if message.is_multipart() else []:
        name = part.get_param("name", header="content-disposition")
        if isinstance(name, str):
            payload = part.get_payload(decode=True)
            fields[name] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    for name in ("purpose", "file"):
        if name not in fields:
            raise ApiError(400, f"Missing required parameter: '{name}'.", param=name, code="missing_required_parameter")
    purpose = fields["purpose"][1].decode("utf-8", "replace").strip()
    if purpose not in PURPOSES:
        raise ApiError(400, f"Invalid value for 'purpose': {purpose!r}. Supported values are: "
                            f"{', '.join(repr(p) for p in PURPOSES)}.", param="purpose", code="invalid_value")
    filename, content = fields["file"]
    if not filename:
        raise ApiError(400, "The 'file' field must be a file upload with a file name (a multipart part with "
                            "filename=...), not a plain form value.", param="file", code="invalid_value")
    if purpose == "batch" and not filename.lower().endswith(".jsonl"):
        raise ApiError(400, f"Invalid file format for Batch API: {filename!r}. A batch input file is JSON Lines, and its "
                            f"name must end with .jsonl.", param="file", code="invalid_value")
    return store_file(state, filename, purpose, content)


def _list(state, query: dict[str, list[str]]) -> dict:
    """GET /files: newest first by default (`order=asc` oldest first), `limit` per page, `after` a cursor."""
    first = {key: values[0] for key, values in query.items() if values}
    order = first.get("order", "desc")
    if order not in ("asc", "desc"):
        raise ApiError(400, f"Invalid value for 'order': {order!r}. Use 'asc' or 'desc'.", param="order",
                       code="invalid_value")
    limit = _limit(first.get("limit"), 10_000, 10_000)
    files = sorted(state.files.values(), key=lambda f: f.created_at, reverse=order == "desc")
    if "purpose" in first:
        files = [f for f in files if f.purpose == first["purpose"]]
    return page([f.to_object() for f in files], first.get("after"), limit)


def _limit(text: str | None, most: int, default: int) -> int:
    if text is None:
        return default
    if not text.isdigit() or not 1 <= int(text) <= most:
        raise ApiError(400, f"Invalid value for 'limit': {text!r}. It must be a whole number from 1 to {most:,}.",
                       param="limit", code="invalid_value")
    return int(text)


def page(objects: list[dict], after: str | None, limit: int) -> dict:
    """One page of a list, in the API's list shape: the objects following the id `after`, at most `limit`.

    Example:
        >>> page([{"id": "a"}, {"id": "b"}, {"id": "c"}], "a", 1)
        {'object': 'list', 'data': [{'id': 'b'}], 'first_id': 'b', 'last_id': 'b', 'has_more': True}
    """
    if after is not None:
        ids = [o["id"] for o in objects]
        if after not in ids:
            raise ApiError(400, f"Invalid 'after': no object with the id {after!r} in this list.", param="after",
                           code="invalid_value")
        objects = objects[ids.index(after) + 1:]
    data = objects[:limit]
    return {"object": "list", "data": data, "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None, "has_more": len(objects) > limit}


def query_limit(query: dict[str, list[str]], most: int, default: int) -> int:
    """The `limit` query parameter (1 to `most`; `default` when absent), or the API's 400.

    Example:
        >>> query_limit({"limit": ["5"]}, 100, 20), query_limit({}, 100, 20)
        (5, 20)
    """
    return _limit(query["limit"][0] if query.get("limit") else None, most, default)
