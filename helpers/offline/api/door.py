"""The door of Chat Completions: a /v1/chat/completions body turned into the Responses shape, once, on the way in.

After the door, one pipeline serves both APIs: the Responses reading of a request into a `Conversation`
(wire.parse_responses), the context-window check (context_window.fit_responses) and the prompt the usage counts
(tokenizer.responses_prompt). Only the answer is rendered back in Chat's own shape (wire.render_chat).

What the door does, in order:
- checks what only Chat has: its field shapes (shapes.check_chat, so a 400 names Chat's fields), one choice
  (`n`), no deprecated `functions`, a non-empty `messages`, and the links between messages (a tool message must
  answer a `tool_calls` of the assistant message before it, and every call must get one), with the real API's
  messages, which differ from the Responses API's;
- turns `messages` into input items: system, developer, user and assistant text become message items; an
  assistant's `tool_calls` become `function_call` items after its text; a tool message a `function_call_output`;
- keeps `tools` and `tool_choice` as Chat sent them (wire reads both shapes, and the usage counts each tool's
  schema as the client sent it, so a conversation costs what it cost before the door); `response_format` becomes
  `text.format`; `max_completion_tokens` (or `max_tokens`) becomes `max_output_tokens`.

What it leaves out on purpose: the other direction (a Responses body is never turned into Chat's) and Chat's
sampling fields (`temperature`, `seed`, `logprobs`, ...), which the rules do not read.
"""

from __future__ import annotations

from helpers.offline.api.errors import ApiError
from helpers.offline.api.formats import check_format
from helpers.offline.api.shapes import check_chat
from helpers.offline.api.tokenizer import content_text

# Marks a body that came through the door: its shape was checked as Chat's, and its tools are in Chat's shape.
FROM_CHAT = "_offline_from_chat"


def chat_as_responses(body: dict) -> dict:
    """A Chat Completions request body in the Responses shape (see the module docstring), or the 400 the real
    Chat Completions API gives.

    Example:
        >>> converted = chat_as_responses({"model": "m", "messages": [
        ...     {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Tide at Oban?"},
        ...     {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
        ...      "function": {"name": "tides", "arguments": "{}"}}]},
        ...     {"role": "tool", "tool_call_id": "c1", "content": "High water 14:10"}]})
        >>> [item.get("role") or item["type"] for item in converted["input"]]
        ['system', 'user', 'function_call', 'function_call_output']
    """
    check_chat(body)
    messages = body["messages"]
    if not messages:
        raise ApiError(400, "Invalid 'messages': expected a non-empty array of messages.", param="messages",
                       code="empty_array")
    if body.get("n") not in (None, 1):
        raise ApiError(400, "The offline model returns one choice; call without n (or with n=1).", param="n",
                       code="unsupported_value")
    if body.get("functions"):
        raise ApiError(400, "The offline model supports `tools`, not the deprecated `functions` parameter: pass "
                            "tools=[{'type': 'function', 'function': {'name': ..., 'parameters': ...}}].",
                       param="functions", code="unsupported_parameter")
    converted = {"model": body.get("model"), "input": _items(messages), FROM_CHAT: True}
    for key in ("tools", "tool_choice", "parallel_tool_calls"):
        if key in body:
            converted[key] = body[key]
    output_format = _chat_format(body.get("response_format"))
    if output_format is not None:
        converted["text"] = {"format": output_format}
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    if limit is not None:
        converted["max_output_tokens"] = limit
    return converted


def _items(messages: list[dict]) -> list[dict]:
    """The messages as Responses input items, with Chat's checks of how tool messages follow tool calls."""
    items: list[dict] = []
    calls: set[str] = set()  # this turn's call ids
    pending: set[str] | None = None  # ids of the latest assistant tool_calls still waiting for tool messages
    pending_index = -1
    for index, message in enumerate(messages):
        role = message["role"]
        if role != "tool" and pending:
            _missing_tool_messages(pending, pending_index)
        text = content_text(message.get("content"))
        if role == "tool":
            call_id = message["tool_call_id"]
            if pending is None:
                raise ApiError(400, "Invalid parameter: messages with role 'tool' must be a response to a "
                                    "preceeding message with 'tool_calls'.", param=f"messages.[{index}].role")
            if call_id not in calls:
                raise ApiError(400, f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in 'tool_calls' "
                                    f"of previous message.", param=f"messages.[{index}].tool_call_id")
            items.append({"type": "function_call_output", "call_id": call_id, "output": text})
            pending.discard(call_id)
            continue
        tool_calls = (message.get("tool_calls") or []) if role == "assistant" else []
        if text or not tool_calls:  # an assistant's empty text beside its calls is no message
            items.append({"type": "message", "role": role, "content": message.get("content") or ""})
        if role == "user":
            calls, pending = set(), None
        elif role == "assistant":
            pending, pending_index = ({tc["id"] for tc in tool_calls}, index) if tool_calls else (None, -1)
            for tc in tool_calls:
                items.append({"type": "function_call", "call_id": tc["id"], "name": tc["function"]["name"],
                              "arguments": tc["function"]["arguments"]})
                calls.add(tc["id"])
    if pending:
        _missing_tool_messages(pending, pending_index)
    return items


def _chat_format(response_format: dict | None) -> dict | None:
    """Chat's response_format in the Responses shape ({"type": "json_schema", "name", "schema", ...}), checked."""
    if not response_format or response_format.get("type") == "text":
        return None
    if response_format["type"] == "json_object":
        return {"type": "json_object"}
    spec = response_format["json_schema"]
    output_format = {"type": "json_schema", **spec, "schema": spec.get("schema") or {}}
    check_format(output_format, "response_format.json_schema", str(spec.get("name", "")))
    return output_format


def _missing_tool_messages(pending: set[str], index: int) -> None:
    raise ApiError(400, "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                        "each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                        + ", ".join(sorted(pending)), param=f"messages.[{index}].role")
