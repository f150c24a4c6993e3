"""The offline model's Files and Batch APIs: objects that validate against the OpenAPI description, and the
behaviour a client sees through the real openai SDK, in-process and over HTTP (status sequence, output and
error files, validation errors, cancel), plus helpers.batch on top of them."""

import io
import json

import httpx
import openai
import pytest
from openai import OpenAI
from test_offline_conformance import schema_validator

from helpers.batch import answer_body, batch_agent, first_call_lines, price_bodies, run_batch, to_jsonl
from helpers.offline import OFFLINE_MODEL
from helpers.offline.api.server import OfflineServer
from helpers.offline.api.transport import OfflineTransport

NO_WAIT = {"sleep": lambda seconds: None}


def jsonl(lines):  # no checks: the server must find what is wrong itself
    return "".join(json.dumps(line) + "\n" for line in lines).encode()
# The pinned spec no longer holds the per-line schema of output and error files (BatchRequestOutput, in
# earlier versions of the same description); this is that schema, with `response.body` checked below.
OUTPUT_LINE = {"type": "object", "required": ["id", "custom_id", "response", "error"], "additionalProperties": False,
               "properties": {"id": {"type": "string"}, "custom_id": {"type": "string"},
                              "response": {"anyOf": [{"type": "null"}, {
                                  "type": "object", "required": ["status_code", "request_id", "body"],
                                  "properties": {"status_code": {"type": "integer"}, "request_id": {"type": "string"},
                                                 "body": {"type": "object"}}}]},
                              "error": {"anyOf": [{"type": "null"}, {"type": "object"}]}}}


def line(custom_id, text, url="/v1/responses", **body):
    if url.endswith("chat/completions"):
        return {"custom_id": custom_id, "method": "POST", "url": url,
                "body": {"model": OFFLINE_MODEL, "messages": [{"role": "user", "content": text}], **body}}
    return {"custom_id": custom_id, "method": "POST", "url": url, "body": {"model": OFFLINE_MODEL, "input": text, **body}}


GOOD = [line(f"req-{i}", q) for i, q in enumerate(["Can I plant tomatoes in March?", "How long do I boil an egg?",
                                                   "Which telescope suits a beginner?", "How do I tune a violin?",
                                                   "What is a haiku?"])]
FAILING = {"custom_id": "req-broken", "method": "POST", "url": "/v1/responses", "body": {"model": OFFLINE_MODEL}}


@pytest.fixture(params=["transport", "server"])
def client(request):
    if request.param == "transport":
        yield OpenAI(api_key="x", base_url="http://offline.invalid/v1", max_retries=0,
                     http_client=httpx.Client(transport=OfflineTransport()))
    else:
        with OfflineServer() as server:
            yield OpenAI(api_key="x", base_url=server.base_url, max_retries=0)


def upload(client, lines, name="requests.jsonl"):
    data = lines if isinstance(lines, bytes) else to_jsonl(lines)
    return client.files.create(file=(name, io.BytesIO(data)), purpose="batch")


def finish(client, batch_id):
    statuses = []
    for _ in range(6):
        batch = client.batches.retrieve(batch_id)
        statuses.append(batch.status)
        if batch.status in ("completed", "failed", "cancelled"):
            return batch, statuses
    raise AssertionError(f"the batch never finished: {statuses}")


def raw(client, method, path, **kwargs):
    return client._client.request(method, str(client.base_url).rstrip("/") + path, **kwargs)


# --- conformance with the OpenAPI description ------------------------------------------------------------


def without_nulls(obj):
    # The spec marks these fields optional but not nullable, while its own examples (and the real API) send
    # null for a time or file not reached yet: check the fields that are there.
    return {k: v for k, v in obj.items() if v is not None}


