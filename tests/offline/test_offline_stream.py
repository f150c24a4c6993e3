"""Streaming (`stream=True`) on the offline model: server-sent events as a real OpenAI server sends them.

- Every event of streamed runs (a text answer, a tool call, parallel calls, an answer from tool results,
  an incomplete answer, a model fault; both APIs) validates against the official spec's stream schemas.
- The openai SDK's own stream helpers assemble the events to the same final answer (text, tool calls,
  usage) as the non-streamed request, in-process and over HTTP, sync and async.
- A whole agent loop (search tool, then its output) runs streamed on both APIs.
- Errors and HTTP faults are answered as JSON before any event; model faults stream their broken answer.
- Over HTTP: one event per chunk, keep-alive after a stream, a client that hangs up mid-stream does not
  hurt the server.
"""

import asyncio
import json
import socket
import struct
import time

import httpx
import openai
import pytest
from test_offline_conformance import assert_valid, schema_validator, spec_schemas

from helpers.offline import (
    OFFLINE_BASE_URL,
    AsyncOfflineTransport,
    OfflineServer,
    OfflineTransport,
    async_neutral_client,
    handle,
    neutral_client,
)
from helpers.offline.api import server as offline_server
from helpers.offline.api.stream import pieces

QUESTION = "Can I still join the course?"
# Strict tools: the SDK's chat.completions.stream() only accepts strict function tools.
SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.", "strict": True,
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                         "additionalProperties": False}}
CHAT_SEARCH = {"type": "function", "function": {k: v for k, v in SEARCH.items() if k != "type"}}
FAQ = [{"id": "a1b2c3d4e5", "section": "General", "question": "Can I still join the course after the start date?",
        "answer": "Yes, you can join the course at any time and still submit the homework."},
       {"id": "f6a7b8c9d0", "section": "Setup", "question": "How do I install Ollama?",
        "answer": "Download the installer from the Ollama website and run it."}]
RESULT = json.dumps(FAQ[:1])
MANY_SEARCHES = "Search the FAQ, then perform more searches with different keywords."

