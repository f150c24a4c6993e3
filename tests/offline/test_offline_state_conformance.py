"""Conformance of the offline model's stored state: stored responses, their input items, conversations, their
items and the state's errors validate against the official OpenAPI schemas, and the openai SDK parses them in
strict mode. (Domains no lesson uses: a lighthouse log, a violin workshop.)"""

import json

import httpx
import pytest
from openai import OpenAI
from test_offline_conformance import assert_valid, schema_validator

from helpers.offline import OFFLINE_BASE_URL, OfflineTransport, handle
from helpers.offline.api.state import ServerState

LIGHT_LOG = {"type": "function", "name": "read_lighthouse_log", "description": "Read the keeper's log.",
             "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
LOG_ENTRY = json.dumps([{"id": "l3", "title": "Night of 3 March", "text": "The lamp was relit at 02:10 after a "
                                                                          "power cut."}])


@pytest.fixture(scope="module")
def validators():
    return {name: schema_validator(name) for name in (
        "Response", "ResponseItemList", "ConversationResource", "ConversationItemList", "ConversationItem",
        "DeletedConversation", "ErrorResponse")}


def call(state, method, path, body=None):
    raw = json.dumps(body).encode() if body is not None else b""
    status, _, content = handle(method, path, {}, raw, state=state)
    return status, json.loads(content)


@pytest.fixture
def chain():
    """A state holding a two-turn chain with a function call and its output; (state, first, second)."""
    state = ServerState()
    status, first = call(state, "POST", "/v1/responses", {"model": "m", "input": "When was the lamp relit?",
                                                          "tools": [LIGHT_LOG]})
    assert status == 200 and first["output"][0]["type"] == "function_call", first
    answer = {"type": "function_call_output", "call_id": first["output"][0]["call_id"], "output": LOG_ENTRY}
    status, second = call(state, "POST", "/v1/responses", {"model": "m", "input": [answer], "tools": [LIGHT_LOG],
                                                           "previous_response_id": first["id"]})
    assert status == 200, second
    return state, first, second


def test_a_stored_response_retrieved_validates_and_is_the_created_one(validators, chain):
    state, _, second = chain
    assert_valid(validators["Response"], second)
    assert second["store"] is True and second["previous_response_id"]
    status, retrieved = call(state, "GET", f"/v1/responses/{second['id']}")
    assert status == 200 and retrieved == second


def test_input_items_validate_as_a_response_item_list(validators, chain):
    state, _, second = chain
    status, listed = call(state, "GET", f"/v1/responses/{second['id']}/input_items?order=asc")
    assert status == 200
    assert_valid(validators["ResponseItemList"], listed)
    assert [item["type"] for item in listed["data"]] == ["message", "function_call", "function_call_output"]
    assert listed["first_id"] == listed["data"][0]["id"] and listed["has_more"] is False


def test_deleting_a_response_answers_the_deleted_object(chain):
    state, first, _ = chain
    assert call(state, "DELETE", f"/v1/responses/{first['id']}") == (
        200, {"id": first["id"], "object": "response", "deleted": True})
    status, error = call(state, "GET", f"/v1/responses/{first['id']}")
    assert status == 404 and "not found" in error["error"]["message"]


def test_conversation_objects_validate(validators):
    state = ServerState()
    status, chat = call(state, "POST", "/v1/conversations", {"metadata": {"bench": "3"}, "items": [
        {"type": "message", "role": "user", "content": "Here is the workshop price list:\n- New strings cost 35 "
                                                        "euros.\n- A bow rehair costs 70 euros."}]})
    assert status == 200
    assert_valid(validators["ConversationResource"], chat)
    status, response = call(state, "POST", "/v1/responses", {"model": "m", "input": "How much are new strings?",
                                                             "conversation": chat["id"]})
    assert status == 200 and response["conversation"] == {"id": chat["id"]}
    assert_valid(validators["Response"], response)
    status, items = call(state, "GET", f"/v1/conversations/{chat['id']}/items")
    assert status == 200 and len(items["data"]) == 3
    assert_valid(validators["ConversationItemList"], items)
    status, one = call(state, "GET", f"/v1/conversations/{chat['id']}/items/{items['data'][0]['id']}")
    assert_valid(validators["ConversationItem"], one)
    status, added = call(state, "POST", f"/v1/conversations/{chat['id']}/items", {"items": [
        {"type": "function_call", "call_id": "k1", "name": "read_lighthouse_log", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "k1", "output": LOG_ENTRY}]})
    assert status == 200
    assert_valid(validators["ConversationItemList"], added)
    status, deleted = call(state, "DELETE", f"/v1/conversations/{chat['id']}")
    assert status == 200 and deleted == {"id": chat["id"], "object": "conversation.deleted", "deleted": True}
    assert_valid(validators["DeletedConversation"], deleted)


STATE_ERRORS = [
    ("POST", "/v1/responses", {"model": "m", "input": "x", "previous_response_id": "resp_none"}, 400,
     "previous_response_not_found"),
    ("POST", "/v1/responses", {"model": "m", "input": "x", "previous_response_id": "resp_none",
                               "conversation": "conv_none"}, 400, "mutually_exclusive_parameters"),
    ("POST", "/v1/responses", {"model": "m", "input": "x", "conversation": "conv_none"}, 404, "conversation_not_found"),
    ("POST", "/v1/responses", {"model": "m", "input": "x", "truncation": "sometimes"}, 400, "invalid_value"),
    ("POST", "/v1/responses", {"model": "m", "input": "lamp " * 200}, 400, "context_length_exceeded"),
    ("POST", "/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "lamp " * 200}]}, 400,
     "context_length_exceeded"),
    ("GET", "/v1/responses/resp_none", None, 404, None),
    ("GET", "/v1/responses/resp_none/input_items", None, 404, None),
    ("PUT", "/v1/responses/resp_none", None, 405, None),
    ("GET", "/v1/conversations/conv_none", None, 404, "conversation_not_found"),
    ("POST", "/v1/conversations", {"items": [{"role": "user", "content": "x"}] * 21}, 400, "array_above_max_length"),
    ("POST", "/v1/conversations", {"items": "x"}, 400, "invalid_type"),
    ("GET", "/v1/conversations", None, 405, None),
]


@pytest.mark.parametrize("method,path,body,status,code", STATE_ERRORS)
def test_state_errors_validate_against_openapi(validators, method, path, body, status, code):
    state = ServerState(context_window=100)
    got, error = call(state, method, path, body)
    assert got == status and error["error"]["code"] == code, error
    assert_valid(validators["ErrorResponse"], error)


def test_context_errors_name_the_api_s_parameter():
    state = ServerState(context_window=100)
    assert call(state, "POST", "/v1/responses", STATE_ERRORS[4][2])[1]["error"]["param"] == "input"
    assert call(state, "POST", "/v1/chat/completions", STATE_ERRORS[5][2])[1]["error"]["param"] == "messages"


def test_strict_sdk_parsing_of_stored_state():
    client = OpenAI(api_key="x", base_url=OFFLINE_BASE_URL, _strict_response_validation=True,
                    http_client=httpx.Client(transport=OfflineTransport()))
    first = client.responses.create(model="m", input="When was the lamp relit?", tools=[LIGHT_LOG])
    second = client.responses.create(model="m", tools=[LIGHT_LOG], previous_response_id=first.id, input=[
        {"type": "function_call_output", "call_id": first.output[0].call_id, "output": LOG_ENTRY}])
    assert client.responses.retrieve(second.id).id == second.id
    assert len(list(client.responses.input_items.list(second.id))) == 3
    chat = client.conversations.create(items=[{"role": "user", "content": "The lamp turns every 20 seconds."}])
    client.responses.create(model="m", input="How often does the lamp turn?", conversation=chat.id)
    items = list(client.conversations.items.list(chat.id))
    assert client.conversations.items.retrieve(items[0].id, conversation_id=chat.id).id == items[0].id
    assert client.conversations.items.delete(items[0].id, conversation_id=chat.id).id == chat.id
    assert client.conversations.update(chat.id, metadata={"tower": "north"}).metadata == {"tower": "north"}
    assert client.conversations.delete(chat.id).deleted


def test_the_state_validators_do_reject_broken_objects(validators, chain):
    # Guards against a vacuous validator: each object loses a required field.
    state, _, second = chain
    listed = call(state, "GET", f"/v1/responses/{second['id']}/input_items")[1]
    del listed["data"][0]["type"]
    assert list(validators["ResponseItemList"].iter_errors(listed))
    assert list(validators["ConversationResource"].iter_errors({"id": "conv_1", "object": "conversation"}))
    assert list(validators["ConversationItem"].iter_errors({"type": "message", "role": "user", "content": []}))
    assert list(validators["DeletedConversation"].iter_errors({"id": "conv_1", "deleted": True}))