def test_file_and_batch_objects_validate_against_the_spec(client):
    stored = upload(client, [*GOOD, FAILING])
    objects = {"OpenAIFile": [raw(client, "GET", f"/files/{stored.id}").json()],
               "ListFilesResponse": [raw(client, "GET", "/files").json()],
               "DeleteFileResponse": []}
    batch = client.batches.create(input_file_id=stored.id, endpoint="/v1/responses", completion_window="24h")
    seen = [raw(client, "GET", f"/batches/{batch.id}").json() for _ in range(3)]
    objects["Batch"] = [without_nulls(b) for b in seen]
    objects["ListBatchesResponse"] = [{**(listed := raw(client, "GET", "/batches?limit=1").json()),
                                       "data": [without_nulls(b) for b in listed["data"]]}]
    objects["DeleteFileResponse"].append(raw(client, "DELETE", f"/files/{stored.id}").json())
    assert [b["status"] for b in seen] == ["in_progress", "finalizing", "completed"]
    for name, items in objects.items():
        validator = schema_validator(name)
        for item in items:
            errors = [e.message for e in validator.iter_errors(item)]
            assert not errors, (name, errors, item)


def test_output_and_error_lines_have_the_real_shape(client):
    from jsonschema import Draft202012Validator

    batch = client.batches.create(input_file_id=upload(client, [*GOOD, FAILING]).id, endpoint="/v1/responses",
                                  completion_window="24h")
    batch, _ = finish(client, batch.id)
    output = [json.loads(t) for t in client.files.content(batch.output_file_id).text.splitlines()]
    errors = [json.loads(t) for t in client.files.content(batch.error_file_id).text.splitlines()]
    shape = Draft202012Validator(OUTPUT_LINE)
    for result in [*output, *errors]:
        assert not list(shape.iter_errors(result)), result
    response, error = schema_validator("Response"), schema_validator("ErrorResponse")
    assert all(not list(response.iter_errors(r["response"]["body"])) for r in output)
    assert [(r["custom_id"], r["response"]["status_code"]) for r in errors] == [("req-broken", 400)]
    assert not list(error.iter_errors(errors[0]["response"]["body"]))


# --- behaviour through the SDK ---------------------------------------------------------------------------


def test_a_batch_walks_the_real_status_sequence_and_answers_like_live_calls(client):
    stored = upload(client, [*GOOD, FAILING])
    assert (stored.purpose, stored.filename, stored.bytes) == ("batch", "requests.jsonl", len(to_jsonl([*GOOD, FAILING])))
    batch = client.batches.create(input_file_id=stored.id, endpoint="/v1/responses", completion_window="24h",
                                  metadata={"run": "test"})
    assert (batch.status, batch.request_counts.total, batch.metadata) == ("validating", 0, {"run": "test"})
    batch, statuses = finish(client, batch.id)
    assert statuses == ["in_progress", "finalizing", "completed"]
    assert (batch.request_counts.total, batch.request_counts.completed, batch.request_counts.failed) == (6, 5, 1)
    assert batch.created_at < batch.in_progress_at < batch.finalizing_at < batch.completed_at
    output = [json.loads(t) for t in client.files.content(batch.output_file_id).text.splitlines()]
    by_id = {r["custom_id"]: r["response"]["body"] for r in output}
    for request in GOOD:  # the same answer as the same request made live
        live = raw(client, "POST", "/responses", json=request["body"]).json()
        assert by_id[request["custom_id"]]["output"] == live["output"]
    assert batch.usage.input_tokens == sum(b["usage"]["input_tokens"] for b in by_id.values())
    assert [r["custom_id"] for r in output] != [r["custom_id"] for r in GOOD]  # not the input order: join on custom_id
    assert client.files.retrieve(batch.output_file_id).purpose == "batch_output"


def test_chat_completions_batches_work_too(client):
    lines = [line("a", "What is a haiku?", url="/v1/chat/completions")]
    batch = client.batches.create(input_file_id=upload(client, lines).id, endpoint="/v1/chat/completions",
                                  completion_window="24h")
    batch, _ = finish(client, batch.id)
    body = json.loads(client.files.content(batch.output_file_id).text)["response"]["body"]
    assert body["object"] == "chat.completion" and batch.error_file_id is None