RESPONSES_CASES = {
    "text": {"model": "m", "input": QUESTION},
    "tool call": {"model": "m", "input": QUESTION, "tools": [SEARCH]},
    "parallel calls": {"model": "m", "input": "How do I install Ollama and run it locally?", "tools": [SEARCH],
                       "instructions": MANY_SEARCHES},
    "answer from results": {"model": "m", "tools": [SEARCH], "input": [
        {"role": "user", "content": QUESTION},
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": '{"query": "join course"}'},
        {"type": "function_call_output", "call_id": "c1", "output": RESULT}]},
    "incomplete": {"model": "m", "input": "Tell me a long story", "max_output_tokens": 16},
}
CHAT_CASES = {
    "text": {"model": "m", "messages": [{"role": "user", "content": QUESTION}]},
    "tool call": {"model": "m", "messages": [{"role": "user", "content": QUESTION}], "tools": [CHAT_SEARCH]},
    "parallel calls": {"model": "m", "tools": [CHAT_SEARCH], "messages": [
        {"role": "system", "content": MANY_SEARCHES},
        {"role": "user", "content": "How do I install Ollama and run it locally?"}]},
    "answer from results": {"model": "m", "tools": [CHAT_SEARCH], "messages": [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"query": "join"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": RESULT}]},
    "length": {"model": "m", "messages": [{"role": "user", "content": "Tell me a long story"}], "max_tokens": 5},
}


def post(route, body, fault=None):
    return handle("POST", route, {}, json.dumps(body).encode(), fault)


def sse(frames: list[bytes]) -> list[tuple[str | None, str]]:
    """(event name or None, data) of each frame; every frame must be exactly one well-formed event."""
    events = []
    for frame in frames:
        text = frame.decode("utf-8")
        assert text.endswith("\n\n") and "\n\n" not in text[:-2], frame[:200]
        fields = dict(line.split(": ", 1) for line in text[:-2].split("\n"))
        assert set(fields) <= {"event", "data"}, fields
        events.append((fields.get("event"), fields["data"]))
    return events


@pytest.fixture(scope="module")
def event_schemas():
    """{event type: schema name} for every member of the spec's ResponseStreamEvent union."""
    schemas = spec_schemas()
    names = [ref["$ref"].rsplit("/", 1)[1] for ref in schemas["ResponseStreamEvent"]["anyOf"]]
    return {schemas[name]["properties"]["type"]["enum"][0]: name for name in names}


@pytest.fixture(scope="module")
def validator_of():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = schema_validator(name)
        return cache[name]

    return get


def streamed_responses(body, fault=None):
    status, headers, frames = post("/v1/responses", {**body, "stream": True}, fault)
    assert status == 200 and headers["content-type"].startswith("text/event-stream"), frames
    assert headers["cache-control"] == "no-cache"
    events = []
    for name, data in sse(frames):
        event = json.loads(data)
        assert name == event["type"]  # the `event:` line names the JSON's type
        events.append(event)
    return events


# --- the events themselves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("case", RESPONSES_CASES)
def test_responses_events_follow_the_spec_and_replay_the_final_response(case, event_schemas, validator_of):
    body = RESPONSES_CASES[case]
    events = streamed_responses(body)
    for event in events:
        assert event["type"] in event_schemas, event["type"]
        assert_valid(validator_of(event_schemas[event["type"]]), event)
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    types = [e["type"] for e in events]
    final = events[-1]["response"]
    assert types[:2] == ["response.created", "response.in_progress"]
    assert types[-1] == ("response.incomplete" if final["status"] == "incomplete" else "response.completed")
    assert events[0]["response"]["status"] == "in_progress" and events[0]["response"]["output"] == []
    assert (case == "incomplete") == (final["status"] == "incomplete")

    # The final Response is the non-streamed one (only the ids differ: they hash the request, `stream` included).
    plain = json.loads(post("/v1/responses", body)[2])
    assert [{k: v for k, v in o.items() if k not in ("id", "call_id")} for o in final["output"]] == \
        [{k: v for k, v in o.items() if k not in ("id", "call_id")} for o in plain["output"]]
    assert final["usage"] == plain["usage"] and final["status"] == plain["status"]

    # Each output item: added, its pieces, done; the pieces join to exactly the final text or arguments.
    for index, item in enumerate(final["output"]):
        mine = [e for e in events if e.get("output_index") == index]
        assert mine[0]["type"] == "response.output_item.added" and mine[-1]["type"] == "response.output_item.done"
        assert mine[-1]["item"] == item and mine[0]["item"]["status"] == "in_progress"
        assert all(e.get("item_id", item["id"]) == item["id"] for e in mine)
        if item["type"] == "message":
            text = item["content"][0]["text"]
            deltas = [e["delta"] for e in mine if e["type"] == "response.output_text.delta"]
            assert "".join(deltas) == text and len(deltas) == len(pieces(text)) > 1  # it arrives piece by piece
            assert [e["type"] for e in mine][-3:-1] == ["response.output_text.done", "response.content_part.done"]
        else:
            deltas = [e["delta"] for e in mine if e["type"] == "response.function_call_arguments.delta"]
            done = next(e for e in mine if e["type"] == "response.function_call_arguments.done")
            assert "".join(deltas) == done["arguments"] == item["arguments"] and done["name"] == item["name"]
    if case == "parallel calls":
        assert len(final["output"]) >= 2 and {o["type"] for o in final["output"]} == {"function_call"}


def test_message_events_come_in_the_real_order():
    types = [e["type"] for e in streamed_responses(RESPONSES_CASES["text"])]
    deltas = types.count("response.output_text.delta")
    assert types == ["response.created", "response.in_progress", "response.output_item.added",
                     "response.content_part.added", *["response.output_text.delta"] * deltas,
                     "response.output_text.done", "response.content_part.done", "response.output_item.done",
                     "response.completed"]


@pytest.mark.parametrize("include_usage", [True, False])
@pytest.mark.parametrize("case", CHAT_CASES)
def test_chat_chunks_follow_the_spec_and_replay_the_final_completion(case, include_usage, validator_of):
    body = {**CHAT_CASES[case], "stream": True}
    if include_usage:
        body["stream_options"] = {"include_usage": True}
    status, headers, frames = post("/v1/chat/completions", body)
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    events = sse(frames)
    assert events[-1] == (None, "[DONE]") and all(name is None for name, _ in events)
    chunks = [json.loads(data) for _, data in events[:-1]]
    for chunk in chunks:
        assert_valid(validator_of("CreateChatCompletionStreamResponse"), chunk)
        assert chunk["object"] == "chat.completion.chunk" and chunk["id"] == chunks[0]["id"]
    plain = json.loads(post("/v1/chat/completions", CHAT_CASES[case])[2])
    message = plain["choices"][0]["message"]

    if include_usage:  # "usage": null on every chunk, then one last chunk with no choices and the usage
        assert all(c["usage"] is None for c in chunks[:-1])
        assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == plain["usage"]
        chunks = chunks[:-1]
    else:
        assert all("usage" not in c for c in chunks)
    deltas = [c["choices"][0]["delta"] for c in chunks]
    assert deltas[0]["role"] == "assistant" and all("role" not in d for d in deltas[1:])
    assert deltas[-1] == {} and chunks[-1]["choices"][0]["finish_reason"] == plain["choices"][0]["finish_reason"]
    assert all(c["choices"][0]["finish_reason"] is None for c in chunks[:-1])
    text = "".join(d.get("content") or "" for d in deltas)
    assert text == (message["content"] or "")
    if message["content"]:
        assert sum(1 for d in deltas if d.get("content")) > 1  # the text arrives piece by piece

    calls = {}
    for delta in deltas:
        for piece in delta.get("tool_calls", []):
            if piece["index"] not in calls:  # the first delta of a call: id, type and name
                assert set(piece) == {"index", "id", "type", "function"}
                calls[piece["index"]] = {"id": piece["id"], "type": piece["type"], "function": dict(piece["function"])}
            else:  # later deltas: only argument pieces, found by index
                assert set(piece) == {"index", "function"} and set(piece["function"]) == {"arguments"}
                calls[piece["index"]]["function"]["arguments"] += piece["function"]["arguments"]
    expected = message.get("tool_calls") or []
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in calls.values()] == \
        [(c["function"]["name"], c["function"]["arguments"]) for c in expected]
    if case == "parallel calls":
        assert len(calls) >= 2


@pytest.mark.parametrize("route,body", [("/v1/responses", b) for b in RESPONSES_CASES.values()]
                         + [("/v1/chat/completions", {**b, "stream_options": {"include_usage": True}})
                            for b in CHAT_CASES.values()])
def test_same_request_gives_the_same_stream_bytes(route, body):
    first, second = (post(route, {**body, "stream": True})[2] for _ in range(2))
    assert first == second and len(first) > 3


def test_stream_false_is_a_plain_json_answer():
    status, headers, content = post("/v1/responses", {**RESPONSES_CASES["text"], "stream": False})
    assert status == 200 and headers["content-type"] == "application/json" and json.loads(content)["output"]


# --- errors and faults ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("route,body,param,phrase", [
    ("/v1/chat/completions", {**CHAT_CASES["text"], "stream_options": {"include_usage": True}}, "stream_options",
     "The 'stream_options' parameter is only allowed when 'stream' is enabled."),
    ("/v1/responses", {**RESPONSES_CASES["text"], "stream": False, "stream_options": {}}, "stream_options",
     "only allowed when 'stream' is enabled"),
    ("/v1/chat/completions", {**CHAT_CASES["text"], "stream": True, "stream_options": {"include_usage": "yes"}},
     "stream_options.include_usage", "expected a boolean, but got a string instead"),
    ("/v1/responses", {**RESPONSES_CASES["text"], "stream": "true"}, "stream", "expected a boolean"),
    ("/v1/responses", {**RESPONSES_CASES["text"], "stream": True, "tools": [{**SEARCH, "parameters": "{}"}]},
     "tools[0].parameters", "expected an object"),
])
def test_errors_are_json_even_when_streaming_was_asked(route, body, param, phrase):
    status, headers, content = post(route, body)
    error = json.loads(content)["error"]
    assert status == 400 and headers["content-type"] == "application/json"
    assert error["param"] == param and phrase in error["message"]


