"""The shape of a request, checked before anything else reads it: the offline model's input gate.

- `load_request(body)` (in body.py) first reads the raw bytes as a JSON object, or answers 400.
- `check_responses(request)` and `check_chat(request)` check every field the offline model reads or
  echoes back, following the official OpenAPI request schemas (CreateResponse,
  CreateChatCompletionRequest). A wrong shape gets a 400 in OpenAI's error format that names the
  field by its path and says what was expected, e.g. "Invalid type for 'messages[2].tool_calls[0]':
  expected an object, but got a string instead." (param "messages[2].tool_calls[0]").

So the engine only ever sees well-formed data: no AttributeError or TypeError can reach a caller.

Why hand-written and not a generic JSON-Schema validator: the official request schemas are unions of
dozens of shapes (seven kinds of message, forty kinds of input item). A generic validator's error for
one bad message lists why it fails every member of the union, and names no single field. Here each
union is first narrowed by its discriminator (a message's `role`, an item's `type`), so the error names
the one field at fault, in the words the real API uses. Nor pydantic's TypeAdapter over the openai SDK's
request TypedDicts (tried with openai 3.57, pydantic 2.14): Chat's `messages` and `tool_calls` are typed
`Iterable[...]`, which pydantic validates lazily, so `{"role": 1}` or a `tool_calls` item that is a string
passes; and one bad `input[0].content` gives 110 errors, one per member of the 33-item union.

Why one module of about 450 lines: both APIs' gates stand on the same elementary checks (types, texts,
tools, tool_choice, output formats); split by API, each half would import the other's.

What it leaves out on purpose: fields the offline model neither reads nor echoes are checked for their
JSON type only (the `_IGNORED_*` tables); unknown fields are accepted, so parameters added by a newer
SDK still work; limits that matter only to a real model (string lengths, how many tools) are not
checked. Features the offline model lacks (built-in tools) are refused later, in wire.py, with their
own messages; so is a response-format schema it can't fill (structured.py). What ties a request to
stored state (`previous_response_id`, `conversation`, `truncation`) is checked in stored.py.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.offline.api.body import shown
from helpers.offline.api.errors import ApiError

TEXT_PARTS = ("text", "input_text", "output_text")  # content parts whose `text` the model reads
RESPONSES_ROLES = ("user", "assistant", "system", "developer")
CHAT_ROLES = ("system", "developer", "user", "assistant", "tool")
TOOL_CHOICES = ("none", "auto", "required")


# ---------------------------------------------------------------------------------------------------
# Elementary checks. `at` is a field's path as a string, e.g. "input[0].content".
# A value from the request body is typed Any, not object: _expect checks its JSON kind at run time, before it
# is read, and raises otherwise; a type checker cannot follow a check that raises instead of returning a bool.

# A parsed JSON value is exactly one of these types (never a subclass): its kind is a lookup.
_NAMES = {type(None): "null", bool: "a boolean", int: "an integer", float: "a decimal number", str: "a string",
          list: "an array", dict: "an object"}
_KINDS = {"string": (str, "a string"), "boolean": (bool, "a boolean"), "integer": (int, "an integer"),
          "number": ((int, float), "a number"), "object": (dict, "an object"), "array": (list, "an array")}


def _kind(value: object) -> str:
    return _NAMES.get(type(value), "an object")


def _expect(value: object, at: str, *kinds: str, nullable: bool = False) -> None:
    """Raise "Invalid type for '<at>'" unless the value has one of the JSON kinds (or is null, if allowed)."""
    if (nullable and value is None) or any(  # a boolean is an int to Python, never a number to JSON
            isinstance(value, _KINDS[k][0]) and (k == "boolean" or not isinstance(value, bool)) for k in kinds):
        return
    names = [_KINDS[k][1] for k in kinds]
    expected = names[0] if len(names) == 1 else "one of " + ", ".join(names[:-1]) + " or " + names[-1]
    raise ApiError(400, f"Invalid type for '{at}': expected {expected}, but got {_kind(value)} instead.",
                   param=at, code="invalid_type")


def _required(container: dict, key: str, at: str, *kinds: str) -> Any:
    """The value of a required field (null counts as missing), of one of the JSON `kinds` if any are given."""
    if container.get(key) is None:
        raise ApiError(400, f"Missing required parameter: '{at}'.", param=at, code="missing_required_parameter")
    if kinds:
        _expect(container[key], at, *kinds)
    return container[key]


def _text(container: dict, key: str, at: str, required: bool = False, non_empty: bool = False) -> None:
    value = _required(container, key, at) if required else container.get(key)
    _expect(value, at, "string", nullable=not required)
    if non_empty and value == "":
        raise ApiError(400, f"Invalid '{at}': empty string. Expected a string with at least 1 character.",
                       param=at, code="empty_string")


def _in_range(value: Any, at: str, low: float, high: float) -> None:
    _expect(value, at, "number", nullable=True)
    if value is not None and not low <= value <= high:
        raise ApiError(400, f"Invalid '{at}': expected a value between {low} and {high}, but got {shown(value)} "
                            f"instead.", param=at, code="invalid_value")


def _count(value: Any, at: str, low: int) -> None:
    _expect(value, at, "integer", nullable=True)
    if value is not None and value < low:
        raise ApiError(400, f"Invalid '{at}': integer below minimum value. Expected a value >= {low}, but got "
                            f"{shown(value)} instead.", param=at, code="integer_below_min_value")


def _typed(request: dict, table: list[tuple[str, str]]) -> None:
    """Type the fields of a table of (JSON kinds, field names), in its order."""
    for kinds, keys in table:
        for key in keys.split():
            if key in request:
                _expect(request[key], key, *kinds.split(), nullable=True)


# ---------------------------------------------------------------------------------------------------
# Parts shared by both APIs

def _content(value: Any, at: str, required: bool = True) -> None:
    """A message's content: a string, or an array of parts, each an object with a string `type`."""
    if value is None and not required:
        return
    _expect(value, at, "string", "array")
    if isinstance(value, list):
        for i, part in enumerate(value):
            _part(part, f"{at}[{i}]")