@pytest.mark.parametrize("content,code", [
    (jsonl([GOOD[0], {**GOOD[1], "custom_id": "req-0"}]), "duplicate_custom_id"),
    (to_jsonl(GOOD[:1]) + b"{not json\n", "invalid_json_line"),
    (to_jsonl([line("x", "hi", url="/v1/chat/completions")]), "url_mismatch"),
    (to_jsonl([GOOD[0], {**GOOD[1], "body": {**GOOD[1]["body"], "model": "other-model"}}]), "model_mismatch"),
    (b"\n", "empty_file"),
    (to_jsonl([{k: v for k, v in GOOD[0].items() if k != "body"}]), "missing_required_parameter"),
])
def test_a_bad_input_file_fails_the_batch_naming_the_line(client, content, code):
    batch = client.batches.create(input_file_id=upload(client, content).id, endpoint="/v1/responses",
                                  completion_window="24h")
    assert batch.status == "validating"
    batch, statuses = finish(client, batch.id)
    assert statuses == ["failed"] and batch.failed_at is not None and batch.output_file_id is None
    assert [e.code for e in batch.errors.data] == [code]
    assert batch.errors.data[0].message


@pytest.mark.parametrize("kwargs,status,words", [
    ({"completion_window": "1h"}, 400, "Only '24h'"),
    ({"endpoint": "/v1/embeddings"}, 400, "/v1/responses and /v1/chat/completions"),
    ({"endpoint": "/v1/nowhere"}, 400, "Invalid value for 'endpoint'"),
    ({"input_file_id": "file-missing"}, 404, "No such File object"),
])
def test_create_rejects_bad_arguments_with_the_api_errors(client, kwargs, status, words):
    stored = upload(client, GOOD)
    arguments = {"input_file_id": stored.id, "endpoint": "/v1/responses", "completion_window": "24h", **kwargs}
    with pytest.raises(openai.APIStatusError) as caught:
        client.batches.create(**arguments)
    assert caught.value.status_code == status and words in caught.value.message


def test_a_file_uploaded_for_another_purpose_cannot_start_a_batch(client):
    other = client.files.create(file=("notes.txt", io.BytesIO(b"hello")), purpose="user_data")
    with pytest.raises(openai.BadRequestError, match="purpose='batch'"):
        client.batches.create(input_file_id=other.id, endpoint="/v1/responses", completion_window="24h")


def test_cancel_before_finalizing_and_not_after(client):
    batch = client.batches.create(input_file_id=upload(client, GOOD).id, endpoint="/v1/responses",
                                  completion_window="24h")
    assert client.batches.cancel(batch.id).status == "cancelling"
    batch, statuses = finish(client, batch.id)
    assert statuses == ["cancelled"] and batch.output_file_id is None and batch.cancelled_at is not None
    done = client.batches.create(input_file_id=upload(client, GOOD).id, endpoint="/v1/responses",
                                 completion_window="24h")
    finish(client, done.id)
    with pytest.raises(openai.BadRequestError, match="Cannot cancel a batch with status 'completed'"):
        client.batches.cancel(done.id)


def test_files_list_filter_page_content_and_delete(client):
    first, second = upload(client, GOOD[:1], "a.jsonl"), upload(client, GOOD[1:2], "b.jsonl")
    client.files.create(file=("c.txt", io.BytesIO(b"x")), purpose="user_data")
    assert [f.id for f in client.files.list(purpose="batch")] == [second.id, first.id]  # newest first
    assert [f.id for f in client.files.list(purpose="batch", order="asc")] == [first.id, second.id]
    assert client.files.content(first.id).content == to_jsonl(GOOD[:1])
    assert client.files.delete(first.id).deleted is True
    with pytest.raises(openai.NotFoundError, match="No such File object"):
        client.files.retrieve(first.id)
    page = raw(client, "GET", "/batches?limit=0")
    assert page.status_code == 400 and "limit" in page.json()["error"]["message"]


def test_uploads_that_are_not_multipart_or_lack_a_field_get_clear_errors(client):
    assert raw(client, "POST", "/files", json={"purpose": "batch"}).status_code == 400
    missing = raw(client, "POST", "/files", files={"file": ("a.jsonl", b"{}")})
    assert missing.status_code == 400 and "'purpose'" in missing.json()["error"]["message"]
    wrong = raw(client, "POST", "/files", files={"file": ("a.jsonl", b"{}")}, data={"purpose": "homework"})
    assert wrong.status_code == 400 and wrong.json()["error"]["param"] == "purpose"
    assert raw(client, "GET", "/batches/batch_nope").status_code == 404
    assert raw(client, "PUT", "/batches").status_code == 405


