"""Run the tools a model asks for (lesson 04): one function call in, one output item out.

What it does:
- `make_call` turns one Responses API `function_call` item into the `function_call_output` item that answers
  it; `make_chat_call` does the same for a Chat Completions `tool_call`. Both parse the JSON arguments, find
  the function by name, run it and serialize the result (`serialize`).
- Nothing the model sends can crash the loop: an unknown tool, broken JSON, wrong arguments or a tool that
  raises all come back as a small JSON error payload ({"error": ..., "hint": ...}) the model can read and
  react to on its next turn.
- `preview` folds a tool's arguments or output into one line for printing.

The schema half, lesson 09's `@tool` decorator and `Tools` registry, lives in helpers.tools.registry, which
builds on this module; helpers.tools (the package) exports both halves, as the lessons import them.
`signature_text` and `json_default` are public because the registry words its errors and defaults with them.

Deliberately left out: async tools, parallel execution, timeouts and retries inside a tool, output
truncation, and permission prompts for tools that write. Each is a few lines once the loop is clear, and
each would hide the loop this course is about.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import inspect
import json
import typing
from collections.abc import Callable

import pydantic

# ---------------------------------------------------------------------------------------------------------
# Dispatch: one function call in, one output item out.


def make_call(call, tools) -> dict:
    """Run one Responses API function call and return the item that answers it.

    `call` is a `function_call` output item (SDK object or dict); `tools` maps names to functions (a dict or
    a `Tools` registry). Never raises for anything the model sent: failures become an error payload.
    Example:
        >>> def lookup(query: str) -> list:
        ...     return [{"id": "a1", "answer": "Yes."}]
        >>> make_call({"type": "function_call", "name": "lookup", "arguments": '{"query": "join"}', "call_id": "call_1"},
        ...           {"lookup": lookup})
        {'type': 'function_call_output', 'call_id': 'call_1', 'output': '[{"id":"a1","answer":"Yes."}]'}
    """
    kind = _get(call, "type", "function_call")
    if kind != "function_call":
        raise ValueError(f"make_call got a {kind!r} item; pass only items whose type is 'function_call'.")
    output = run_tool(_get(call, "name"), _get(call, "arguments"), tools)
    # The call_id ties this output to the request; the API rejects an output whose id it never issued.
    return {"type": "function_call_output", "call_id": _get(call, "call_id"), "output": output}


def make_chat_call(tool_call, tools) -> dict:
    """Run one Chat Completions tool call and return the `role: tool` message that answers it.

    Example:
        >>> def lookup(query: str) -> list:
        ...     return [{"id": "a1", "answer": "Yes."}]
        >>> make_chat_call({"id": "call_1", "function": {"name": "lookup", "arguments": '{"query": "join"}'}},
        ...                {"lookup": lookup})
        {'role': 'tool', 'tool_call_id': 'call_1', 'content': '[{"id":"a1","answer":"Yes."}]'}
    """
    function = _get(tool_call, "function")
    output = run_tool(_get(function, "name"), _get(function, "arguments"), tools)
    return {"role": "tool", "tool_call_id": _get(tool_call, "id"), "content": output}


def run_tool(name: str, arguments, tools) -> str:
    """Look up `name`, check `arguments` (a JSON string) and run the tool; return its output as text.

    This is the one place both API flavours go through. Every failure becomes an error payload string.
    Example:
        >>> def lookup(query: str) -> list:
        ...     return [{"id": "a1", "answer": "Yes."}]
        >>> run_tool("lookup", '{"query": "join"}', {"lookup": lookup})
        '[{"id":"a1","answer":"Yes."}]'
        >>> print(run_tool("serch", '{"query": "join"}', {"lookup": lookup}))
        {"error":"unknown tool 'serch'","hint":"Call one of the available tools: lookup."}
    """
    try:
        fn = _lookup(name, tools)
        kwargs = _check_arguments(name, fn, _parse_arguments(name, fn, arguments))
    except ToolError as e:
        return e.payload()
    try:
        return serialize(fn(**kwargs))
    except Exception as e:  # noqa: BLE001 -- a broken tool is news for the model, not a reason to stop the loop
        return ToolError(f"tool {name!r} failed: {type(e).__name__}: {e}", "Check the arguments and try again "
                         "with different values; if it keeps failing, answer without it.").payload()


def serialize(result, fields: list[str] | None = None, indent: int | None = None) -> str:
    """Turn a tool's return value into the text sent back to the model.

    Strings pass through unchanged; everything else becomes compact JSON (no spaces, non-ASCII kept, which
    saves tokens). `fields` keeps only those keys of each dict, in a dict or a list of dicts.
    Example:
        >>> serialize([{"id": 1, "answer": "Yes", "section": "x"}], fields=["answer"])
        '[{"answer":"Yes"}]'
    """
    if isinstance(result, str):
        return result
    if fields is not None:
        result = _keep_fields(result, set(fields))
    separators = None if indent is not None else (",", ":")
    return json.dumps(result, ensure_ascii=False, indent=indent, separators=separators, default=json_default)


def preview(text, limit: int = 80) -> str:
    """A one-line preview of a tool's arguments or output (or any text): whitespace folded, cut at `limit`.

    Example:
        >>> preview('[{"question": "Can I join?", ...}]', 20)
        '[{"question": "Can …'
    """
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolError(Exception):
    """Something the model got wrong when calling a tool: what happened, and what to do instead.

    Example:
        >>> ToolError("unknown tool serch", "Call one of: search.").payload()
        '{"error":"unknown tool serch","hint":"Call one of: search."}'
    """

    def __init__(self, error: str, hint: str):
        super().__init__(error)
        self.error, self.hint = error, hint

    def payload(self) -> str:
        """The error as the JSON text the model reads.

        Example:
            >>> ToolError("x", "y").payload()
            '{"error":"x","hint":"y"}'
        """
        return serialize({"error": self.error, "hint": self.hint})


def _get(obj, key: str, default=...):
    # SDK objects use attributes, hand-built items use dict keys; accept both.
    if isinstance(obj, dict):
        return obj[key] if default is ... else obj.get(key, default)
    return getattr(obj, key) if default is ... else getattr(obj, key, default)


def _lookup(name: str, tools) -> Callable:
    if name in tools:
        return tools[name]
    available = ", ".join(tools) or "(none: answer without calling a tool)"
    raise ToolError(f"unknown tool {name!r}", f"Call one of the available tools: {available}.")


def _parse_arguments(name: str, fn: Callable, arguments) -> dict:
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}  # some providers send "" for a call without arguments
    if isinstance(arguments, dict):
        return arguments
    try:
        parsed = json.loads(arguments)
        problem = "" if isinstance(parsed, dict) else f"must be a JSON object, got {type(parsed).__name__}"
    except (json.JSONDecodeError, TypeError) as e:
        parsed, problem = {}, f"are not valid JSON ({e})"
    if problem:  # one hint for both problems, worded only when there is one
        raise ToolError(f"arguments for {name!r} {problem}",
                        f"Call {name} again with one JSON object of arguments for {signature_text(name, fn)}.")
    return parsed


def _check_arguments(name: str, fn: Callable, kwargs: dict) -> dict:
    if isinstance(fn, SelfCheckingTool):
        return fn.validate(kwargs)  # registry tools: full type checking through pydantic
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return kwargs  # some builtins have no signature; the call itself will complain if needed
    try:
        signature.bind(**kwargs)  # plain functions: at least the right names
    except TypeError as e:
        raise ToolError(f"arguments don't fit {name!r}: {e}",
                        f"Call {name} again with arguments for {signature_text(name, fn)}.") from None
    return kwargs


def signature_text(name: str, fn: Callable) -> str:
    """What the model should send, in words it can act on; error hints end with it.

    Example: (a plain function, then a registry tool)
        >>> from helpers.tools.registry import tool
        >>> def search(query: str) -> list:
        ...     '''Search the notes.'''
        >>> signature_text("search", search), signature_text("search", tool(search))
        ('search(query: str)', 'search(query: string, required)')
    """
    if isinstance(fn, SelfCheckingTool):
        props, required = fn.parameters["properties"], fn.parameters["required"]
        parts = [f"{p}: {_type_word(s)}{', required' if p in required else ''}" for p, s in props.items()]
        return f"{name}({'; '.join(parts)})"
    try:
        # eval_str: `str`, not `'str'`, for a function whose module has `from __future__ import annotations`
        sig = inspect.signature(fn, eval_str=True)
    except NameError:  # an annotation names something only a type checker imports
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # some builtins have no signature
        return name
    return f"{name}{sig.replace(return_annotation=sig.empty)}"


def _type_word(schema: dict) -> str:
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(_type_word(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type_word(schema.get('items', {}))}"
    return " | ".join(kind) if isinstance(kind, list) else kind


def _keep_fields(result, keep: set[str]):
    if isinstance(result, dict):
        return {k: v for k, v in result.items() if k in keep}
    if isinstance(result, list | tuple):
        return [_keep_fields(item, keep) if isinstance(item, dict) else item for item in result]
    return result


def json_default(value):
    """The `default=` hook for json.dumps: a JSON-friendly form of what it can't encode itself.

    Example:
        >>> import datetime
        >>> json.dumps({"day": datetime.date(2026, 1, 5)}, default=json_default)
        '{"day": "2026-01-05"}'
    """
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


# ---------------------------------------------------------------------------------------------------------
# Lesson 09's registry, as seen from here: a tool that checks itself.


@typing.runtime_checkable
class SelfCheckingTool(typing.Protocol):
    """A tool that checks its own arguments and publishes their JSON schema, such as lesson 09's `Tool`.

    Dispatch asks a tool for these two members instead of importing helpers.tools.registry, because the
    registry is built on this module; any object that has them gets the same treatment.
    Example:
        >>> from helpers.tools.registry import tool
        >>> def get_weather(city: str) -> dict:
        ...     '''The weather now in a city.
        ...
        ...     Args:
        ...         city: the city name, e.g. Berlin
        ...     '''
        ...     return {"city": city}
        >>> isinstance(tool(get_weather), SelfCheckingTool), isinstance(get_weather, SelfCheckingTool)
        (True, False)
    """

    parameters: dict

    def validate(self, arguments: dict) -> dict: ...