def _part(part: Any, at: str) -> None:
    _expect(part, at, "object")
    kind = _required(part, "type", f"{at}.type", "string")
    if kind in TEXT_PARTS:
        _text(part, "text", f"{at}.text", required=True)
    elif kind == "refusal":
        _text(part, "refusal", f"{at}.refusal", required=True)


def _metadata(value: Any) -> None:
    _expect(value, "metadata", "object", nullable=True)
    for key, text in (value or {}).items():
        _expect(text, f"metadata.{key}", "string")


def _parameters(value: Any, at: str, function: str) -> None:
    """A function's JSON-Schema parameters, as far as the offline model reads them: an object schema whose
    `properties` map names to schemas (with `type`, `enum`, `anyOf`, `description`) and whose `required`
    lists names."""
    _expect(value, at, "object", nullable=True)
    if value is None:
        return

    def bad(field: str, message: str) -> ApiError:
        return ApiError(400, f"Invalid schema for function {shown(function)}: '{field}' {message}", param=field,
                        code="invalid_function_parameters")

    if value.get("type") not in (None, "object"):
        raise bad(f"{at}.type", f"must be \"object\" (the arguments are an object), but it is {shown(value['type'])}.")
    props = value.get("properties")
    if props is not None and not isinstance(props, dict):
        raise bad(f"{at}.properties", f"must be an object mapping each parameter name to its schema, but it is "
                                      f"{_kind(props)}.")
    for name, schema in (props or {}).items():
        field = f"{at}.properties.{name}"
        if not isinstance(schema, dict):
            raise bad(field, f"must be an object (the JSON Schema of parameter '{name}', like "
                             f"{{\"type\": \"string\"}}), but it is {_kind(schema)}.")
        kind = schema.get("type")
        if kind is not None and not isinstance(kind, str) and not (
                isinstance(kind, list) and all(isinstance(k, str) for k in kind)):
            raise bad(f"{field}.type", f"must be a type name like \"string\", or an array of them, but it is "
                                       f"{_kind(kind)}.")
        for key, expected in (("enum", "an array of values"), ("anyOf", "an array of schemas")):
            if key in schema and not isinstance(schema[key], list):
                raise bad(f"{field}.{key}", f"must be {expected}, but it is {_kind(schema[key])}.")
        for i, option in enumerate(schema.get("anyOf") or []):
            if not isinstance(option, dict):
                raise bad(f"{field}.anyOf[{i}]", f"must be an object (a schema), but it is {_kind(option)}.")
        if not isinstance(schema.get("description", ""), str):
            raise bad(f"{field}.description", f"must be a string, but it is {_kind(schema['description'])}.")
    required = value.get("required")
    if required is not None and not (isinstance(required, list) and all(isinstance(r, str) for r in required)):
        raise bad(f"{at}.required", "must be an array of parameter names (strings).")


