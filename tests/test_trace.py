"""Tests for helpers.trace: JSONL writing, redaction, loading back and the iteration-by-iteration view."""

import json

import openai
import pytest
from openai.types.responses import Response

from helpers import trace as trace_mod
from helpers.trace import REDACTED, Trace, load_trace, redact, show_trace

FAKE_OPENAI_KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 2
FAKE_GROQ_KEY = "gsk_" + "a1B2c3D4e5F6g7H8i9J0" * 2
FAKE_GH_KEY = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0"
FAKE_GH_PAT = "github_pat_" + "11ABCDEFG0_abcdefghijklmnop"


def tool_call_response():
    return Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1_700_000_000,
            "model": "offline-rules-v1",
            "status": "completed",
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "search",
                    "arguments": '{"query": "join late"}',
                    "status": "completed",
                }
            ],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {
                "input_tokens": 120,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens": 12,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 132,
            },
        }
    )


def answer_response():
    return {
        "id": "resp_2",
        "model": "offline-rules-v1",
        "status": "completed",
        "output": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Yes, you can."}],
            }
        ],
        "usage": {"input_tokens": 300, "output_tokens": 8, "total_tokens": 308},
    }


def write_run(path):
    t = Trace(path)
    first = {
        "model": "offline-rules-v1",
        "input": [{"role": "user", "content": "Can I join late?"}],
        "tools": [{}],
    }
    t.log_request(1, first)
    t.log_response(1, tool_call_response(), latency_s=0.25)
    second = dict(first)
    second["input"] = [
        *first["input"],
        tool_call_response().output[0],  # an SDK object inside the kwargs, as the loop appends it
        {"type": "function_call_output", "call_id": "call_1", "output": '[{"question": "Can I join late?"}]'},
    ]
    t.log_request(2, second)
    t.log_response(2, answer_response(), latency_s=0.5)
    return t


def test_events_are_written_line_by_line_and_load_back(tmp_path):
    path = tmp_path / "run.jsonl"
    t = write_run(path)
    lines = path.read_text().splitlines()
    assert len(lines) == 4 == t.count
    events = load_trace(path)
    assert [(e["kind"], e["iteration"]) for e in events] == [
        ("request", 1),
        ("response", 1),
        ("request", 2),
        ("response", 2),
    ]
    assert events[1]["body"]["output"][0]["name"] == "search"  # SDK object stored via model_dump
    assert events[1]["latency_s"] == 0.25
    assert events[2]["body"]["input"][1]["call_id"] == "call_1"
    assert load_trace(t) == events  # a Trace object works as the path


def test_a_new_trace_starts_fresh_unless_appending(tmp_path):
    path = tmp_path / "run.jsonl"
    write_run(path)
    Trace(path).log("note", 0, {"x": 1})
    assert len(load_trace(path)) == 1
    Trace(path, append=True).log("note", 0, {"x": 2})
    assert len(load_trace(path)) == 2


def test_default_path_is_under_repo_data_traces_not_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = Trace(name="unit-test-never-written")
    assert t.path == trace_mod.ROOT / "data" / "traces" / "unit-test-never-written.jsonl"
    assert (trace_mod.ROOT / "pyproject.toml").is_file()
    assert not t.path.exists()  # nothing is created before the first event
    assert Trace().path.parent == trace_mod.TRACE_DIR


def test_error_events_keep_type_status_and_message(tmp_path):
    t = Trace(tmp_path / "err.jsonl")
    t.log_error(3, ValueError("boom"))
    exc = openai.APIStatusError("rate limited", response=_fake_http_response(429), body=None)
    t.log_error(4, exc)
    events = load_trace(t.path)
    assert events[0]["body"] == {"type": "ValueError", "message": "boom"}
    assert events[1]["body"]["status_code"] == 429 and events[1]["iteration"] == 4


def _fake_http_response(status):
    import httpx

    return httpx.Response(status, request=httpx.Request("POST", "http://offline.invalid/v1/responses"))


# --- redaction ----------------------------------------------------------------------------------------


