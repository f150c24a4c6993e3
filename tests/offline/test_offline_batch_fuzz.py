"""Property-based tests of the Files and Batch APIs: a JSONL file with a mutated request line, and a mutated body
to POST /v1/batches, always get a 200 or a 4xx in OpenAI's error shape, however far the batch goes (created,
retrieved until it ends, its output and error files read); never a 5xx. Paths under /v1/files and /v1/batches
drawn at random get the same."""

import io
import json

import httpx
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai import OpenAI
from test_offline_fuzz import EXAMPLES, encode, mutated

from helpers.offline import OFFLINE_MODEL, handle
from helpers.offline.api.state import ServerState
from helpers.offline.api.transport import OfflineTransport

LINE = {"custom_id": "tide-1", "method": "POST", "url": "/v1/responses",
        "body": {"model": OFFLINE_MODEL, "input": "When is high water at Leith?", "max_output_tokens": 200}}
CHAT_LINE = {"custom_id": "tide-2", "method": "POST", "url": "/v1/chat/completions",
             "body": {"model": OFFLINE_MODEL, "messages": [{"role": "user", "content": "Is the harbour open?"}]}}


def assert_status_or_error(status: int, content: bytes) -> None:
    assert status < 500, content[:500]
    if status != 200:
        data = json.loads(content)
        assert set(data) == {"error"} and set(data["error"]) == {"message", "type", "param", "code"}


def run_to_the_end(client: OpenAI, lines: bytes, endpoint: str) -> None:
    """Upload, create, retrieve until the batch ends, read its files: any step may refuse, none may fail."""
    try:
        uploaded = client.files.create(file=("lines.jsonl", io.BytesIO(lines)), purpose="batch")
        batch = client.batches.create(input_file_id=uploaded.id, endpoint=endpoint, completion_window="24h")
        for _ in range(5):
            batch = client.batches.retrieve(batch.id)
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                _ = client.files.content(file_id).text  # reading it is part of the test
    except openai.APIStatusError as error:
        assert error.status_code < 500, error.message


@pytest.fixture(scope="module")
def client():
    return OpenAI(api_key="x", base_url="http://offline.invalid/v1", max_retries=0,
                  http_client=httpx.Client(transport=OfflineTransport()))


@settings(max_examples=EXAMPLES * 5)
@given(mutated([("/v1/responses", LINE), ("/v1/chat/completions", CHAT_LINE)]))
def test_a_mutated_request_line_never_breaks_a_batch(client, case):
    endpoint, line = case
    lines = (json.dumps(line) + "\n" + json.dumps({**LINE, "custom_id": "tide-ok"}) + "\n").encode()
    run_to_the_end(client, lines, endpoint)


def _state_with_a_file() -> tuple[ServerState, str]:
    """A transport's state holding one uploaded batch file: (the state, the file's id)."""
    transport = OfflineTransport()
    uploader = OpenAI(api_key="x", base_url="http://offline.invalid/v1", max_retries=0,
                      http_client=httpx.Client(transport=transport))
    uploaded = uploader.files.create(file=("l.jsonl", io.BytesIO((json.dumps(LINE) + "\n").encode())),
                                     purpose="batch")
    return transport.state, uploaded.id


STATE, FILE_ID = _state_with_a_file()
CREATE = {"input_file_id": FILE_ID, "endpoint": "/v1/responses", "completion_window": "24h",
          "metadata": {"harbour": "Leith"}}


def test_the_create_body_before_mutation_is_valid():
    status, _, content = handle("POST", "/v1/batches", {}, encode(CREATE), state=STATE)
    assert status == 200, content


@settings(max_examples=EXAMPLES * 5)
@given(mutated([("/v1/batches", CREATE)]))
def test_a_mutated_create_body_gets_an_answer(case):
    route, body = case
    status, _, content = handle("POST", route, {}, encode(body), state=STATE)
    assert_status_or_error(status, content)


PATH_TEXT = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=255, exclude_characters="?#/&="),
                    max_size=12)
SEGMENT = st.one_of(st.sampled_from(["files", "batches", "content", "cancel", FILE_ID, "", "..", "%2F"]), PATH_TEXT)


@settings(max_examples=EXAMPLES * 5)
@given(st.sampled_from(["GET", "POST", "DELETE", "HEAD", "PUT"]),
       st.sampled_from(["files", "batches"]), st.lists(SEGMENT, max_size=3),
       st.dictionaries(st.sampled_from(["limit", "after", "order", "purpose"]), PATH_TEXT, max_size=3))
def test_drawn_paths_and_queries_get_an_answer(method, root, segments, query):
    path = "/v1/" + "/".join([root, *segments]) + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    status, _, content = handle(method, path, {}, b"{}" if method == "POST" else b"", state=STATE)
    if method == "HEAD" and status == 200:
        return
    assert_status_or_error(status, content)
