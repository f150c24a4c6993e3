"""Chat Completions' door (helpers/offline/api/door.py): a Chat body is turned into the Responses shape, then read,
fitted and counted by the Responses pipeline; Chat keeps its own 400s. On a harbour's tide tool, which no lesson uses."""

import pytest

from helpers.offline.api.context_window import fit_responses
from helpers.offline.api.door import chat_as_responses
from helpers.offline.api.errors import ApiError
from helpers.offline.api.wire import parse_chat, parse_responses

TIDES = {"name": "get_tides", "description": "Tide times for a harbour.",
         "parameters": {"type": "object", "properties": {"harbour": {"type": "string"}}, "required": ["harbour"]}}
CHAT = {"model": "m", "tools": [{"type": "function", "function": TIDES}], "messages": [
    {"role": "developer", "content": "Answer in one sentence."},
    {"role": "user", "content": "High water at Oban?"},
    {"role": "assistant", "content": "Let me look.", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_tides", "arguments": '{"harbour": "Oban"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": '{"high_water": "14:10"}'}]}
RESPONSES = {"model": "m", "tools": [{"type": "function", **TIDES}], "input": [
    {"role": "developer", "content": "Answer in one sentence."},
    {"role": "user", "content": "High water at Oban?"},
    {"type": "message", "role": "assistant", "content": "Let me look."},
    {"type": "function_call", "call_id": "c1", "name": "get_tides", "arguments": '{"harbour": "Oban"}'},
    {"type": "function_call_output", "call_id": "c1", "output": '{"high_water": "14:10"}'}]}


def test_a_chat_body_and_its_responses_twin_are_read_into_the_same_conversation():
    chat, responses = parse_chat(CHAT), parse_responses(RESPONSES)[0]
    assert chat == responses
    assert chat.instructions == "Answer in one sentence." and chat.calls[0].output == '{"high_water": "14:10"}'


def test_tool_choice_and_the_response_format_pass_the_door():
    body = {**CHAT, "tool_choice": {"type": "function", "function": {"name": "get_tides"}}, "response_format": {
        "type": "json_schema", "json_schema": {"name": "tide", "schema": {"type": "object", "properties": {}}}}}
    conv = parse_chat(body)
    assert conv.forced == "get_tides" and (conv.output_format or {}).get("type") == "json_schema"


@pytest.mark.parametrize("messages, param", [
    ([], "messages"),
    ([{"role": "tool", "tool_call_id": "c9", "content": "x"}], "messages.[0].role"),
    ([{"role": "user", "content": "Tide?"}, {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_tides", "arguments": "{}"}}]}], "messages.[1].role"),
])
def test_chat_keeps_its_own_errors(messages, param):
    with pytest.raises(ApiError) as error:
        chat_as_responses({"model": "m", "messages": messages})
    assert error.value.param == param


def test_the_window_is_checked_once_in_chats_wording():
    body = chat_as_responses({"model": "m", "messages": [{"role": "user", "content": "tide " * 60}]})
    with pytest.raises(ApiError) as error:
        fit_responses(body, 20, param="messages")
    assert error.value.param == "messages" and str(error.value).startswith("This model's maximum context length is 20")
