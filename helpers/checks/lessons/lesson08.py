"""Lesson 08 · The same agent on Chat Completions: the check of the lesson's exercise, pairing tool_call_ids.

The student writes `tool_call_messages(message, functions)`: given a Chat Completions assistant message whose
`tool_calls` hold several calls, and a dict of functions, it returns the messages to append to the history:
the assistant message with its `tool_calls` intact, then one `{"role": "tool", "tool_call_id": ..., "content":
...}` per call, in the calls' order, each with its own call's id and the function's result as a string.

The check builds the message itself (three get_weather calls in one reply, as a real model sends for a
comparison), so it needs no model for the pairing; then it sends the history to the offline model, which
answers 400 to a broken pairing the way the real API does. Messages may be dicts or SDK objects.
Left out on purpose: the provider's extra fields (`model_extra`, shown in the lesson; the scripted message has
none) and how a tool's failure is worded.
"""

from __future__ import annotations

import json

import openai

from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import offline_double, plain_data, scripted_chat_completion

CITIES = ["Madrid", "Oslo", "Lisbon"]
WEATHER_TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "Get today's weather for one city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


def _role(message) -> str | None:
    return read_field(plain_data(message), "role")


def _check_assistant(first, ids: list[str]) -> None:
    data = plain_data(first)
    fail_if(not isinstance(data, dict) or data.get("role") != "assistant",
            f"the first message should be the assistant message that asked for the calls; yours has role "
            f"{read_field(data, 'role')!r}. Without it the tool messages answer nothing (see \"The trap\").")
    sent = [read_field(call, "id") for call in data.get("tool_calls") or []]
    fail_if(not sent, "the assistant message lost its tool_calls: the tool messages after it must answer calls "
            "that it lists, or the API answers 400 (see \"The trap\").")
    fail_if(sent != ids, f"the assistant message's tool_calls don't match the model's: ids {sent} instead of the "
            f"{len(ids)} calls it made. Send them back unchanged.")


def _check_tool_messages(tools: list, ids: list[str]) -> None:
    got_ids = [read_field(plain_data(m), "tool_call_id") for m in tools]
    fail_if(any(_role(m) != "tool" for m in tools), "after the assistant message, each call's result goes in a "
            "message with role \"tool\".")
    fail_if(len(set(got_ids)) == 1 and len(ids) > 1, f"all {len(tools)} tool messages carry the same tool_call_id "
            f"({got_ids[0]!r}); each one answers a different call, so each needs its own call's id.")
    fail_if(sorted(map(str, got_ids)) == sorted(ids) and got_ids != ids, "the tool messages are not in the order "
            "of the calls they answer; keep the order of message.tool_calls.")
    fail_if(got_ids != ids, f"the tool messages' tool_call_ids {got_ids} don't match the calls' ids; each tool "
            "message carries the id of the call it answers.")
    for number, (message, city) in enumerate(zip(tools, CITIES, strict=True), start=1):
        content = read_field(plain_data(message), "content")
        fail_if(not isinstance(content, str), f"tool message {number}'s content is a {type(content).__name__}; "
                "the API takes text there, so turn the function's result into a JSON string.")
        fail_if(city not in content, f"tool message {number} should hold the result of its own call "
                f"(get_weather for {city}); yours holds {content[:60]!r}.")


@task_check("08-chat-completions", "E08", title="Pair tool_call_ids")
def check_tool_call_messages(tool_call_messages):
    """Check `tool_call_messages(message, functions) -> list`: the assistant message with its tool_calls, then one
    `tool` message per call, in order, each with its own call's id and a string content.

    Example:
        >>> def tool_call_messages(message, functions):
        ...     raise NotImplementedError
        >>> check_tool_call_messages(tool_call_messages)
        [NOT DONE YET] Task E08 · Pair tool_call_ids: replace `raise NotImplementedError` with your code.
    """
    ran = []

    def get_weather(city: str) -> dict:
        ran.append(city)
        return {"city": city, "temperature_c": 20 + len(ran), "conditions": "clear"}

    message = scripted_chat_completion(*[("get_weather", {"city": city}) for city in CITIES]).choices[0].message
    ids = [call.id for call in message.tool_calls]
    got = run_student_code(tool_call_messages, message, {"get_weather": get_weather}, what="tool_call_messages")
    fail_if(not isinstance(got, list), f"tool_call_messages returned a {type(got).__name__}; return a list of "
            "messages to append.")
    fail_if(ran != CITIES, f"get_weather ran for {ran}; run the function once for each tool call, in order.")
    fail_if(len(got) == len(ids) and all(_role(m) == "tool" for m in got),
            "you return only the tool messages: the assistant message that asked for the calls must come first, "
            "or the API answers 400 (see \"The trap\").")
    fail_if(len(got) != len(ids) + 1, f"for a reply with {len(ids)} tool calls you returned {len(got)} message(s); "
            "expected the assistant message and one tool message per call.")
    _check_assistant(got[0], ids)
    _check_tool_messages(got[1:], ids)
    history = [{"role": "user", "content": "Which is warmest: " + ", ".join(CITIES) + "?"}, *got]
    try:  # the offline model checks the history the way the API does
        offline_double().chat.completions.create(model="offline-rules-v1", messages=history, tools=[WEATHER_TOOL])
    except openai.BadRequestError as error:
        raise CheckFailed(f"the offline model rejected the history: {error.message[:200]}") from None
    return f"{len(ids)} calls, each answered by its own id, after the assistant message: {json.dumps(ids)}."