def _function_fields(spec: dict, at: str) -> None:
    """name, description, parameters and strict of a function tool (`at` is where they live)."""
    _text(spec, "name", f"{at}.name", required=True, non_empty=True)
    _text(spec, "description", f"{at}.description")
    _parameters(spec.get("parameters"), f"{at}.parameters", spec["name"])
    _expect(spec.get("strict"), f"{at}.strict", "boolean", nullable=True)


def _tools(value: Any, check_one) -> None:
    _expect(value, "tools", "array", nullable=True)
    for i, tool in enumerate(value or []):
        _expect(tool, f"tools[{i}]", "object")
        kind = _required(tool, "type", f"tools[{i}].type", "string")
        if kind == "function":
            check_one(tool, f"tools[{i}]")
        # other types (web_search, custom, ...) are refused in wire.py, which names what is supported


def _tool_choice(value: Any, named) -> None:
    """tool_choice: null, "none" / "auto" / "required", or an object with a string `type`; `named` checks
    a {"type": "function", ...} object."""
    _expect(value, "tool_choice", "string", "object", nullable=True)
    if isinstance(value, str):
        if value not in TOOL_CHOICES:
            raise ApiError(400, f"Invalid value for 'tool_choice': {shown(value)}. Use 'auto', 'none', 'required' or a "
                                f"specific function.", param="tool_choice", code="invalid_value")
    elif isinstance(value, dict):
        kind = _required(value, "type", "tool_choice.type", "string")
        if kind == "allowed_tools":
            _allowed_tools(value, named)
            return
        if kind != "function":
            raise ApiError(400, f"The offline model supports tool_choice 'auto', 'none', 'required', one "
                                f"function or 'allowed_tools', not tool_choice of type {shown(kind)}.",
                           param="tool_choice.type", code="unsupported_value")
        named(value)


def _allowed_tools(value: dict, named) -> None:
    """{"type": "allowed_tools", "mode": "auto" | "required", "tools": [...]} (Chat nests mode and tools
    in an "allowed_tools" object); each tool is a function named the API's way, checked by `named` at its place."""
    nested = named is _chat_named_choice
    at = "tool_choice.allowed_tools" if nested else "tool_choice"
    spec = _required(value, "allowed_tools", at) if nested else value
    _expect(spec, at, "object")
    mode = _required(spec, "mode", f"{at}.mode")
    if mode not in ("auto", "required"):
        raise ApiError(400, f"Invalid value for '{at}.mode': {shown(mode)}. Use 'auto' or 'required'.",
                       param=f"{at}.mode", code="invalid_value")
    tools = _required(spec, "tools", f"{at}.tools", "array")
    for i, tool in enumerate(tools):
        _expect(tool, f"{at}.tools[{i}]", "object")
        if tool.get("type") != "function":
            raise ApiError(400, f"The offline model allows only function tools; '{at}.tools[{i}].type' is "
                                f"{shown(tool.get('type'))}.", param=f"{at}.tools[{i}].type", code="unsupported_value")
        named(tool, f"{at}.tools[{i}]")


