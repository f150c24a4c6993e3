"""Conformance of the offline model: its JSON validates against the official OpenAI OpenAPI schemas, the
openai SDK parses it in strict mode, and equal requests give byte-identical bodies."""

import functools
import json
from pathlib import Path

import pytest
import yaml
from skip_guard import in_ci

from helpers.offline import OFFLINE_MODEL, handle
from helpers.setup.pinned import OPENAI_SPEC, PinnedFileError, fetch

# .ci/run exports OPENAI_SPEC (conftest does too where ../shared exists); a maintainer's clone has it in data/
# after one `make data`.


def spec_path() -> Path:
    try:
        return fetch(OPENAI_SPEC, download_allowed=False)  # OPENAI_SPEC (shell or .env), else the cache in data/
    except PinnedFileError as error:
        message = (f"Conformance tests need the OpenAI OpenAPI spec. {error} Then run the tests again.")
        if in_ci():  # in CI a missing spec is a broken set-up, never a reason to skip
            pytest.fail(message, pytrace=False)
        pytest.skip(message)

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
                         "additionalProperties": False}}
WEATHER = {"type": "function", "name": "get_weather", "description": "Current weather in a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
FAQ_RESULT = json.dumps([{"id": "abc", "course": "c", "section": "General", "question": "Can I still join the course?",
                          "answer": "Yes, you can join at any time."}])


def chat_tool(tool):
    return {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}


def post(path, body, headers=None):
    status, _, content = handle("POST", path, headers or {}, json.dumps(body).encode())
    return status, json.loads(content)


RESPONSES_BODIES = [
    {"model": "m", "input": "Can I join the course?"},
    {"model": "m", "input": "Can I join the course?", "tools": [SEARCH]},
    {"model": "m", "input": [{"role": "user", "content": "Can I join the course?"},
                             {"type": "function_call", "call_id": "c1", "name": "search", "arguments": '{"query": "join"}'},
                             {"type": "function_call_output", "call_id": "c1", "output": FAQ_RESULT}],
     "tools": [SEARCH], "instructions": "Answer from the FAQ.", "metadata": {"run": "1"}},
    {"model": "m", "input": "Weather in Berlin?", "tools": [WEATHER], "tool_choice": "required", "temperature": 0},
    {"model": "m", "input": "Tell me a long story", "max_output_tokens": 16},
]
CHAT_BODIES = [
    {"model": "m", "messages": [{"role": "user", "content": "Can I join the course?"}]},
    {"model": "m", "messages": [{"role": "user", "content": "Can I join the course?"}], "tools": [chat_tool(SEARCH)]},
    {"model": "m", "messages": [
        {"role": "system", "content": "Answer from the FAQ."}, {"role": "user", "content": "Can I join the course?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"query": "join"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": FAQ_RESULT}], "tools": [chat_tool(SEARCH)]},
    {"model": "m", "messages": [{"role": "user", "content": "Tell me a long story"}], "max_tokens": 5},
]
ERROR_REQUESTS = [
    ("POST", "/v1/responses", b'{"input": "hi"}'),
    ("POST", "/v1/responses", b"{not json"),
    ("POST", "/v1/nowhere", b"{}"),
    ("GET", "/v1/responses", b""),
    ("POST", "/v1/chat/completions", b'{"model": "m", "messages": [{"role": "tool", "tool_call_id": "x", "content": "1"}]}'),
    ("POST", "/v1/chat/completions", b'{"model": "m", "messages": [], "stream": true}'),  # errors stay JSON when streamed
    ("POST", "/v1/responses", b'{"model": "m", "input": "hi", "stream_options": {"include_obfuscation": false}}'),
]


def _nullable_as_json_schema(node):
    """OpenAPI 3.0's `nullable: true` in JSON Schema terms (a JSON Schema validator ignores the keyword):
    {"type": "string", "nullable": true} becomes {"anyOf": [{"type": "string"}, {"type": "null"}]}."""
    if isinstance(node, list):
        return [_nullable_as_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {key: _nullable_as_json_schema(value) for key, value in node.items()}
    if node.pop("nullable", None) is True:
        return {"anyOf": [node, {"type": "null"}]}
    return node


@functools.cache
def _spec_and_registry():
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader reads the 3 MB file in ~1 s
    spec = _nullable_as_json_schema(yaml.load(spec_path().read_text(encoding="utf-8"), Loader=loader))
    return spec, Registry().with_resource("urn:openai-spec", Resource(contents=spec, specification=DRAFT202012))


def spec_schemas() -> dict:
    """The spec's components.schemas (read once per test run; skips or fails as spec_path says)."""
    return _spec_and_registry()[0]["components"]["schemas"]


def schema_validator(name: str):
    """A validator for one schema of the spec, by name (e.g. "Response", "ResponseTextDeltaEvent")."""
    from jsonschema import Draft202012Validator

    assert name in spec_schemas(), f"{name} is not in the spec"
    return Draft202012Validator({"$ref": f"urn:openai-spec#/components/schemas/{name}"},
                                registry=_spec_and_registry()[1])


@pytest.fixture(scope="module")
def validators():
    return {name: schema_validator(name) for name in
            ("Response", "CreateChatCompletionResponse", "ListModelsResponse", "ErrorResponse", "Model")}


def assert_valid(validator, data):
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message[:300]}" for e in errors[:5])


@pytest.mark.parametrize("body", RESPONSES_BODIES)
def test_responses_validate_against_openapi(validators, body):
    status, data = post("/v1/responses", body)
    assert status == 200, data
    assert data["model"] == OFFLINE_MODEL
    assert_valid(validators["Response"], data)


@pytest.mark.parametrize("body", CHAT_BODIES)
def test_chat_completions_validate_against_openapi(validators, body):
    status, data = post("/v1/chat/completions", body)
    assert status == 200, data
    assert data["model"] == OFFLINE_MODEL
    assert_valid(validators["CreateChatCompletionResponse"], data)


def test_models_validate_against_openapi(validators):
    status, _, content = handle("GET", "/v1/models", {}, b"")
    assert status == 200
    assert_valid(validators["ListModelsResponse"], json.loads(content))
    status, _, content = handle("GET", f"/v1/models/{OFFLINE_MODEL}", {}, b"")
    assert_valid(validators["Model"], json.loads(content))


@pytest.mark.parametrize("method,path,body", ERROR_REQUESTS)
def test_errors_validate_against_openapi(validators, method, path, body):
    status, _, content = handle(method, path, {}, body)
    assert status >= 400
    assert_valid(validators["ErrorResponse"], json.loads(content))


@pytest.mark.parametrize("path,body", [("/v1/responses", b) for b in RESPONSES_BODIES]
                         + [("/v1/chat/completions", b) for b in CHAT_BODIES])
def test_same_request_gives_byte_identical_body(path, body):
    raw = json.dumps(body).encode()
    reordered = json.dumps(dict(reversed(list(body.items())))).encode()  # key order must not matter
    first, second, third = (handle("POST", path, {}, b)[2] for b in (raw, raw, reordered))
    assert first == second == third


def test_different_requests_get_different_ids():
    a = post("/v1/responses", {"model": "m", "input": "Can I join?"})[1]
    b = post("/v1/responses", {"model": "m", "input": "Can I get a certificate?"})[1]
    assert a["id"] != b["id"] and a["id"].startswith("resp_")
    assert a["created_at"] == b["created_at"]  # fixed, never the wall clock


def test_strict_sdk_parsing_of_every_body():
    import httpx
    from openai import OpenAI

    from helpers.offline import OFFLINE_BASE_URL, OfflineTransport

    client = OpenAI(api_key="x", base_url=OFFLINE_BASE_URL, _strict_response_validation=True,
                    http_client=httpx.Client(transport=OfflineTransport()))
    for body in RESPONSES_BODIES:
        response = client.responses.create(**body)
        assert response.model == OFFLINE_MODEL
    for body in CHAT_BODIES:
        completion = client.chat.completions.create(**body)
        assert completion.model == OFFLINE_MODEL
    assert [m.id for m in client.models.list()] == [OFFLINE_MODEL]


def test_the_validators_do_reject_broken_bodies(validators):
    # Guards against a vacuous validator (e.g. a $ref that resolves to an empty schema).
    _, data = post("/v1/responses", RESPONSES_BODIES[0])
    del data["output"]
    assert list(validators["Response"].iter_errors(data))
    assert list(validators["ErrorResponse"].iter_errors({"error": {"message": 1}}))
