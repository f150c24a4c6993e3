"""Property-based tests: the offline model answers every malformed request with a 4xx in OpenAI's error shape.

Valid Responses and Chat Completions bodies are mutated by hypothesis (values swapped for other JSON
types, fields dropped, extra fields, deep nesting, odd Unicode with lone surrogates, huge numbers, JSON
strings where objects belong; streamed requests among them) and sent to `app.handle`, through the openai SDK in-process, over HTTP
with httpx (also as broken bytes), and through the SDK over HTTP; request heads (methods, versions,
framing headers) are mutated over raw sockets. Every answer must be a 200 or a 4xx with the error
JSON; never a 5xx, an exception, a retry or a dropped connection.

How many examples, and whether they are the same every run, is the hypothesis profile's (tests/conftest.py):
`make test` draws a small fixed set (derandomized, no example database), the weekly CI job ten times more,
new each week. Each test's budget is a multiple of the profile's max_examples: more for a cheap in-process
call than for a request over a socket. (Hypothesis also mixes in literals it finds in the project's own
modules, so a change to the code, or running this file alone instead of the whole suite, can change which
examples are drawn; a failure prints the example and a `@reproduce_failure` blob that replays it anywhere.)
"""

import copy
import http.client
import json
import socket

import httpx
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.offline import OFFLINE_BASE_URL, OfflineServer, OfflineTransport, handle

EXAMPLES = settings.default.max_examples  # the profile's budget (tests/conftest.py): 10 in make test, 100 weekly

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.", "strict": True,
          "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "keywords"}},
                         "required": ["query"], "additionalProperties": False}}