_FORMAT_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _output_format(value: Any, at: str, nested: bool) -> None:
    """A response format: {"type": "text"}, {"type": "json_object"} or {"type": "json_schema", ...} with a
    name (letters, digits, _ and -, at most 64) and a schema object; Chat nests name and schema in a
    "json_schema" object (`nested`)."""
    _expect(value, at, "object", nullable=True)
    if value is None:
        return
    kind = _required(value, "type", f"{at}.type")
    if kind not in ("text", "json_object", "json_schema"):
        raise ApiError(400, f"Invalid value for '{at}.type': {shown(kind)}. Supported values are: 'text', "
                            f"'json_object' and 'json_schema'.", param=f"{at}.type", code="invalid_value")
    if kind != "json_schema":
        return
    spec = value
    if nested:
        spec = _required(value, "json_schema", f"{at}.json_schema", "object")
        at = f"{at}.json_schema"
    name = _required(spec, "name", f"{at}.name", "string")
    if not _FORMAT_NAME.match(name):
        raise ApiError(400, f"Invalid '{at}.name': {shown(name)}. Use letters, digits, underscores and dashes, "
                            f"at most 64 characters.", param=f"{at}.name", code="invalid_value")
    schema = spec.get("schema") if nested else _required(spec, "schema", f"{at}.schema")
    _expect(schema, f"{at}.schema", "object", nullable=nested)
    _text(spec, "description", f"{at}.description")
    _expect(spec.get("strict"), f"{at}.strict", "boolean", nullable=True)


# ---------------------------------------------------------------------------------------------------
# Responses API (POST /v1/responses)

# Read nowhere, echoed nowhere: typed only, as in CreateResponse.
_IGNORED_RESPONSES = [
    ("boolean", "store background"),
    ("string", "user safety_identifier prompt_cache_key prompt_cache_retention service_tier truncation"),
    ("integer", "top_logprobs max_tool_calls"),
    ("object", "reasoning prompt stream_options prompt_cache_options moderation"),
    ("array", "include context_management"), ("string object", "conversation")]


def check_responses(request: dict) -> None:
    """Check a /v1/responses body field by field; raise ApiError 400 naming the first bad field.

    Example:
        >>> check_responses({"model": "m", "input": "Hi"})  # a good body: nothing to say
        >>> check_responses({"model": "m", "input": [{"role": "user", "content": 5}]})
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Invalid type for 'input[0].content': expected one of a string or an
        array, but got an integer instead.
    """
    _text(request, "model", "model", required=True, non_empty=True)
    raw_input = _required(request, "input", "input", "string", "array")
    for i, item in enumerate(raw_input if isinstance(raw_input, list) else []):
        _responses_item(item, f"input[{i}]")
    _text(request, "instructions", "instructions")
    _tools(request.get("tools"), _responses_tool)
    _tool_choice(request.get("tool_choice"), _responses_named_choice)
    _common(request)
    _count(request.get("max_output_tokens"), "max_output_tokens", 16)
    _text(request, "previous_response_id", "previous_response_id")
    _expect(request.get("text"), "text", "object", nullable=True)
    _output_format((request.get("text") or {}).get("format"), "text.format", nested=False)
    _text(request.get("text") or {}, "verbosity", "text.verbosity")
    _typed(request, _IGNORED_RESPONSES)


MAX_CONVERSATION_ITEMS = 20  # items per request to the Conversations API, as on OpenAI


