"""Record a run against the offline model, replay it with no provider at all, and fail clearly on surprises."""

import json

import httpx
import openai
import pytest

from helpers import llm
from helpers.apis import cassette as cas
from helpers.offline import OFFLINE_MODEL

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                         "required": ["query"], "additionalProperties": False}}


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ["LLM_PROVIDER", "LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "LLM_RECORD", "LLM_CASSETTE"]:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_lesson(client, model):
    """A small lesson-like run: list models, a Responses call with a tool, a Chat Completions call."""
    ids = [m.id for m in client.models.list().data]
    first = client.responses.create(model=model, input="How do I run Ollama locally?", tools=[SEARCH])
    chat = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Hi there"}])
    return ids, first.model_dump(), chat.model_dump()


def test_record_then_replay_gives_identical_results(clean_env, monkeypatch, capsys):
    path = clean_env / "cassettes" / "run.jsonl"
    recorded = run_lesson(*llm.make_client("offline", record=path))
    assert "recording to" in capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["key"] for line in lines)

    monkeypatch.setenv("LLM_PROVIDER", "replay")
    monkeypatch.setenv("LLM_CASSETTE", str(path))
    client, model = llm.make_client()
    assert model == OFFLINE_MODEL  # taken from the cassette
    assert llm.provider_of(client).name == "replay"
    assert run_lesson(client, model) == recorded
    assert run_lesson(client, model) == recorded  # and again: replay repeats the last recording


def test_llm_record_variable_records(clean_env, monkeypatch):
    path = clean_env / "env.jsonl"
    monkeypatch.setenv("LLM_RECORD", str(path))
    client, model = llm.make_client("offline", verbose=False)
    client.responses.create(model=model, input="hello")
    assert len(path.read_text().splitlines()) == 1


def test_relative_cassette_paths_live_under_the_repository():
    assert llm._data_path("data/cassettes/x.jsonl") == llm.ROOT / "data" / "cassettes" / "x.jsonl"


def test_key_ignores_headers_and_json_formatting():
    a = cas.request_key("POST", "/responses", cas.canonical_body(b'{"model": "m", "input": "hi"}'))
    b = cas.request_key("post", "/responses", cas.canonical_body(b'{"input":"hi","model":"m"}'))
    c = cas.request_key("POST", "/responses", cas.canonical_body(b'{"input":"hi!","model":"m"}'))
    assert a == b != c


def test_unseen_request_fails_clearly_and_at_once(clean_env, monkeypatch):
    path = clean_env / "run.jsonl"
    client, model = llm.make_client("offline", record=path, verbose=False)
    client.responses.create(model=model, input="recorded question")
    monkeypatch.setenv("LLM_CASSETTE", str(path))
    replay, model = llm.make_client("replay", verbose=False)
    with pytest.raises(cas.CassetteMiss) as info:
        replay.responses.create(model=model, input="a question nobody recorded")
    message = str(info.value)
    assert str(path) in message and "not recorded" in message
    assert "POST /responses" in message and "a question nobody recorded" in message
    assert isinstance(info.value, llm.ProviderError)  # not hidden as a retried "Connection error"


def test_missing_cassette_and_missing_variable(clean_env, monkeypatch):
    with pytest.raises(llm.ProviderError, match="LLM_CASSETTE"):
        llm.make_client("replay")
    monkeypatch.setenv("LLM_CASSETTE", str(clean_env / "nope.jsonl"))
    with pytest.raises(cas.CassetteError, match="does not exist"):
        llm.make_client("replay")


def test_corrupt_line_names_file_and_line(clean_env):
    path = clean_env / "bad.jsonl"
    client, model = llm.make_client("offline", record=path, verbose=False)
    client.responses.create(model=model, input="hello")
    with path.open("a") as f:
        f.write('{"key": "abc", "request": {"meth')  # what a crash mid-write would leave
    with pytest.raises(cas.CassetteError) as info:
        cas.load_cassette(path)
    assert str(path) in str(info.value) and "line 2" in str(info.value)


def _entry(body, status, text):
    key = cas.request_key("POST", "/responses", body)
    return {"key": key, "request": {"method": "POST", "endpoint": "/responses", "body": body},
            "response": {"status": status, "content_type": "application/json", "json": {"marker": text}}}


def test_replay_skips_retried_failures_and_serves_repeats_in_order(tmp_path):
    body = {"model": "m", "input": "x"}
    path = tmp_path / "c.jsonl"
    entries = [_entry(body, 429, "slow down"), _entry(body, 200, "first"), _entry(body, 200, "second")]
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    http = httpx.Client(transport=cas.ReplayTransport(path, base_url="http://replay.invalid/v1"))
    got = [http.post("http://replay.invalid/v1/responses", json=body).json()["marker"] for _ in range(3)]
    assert got == ["first", "second", "second"]


def test_recording_passes_errors_through_and_records_them(clean_env):
    path = clean_env / "err.jsonl"
    client, _ = llm.make_client("offline", record=path, verbose=False)
    with pytest.raises(openai.NotFoundError):
        client.get("/no-such-route", cast_to=object)  # the offline model answers 404, as a real API does
    statuses = [json.loads(line)["response"]["status"] for line in path.read_text().splitlines()]
    assert statuses and all(400 <= s < 500 for s in statuses)


def test_recorded_model_reads_the_first_request(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(_entry({"model": "gpt-x", "input": "a"}, 200, "ok")) + "\n")
    assert cas.recorded_model(path) == "gpt-x"


async def run_lesson_async(client, model):
    ids = [m.id async for m in client.models.list()]
    first = await client.responses.create(model=model, input="How do I run Ollama locally?", tools=[SEARCH])
    chat = await client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Hi there"}])
    return ids, first.model_dump(), chat.model_dump()


def test_async_client_records_and_replays_like_the_sync_one(clean_env, monkeypatch, capsys):
    """make_async_client (lesson 11's frameworks) chooses, records and replays exactly as make_client does."""
    import asyncio

    path = clean_env / "cassettes" / "async.jsonl"
    client, model = llm.make_async_client("offline", record=path)
    assert isinstance(client, openai.AsyncOpenAI) and "recording to" in capsys.readouterr().out
    recorded = asyncio.run(run_lesson_async(client, model))
    assert recorded == run_lesson(*llm.make_client("offline", verbose=False))  # same answers as the sync client
    assert len(path.read_text().splitlines()) == 3

    monkeypatch.setenv("LLM_PROVIDER", "replay")
    monkeypatch.setenv("LLM_CASSETTE", str(path))
    client, model = llm.make_async_client()
    assert llm.provider_of(client).name == "replay"
    assert asyncio.run(run_lesson_async(client, model)) == recorded
    with pytest.raises(cas.CassetteMiss):  # an unseen request fails at once, as with the sync client
        asyncio.run(client.responses.create(model=model, input="Something never recorded"))
