"""Property-based tests of the stored-state routes: mutated bodies to /responses (with previous_response_id,
conversation, truncation, store) and to the Conversations API, and drawn paths and query strings, always get a
200 or a 4xx in OpenAI's error shape from a state that holds a response and a conversation; never a 5xx."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_offline_fuzz import EXAMPLES, encode, mutated

from helpers.offline import handle
from helpers.offline.api.state import ServerState

ITEM = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Low tide at 04:12."}]}
CALL = {"type": "function_call", "call_id": "t1", "name": "tide_table", "arguments": '{"port": "Leith"}'}
OUTPUT = {"type": "function_call_output", "call_id": "t1", "output": "High water 10:31."}


def _state() -> tuple[ServerState, str, str]:
    """A fresh state with one stored response and one conversation: (state, response id, conversation id)."""
    state = ServerState(context_window=400)
    _, _, raw = handle("POST", "/v1/responses", {}, encode({"model": "m", "input": "When is low tide?"}), state=state)
    _, _, chat = handle("POST", "/v1/conversations", {}, encode({"items": [ITEM]}), state=state)
    return state, json.loads(raw)["id"], json.loads(chat)["id"]


STATE, RESPONSE_ID, CHAT_ID = _state()
BASES = [
    ("/v1/responses", {"model": "m", "input": "And high tide?", "previous_response_id": RESPONSE_ID, "store": True,
                       "truncation": "auto"}),
    ("/v1/responses", {"model": "m", "input": [ITEM, CALL, OUTPUT], "conversation": {"id": CHAT_ID},
                       "truncation": "disabled", "store": False}),
    ("/v1/conversations", {"metadata": {"port": "Leith"}, "items": [ITEM, CALL, OUTPUT]}),
    (f"/v1/conversations/{CHAT_ID}/items", {"items": [ITEM]}),
    (f"/v1/conversations/{CHAT_ID}", {"metadata": {"port": "Leith"}}),
]


def assert_status_or_error(status: int, content: bytes) -> None:
    assert status < 500, content[:500]
    data = json.loads(content)
    if status != 200:
        assert set(data) == {"error"} and set(data["error"]) == {"message", "type", "param", "code"}


@pytest.mark.parametrize("route,body", BASES)
def test_the_bases_are_valid(route, body):
    state, _, _ = _state()  # the same ids as STATE's: ids come from content and counters only
    status, _, content = handle("POST", route, {}, encode(body), state=state)
    assert status == 200, content


@settings(max_examples=EXAMPLES * 10)
@given(mutated(BASES))
def test_mutated_state_bodies_get_an_answer(case):
    route, body = case
    status, _, content = handle("POST", route, {}, encode(body), state=STATE)
    assert_status_or_error(status, content)


# A path arrives as bytes: the transport decodes it as ASCII, the server's request line as ISO-8859-1. So a path
# holds those characters only (never a lone surrogate, which test_offline_fuzz.py sends in bodies).
PATH_TEXT = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=255, exclude_characters="?#/&="),
                    max_size=12)
SEGMENT = st.one_of(st.sampled_from(["responses", "conversations", "items", "input_items", RESPONSE_ID, CHAT_ID,
                                     "", "msg_x", "..", "%2F"]), PATH_TEXT)


@settings(max_examples=EXAMPLES * 10)
@given(st.sampled_from(["GET", "POST", "DELETE", "HEAD", "PUT", "PATCH"]),
       st.lists(SEGMENT, min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(["limit", "order", "after", "include"]), PATH_TEXT, max_size=3))
def test_drawn_paths_and_queries_get_an_answer(method, segments, query):
    route = "/v1/" + "/".join(["responses" if segments[0] not in ("responses", "conversations") else segments[0],
                               *segments[1:]])
    path = route + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    status, _, content = handle(method, path, {}, b"{}" if method == "POST" else b"", state=STATE)
    assert_status_or_error(status, content)