def check_conversation_body(request: dict, items_required: bool = False, metadata_required: bool = False) -> None:
    """Check a Conversations API body: `items` (input items, at most 20) and `metadata`; ApiError 400 naming
    the first bad field.

    Example:
        >>> check_conversation_body({"items": [{"role": "user", "content": "Hi"}] * 21})
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Invalid 'items': array too long. Expected an array with maximum length
        20, but got an array with length 21 instead.
    """
    items = _required(request, "items", "items") if items_required else request.get("items")
    _expect(items, "items", "array", nullable=not items_required)
    if items is not None and len(items) > MAX_CONVERSATION_ITEMS:
        raise ApiError(400, f"Invalid 'items': array too long. Expected an array with maximum length "
                            f"{MAX_CONVERSATION_ITEMS}, but got an array with length {len(items)} instead.",
                       param="items", code="array_above_max_length")
    for i, item in enumerate(items or []):
        _responses_item(item, f"items[{i}]")
    _metadata(_required(request, "metadata", "metadata") if metadata_required else request.get("metadata"))


def _responses_item(item: Any, at: str) -> None:
    _expect(item, at, "object")
    kind = item.get("type")
    _expect(kind, f"{at}.type", "string", nullable=True)
    _text(item, "id", f"{at}.id")  # any item's id, a reasoning item's too: stored items are found by it
    if not kind and "role" not in item:
        raise ApiError(400, f"Missing required parameter: '{at}.type'. An input item is a message (with a "
                            f"'role'), a 'function_call' or a 'function_call_output'.", param=f"{at}.type",
                       code="missing_required_parameter")
    if not kind or kind == "message":
        role = _required(item, "role", f"{at}.role", "string")
        if role not in RESPONSES_ROLES:
            raise ApiError(400, f"Invalid value for '{at}.role': {shown(role)}. Use user, assistant, system or "
                                f"developer.", param=f"{at}.role", code="invalid_value")
        _content(_required(item, "content", f"{at}.content"), f"{at}.content")
    elif kind == "function_call":
        for key in ("call_id", "name", "arguments"):
            _text(item, key, f"{at}.{key}", required=True)
        _text(item, "status", f"{at}.status")
    elif kind == "function_call_output":
        _text(item, "call_id", f"{at}.call_id", required=True)
        output = _required(item, "output", f"{at}.output", "string", "array")
        _content(output, f"{at}.output")
    # "reasoning" items are skipped by the model; other types are refused in wire.py


def _responses_tool(tool: dict, at: str) -> None:
    if "function" in tool and "name" not in tool:
        raise ApiError(400, f"{at} is in the Chat Completions shape ({{'type': 'function', 'function': {{...}}}}). "
                            f"The Responses API wants name, description and parameters at the top level: "
                            f"{{'type': 'function', 'name': ..., 'parameters': ...}}.", param=f"{at}.name",
                       code="missing_required_parameter")
    _function_fields(tool, at)


def _responses_named_choice(choice: dict, at: str = "tool_choice") -> None:
    if "function" in choice and "name" not in choice:
        raise ApiError(400, f"{at} is in the Chat Completions shape. The Responses API wants "
                            "{'type': 'function', 'name': ...}.", param=f"{at}.name",
                       code="missing_required_parameter")
    _text(choice, "name", f"{at}.name", required=True, non_empty=True)


# ---------------------------------------------------------------------------------------------------
# Chat Completions API (POST /v1/chat/completions)

_IGNORED_CHAT = [
    ("boolean", "store logprobs"),
    ("string", "user safety_identifier prompt_cache_key prompt_cache_retention service_tier verbosity "
               "reasoning_effort"),
    ("integer", "top_logprobs seed"), ("array", "modalities"), ("string array", "stop"),
    ("object", "logit_bias web_search_options audio prediction stream_options prompt_cache_options moderation"),
    ("string object", "function_call"), ("array", "functions")]


