"""Regression tests: every malformed request named in issue 10 gets a JSON 4xx, in-process and over HTTP.

Bodies of the wrong shape (a `tool_calls` item that is a string, a `function` or `parameters` that is a
string, deep nesting, lone surrogates, huge numbers, nulls) get a 400 naming the field, through
`app.handle`, the SDK in-process and the SDK over HTTP, which raises `openai.BadRequestError` after one
request (no retry, no APIConnectionError). HTTP framing (Content-Length non-numeric, negative, too
large, 10**11; a body that never arrives; chunked bodies; HEAD, OPTIONS, unknown methods; garbage
request lines) is sent over raw sockets, and the server must answer in JSON and keep serving.
"""

import http.client
import json
import socket
import time

import httpx
import openai
import pytest

from helpers.offline import OFFLINE_BASE_URL, OfflineServer, OfflineTransport, handle
from helpers.offline.api.app import MAX_BODY_BYTES
from helpers.offline.api.body import MAX_DEPTH
from helpers.offline.engine import decide

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
CHAT_SEARCH = {"type": "function", "function": {k: v for k, v in SEARCH.items() if k != "type"}}
QUESTION = "Can I still join the course?"


def responses(**fields):
    return {"model": "m", "input": QUESTION, **fields}


def chat(*messages, **fields):
    return {"model": "m", "messages": [{"role": "user", "content": QUESTION}, *messages], **fields}


def with_parameters(parameters, api="responses"):
    if api == "responses":
        return responses(tools=[{**SEARCH, "parameters": parameters}])
    return chat(tools=[{"type": "function", "function": {"name": "search", "parameters": parameters}}])


def nested(levels: int) -> bytes:
    return b'{"model": "m", "input": ' + b"[" * levels + b"]" * levels + b"}"