def test_same_uploads_and_batches_give_the_same_ids_and_bytes():
    def one_run():
        client = OpenAI(api_key="x", base_url="http://offline.invalid/v1",
                        http_client=httpx.Client(transport=OfflineTransport()))
        run = run_batch(client, [*GOOD, FAILING], **NO_WAIT)
        return run.batch.model_dump(), client.files.content(run.batch.output_file_id).content

    assert one_run() == one_run()


# --- helpers.batch ---------------------------------------------------------------------------------------


def test_first_call_lines_are_the_loops_first_request():
    from helpers.loop import AgentRun

    tool = {"type": "function", "name": "lookup", "description": "Look up a recipe.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
    run = AgentRun(None, "m", "How long do I boil an egg?", {}, schemas=[tool], instructions="Use the tool.")
    expected = run.flavour.request("m", run.messages, instructions="Use the tool.", tools=[tool])
    assert first_call_lines([{"question": "How long do I boil an egg?"}], "m", instructions="Use the tool.",
                            schemas=[tool])[0]["body"] == expected


def test_run_batch_joins_by_custom_id_and_keeps_failures(client):
    run = run_batch(client, [*GOOD, FAILING], **NO_WAIT)
    assert run.statuses == ["validating", "in_progress", "finalizing", "completed"]
    assert set(run.results) == {line["custom_id"] for line in [*GOOD, FAILING]}
    assert answer_body(run.results["req-broken"]) is None and answer_body(run.results["req-0"])["status"] == "completed"


def test_batch_agent_answers_with_tools_in_rounds_in_three_domains(client):
    recipes = [{"id": "r7", "question": "How long do I boil an egg?", "answer": "Nine minutes for a hard egg."}]
    stars = [{"id": "s2", "question": "Which telescope suits a beginner?", "answer": "A small Dobsonian."}]
    music = [{"id": "m4", "question": "How do I tune a violin?", "answer": "Tune the A string to 440 Hz first."}]
    shelves = {"eggs": recipes, "telescope": stars, "violin": music}
    tool = {"type": "function", "name": "lookup", "description": "Look up the notes.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
    rows = [{"question": "How long do I boil an egg?", "shelf": "eggs"},
            {"question": "Which telescope suits a beginner?", "shelf": "telescope"},
            {"question": "How do I tune a violin?", "shelf": "violin"}]
    result = batch_agent(client, OFFLINE_MODEL, rows, lambda row: {"lookup": lambda query: shelves[row["shelf"]]},
                         schemas=[tool], **NO_WAIT)
    assert [result.answers[f"q{i:04d}"].count(f"[{doc}]") for i, doc in enumerate(["r7", "s2", "m4"])] == [1, 1, 1]
    assert len(result.runs) == 2 and not result.failures and len(result.bodies) == 6


def test_batch_prices_are_half_of_the_synchronous_ones():
    body = {"model": "gpt-5.4-mini", "created_at": 1767225600, "usage": {"input_tokens": 1000, "output_tokens": 100}}
    batch_usd, sync_usd, note = price_bodies([body] * 4, provider="openai")
    assert batch_usd == pytest.approx(sync_usd / 2) and "half" in note
    assert price_bodies([body], provider="offline")[:2] == (0.0, 0.0)


def test_a_batch_still_running_past_max_wait_is_named_and_collected_later(client):
    # A clock that jumps an hour a poll, as a real batch's wait would: the cell stops, naming the batch.
    from helpers.batch import BatchStillRunning, collect_batch
    hours = iter(range(0, 10**6, 3600))
    with pytest.raises(BatchStillRunning, match=r"is still \w+ after 3600 s.*collect_batch\(client, 'batch_") as caught:
        run_batch(client, GOOD, max_wait=60, clock=lambda: next(hours), **NO_WAIT)
    later = collect_batch(client, caught.value.batch_id, GOOD, **NO_WAIT)  # in another kernel, a day later
    assert later.batch.status == "completed" and sorted(later.results) == sorted(line["custom_id"] for line in GOOD)
