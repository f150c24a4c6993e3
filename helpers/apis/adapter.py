"""The two API flavours, the Responses API and Chat Completions, behind one interface.

All that differs between them is here, once: how a request is built from the instructions, the history and
the tools; which endpoint is called, plainly or streamed; where a response keeps its function calls, its text
and its usage; and which items go back into the history (the model's output, each tool's output). The loop,
the cost records, the trace and helpers.lean_search ask a flavour instead of checking `api == "chat"` themselves.
`flavour_of("chat")` picks one by name; `flavour_of_response` and `flavour_of_request` by the shape of what a
call got or sent (a cost record or a trace knows no name). Responses are read with `lookup`, which walks SDK
objects and plain dicts alike: a trace stores them as JSON, and a test can write one by hand.

Left out on purpose: legacy Completions, the Assistants API, and provider extensions beyond the extra fields
a Chat message carries back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import NamedTuple


class Call(NamedTuple):
    """One function call the model asked for, in either flavour."""

    id: str | None
    name: str | None
    arguments: str | None


@dataclass(frozen=True)
class CallUsage:
    """What one call used and how it ended. input_tokens includes the cached ones and output_tokens the
    reasoning ones, as both APIs count them; finish is the Responses status ("incomplete (max_output_tokens)")
    or Chat's finish_reason; reported is False when the response has no token counts. Example:
    >>> usage_of({"usage": {"prompt_tokens": 10, "completion_tokens": 2}}).total_tokens
    12"""

    api: str
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    total_tokens: int = 0
    finish: str | None = None
    reported: bool = False


class Flavour(ABC):
    """What both flavours share. Each subclass has the same methods: create, schemas, output_items, item_calls,
    item_output, tool_output, without_tools, text and usage."""

    name = history_key = ""  # history_key: the create() argument that carries the history
    sends_instructions = False  # True: instructions are a create() argument; False: the system message

    def request(self, model: str, history: list, *, instructions: str | None = None, tools: list | None = None,
                tool_choice: str | None = None) -> dict:
        """The keyword arguments of one create() call. Example:
        >>> RESPONSES.request("m", [], instructions="Be brief.", tools=[{"name": "f"}], tool_choice="none")
        {'model': 'm', 'input': [], 'instructions': 'Be brief.', 'tools': [{'name': 'f'}], 'tool_choice': 'none'}"""
        kwargs: dict = {"model": model, self.history_key: history}
        if instructions and self.sends_instructions:
            kwargs["instructions"] = instructions
        if tools:
            kwargs["tools"] = tools
            if tool_choice:
                kwargs["tool_choice"] = tool_choice
        return kwargs

    def start(self, messages: list, instructions: str | None, question: str) -> list:
        """A run's history: the earlier messages and the question; for Chat first a system message with the
        instructions, unless it has one (the Responses API gets them with each request). Example:
        >>> [m["role"] for m in CHAT.start([], "Be brief.", "Hi")], RESPONSES.start([], "Be brief.", "Hi")
        (['system', 'user'], [{'role': 'user', 'content': 'Hi'}])"""
        history = list(messages)
        if instructions and not self.sends_instructions and not any(role_of(m) == "system" for m in history):
            history.insert(0, {"role": "system", "content": instructions})
        return [*history, {"role": "user", "content": question}]

    def calls_in(self, items: list) -> list[Call]:
        """The function calls in history items. Example:
        >>> RESPONSES.calls_in([{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}])
        [Call(id='c1', name='f', arguments='{}')]"""
        return [call for item in items for call in self.item_calls(item)]

    # What each flavour does its own way, declared here so that code holding a Flavour may call it;
    # Responses and Chat below say what each does (with an example).
    @abstractmethod
    def create(self, client, kwargs: dict, on_text=None): ...

    @abstractmethod
    def schemas(self, registry) -> list[dict]: ...

    @abstractmethod
    def function_tool(self, spec: dict) -> dict: ...

    @abstractmethod
    def output_items(self, response) -> list[dict]: ...

    @abstractmethod
    def item_calls(self, item) -> list[Call]: ...

    @abstractmethod
    def item_output(self, item) -> tuple | None: ...

    @abstractmethod
    def tool_output(self, call_id, text: str) -> dict: ...

    @abstractmethod
    def without_tools(self, item: dict) -> dict | None: ...

    @abstractmethod
    def text(self, response) -> str: ...

    @abstractmethod
    def usage(self, response) -> CallUsage: ...


class Responses(Flavour):
    """The Responses API: instructions beside the history (`input`); output items go back as they came; a
    tool's result is a `function_call_output` item."""

    name, history_key, sends_instructions = "responses", "input", True

    def create(self, client, kwargs: dict, on_text=None):
        """Call the API; with on_text, streamed, each text delta going to on_text(delta).
        Example:
        >>> from helpers.offline import neutral_client
        >>> RESPONSES.create(neutral_client(), {"model": "offline-rules-v1", "input": "Hi"}).output_text
        "Hello! Ask me a question and I'll look it up."
        """
        if on_text is None:
            return client.responses.create(**kwargs)
        from helpers.apis.streaming import (
            stream_responses,  # here: helpers.cost reads usage without loading the SDK
        )

        return stream_responses(client, kwargs, on_text)

    def schemas(self, registry) -> list[dict]:
        """A helpers.tools.Tools registry's schemas. Example:
        >>> from helpers.tools import Tools
        >>> def search(query: str) -> list:
        ...     '''Search the notes.'''
        >>> RESPONSES.schemas(Tools(search))[0]["name"]
        'search'
        """
        return registry.responses_schemas()

    def function_tool(self, spec: dict) -> dict:
        """A function tool written in the Responses shape (`{"type": "function", "name": ...}`), as this API
        wants it: unchanged. Example:
        >>> RESPONSES.function_tool({"type": "function", "name": "f", "parameters": {}})
        {'type': 'function', 'name': 'f', 'parameters': {}}
        """
        return spec

    def output_items(self, response) -> list[dict]:
        """The model's output as the items that go back into the history. Example:
        >>> RESPONSES.output_items({"output": [{"type": "function_call", "call_id": "c1", "name": "f"}]})
        [{'type': 'function_call', 'call_id': 'c1', 'name': 'f'}]"""
        return [as_item(item) for item in lookup(response, "output", default=[])]

    def item_calls(self, item) -> list[Call]:
        """The function call a history item is, if it is one. Example:
        >>> RESPONSES.item_calls({"role": "user", "content": "Hi"})
        []"""
        if isinstance(item, dict) and item.get("type") == "function_call":
            return [Call(item.get("call_id"), item.get("name"), item.get("arguments"))]
        return []

    def item_output(self, item) -> tuple | None:
        """(call_id, output) of a tool's output item, else None. Example:
        >>> RESPONSES.item_output(RESPONSES.tool_output("c1", "[]"))
        ('c1', '[]')"""
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            return item.get("call_id"), item.get("output", "")
        return None

    def tool_output(self, call_id, text: str) -> dict:
        """The item that answers one function call. Example:
        >>> RESPONSES.tool_output("c1", "[]")
        {'type': 'function_call_output', 'call_id': 'c1', 'output': '[]'}"""
        return {"type": "function_call_output", "call_id": call_id, "output": text}

    def without_tools(self, item: dict) -> dict | None:
        """The item, or None if it is tool traffic (a call, an output, the reasoning behind a call). Example:
        >>> RESPONSES.without_tools({"type": "reasoning", "summary": []}) is None
        True"""
        return None if item.get("type") in ("function_call", "function_call_output", "reasoning") else item

    def text(self, response) -> str:
        """The output_text parts of the message items, joined (what the SDK's `output_text` is). Example:
        >>> RESPONSES.text({"output": [{"type": "message", "content": [{"type": "output_text", "text": "Hi"}]}]})
        'Hi'"""
        return "".join(lookup(part, "text", default="") for item in lookup(response, "output", default=[])
                       if lookup(item, "type") == "message" for part in lookup(item, "content", default=[])
                       if lookup(part, "type") == "output_text")

    def usage(self, response) -> CallUsage:
        """Token counts and status of a Response. Example:
        >>> RESPONSES.usage({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}).finish
        'incomplete (max_output_tokens)'"""
        usage = lookup(response, "usage", default={})
        finish, reason = lookup(response, "status"), lookup(response, "incomplete_details", "reason")
        if finish == "incomplete" and reason:
            finish = f"incomplete ({reason})"
        return _usage(self.name, usage, lookup(usage, "input_tokens"),
                      lookup(usage, "input_tokens_details", "cached_tokens"), lookup(usage, "output_tokens"),
                      lookup(usage, "output_tokens_details", "reasoning_tokens"), finish)