def test_sdk_raises_before_the_stream_starts():
    client = neutral_client(max_retries=0)
    with pytest.raises(openai.BadRequestError, match="only allowed when 'stream' is enabled"):
        client.chat.completions.create(**CHAT_CASES["text"], stream_options={"include_usage": True})
    with pytest.raises(openai.BadRequestError, match=r"tools\[0\]\.parameters"):
        client.responses.create(**RESPONSES_CASES["text"], tools=[{**SEARCH, "parameters": "{}"}], stream=True)
    with pytest.raises(openai.RateLimitError, match="exceeded your current quota"):
        neutral_client("insufficient_quota", max_retries=0).responses.create(**RESPONSES_CASES["text"], stream=True)


def test_a_retried_http_fault_then_streams():
    sent = []
    client = openai.OpenAI(api_key="x", base_url=OFFLINE_BASE_URL, max_retries=2, http_client=httpx.Client(
        transport=OfflineTransport(["rate_limit", "server_error", None]), event_hooks={"request": [sent.append]}))
    events = list(client.responses.create(**RESPONSES_CASES["text"], stream=True))
    assert len(sent) == 3 and events[-1].type == "response.completed" and events[-1].response.output_text


def test_a_model_fault_streams_its_broken_call():
    events = streamed_responses(RESPONSES_CASES["tool call"], fault="bad_arguments")
    done = next(e for e in events if e["type"] == "response.function_call_arguments.done")
    deltas = [e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta"]
    assert "".join(deltas) == done["arguments"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(done["arguments"])
    assert events[-1]["type"] == "response.completed"


def test_the_timeout_fault_raises_in_process_sync_and_async():
    with pytest.raises(openai.APITimeoutError):
        neutral_client("timeout", max_retries=0).responses.create(**RESPONSES_CASES["text"], stream=True)

    async def main():
        client = async_neutral_client("timeout", max_retries=0)
        await client.chat.completions.create(**CHAT_CASES["text"], stream=True)

    with pytest.raises(openai.APITimeoutError):
        asyncio.run(main())


# --- through the SDK: streamed == not streamed ---------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    with OfflineServer() as srv:
        yield srv


def sync_client(where, server):
    if where == "inproc":
        return neutral_client(max_retries=0)
    return openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)


def async_client(where, server):
    if where == "inproc":
        return openai.AsyncOpenAI(api_key="x", base_url=OFFLINE_BASE_URL, max_retries=0,
                                  http_client=httpx.AsyncClient(transport=AsyncOfflineTransport()))
    return openai.AsyncOpenAI(api_key="x", base_url=server.base_url, max_retries=0)


def summary_of_response(response) -> dict:
    calls = [(o.name, o.arguments) for o in response.output if o.type == "function_call"]
    return {"status": response.status, "text": response.output_text, "calls": calls,
            "usage": response.usage.model_dump()}


def summary_of_completion(completion) -> dict:
    choice = completion.choices[0]
    calls = [(c.function.name, c.function.arguments) for c in choice.message.tool_calls or []]
    return {"finish": choice.finish_reason, "content": choice.message.content, "calls": calls,
            "usage": completion.usage.model_dump()}


def final_response(get_final_response, last_event):
    """The final Response of a stream. The SDK's get_final_response() knows only `response.completed`
    (it raises for a real server's `response.incomplete` too): an incomplete one is read from its event."""
    if last_event.type == "response.incomplete":
        with pytest.raises(RuntimeError, match="response.completed"):
            get_final_response()
        return last_event.response
    return get_final_response()


def final_completion(get_final_completion):
    """The final completion of a chat stream. The SDK's helper raises LengthFinishReasonError for a cut-off
    answer (finish_reason "length", with a real server too); the error carries the completion."""
    try:
        return get_final_completion()
    except openai.LengthFinishReasonError as cut:
        return cut.completion


def streamed_summaries(mode, where, server, api, body):
    """Summary of the final object the SDK's stream helper assembles."""
    if api == "chat":
        body = {**body, "stream_options": {"include_usage": True}}
    if mode == "sync":
        client = sync_client(where, server)
        if api == "responses":
            with client.responses.stream(**body) as stream:
                events = list(stream)
                return summary_of_response(final_response(stream.get_final_response, events[-1])), \
                    [e.type for e in events]
        with client.chat.completions.stream(**body) as stream:
            kinds = [event.type for event in stream]
            return summary_of_completion(final_completion(stream.get_final_completion)), kinds

    async def main():
        client = async_client(where, server)
        if api == "responses":
            async with client.responses.stream(**body) as stream:
                events = [event async for event in stream]
                if events[-1].type == "response.incomplete":
                    return summary_of_response(events[-1].response), [e.type for e in events]
                return summary_of_response(await stream.get_final_response()), [e.type for e in events]
        async with client.chat.completions.stream(**body) as stream:
            kinds = [event.type async for event in stream]
            try:
                return summary_of_completion(await stream.get_final_completion()), kinds
            except openai.LengthFinishReasonError as cut:
                return summary_of_completion(cut.completion), kinds

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("where", ["inproc", "http"])
@pytest.mark.parametrize("api,case", [("responses", c) for c in RESPONSES_CASES] + [("chat", c) for c in CHAT_CASES])
def test_sdk_stream_helpers_assemble_the_non_streamed_answer(server, mode, where, api, case):
    body = (RESPONSES_CASES if api == "responses" else CHAT_CASES)[case]
    plain = neutral_client()
    expected = summary_of_response(plain.responses.create(**body)) if api == "responses" \
        else summary_of_completion(plain.chat.completions.create(**body))
    got, kinds = streamed_summaries(mode, where, server, api, body)
    assert got == expected
    text_deltas = kinds.count("response.output_text.delta" if api == "responses" else "content.delta")
    assert text_deltas > 1 if (expected.get("text") or expected.get("content")) else text_deltas == 0


def test_sdk_create_stream_true_iterates_typed_events_and_chunks():
    client = neutral_client()
    events = list(client.responses.create(**RESPONSES_CASES["tool call"], stream=True))
    assert type(events[0]).__name__ == "ResponseCreatedEvent" and type(events[-1]).__name__ == "ResponseCompletedEvent"
    assert [e.sequence_number for e in events] == list(range(len(events)))
    chunks = list(client.chat.completions.create(**CHAT_CASES["text"], stream=True,
                                                 stream_options={"include_usage": True}))
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens > 0
    assert "".join(c.choices[0].delta.content or "" for c in chunks[:-1]) == \
        client.chat.completions.create(**CHAT_CASES["text"]).choices[0].message.content


# --- a whole agent loop, streamed -------------------------------------------------------------------------

def search(query: str) -> str:
    """A tiny keyword search over FAQ: the entries sharing a word (of 4+ letters) with the query."""
    words = {w for w in query.lower().split() if len(w) > 3}
    return json.dumps([e for e in FAQ if words & set(e["question"].lower().replace("?", "").split())])


def responses_loop(client, stream: bool) -> tuple[str, list[str]]:
    items: list = [{"role": "user", "content": QUESTION}]
    queries = []
    for _ in range(5):
        if stream:
            with client.responses.stream(model="m", input=items, tools=[SEARCH]) as events:
                response = events.get_final_response()
        else:
            response = client.responses.create(model="m", input=items, tools=[SEARCH])
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response.output_text, queries
        for call in calls:
            query = json.loads(call.arguments)["query"]
            queries.append(query)
            items += [{"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments},
                      {"type": "function_call_output", "call_id": call.call_id, "output": search(query)}]
    raise AssertionError("the loop did not end")


def chat_loop(client, stream: bool) -> tuple[str, list[str]]:
    messages: list = [{"role": "user", "content": QUESTION}]
    queries = []
    for _ in range(5):
        if stream:
            with client.chat.completions.stream(model="m", messages=messages, tools=[CHAT_SEARCH]) as events:
                message = events.get_final_completion().choices[0].message
        else:
            message = client.chat.completions.create(model="m", messages=messages, tools=[CHAT_SEARCH]).choices[0].message
        if not message.tool_calls:
            return message.content, queries
        messages.append({"role": "assistant", "content": message.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in message.tool_calls]})
        for call in message.tool_calls:
            query = json.loads(call.function.arguments)["query"]
            queries.append(query)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": search(query)})
    raise AssertionError("the loop did not end")


@pytest.mark.parametrize("where", ["inproc", "http"])
@pytest.mark.parametrize("loop", [responses_loop, chat_loop])
def test_an_agent_loop_runs_streamed(server, where, loop):
    client = sync_client(where, server)
    answer, queries = loop(client, stream=True)
    assert queries and "a1b2c3d4e5" in answer  # it searched, then quoted the entry it found
    assert (answer, queries) == loop(neutral_client(), stream=False)


def test_an_async_agent_framework_style_loop_streams_in_process():
    # What an async framework does: AsyncOpenAI, stream=True, read the events as they come.
    async def main():
        client = async_neutral_client()
        items: list = [{"role": "user", "content": QUESTION}]
        for _ in range(5):
            stream = await client.responses.create(model="m", input=items, tools=[SEARCH], stream=True)
            final = None
            async for event in stream:
                if event.type == "response.completed":
                    final = event.response
            calls = [o for o in final.output if o.type == "function_call"]
            if not calls:
                return final.output_text
            for call in calls:
                items += [call.model_dump(include={"type", "call_id", "name", "arguments"}),
                          {"type": "function_call_output", "call_id": call.call_id,
                           "output": search(json.loads(call.arguments)["query"])}]

    assert "a1b2c3d4e5" in asyncio.run(main())


# --- over HTTP, raw --------------------------------------------------------------------------------------

def stream_request(body: dict, route: str = "/v1/responses", version: str = "HTTP/1.1") -> bytes:
    raw = json.dumps(body).encode()
    return (f"POST {route} {version}\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(raw)}\r\n\r\n").encode() + raw


class Reader:
    """Reads an HTTP response off a socket by hand, to check the framing byte by byte."""

    def __init__(self, sock):
        self.file = sock.makefile("rb")

    def head(self) -> tuple[int, dict]:
        status = int(self.file.readline().split()[1])
        headers = {}
        while (line := self.file.readline()) != b"\r\n":
            name, value = line.decode("latin-1").split(":", 1)
            headers[name.strip().lower()] = value.strip()
        return status, headers

    def chunks(self) -> list[bytes]:
        out = []
        while True:
            size = int(self.file.readline().strip(), 16)
            data = self.file.read(size)
            assert self.file.read(2) == b"\r\n"
            if size == 0:
                return out
            out.append(data)


@pytest.mark.parametrize("route,body", [("/v1/responses", RESPONSES_CASES["parallel calls"]),
                                        ("/v1/chat/completions", {**CHAT_CASES["text"],
                                                                  "stream_options": {"include_usage": True}})])
def test_http_sends_one_event_per_chunk_then_keeps_the_connection(server, route, body):
    body = {**body, "stream": True}
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        reader = Reader(sock)
        for _ in range(2):  # twice on one connection: the stream ends cleanly and keep-alive goes on
            sock.sendall(stream_request(body, route))
            status, headers = reader.head()
            assert status == 200 and headers["transfer-encoding"] == "chunked" and "content-length" not in headers
            assert headers["content-type"].startswith("text/event-stream") and headers.get("connection") != "close"
            chunks = reader.chunks()
            assert chunks == post(route, body)[2]  # one chunk per frame, the same bytes as in-process
            sse(chunks)
        sock.sendall(b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n")  # and a plain JSON request after them
        status, headers = reader.head()
        assert status == 200 and json.loads(reader.file.read(int(headers["content-length"])))["data"]


def test_http_1_0_gets_the_events_unchunked_and_a_close(server):
    body = {**RESPONSES_CASES["text"], "stream": True}
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(stream_request(body, version="HTTP/1.0"))
        reader = Reader(sock)
        status, headers = reader.head()
        assert status == 200 and "transfer-encoding" not in headers and headers["connection"] == "close"
        assert reader.file.read() == b"".join(post("/v1/responses", body)[2])  # the body ends with the connection


def test_http_errors_before_a_stream_are_json_with_a_length(server):
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(stream_request({"model": "m", "messages": [], "stream": True}, "/v1/chat/completions"))
        reader = Reader(sock)
        status, headers = reader.head()
        assert status == 400 and headers["content-type"] == "application/json"
        assert json.loads(reader.file.read(int(headers["content-length"])))["error"]["param"] == "messages"


def test_a_client_that_hangs_up_mid_stream_does_not_hurt_the_server(capfd, monkeypatch):
    # Long instructions are echoed in three of the events: a stream of ~9 MB, far more than the socket
    # buffers hold, so the server is still writing when the client resets the connection. Their ~900k tokens
    # need a context window larger than the default.
    with OfflineServer(context_window=10_000_000) as server:
        _hang_up_mid_stream(server, capfd, monkeypatch)


def _hang_up_mid_stream(server, capfd, monkeypatch):
    failures = []
    send_events = offline_server._Handler._send_events

    def watched(handler, frames):  # records the failed write, so the test can't pass without one
        try:
            send_events(handler, frames)
        except OSError as error:
            failures.append(error)
            raise

    monkeypatch.setattr(offline_server._Handler, "_send_events", watched)
    body = {**RESPONSES_CASES["text"], "instructions": "Be brief. " * 300_000, "stream": True}
    for _ in range(2):
        sock = socket.create_connection((server.host, server.port), timeout=60)  # a guard against a hang, not a timing: a loaded 2-core machine took over 5 s to answer
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(stream_request(body))
        assert sock.recv(100).startswith(b"HTTP/1.1 200")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
        sock.close()
    deadline = time.monotonic() + 10
    while len(failures) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(failures) == 2 and all(isinstance(f, ConnectionError) for f in failures)
    client = openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)
    with client.responses.stream(**RESPONSES_CASES["text"]) as stream:  # the server still serves
        assert stream.get_final_response().output_text
    assert "Traceback" not in capfd.readouterr().err  # and logged nothing about the hang-ups


def test_odd_characters_in_the_answer_survive_the_stream():
    # Line and paragraph separators, CR, NUL and combining marks are text, not SSE line ends.
    odd = "Yes,\u2028you can\r\njoin\u2029at any time\x85 \x00 e\u0301 \U0001f600."
    body = {**RESPONSES_CASES["answer from results"]}
    body["input"] = [*body["input"][:2], {**body["input"][2], "output": json.dumps([{**FAQ[0], "answer": odd}])}]
    client = neutral_client()
    with client.responses.stream(**body) as stream:
        streamed = stream.get_final_response().output_text
    assert streamed == client.responses.create(**body).output_text and "\u2028" in streamed