def test_redact_by_key_name():
    data = {
        "api_key": "offline",
        "extra_headers": {"Authorization": "whatever", "X-Api-Key": "k", "X-Offline-Fault": "rate_limit"},
        "client_secret": "s",
        "access_token": "t",
        "password": "p",
        "usage": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7, "max_tokens": 9},
    }
    out = redact(data)
    assert out["api_key"] == out["client_secret"] == out["access_token"] == out["password"] == REDACTED
    assert out["extra_headers"]["Authorization"] == REDACTED and out["extra_headers"]["X-Api-Key"] == REDACTED
    assert out["extra_headers"]["X-Offline-Fault"] == "rate_limit"
    assert out["usage"] == data["usage"]  # token counts are not secrets


@pytest.mark.parametrize(
    "secret", [FAKE_OPENAI_KEY, FAKE_GROQ_KEY, FAKE_GH_KEY, FAKE_GH_PAT, "Bearer abcdefgh12345"]
)
def test_redact_key_shaped_strings_anywhere(secret):
    out = redact({"message": f"Incorrect API key provided: {secret}. Check it.", "list": [secret]})
    assert secret not in json.dumps(out)
    assert REDACTED in out["message"] and out["list"] == [REDACTED]
    assert out["message"].startswith("Incorrect API key provided: ")


def test_ordinary_text_is_not_redacted():
    text = "Use scikit-learn, a task-force and ghost_data; sk-short is fine"
    assert redact(text) == text


def test_secrets_never_reach_the_file(tmp_path):
    t = Trace(tmp_path / "s.jsonl")
    t.log_request(
        1, {"model": "m", "input": f"my key is {FAKE_OPENAI_KEY}", "extra_headers": {"Authorization": "x"}}
    )
    t.log_error(1, RuntimeError(f"401: bad key {FAKE_GROQ_KEY}"))
    text = t.path.read_text()
    assert FAKE_OPENAI_KEY not in text and FAKE_GROQ_KEY not in text and '"Authorization": "x"' not in text
    assert text.count(REDACTED) == 3


# --- loading and showing ------------------------------------------------------------------------------


def test_corrupt_line_names_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    write_run(path)
    with open(path, "a") as f:
        f.write('{"kind": "resp')  # a run cut off mid-write
    with pytest.raises(ValueError, match=r"broken\.jsonl, line 5: not valid JSON"):
        load_trace(path)
    path.write_text("[1, 2]\n")
    with pytest.raises(ValueError, match="line 1: expected a JSON object"):
        load_trace(path)
    with pytest.raises(FileNotFoundError, match="data/traces"):
        load_trace(tmp_path / "missing.jsonl")


def test_show_trace_prints_iterations_calls_outputs_answer_and_tokens(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    write_run(path)
    show_trace(path)
    out = capsys.readouterr().out
    assert "── iteration 1" in out and "── iteration 2" in out
    assert 'tool call: search({"query": "join late"})' in out
    assert 'tool output [call_1]: [{"question": "Can I join late?"}]' in out
    assert "answer: Yes, you can." in out
    assert "tokens: 120 in / 12 out" in out and "tokens: 300 in / 8 out" in out
    assert "0.25s" not in out  # latency hidden by default, so notebook outputs stay stable
    show_trace(load_trace(path), latency=True)
    assert "0.25s" in capsys.readouterr().out


def test_show_trace_handles_chat_completions_and_errors(capsys):
    events = [
        {
            "kind": "request",
            "iteration": 1,
            "body": {
                "model": "llama",
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "tool", "tool_call_id": "t1", "content": "result text"},
                ],
            },
        },
        {
            "kind": "response",
            "iteration": 1,
            "body": {
                "choices": [
                    {
                        "finish_reason": "tool_calls",
                        "message": {
                            "tool_calls": [
                                {"id": "t2", "function": {"name": "search", "arguments": '{"query": "x"}'}}
                            ]
                        },
                    }
                ],
                "usage": {"prompt_tokens": 50, "completion_tokens": 5},
            },
        },
        {
            "kind": "error",
            "iteration": 2,
            "body": {"type": "RateLimitError", "status_code": 429, "message": "slow"},
        },
        {"kind": "stop", "iteration": 2, "body": {"reason": "error"}},
    ]
    show_trace(events)
    out = capsys.readouterr().out
    assert "tool output [t1]: result text" in out and 'tool call: search({"query": "x"})' in out
    assert "tool_calls · tokens: 50 in / 5 out" in out
    assert "error: RateLimitError (HTTP 429): slow" in out and 'stop: {"reason": "error"}' in out