class Chat(Flavour):
    """Chat Completions: the instructions are the history's system message; the assistant message goes back
    with its tool_calls; a tool's result is a `role: tool` message."""

    name, history_key, sends_instructions = "chat", "messages", False

    def create(self, client, kwargs: dict, on_text=None):
        """Call the API; with on_text, streamed, each text delta going to on_text(delta).
        Example:
        >>> from helpers.offline import neutral_client
        >>> CHAT.create(neutral_client(), {"model": "offline-rules-v1",
        ...             "messages": [{"role": "user", "content": "Hi"}]}).choices[0].message.content
        "Hello! Ask me a question and I'll look it up."
        """
        if on_text is None:
            return client.chat.completions.create(**kwargs)
        from helpers.apis.streaming import (
            stream_chat,  # here: helpers.cost reads usage without loading the SDK
        )

        return stream_chat(client, kwargs, on_text)

    def schemas(self, registry) -> list[dict]:
        """A helpers.tools.Tools registry's schemas. Example:
        >>> from helpers.tools import Tools
        >>> def search(query: str) -> list:
        ...     '''Search the notes.'''
        >>> CHAT.schemas(Tools(search))[0]["type"]
        'function'
        """
        return registry.chat_schemas()

    def function_tool(self, spec: dict) -> dict:
        """A function tool written in the Responses shape, as Chat Completions wants it: the same fields
        nested under "function". Example:
        >>> CHAT.function_tool({"type": "function", "name": "f", "parameters": {}})
        {'type': 'function', 'function': {'name': 'f', 'parameters': {}}}
        """
        return {"type": "function", "function": {k: v for k, v in spec.items() if k != "type"}}

    def output_items(self, response) -> list[dict]:
        """The assistant message, the one item that goes back into the history. Example:
        >>> CHAT.output_items({"choices": [{"message": {"role": "assistant", "content": "Hi"}}]})
        [{'role': 'assistant', 'content': 'Hi'}]"""
        message = lookup(response, "choices", 0, "message", default={})
        # The assistant message goes back with its tool_calls intact: each tool result must answer one.
        kept = {"role": "assistant", "content": lookup(message, "content")}
        if lookup(message, "tool_calls"):
            kept["tool_calls"] = [as_item(call) for call in lookup(message, "tool_calls")]
        # So do the fields a provider adds beyond the standard message (the SDK keeps them as extras):
        # DeepSeek's thinking mode answers 400 when a tool-calling message comes back without its
        # reasoning_content. Providers that don't want a field back ignore it.
        extras = getattr(message, "model_extra", None) or {}
        kept.update({key: value for key, value in extras.items() if value is not None})
        return [kept]

    def item_calls(self, item) -> list[Call]:
        """The tool calls of an assistant message. Example:
        >>> CHAT.item_calls({"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "f"}}]})
        [Call(id='c1', name='f', arguments=None)]"""
        if not isinstance(item, dict):
            return []
        functions = [(c.get("id"), c.get("function") or {}) for c in item.get("tool_calls") or []]
        return [Call(call_id, f.get("name"), f.get("arguments")) for call_id, f in functions]

    def item_output(self, item) -> tuple | None:
        """(tool_call_id, content) of a tool message, else None. Example:
        >>> CHAT.item_output(CHAT.tool_output("c1", "[]"))
        ('c1', '[]')"""
        if isinstance(item, dict) and item.get("role") == "tool":
            return item.get("tool_call_id"), item.get("content", "")
        return None

    def tool_output(self, call_id, text: str) -> dict:
        """The message that answers one tool call. Example:
        >>> CHAT.tool_output("c1", "[]")
        {'role': 'tool', 'tool_call_id': 'c1', 'content': '[]'}"""
        return {"role": "tool", "tool_call_id": call_id, "content": text}

    def without_tools(self, item: dict) -> dict | None:
        """The item without tool traffic; None for a tool message or a message that only called tools. Example:
        >>> CHAT.without_tools({"role": "assistant", "content": "Yes.", "tool_calls": [{"id": "c1"}]})
        {'role': 'assistant', 'content': 'Yes.'}"""
        if item.get("role") == "tool":
            return None
        if item.get("role") == "assistant" and item.get("tool_calls"):
            if not item.get("content"):
                return None  # an assistant turn that only called tools
            return {k: v for k, v in item.items() if k != "tool_calls"}
        return item

    def text(self, response) -> str:
        """The assistant message's content. Example:
        >>> CHAT.text({"choices": [{"message": {"content": "Hi"}}]})
        'Hi'"""
        return lookup(response, "choices", 0, "message", "content", default="")

    def usage(self, response) -> CallUsage:
        """Token counts and finish_reason of a ChatCompletion. Example:
        >>> CHAT.usage({"usage": {"prompt_tokens": 900, "prompt_cache_hit_tokens": 300}}).cached_input_tokens
        300"""
        usage = lookup(response, "usage", default={})
        cached = lookup(usage, "prompt_tokens_details", "cached_tokens")
        cached = cached or lookup(usage, "prompt_cache_hit_tokens")  # DeepSeek's own field for cache hits
        reasoning = lookup(usage, "completion_tokens_details", "reasoning_tokens")
        return _usage(self.name, usage, lookup(usage, "prompt_tokens"), cached, lookup(usage, "completion_tokens"),
                      reasoning, lookup(response, "choices", 0, "finish_reason"))