WEATHER = {"type": "function", "name": "get_weather", "description": "Weather in a city.",
           "parameters": {"type": "object", "required": ["city"], "properties": {
               "city": {"type": "string"}, "days": {"type": "integer", "default": 1},
               "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
               "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}
RESULT = json.dumps([{"id": "a1", "question": "Can I still join the course?", "answer": "Yes, you can join."}])


def chat_tool(tool):
    return {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}


RESPONSES = [
    {"model": "m", "input": "Can I still join the course?"},
    {"model": "m", "input": "Can I still join the course?", "tools": [SEARCH, WEATHER], "tool_choice": "auto",
     "instructions": "Answer from the FAQ. Make at least 2 searches.", "parallel_tool_calls": True,
     "temperature": 0.2, "top_p": 1, "max_output_tokens": 64, "metadata": {"run": "1"}, "store": False},
    {"model": "m", "tools": [SEARCH], "tool_choice": {"type": "function", "name": "search"}, "input": [
        {"role": "developer", "content": "Be brief."},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Can I still join?"}]},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "search", "arguments": '{"query": "join"}',
         "status": "completed"},
        {"type": "function_call_output", "call_id": "c1", "output": RESULT},
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Yes.", "annotations": [], "logprobs": []}]},
        {"role": "user", "content": "And the weather in Berlin for 2 days?"}]},
]
CHAT = [
    {"model": "m", "messages": [{"role": "user", "content": "Can I still join the course?"}]},
    {"model": "m", "tools": [chat_tool(SEARCH), chat_tool(WEATHER)], "n": 1, "max_tokens": 50, "seed": 1,
     "tool_choice": {"type": "function", "function": {"name": "search"}}, "stop": ["\n\n"], "messages": [
         {"role": "system", "content": "Answer from the FAQ."},
         {"role": "user", "content": [{"type": "text", "text": "Can I still join?"}], "name": "ann"},
         {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
             {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"query": "join"}'}}]},
         {"role": "tool", "tool_call_id": "c1", "content": RESULT},
         {"role": "assistant", "content": [{"type": "text", "text": "Yes."}]},
         {"role": "user", "content": "Compare the weather in Berlin and Madrid"}]},
]
# Streamed requests too: mutations then hit `stream` and `stream_options` (dropped, swapped, nulled).
STREAMED = [("/v1/responses", {**RESPONSES[0], "stream": True}),
            ("/v1/responses", {**RESPONSES[1], "stream": True, "stream_options": {"include_obfuscation": False}}),
            ("/v1/chat/completions", {**CHAT[0], "stream": True, "stream_options": {"include_usage": True}}),
            ("/v1/chat/completions", {**CHAT[1], "stream": True})]
BASES = [("/v1/responses", b) for b in RESPONSES] + [("/v1/chat/completions", b) for b in CHAT] + STREAMED

# --- mutations ---------------------------------------------------------------------------------------------

ODD_CHARACTERS = "\ud800\udfff\ud83d\x00\u200b\u202e\ufeff\uffff\U0001f600\u0301\u0627\n\"\\"


# Any code point, lone surrogates included, with a few chosen odd ones drawn more often. Built once:
# hypothesis draws faster from a strategy it has seen before.
TEXT = st.text(alphabet=st.one_of(st.characters(exclude_categories=()), st.sampled_from(ODD_CHARACTERS)),
               max_size=12)
NUMBER = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from([10**30, -10**30, 2**63, 10**4000, 1e308, -1e-320, 0.0]))
VALUE = st.recursive(st.one_of(st.none(), st.booleans(), NUMBER, TEXT),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                     max_leaves=6)


def paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from paths(child, (*prefix, key))


def get(value, path):
    for key in path:
        value = value[key]
    return value


def put(body, path, new):
    if not path:
        return new
    get(body, path[:-1])[path[-1]] = new
    return body


MUTATIONS = ["swap_type", "drop", "extra_field", "nest", "stringify", "null", "odd_text", "huge_number", "empty"]


@st.composite
def mutated(draw, bases=BASES):
    """(route, body): a valid body with one to three mutations at drawn places."""
    route, body = draw(st.sampled_from(bases))
    body = copy.deepcopy(body)
    for _ in range(draw(st.integers(1, 3))):
        # Not the root: a body that is not an object is one case (see test_offline_server.py), and drawing
        # it here would crowd out the others.
        places = list(paths(body))[1:]
        if not places:
            break
        where = places[draw(st.integers(0, len(places) - 1))]
        old = get(body, where)
        kind = draw(st.sampled_from(MUTATIONS))
        if kind == "swap_type":
            body = put(body, where, draw(VALUE))
        elif kind == "drop":
            del get(body, where[:-1])[where[-1]]
        elif kind == "extra_field" and isinstance(old, dict):
            old[draw(TEXT)] = draw(VALUE)
        elif kind == "nest":
            depth, style = draw(st.integers(1, 120)), draw(st.sampled_from(["array", "object", "both"]))
            for level in range(depth):
                old = [old] if style == "array" or (style == "both" and level % 2) else {"x": old}
            body = put(body, where, old)
        elif kind == "stringify":
            body = put(body, where, json.dumps(old))
        elif kind == "null":
            body = put(body, where, None)
        elif kind == "odd_text":
            body = put(body, where, draw(TEXT))
        elif kind == "huge_number":
            body = put(body, where, draw(st.sampled_from([10**20, -(10**20), 2**64 + 1, 1e300, -1.5, 0, 10**4000])))
        elif kind == "empty":
            body = put(body, where, draw(st.sampled_from([[], {}, ""])))
    return route, body


def encode(body) -> bytes:
    return json.dumps(body).encode()  # ensure_ascii: a lone surrogate travels as a \udXXX escape, valid JSON


def assert_answer(status: int, content: bytes | list[bytes], route: str, content_type: str = "") -> None:
    """A 200 with the API's object (or its server-sent events), or a 4xx with exactly OpenAI's error fields;
    never a 5xx."""
    streamed = not isinstance(content, bytes) or content_type.startswith("text/event-stream")
    content = content if isinstance(content, bytes) else b"".join(content)
    assert status < 500, content[:500]
    if status == 200 and streamed:
        assert_events(content, route)
        return
    data = json.loads(content)
    if status == 200:
        assert data["object"] == ("response" if route.endswith("responses") else "chat.completion")
        return
    assert 400 <= status < 500
    assert set(data) == {"error"} and set(data["error"]) == {"message", "type", "param", "code"}
    assert isinstance(data["error"]["message"], str) and data["error"]["message"]


def assert_events(content: bytes, route: str) -> None:
    """A whole SSE body: JSON events, ending with the final Response (Responses) or `[DONE]` (Chat)."""
    assert content.endswith(b"\n\n")
    datas = [line[len(b"data: "):] for frame in content[:-2].split(b"\n\n") for line in frame.split(b"\n")
             if line.startswith(b"data: ")]
    if route.endswith("responses"):
        last = json.loads(datas[-1])
        assert last["type"] in ("response.completed", "response.incomplete") and last["response"]["output"]
    else:
        assert datas[-1] == b"[DONE]" and json.loads(datas[-2])["object"] == "chat.completion.chunk"
    for data in datas[:-1]:
        json.loads(data)


# --- in-process -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("route,body", BASES)
def test_the_bodies_before_mutation_are_valid(route, body):
    status, _, content = handle("POST", route, {}, encode(body))
    assert status == 200, content
    assert_answer(status, content, route)



@settings(max_examples=EXAMPLES * 20)
@given(mutated())
def test_handle_answers_every_mutated_body(case):
    route, body = case
    status, _, content = handle("POST", route, {}, encode(body))
    assert_answer(status, content, route)


@pytest.fixture(scope="module")
def sent():
    return []


def sdk_post(client, sent, route, body):
    """POST the exact bytes through the SDK; return the status, and check the SDK sent the request once."""
    before = len(sent)
    try:
        client.post(route.removeprefix("/v1"), content=encode(body), cast_to=httpx.Response)
        status = 200
    except openai.APIStatusError as error:  # never APIConnectionError, never a Python exception
        assert 400 <= error.status_code < 500, error.body
        assert set(error.body) >= {"message", "type", "param", "code"}
        status = error.status_code
    assert len(sent) - before == 1  # a 4xx is final: the SDK does not retry it
    return status


@pytest.fixture(scope="module")
def sdk_in_process(sent):
    return openai.OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=2, http_client=httpx.Client(
        transport=OfflineTransport(), event_hooks={"request": [sent.append]}))


@settings(max_examples=EXAMPLES * 4)
@given(mutated())
def test_sdk_in_process_gets_status_errors_only(sdk_in_process, sent, case):
    sdk_post(sdk_in_process, sent, *case)


# --- over HTTP --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    with OfflineServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def pooled(server):
    # One pooled keep-alive connection for every example: a dropped connection would raise here.
    with httpx.Client(base_url=server.base_url, limits=httpx.Limits(max_connections=1)) as client:
        yield client


@settings(max_examples=EXAMPLES * 10)
@given(mutated())
def test_server_answers_every_mutated_body(pooled, case):
    route, body = case
    response = pooled.post(route.removeprefix("/v1"), content=encode(body),
                         headers={"content-type": "application/json"})
    assert_answer(response.status_code, response.content, route, response.headers["content-type"])


@settings(max_examples=EXAMPLES * 3)
@given(mutated(), st.sampled_from(["truncate", "garbage", "bad_utf8"]), st.integers(0, 10**6))
def test_server_answers_broken_bytes(pooled, case, damage, at):
    route, body = case
    raw = encode(body)
    at %= len(raw) + 1
    raw = {"truncate": raw[:at], "garbage": raw[:at] + b"\x00}{][" + raw[at:],
           "bad_utf8": raw[:at] + b"\xed\xa0\x80\xff" + raw[at:]}[damage]
    response = pooled.post(route.removeprefix("/v1"), content=raw)
    assert_answer(response.status_code, response.content, route, response.headers["content-type"])


# Request heads: methods, paths, versions and framing headers, valid or not, over raw sockets.
HEADER_VALUES = st.one_of(
    st.integers(-5, 300).map(str),
    st.sampled_from(["", "abc", "+3", "1_0", " 7 ", "0x10", "1e3", "\u0663", str(10**11), "9" * 40, "chunked",
                     "gzip, chunked", "chunked, chunked", "100-continue", "close", "keep-alive", "rate_limit",
                     "explode", "application/json"]),
    st.binary(max_size=12).map(lambda b: b.decode("latin-1")))
HEADS = st.tuples(
    st.sampled_from(["GET", "POST", "POST", "HEAD", "OPTIONS", "PUT", "BREW", "get", "M-SEARCH"]),
    st.sampled_from(["/v1/responses", "/v1/chat/completions", "/v1/models", "/v1/models/offline-rules-v1", "/", "*",
                     "/v1/responses?x=1", "/%ff", "/v1/models/\xe9"]),
    st.sampled_from(["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 x", "HTTX/1.1"]),
    st.lists(st.tuples(st.sampled_from(["Content-Length", "Content-Length", "Transfer-Encoding", "Expect",
                                        "Connection", "X-Offline-Fault", "Content-Type", "X Bad", ""]),
                       HEADER_VALUES), max_size=4))


def read_reply(sock, method: str):
    response = http.client.HTTPResponse(sock, method=method)
    response.begin()
    return response, response.read()


@settings(max_examples=EXAMPLES * 3)
@given(HEADS, st.one_of(mutated().map(lambda case: encode(case[1])), st.binary(max_size=40)))
def test_server_answers_any_request_head(server, head, body):
    method, path, version, headers = head
    raw = f"{method} {path} {version}\r\n".encode() + b"".join(
        f"{name}: {value}\r\n".encode() for name, value in headers) + b"\r\n" + body
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)  # the request ends here: the server never waits out a timeout
        response, content = read_reply(sock, method)  # a dropped connection raises here
    assert response.status < 500, content[:300]
    if method != "HEAD" and response.status >= 400:
        assert response.getheader("content-type") == "application/json"
        assert set(json.loads(content)["error"]) == {"message", "type", "param", "code"}


@pytest.fixture(scope="module")
def sdk_over_http(server, sent):
    with openai.OpenAI(api_key="offline", base_url=server.base_url, max_retries=2,
                       http_client=httpx.Client(event_hooks={"request": [sent.append]})) as client:
        yield client


@settings(max_examples=EXAMPLES * 2)
@given(mutated())
def test_sdk_over_http_gets_status_errors_only(sdk_over_http, sent, case):
    sdk_post(sdk_over_http, sent, *case)


def test_server_still_answers_after_the_fuzzing(server, pooled):
    # Runs after the fuzz tests above (pytest keeps file order): same pooled connection, and a new client.
    for client in (pooled, openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)):
        if isinstance(client, httpx.Client):
            answer = client.post("/responses", json=RESPONSES[0]).json()["output"][0]["content"][0]["text"]
        else:
            answer = client.responses.create(**RESPONSES[0]).output_text
        assert answer