def check_chat(request: dict) -> None:
    """Check a /v1/chat/completions body field by field; raise ApiError 400 naming the first bad field.

    Example:
        >>> check_chat({"model": "m", "messages": [{"role": "assistant", "tool_calls": ["x"]}]})
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Invalid type for 'messages[0].tool_calls[0]': expected an object, but
        got a string instead.
    """
    _text(request, "model", "model", required=True, non_empty=True)
    messages = _required(request, "messages", "messages", "array")
    for i, message in enumerate(messages):
        _chat_message(message, f"messages[{i}]")
    _tools(request.get("tools"), _chat_tool)
    _tool_choice(request.get("tool_choice"), _chat_named_choice)
    _common(request)
    for name in ("n", "max_tokens", "max_completion_tokens"):
        _count(request.get(name), name, 1)
    for name in ("frequency_penalty", "presence_penalty"):
        _in_range(request.get(name), name, -2, 2)
    _output_format(request.get("response_format"), "response_format", nested=True)
    _typed(request, _IGNORED_CHAT)


def _chat_message(message: Any, at: str) -> None:
    _expect(message, at, "object")
    role = _required(message, "role", f"{at}.role", "string")
    if role not in CHAT_ROLES:
        raise ApiError(400, f"Invalid value: {shown(role)}. Supported values are: 'system', 'assistant', 'user', "
                            f"'tool', and 'developer'.", param=f"{at}.role", code="invalid_value")
    _text(message, "name", f"{at}.name")
    _content(message.get("content") if role == "assistant" else _required(message, "content", f"{at}.content"),
             f"{at}.content", required=role != "assistant")
    if role == "tool":
        _text(message, "tool_call_id", f"{at}.tool_call_id", required=True)
    if role != "assistant":
        return
    _text(message, "refusal", f"{at}.refusal")
    _expect(message.get("function_call"), f"{at}.function_call", "object", nullable=True)
    _expect(message.get("audio"), f"{at}.audio", "object", nullable=True)
    tool_calls = message.get("tool_calls")
    _expect(tool_calls, f"{at}.tool_calls", "array", nullable=True)
    for i, call in enumerate(tool_calls or []):
        here = f"{at}.tool_calls[{i}]"
        _expect(call, here, "object")
        _text(call, "id", f"{here}.id", required=True)
        kind = _required(call, "type", f"{here}.type", "string")
        if kind != "function":
            raise ApiError(400, f"The offline model supports only tool calls of type 'function'; {here} has type "
                                f"{shown(kind)}.", param=f"{here}.type", code="unsupported_value")
        function = _required(call, "function", f"{here}.function", "object")
        _text(function, "name", f"{here}.function.name", required=True)
        _text(function, "arguments", f"{here}.function.arguments", required=True)


def _chat_tool(tool: dict, at: str) -> None:
    if "name" in tool and "function" not in tool:
        raise ApiError(400, f"{at} is in the Responses shape (name and parameters at the top level). Chat "
                            f"Completions tools look like {{'type': 'function', 'function': {{'name': ..., "
                            f"'parameters': ...}}}}.", param=f"{at}.function", code="missing_required_parameter")
    function = _required(tool, "function", f"{at}.function", "object")
    _function_fields(function, f"{at}.function")


def _chat_named_choice(choice: dict, at: str = "tool_choice") -> None:
    if "name" in choice and "function" not in choice:
        raise ApiError(400, f"{at} is in the Responses shape. Chat Completions wants {{'type': 'function', "
                            "'function': {'name': ...}}.", param=f"{at}.function",
                       code="missing_required_parameter")
    function = _required(choice, "function", f"{at}.function", "object")
    _text(function, "name", f"{at}.function.name", required=True, non_empty=True)


# ---------------------------------------------------------------------------------------------------
# Both

def _common(request: dict) -> None:
    _expect(request.get("stream"), "stream", "boolean", nullable=True)
    options = request.get("stream_options")
    if isinstance(options, dict):  # the object itself is typed by the _IGNORED_* tables
        for name in ("include_usage", "include_obfuscation"):
            _expect(options.get(name), f"stream_options.{name}", "boolean", nullable=True)
    _expect(request.get("parallel_tool_calls"), "parallel_tool_calls", "boolean", nullable=True)
    _in_range(request.get("temperature"), "temperature", 0, 2)
    _in_range(request.get("top_p"), "top_p", 0, 1)
    _metadata(request.get("metadata"))