RESPONSES, CHAT = Responses(), Chat()
FLAVOURS = {flavour.name: flavour for flavour in (RESPONSES, CHAT)}


def flavour_of(api: str) -> Flavour:
    """The flavour named api, "responses" or "chat". Example:
    >>> flavour_of("chat").history_key
    'messages'"""
    if api not in FLAVOURS:
        raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
    return FLAVOURS[api]


def flavour_of_response(response) -> Flavour:
    """The flavour of a response, SDK object or dict: a ChatCompletion has choices. Example:
    >>> flavour_of_response({"choices": []}).name
    'chat'"""
    chat = lookup(response, "choices") is not None or lookup(response, "usage", "prompt_tokens") is not None
    return CHAT if chat else RESPONSES


def flavour_of_request(request: dict) -> Flavour:
    """The flavour of a create() call's keyword arguments. Example:
    >>> flavour_of_request({"model": "m", "input": "Hi"}).name
    'responses'"""
    return CHAT if CHAT.history_key in request else RESPONSES


def usage_of(response) -> CallUsage:
    """What a call used, from a response of either flavour: the one place usage is read. Example:
    >>> usage_of({"usage": {"input_tokens": 7, "output_tokens": 3}, "status": "completed"}).finish
    'completed'"""
    return flavour_of_response(response).usage(response)