CALL = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}
# (case, route, body as bytes or JSON, expected param, a phrase of the message)
MALFORMED = [
    ("tool_calls item is a string", "chat", chat({"role": "assistant", "tool_calls": ["c1"]}),
     "messages[1].tool_calls[0]", "expected an object, but got a string instead"),
    ("tool call function is a string", "chat", chat({"role": "assistant", "tool_calls": [{**CALL, "function": "search"}]}),
     "messages[1].tool_calls[0].function", "expected an object, but got a string instead"),
    ("tool call arguments are an object", "chat",
     chat({"role": "assistant", "tool_calls": [{**CALL, "function": {"name": "search", "arguments": {}}}]}),
     "messages[1].tool_calls[0].function.arguments", "expected a string, but got an object instead"),
    ("chat tool function is a string", "chat", chat(tools=[{"type": "function", "function": "search"}]),
     "tools[0].function", "expected an object"),
    ("parameters is a string (Responses)", "responses", with_parameters(json.dumps(SEARCH["parameters"])),
     "tools[0].parameters", "expected an object, but got a string instead"),
    ("parameters is a string (Chat)", "chat", with_parameters("{}", "chat"),
     "tools[0].function.parameters", "expected an object, but got a string instead"),
    ("properties is an array", "responses", with_parameters({"type": "object", "properties": ["query"]}),
     "tools[0].parameters.properties", "Invalid schema for function 'search'"),
    ("a property's schema is a string", "chat", with_parameters({"properties": {"query": "string"}}, "chat"),
     "tools[0].function.parameters.properties.query", "must be an object (the JSON Schema of parameter 'query'"),
    ("required is a string", "responses", with_parameters({"properties": {"query": {}}, "required": "query"}),
     "tools[0].parameters.required", "must be an array of parameter names"),
    ("an input item is a string", "responses", responses(input=["hi"]), "input[0]", "expected an object"),
    ("message content is an object", "responses", responses(input=[{"role": "user", "content": {"text": "hi"}}]),
     "input[0].content", "expected one of a string or an array, but got an object instead"),
    ("a content part is a string", "chat", chat({"role": "user", "content": ["hi"]}), "messages[1].content[0]",
     "expected an object"),
    ("tool output is an object", "responses", responses(input=[
        {"role": "user", "content": QUESTION},
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": {"answer": "yes"}}]),
     "input[2].output", "expected one of a string or an array"),
    ("tool_choice names no function", "responses", responses(tools=[SEARCH], tool_choice={"type": "function"}),
     "tool_choice.name", "Missing required parameter"),
    ("deep nesting the parser reads", "responses", nested(MAX_DEPTH + 10), "input[0][0][0][0][0][0][0].\u2026",
     f"nested more than {MAX_DEPTH} levels deep"),
    ("deep nesting beyond the parser", "responses", nested(100_000), None, f"nested more than {MAX_DEPTH} levels"),
    ("lone surrogate in text", "responses", b'{"model": "m", "input": "Can I \\ud800 join?"}', "input",
     "unpaired UTF-16 surrogate (\\ud800) at character 6"),
    ("lone surrogate in chat content", "chat",
     b'{"model": "m", "messages": [{"role": "user", "content": "\\udfff"}]}', "messages[0].content",
     "unpaired UTF-16 surrogate"),
    ("lone surrogate in a key", "responses", b'{"model": "m", "input": "hi", "metadata": {"\\udc00": "x"}}',
     "metadata", "a key of 'metadata'"),
    ("number too large for a float", "responses", b'{"model": "m", "input": "hi", "temperature": 1e999}', None,
     "too large for a 64-bit float"),
    ("integer of 5000 digits", "responses", b'{"model": "m", "input": "hi", "max_output_tokens": ' + b"9" * 5000
     + b"}", None, "could not parse the JSON body"),
    ("NaN", "chat", b'{"model": "m", "messages": [], "temperature": NaN}', None, "NaN is not a JSON number"),
    ("temperature is a string", "responses", responses(temperature="0.5"), "temperature",
     "expected a number, but got a string instead"),
    ("max_output_tokens below 16", "responses", responses(max_output_tokens=5), "max_output_tokens",
     "Expected a value >= 16"),
    ("metadata value is a number", "responses", responses(metadata={"run": 1}), "metadata.run", "expected a string"),
    ("null everywhere", "responses", {"model": None, "input": None, "tools": None, "instructions": None}, "model",
     "Missing required parameter: 'model'"),
    ("messages is null", "chat", {"model": "m", "messages": None}, "messages",
     "Missing required parameter: 'messages'"),
    ("role is a number", "chat", {"model": "m", "messages": [{"role": 1, "content": "hi"}]}, "messages[0].role",
     "expected a string, but got an integer instead"),
    ("body is an array", "responses", b"[]", None, "must be a JSON object"),
    ("body is not UTF-8", "chat", b'{"model": "\xff"}', None, "not valid UTF-8"),
]
ROUTES = {"responses": "/v1/responses", "chat": "/v1/chat/completions"}


def raw_body(body) -> bytes:
    return body if isinstance(body, bytes) else json.dumps(body).encode()


@pytest.mark.parametrize("case,api,body,param,phrase", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_body_gets_a_400_naming_the_field(case, api, body, param, phrase):
    status, headers, content = handle("POST", ROUTES[api], {}, raw_body(body))
    error = json.loads(content)["error"]
    assert status == 400 and headers["content-type"] == "application/json"
    assert error["param"] == param and phrase in error["message"], error
    assert set(error) == {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"


@pytest.fixture(scope="module")
def server():
    with OfflineServer() as srv:
        yield srv


@pytest.fixture(scope="module")
def impatient():
    # A short read timeout, for the tests of timeouts only: with the default (10 s, longer than the 5 s an
    # httpx pool keeps an idle connection) a pooled connection never closes on the server's side first.
    with OfflineServer(read_timeout=0.5) as srv:
        yield srv


@pytest.fixture(scope="module", params=["inproc", "http"])
def sdk(request, server):
    """An SDK client that would retry (max_retries=2), and the list of requests it sent."""
    sent = []
    hooks = {"request": [sent.append]}
    http_client = (httpx.Client(transport=OfflineTransport(), event_hooks=hooks) if request.param == "inproc"
                   else httpx.Client(event_hooks=hooks))
    base_url = OFFLINE_BASE_URL if request.param == "inproc" else server.base_url
    with openai.OpenAI(api_key="x", base_url=base_url, max_retries=2, http_client=http_client) as client:
        yield client, sent


@pytest.mark.parametrize("case,api,body,param,phrase", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_sdk_gets_bad_request_error_once(sdk, case, api, body, param, phrase):
    client, sent = sdk
    before = len(sent)
    with pytest.raises(openai.BadRequestError) as err:  # not APIConnectionError, not a Python exception
        client.post(ROUTES[api].removeprefix("/v1"), content=raw_body(body), cast_to=httpx.Response)
    assert err.value.body["param"] == param and phrase in err.value.body["message"]
    assert len(sent) - before == 1  # the SDK did not retry


def test_sdk_typed_calls_get_bad_request_error(sdk):
    client, _ = sdk
    with pytest.raises(openai.BadRequestError, match=r"messages\[1\]\.tool_calls\[0\]"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"},
                                                            {"role": "assistant", "tool_calls": ["c1"]}])
    with pytest.raises(openai.BadRequestError, match=r"tools\[0\]\.parameters"):
        client.responses.create(model="m", input=QUESTION, tools=[{**SEARCH, "parameters": "{}"}])
    assert client.responses.create(model="m", input=QUESTION).output_text  # and the client still works


@pytest.mark.parametrize("api,body", [
    ("responses", responses(input="\u202eRTL\u200b zero-width \x00 NUL \U0001f600 e\u0301 \ufeff")),
    ("responses", responses(max_output_tokens=10**30, temperature=2, top_p=0, extra_field={"any": [1, None]})),
    ("responses", responses(instructions=None, tools=None, tool_choice=None, metadata=None, reasoning=None)),
    ("chat", chat({"role": "assistant", "content": "ok", "tool_calls": None, "function_call": None, "audio": None},
                  {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url",
                                                                                "image_url": {"url": "x"}}]})),
    ("chat", chat(tools=[CHAT_SEARCH], tool_choice={"type": "function", "function": {"name": "search"}}, n=1)),
    ("responses", responses(input="", tools=[SEARCH], tool_choice="required")),  # a forced search with no words
])
def test_valid_but_unusual_bodies_are_still_answered(api, body):
    status, _, content = handle("POST", ROUTES[api], {}, raw_body(body))
    assert status == 200, content


def test_an_engine_bug_becomes_a_json_500_that_is_not_retried():
    broken = {"now": True}

    def model(conversation):  # the rules behind the model seam, with a bug until it is fixed
        if broken["now"]:
            raise KeyError("bug")
        return decide(conversation)

    status, headers, content = handle("POST", "/v1/responses", {}, raw_body(responses()), decide=model)
    assert status == 500 and headers["x-should-retry"] == "false"
    assert "bug in the offline model" in json.loads(content)["error"]["message"]
    # Over HTTP: answered, and the connection stays usable.
    with OfflineServer(decide=model) as srv, httpx.Client(base_url=srv.base_url) as client:
        assert client.post("/responses", json=responses()).status_code == 500
        broken["now"] = False
        assert client.post("/responses", json=responses()).status_code == 200


def test_body_over_the_limit_is_a_413_in_process():
    status, _, content = handle("POST", "/v1/responses", {}, b" " * (MAX_BODY_BYTES + 1))
    assert status == 413 and json.loads(content)["error"]["code"] == "request_too_large"


# --- HTTP framing, over raw sockets --------------------------------------------------------------------------

def exchange(server, data: bytes, method: str = "POST", hang_up: bool = False):
    """Send raw bytes (then stop sending, if `hang_up`), read one response; return (status, headers, JSON body
    or None, whether the server closed the connection after it)."""
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(data)
        if hang_up:
            sock.shutdown(socket.SHUT_WR)
        response = http.client.HTTPResponse(sock, method=method)
        response.begin()
        content = response.read()
        closed = response.getheader("connection") == "close" and sock.recv(1) == b""
        return response.status, response.headers, json.loads(content) if content else None, closed


def post(length: str, body: bytes = b'{"model": "m", "input": "hi"}', extra: str = "") -> bytes:
    return (f"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {length}\r\n\r\n").encode() + body


def chunked(*chunks: bytes, end: bytes = b"0\r\n\r\n") -> bytes:
    head = b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    return head + b"".join(f"{len(c):x}\r\n".encode() + c + b"\r\n" for c in chunks) + end


@pytest.mark.parametrize("length,status,phrase", [
    ("abc", 400, "Invalid Content-Length header 'abc'"),
    ("-5", 400, "Invalid Content-Length header '-5'"),
    ("+29", 400, "Invalid Content-Length header '+29'"),
    ("2_9", 400, "Invalid Content-Length header '2_9'"),
    (str(MAX_BODY_BYTES + 1), 413, f"accepts at most {MAX_BODY_BYTES:,} bytes"),
    (str(10**11), 413, "The request body is 100,000,000,000 bytes"),
    ("9" * 5000, 413, "The request body is larger than that"),
])
def test_bad_content_length_gets_json_and_a_closed_connection(server, length, status, phrase):
    got, headers, body, closed = exchange(server, post(length))
    assert got == status and phrase in body["error"]["message"]
    assert headers["content-type"] == "application/json" and closed


def test_conflicting_framing_headers_are_refused(server):
    assert exchange(server, post("29", extra="Content-Length: 30\r\n"))[0] == 400
    got, _, body, closed = exchange(server, post("29", extra="Transfer-Encoding: chunked\r\n"))
    assert got == 400 and "both Transfer-Encoding and Content-Length" in body["error"]["message"] and closed


def test_a_body_shorter_than_its_length_times_out_with_408(impatient):
    got, _, body, closed = exchange(impatient, post("100"))  # 29 bytes sent, 100 announced: read_timeout is 0.5 s
    assert got == 408 and body["error"]["code"] == "request_timeout" and closed


def test_headers_that_stop_arriving_get_408(impatient):
    got, _, body, closed = exchange(impatient, b"POST /v1/responses HTTP/1.1\r\nHost: x\r\n")
    assert got == 408 and "headers stopped arriving" in body["error"]["message"] and closed


@pytest.mark.parametrize("data,phrase", [
    (post("100"), "ended after 29 of the 100 bytes"),
    (chunked(end=b"5\r\n{}"), "the body ended inside a chunk"),
    (chunked(b"{}", end=b""), "a chunk-size line is cut off"),
])
def test_a_body_cut_short_by_the_client_gets_400(server, data, phrase):
    got, _, body, closed = exchange(server, data, hang_up=True)
    assert got == 400 and phrase in body["error"]["message"] and closed


def test_a_client_that_hangs_up_mid_body_does_not_hurt_the_server(server):
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(post("1000")[:-5])
    assert exchange(server, post("29"))[0] == 200


def test_chunked_bodies_are_read(server):
    status, _, body, _ = exchange(server, chunked(b'{"model": "m", ', b'"input": "hi"}'))
    assert status == 200 and body["object"] == "response"
    with httpx.Client(base_url=server.base_url) as client:  # httpx sends an iterator as chunks
        response = client.post("/responses", content=iter([b'{"model": "m",', b' "input": "hi"}']))
    assert response.request.headers["transfer-encoding"] == "chunked" and response.status_code == 200


@pytest.mark.parametrize("data,status,phrase", [
    (chunked(b"{}", end=b"zz\r\n"), 400, "'zz' is not a chunk size"),
    (chunked(b"x" * (MAX_BODY_BYTES // 2), b"x" * (MAX_BODY_BYTES // 2 + 1)), 413, "accepts at most"),
    (b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "Unsupported Transfer-Encoding"),
])
def test_bad_chunked_bodies_get_json(server, data, status, phrase):
    got, _, body, closed = exchange(server, data)
    assert got == status and phrase in body["error"]["message"] and closed


def test_expect_100_continue_with_a_too_large_body_is_refused_before_it_is_sent(server):
    got, _, body, closed = exchange(server, post(str(10**9), body=b"", extra="Expect: 100-continue\r\n"))
    assert got == 413 and closed


def test_a_413_reaches_a_client_that_sends_the_whole_body(server):
    client = openai.OpenAI(api_key="x", base_url=server.base_url, max_retries=0)
    with pytest.raises(openai.APIStatusError) as err:  # the server discards the body instead of resetting
        client.responses.create(model="m", input="x" * (MAX_BODY_BYTES + 10))
    assert err.value.status_code == 413
    assert client.responses.create(model="m", input="hi").output_text


@pytest.mark.parametrize("request_line,status,allow", [
    ("OPTIONS /v1/responses", 405, "POST"),
    ("OPTIONS /v1/models", 405, "GET, HEAD"),
    ("BREW /v1/models", 405, "GET, HEAD"),
    ("DELETE /v1/chat/completions", 405, "POST"),
    ("PUT /v1/nowhere", 404, None),
])
def test_other_methods_get_json(server, request_line, status, allow):
    got, headers, body, _ = exchange(server, f"{request_line} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert got == status and headers.get("allow") == allow
    assert headers["content-type"] == "application/json" and set(body["error"]) == {"message", "type", "param", "code"}


def test_head_gets_the_headers_of_get_without_a_body(server):
    status, headers, body, _ = exchange(server, b"HEAD /v1/models HTTP/1.1\r\nHost: x\r\n\r\n", method="HEAD")
    assert status == 200 and body is None and int(headers["content-length"]) > 0
    assert headers["content-type"] == "application/json"
    status, headers, body, _ = exchange(server, b"HEAD /v1/responses HTTP/1.1\r\nHost: x\r\n\r\n", method="HEAD")
    assert status == 405 and body is None and headers["allow"] == "POST"
    in_process = httpx.Client(transport=OfflineTransport()).head(f"{OFFLINE_BASE_URL}/models")
    assert in_process.status_code == 200 and in_process.content == b""


@pytest.mark.parametrize("data,status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET /v1/models HTTP/9.9\r\n\r\n", 400),  # http.server's own answer would be a 505
    (b"GET /v1/models HTTP/1.1\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n", 431),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
])
def test_what_http_server_rejects_itself_is_json_too(server, data, status):
    got, headers, body, closed = exchange(server, data)
    assert got == status and headers["content-type"] == "application/json" and body["error"]["message"] and closed


def test_keep_alive_survives_an_error_reply(server):
    malformed = json.dumps(chat({"role": "assistant", "tool_calls": ["c1"]})).encode()
    request = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {len(malformed)}\r\n\r\n"
               ).encode() + malformed
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        for expected in (400, 400, 200):  # two errors, then a valid request, on one connection
            sock.sendall(request if expected == 400 else post("29"))
            response = http.client.HTTPResponse(sock, method="POST")
            response.begin()
            response.read()
            assert response.status == expected and response.getheader("connection") != "close"


def test_a_chunked_body_that_stops_arriving_gets_408(impatient):
    got, _, body, closed = exchange(impatient, chunked(end=b"5\r\n{}"))
    assert got == 408 and "The request body stopped arriving" in body["error"]["message"] and closed


def test_sdk_pool_reuses_connections_across_errors_and_idle_closes(impatient):
    client = openai.OpenAI(api_key="x", base_url=impatient.base_url, max_retries=0)
    for _ in range(3):
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model="m", messages=[{"role": "assistant", "tool_calls": ["c1"]}])
        assert client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}]).choices
    time.sleep(0.8)  # longer than the server's read_timeout (0.5 s): it has closed the idle pooled connection
    assert client.models.list().data  # the pool notices and opens a new one, without an error


def test_a_malformed_streamed_request_gets_bad_request_error_once(sdk):
    # Errors come before the stream starts, as JSON: the SDK raises at once, as it does for OpenAI.
    client, sent = sdk
    before = len(sent)
    with pytest.raises(openai.BadRequestError, match=r"tools\[0\]\.parameters"):
        client.responses.create(model="m", input=QUESTION, tools=[{**SEARCH, "parameters": "{}"}], stream=True)
    with pytest.raises(openai.BadRequestError, match="only allowed when 'stream' is enabled"):
        client.chat.completions.create(**chat(), stream_options={"include_usage": True})
    assert len(sent) - before == 2  # not retried
    events = list(client.responses.create(model="m", input=QUESTION, stream=True))  # and streaming still works
    assert events[-1].type == "response.completed"
