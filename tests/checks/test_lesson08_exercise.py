"""Lesson 08's exercise check: a right `tool_call_messages` passes (with dicts or with the SDK message itself), the
stub is not done yet, and the mistakes students make (only the tool messages, one id for all, tool_calls
dropped, a dict as content, the wrong order) fail with a hint that does not hand over the code."""

import json

import hints

from helpers.checks.lessons.lesson08 import check_tool_call_messages
from helpers.tools import make_chat_call

SECRETS = ["model_dump", "make_chat_call", "json.dumps(", "call.id}", '"tool_call_id": call.id']


def assert_fails(result, *words):
    """The check failed with a useful hint that names what is wrong (`words`) and leaks no answer code."""
    hints.assert_fails(result, leaks=SECRETS, says=words)


def assistant_dict(message, with_calls=True):
    assistant = {"role": "assistant", "content": message.content, **(message.model_extra or {})}
    if with_calls:
        assistant["tool_calls"] = [call.model_dump(mode="json", exclude_none=True) for call in message.tool_calls]
    return assistant


def run(call, functions):
    return functions[call.function.name](**json.loads(call.function.arguments))


def right(message, functions):
    return [assistant_dict(message), *(make_chat_call(call, functions) for call in message.tool_calls)]


def test_right_solution_passes():
    result = check_tool_call_messages(right)
    assert result.status == "pass", result


def test_appending_the_sdk_message_itself_passes():
    def tool_call_messages(message, functions):
        return [message, *({"role": "tool", "tool_call_id": call.id, "content": json.dumps(run(call, functions))}
                           for call in message.tool_calls)]

    result = check_tool_call_messages(tool_call_messages)
    assert result.status == "pass", result


def test_stub_is_not_done_yet():
    def tool_call_messages(message, functions):
        raise NotImplementedError

    assert check_tool_call_messages(tool_call_messages).status == "todo"
    assert check_tool_call_messages(None).status == "todo"


def test_only_the_tool_messages_fails():
    def tool_call_messages(message, functions):
        return [make_chat_call(call, functions) for call in message.tool_calls]

    assert_fails(check_tool_call_messages(tool_call_messages), "assistant message")


def test_reusing_the_first_calls_id_fails():
    def tool_call_messages(message, functions):
        first = message.tool_calls[0].id
        return [assistant_dict(message), *({"role": "tool", "tool_call_id": first,
                                            "content": json.dumps(run(call, functions))}
                                           for call in message.tool_calls)]

    assert_fails(check_tool_call_messages(tool_call_messages), "same tool_call_id")


def test_dropping_tool_calls_from_the_assistant_message_fails():
    def tool_call_messages(message, functions):
        return [assistant_dict(message, with_calls=False), *(make_chat_call(c, functions) for c in message.tool_calls)]

    assert_fails(check_tool_call_messages(tool_call_messages), "lost its tool_calls")


def test_content_that_is_not_a_string_fails():
    def tool_call_messages(message, functions):
        return [assistant_dict(message), *({"role": "tool", "tool_call_id": call.id, "content": run(call, functions)}
                                           for call in message.tool_calls)]

    assert_fails(check_tool_call_messages(tool_call_messages), "content is a dict")


def test_tool_messages_in_the_wrong_order_fail():
    def tool_call_messages(message, functions):
        return [assistant_dict(message), *reversed([make_chat_call(c, functions) for c in message.tool_calls])]

    assert_fails(check_tool_call_messages(tool_call_messages))


def test_answering_only_the_first_call_fails():
    def tool_call_messages(message, functions):
        return [assistant_dict(message), make_chat_call(message.tool_calls[0], functions)]

    assert_fails(check_tool_call_messages(tool_call_messages))