def lookup(obj, *path, default=None):
    """Walk attributes or dict keys (an int indexes a list); missing or None anywhere gives default. Example:
    >>> lookup({"usage": {"input_tokens": 5}}, "usage", "input_tokens"), lookup({}, "usage", "x", default=0)
    (5, 0)"""
    for key in path:
        if obj is None:
            return default
        if isinstance(obj, dict):
            obj = obj.get(key)
        elif isinstance(key, int):
            try:
                obj = obj[key]
            except (IndexError, TypeError, KeyError):
                return default
        else:
            obj = getattr(obj, key, None)
    return default if obj is None else obj


def as_item(obj) -> dict:
    """An SDK object as the plain dict that can be sent back as input (and written to a trace). Example:
    >>> as_item({"role": "user", "content": "Hi"})
    {'role': 'user', 'content': 'Hi'}"""
    return obj.model_dump(mode="json", exclude_none=True) if hasattr(obj, "model_dump") else dict(obj)


def role_of(item) -> str | None:
    """The role of a history item, dict or SDK object. Example:
    >>> role_of({"role": "system", "content": "Be brief."})
    'system'"""
    return item.get("role") if isinstance(item, dict) else getattr(item, "role", None)


def _usage(api: str, usage, inp, cached, out, reasoning, finish) -> CallUsage:
    input_tokens, output_tokens = _count(inp), _count(out)
    return CallUsage(api, input_tokens, _count(cached), output_tokens, _count(reasoning),
                     _count(lookup(usage, "total_tokens")) or input_tokens + output_tokens,
                     None if finish is None else str(finish), reported=inp is not None or out is not None)


def _count(value) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
