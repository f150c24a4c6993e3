"""Tools: dispatch never raises, schemas come out minimal and right, bad tool definitions fail early."""

import enum
import json
from typing import Literal

import jsonschema
import pytest
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from openai.types.chat.chat_completion_message_function_tool_call import Function
from openai.types.responses import ResponseFunctionToolCall

from helpers.tools import (
    Tool,
    ToolDefinitionError,
    Tools,
    make_call,
    make_chat_call,
    run_tool,
    serialize,
    tool,
)

FAQ = [
    {"id": "a1", "question": "Can I join late?", "answer": "Yes, you can.", "section": "General"},
    {
        "id": "b2",
        "question": "How do I run Ollama?",
        "answer": "Install it, then pull a model.",
        "section": "Local",
    },
]


def fake_search(query: str) -> list[dict]:
    return [d for d in FAQ if any(w in d["question"].lower() for w in query.lower().split())]


def broken(query: str) -> str:
    raise RuntimeError("index is not loaded")


def function_call(name="search", arguments='{"query": "ollama"}', call_id="call_1"):
    return ResponseFunctionToolCall(type="function_call", name=name, arguments=arguments, call_id=call_id)


def error_of(output: str) -> dict:
    payload = json.loads(output)
    assert set(payload) == {"error", "hint"}
    assert payload["error"] and payload["hint"]
    return payload


# --- make_call with a plain dict of functions --------------------------------------------------------------


def test_make_call_with_sdk_object_runs_the_tool():
    out = make_call(function_call(), {"search": fake_search})
    assert out["type"] == "function_call_output"
    assert out["call_id"] == "call_1"
    assert json.loads(out["output"]) == [FAQ[1]]


def test_make_call_with_dict_item():
    item = {"type": "function_call", "name": "search", "arguments": '{"query": "join"}', "call_id": "c9"}
    out = make_call(item, {"search": fake_search})
    assert out == {"type": "function_call_output", "call_id": "c9", "output": serialize([FAQ[0]])}


def test_output_is_compact_json_and_keeps_non_ascii():
    out = make_call(
        function_call(name="echo", arguments='{"text": "café"}'), {"echo": lambda text: {"t": text}}
    )
    assert out["output"] == '{"t":"café"}'


def test_string_results_pass_through_unchanged():
    out = make_call(function_call(name="echo", arguments='{"text": "plain"}'), {"echo": lambda text: text})
    assert out["output"] == "plain"


def test_empty_arguments_mean_no_arguments():
    out = make_call(function_call(name="now", arguments=""), {"now": lambda: "noon"})
    assert out["output"] == "noon"


def test_unknown_tool_lists_the_available_ones():
    out = make_call(function_call(name="serch"), {"search": fake_search, "add": lambda: 1})
    payload = error_of(out["output"])
    assert "serch" in payload["error"]
    assert "search" in payload["hint"] and "add" in payload["hint"]
    assert out["call_id"] == "call_1"


def test_unknown_tool_with_no_tools_says_so():
    payload = error_of(make_call(function_call(), {})["output"])
    assert "answer without" in payload["hint"]


@pytest.mark.parametrize("arguments", ['{"query": ', "not json", "[1, 2]", '"ollama"'])
def test_malformed_arguments_become_an_error_payload(arguments):
    payload = error_of(make_call(function_call(arguments=arguments), {"search": fake_search})["output"])
    assert "search" in payload["error"]
    assert "query" in payload["hint"]  # tells the model what to send instead


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [("{}", "missing a required argument: 'query'"), ('{"query": "x", "limit": 3}', "unexpected keyword")],
)
def test_arguments_that_dont_fit_the_function(arguments, expected):
    payload = error_of(make_call(function_call(arguments=arguments), {"search": fake_search})["output"])
    assert expected in payload["error"]


def test_tool_exception_becomes_an_error_payload():
    payload = error_of(make_call(function_call(), {"search": broken})["output"])
    assert "RuntimeError" in payload["error"] and "index is not loaded" in payload["error"]


def test_builtin_without_signature_still_never_raises():
    payload = error_of(make_call(function_call(name="max", arguments='{"a": 1}'), {"max": max})["output"])
    assert "TypeError" in payload["error"]


def test_make_call_rejects_items_that_are_not_function_calls():
    with pytest.raises(ValueError, match="function_call"):
        make_call({"type": "message", "content": []}, {"search": fake_search})


# --- Chat Completions twin ---------------------------------------------------------------------------------


def test_make_chat_call_with_sdk_object():
    call = ChatCompletionMessageFunctionToolCall(
        id="call_7", type="function", function=Function(name="search", arguments='{"query": "join"}')
    )
    out = make_chat_call(call, {"search": fake_search})
    assert out == {"role": "tool", "tool_call_id": "call_7", "content": serialize([FAQ[0]])}


def test_make_chat_call_with_dict_and_an_error():
    call = {"id": "call_8", "type": "function", "function": {"name": "nope", "arguments": "{}"}}
    out = make_chat_call(call, {"search": fake_search})
    assert out["role"] == "tool" and out["tool_call_id"] == "call_8"
    assert "nope" in error_of(out["content"])["error"]


# --- serialize ---------------------------------------------------------------------------------------------


def test_serialize_fields_keeps_only_listed_keys():
    assert serialize(FAQ, fields=["question", "answer"]) == json.dumps(
        [{k: d[k] for k in ("question", "answer")} for d in FAQ], ensure_ascii=False, separators=(",", ":")
    )
    assert serialize({"a": 1, "b": 2}, fields=["b"]) == '{"b":2}'


def test_serialize_indent_and_sizes():
    indented, compact, trimmed = serialize(FAQ, indent=2), serialize(FAQ), serialize(FAQ, fields=["answer"])
    assert json.loads(indented) == json.loads(compact) == FAQ
    assert len(trimmed) < len(compact) < len(indented)


def test_serialize_handles_enums_and_objects():
    class Colour(enum.Enum):
        RED = "red"

    assert serialize({"c": Colour.RED, "s": {3}}) == '{"c":"red","s":[3]}'


# --- @tool and schemas -------------------------------------------------------------------------------------


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@tool
def get_weather(
    city: str,
    unit: Unit = Unit.CELSIUS,
    days: int = 1,
    detail: Literal["brief", "full"] = "brief",
    tags: list[str] | None = None,
    ratio: float = 0.5,
    alerts: bool = False,
) -> dict:
    """Get the weather forecast for a city.

    Uses the small table defined in the lesson.

    Args:
        city: City name,
            e.g. Berlin.
        unit: Temperature unit.
        days: How many days ahead.
    """
    return {"city": city, "unit": unit, "days": days, "detail": detail, "tags": tags}


def test_decorated_function_still_works():
    assert isinstance(get_weather, Tool)
    assert get_weather("Oslo")["city"] == "Oslo"
    assert get_weather.__name__ == "get_weather"


def test_schema_types_defaults_enums_and_descriptions():
    params = get_weather.responses_schema()["parameters"]
    props = params["properties"]
    assert params["type"] == "object" and params["additionalProperties"] is False
    assert params["required"] == ["city"]
    assert props["city"] == {"type": "string", "description": "City name, e.g. Berlin."}
    assert props["unit"] == {
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "description": "Temperature unit.",
        "default": "celsius",
    }
    assert props["days"] == {"type": "integer", "description": "How many days ahead.", "default": 1}
    assert props["detail"] == {"type": "string", "enum": ["brief", "full"], "default": "brief"}
    assert props["tags"]["anyOf"] == [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]
    assert props["ratio"]["type"] == "number" and props["alerts"]["type"] == "boolean"
    assert "title" not in json.dumps(params) and "$ref" not in json.dumps(params)
    jsonschema.Draft202012Validator.check_schema(params)


def test_optional_scalar_becomes_a_type_list():
    @tool
    def find(query: str, course: str | None = None) -> list:
        """Find entries."""

    assert find.schema()["properties"]["course"] == {"type": ["string", "null"], "default": None}


def test_description_joins_short_and_long_text_without_sections():
    description = get_weather.responses_schema()["description"]
    assert (
        description == "Get the weather forecast for a city.\n\nUses the small table defined in the lesson."
    )


def test_both_api_flavours():
    responses, chat = get_weather.responses_schema(), get_weather.chat_schema()
    assert set(responses) == {"type", "name", "description", "parameters"}
    assert chat == {
        "type": "function",
        "function": {k: responses[k] for k in ("name", "description", "parameters")},
    }
    tools = Tools(get_weather)
    assert tools.responses_schemas() == [responses] and tools.chat_schemas() == [chat]


def test_generated_schema_equals_hand_written_search_tool():
    from helpers.search import SEARCH_TOOL

    def search(query: str) -> list[dict]:
        return []

    search.__doc__ = (
        f"{SEARCH_TOOL['description']}\n\nArgs:\n"
        f"    query: {SEARCH_TOOL['parameters']['properties']['query']['description']}\n"
    )
    assert tool(search).responses_schema() == SEARCH_TOOL


def test_strict_schema_requires_everything_and_allows_null():
    schema = get_weather.responses_schema(strict=True)
    params = schema["parameters"]
    assert schema["strict"] is True
    assert params["required"] == list(params["properties"])
    assert params["properties"]["days"]["type"] == ["integer", "null"]
    assert params["properties"]["city"]["type"] == "string"  # required stays non-null
    assert {"type": "null"} in params["properties"]["unit"]["anyOf"]
    assert '"default"' not in json.dumps(params)
    assert "Default: 1" in params["properties"]["days"]["description"]
    assert get_weather.chat_schema(strict=True)["function"]["strict"] is True
    jsonschema.Draft202012Validator.check_schema(params)


def test_strict_null_means_use_the_default():
    out = Tools(get_weather).call("get_weather", '{"city": "Oslo", "days": null, "unit": null, "tags": null}')
    assert json.loads(out) == {"city": "Oslo", "unit": "celsius", "days": 1, "detail": "brief", "tags": None}


def test_no_parameters_gives_an_empty_object():
    @tool
    def ping() -> str:
        """Check the tool is alive."""
        return "pong"

    assert ping.schema() == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_tool_name_can_be_overridden():
    @tool(name="lookup")
    def find(query: str) -> list:
        """Find entries."""

    assert find.name == "lookup" and find.responses_schema()["name"] == "lookup"


# --- bad definitions ---------------------------------------------------------------------------------------


def no_hint(query) -> str:
    """Search."""


def star_args(*queries: str) -> str:
    """Search."""


def star_kwargs(**options: str) -> str:
    """Search."""


def no_doc(query: str) -> str:
    pass


def ghost_param(query: str) -> str:
    """Search.

    Args:
        query: Keywords.
        limit: How many results.
    """


class Index:
    pass


def bad_type(index: Index) -> str:
    """Search an index object (the model can't send one)."""


@pytest.mark.parametrize(
    ("fn", "message"),
    [
        (no_hint, "'query' has no type hint"),
        (star_args, r"\*queries"),
        (star_kwargs, r"\*\*options"),
        (no_doc, "no docstring"),
        (ghost_param, "documents parameter.*limit"),
        (bad_type, "can't build a schema"),
    ],
)
def test_bad_definitions_are_rejected_with_a_clear_error(fn, message):
    with pytest.raises(ToolDefinitionError, match=message):
        tool(fn)


def test_duplicate_names_are_rejected():
    tools = Tools(get_weather)
    with pytest.raises(ToolDefinitionError, match="already registered"):
        tools.add(get_weather)


# --- the registry ------------------------------------------------------------------------------------------


def add_faq_entry(question: str, answer: str) -> dict:
    """Add a new entry to the FAQ index.

    Args:
        question: The student's question.
        answer: The answer to store.
    """
    return {"added": question}


def test_registry_basics():
    tools = Tools(get_weather)
    tools.add(add_faq_entry)
    assert tools.names() == ["get_weather", "add_faq_entry"]
    assert len(tools) == 2 and "add_faq_entry" in tools and "search" not in tools
    assert tools["add_faq_entry"]("q", "a") == {"added": "q"}

    @tools.add
    def count(word: str) -> int:
        """Count letters in a word."""
        return len(word)

    assert tools.names()[-1] == "count" and count("abc") == 3


def test_registry_validates_before_calling():
    calls = []

    def record(n: int) -> int:
        """Record a number.

        Args:
            n: The number.
        """
        calls.append(n)
        return n

    tools = Tools(record)
    payload = error_of(tools.call("record", '{"n": "five"}'))
    assert "n:" in payload["error"] and "valid integer" in payload["error"] and '"five"' in payload["error"]
    assert "n: integer, required" in payload["hint"]
    assert calls == []  # the function never ran
    assert tools.call("record", '{"n": "5"}') == "5"  # lax coercion, as pydantic does by default


def test_registry_reports_missing_and_extra_fields():
    payload = error_of(Tools(add_faq_entry).call("add_faq_entry", '{"question": "q", "extra": 1}'))
    assert "answer: Field required" in payload["error"]
    assert "extra: Extra inputs are not permitted" in payload["error"]


def test_registry_converts_enum_values_for_the_function():
    seen = {}

    @tool
    def convert(unit: Unit) -> str:
        """Convert."""
        seen["unit"] = unit
        return "ok"

    assert Tools(convert).call("convert", '{"unit": "fahrenheit"}') == "ok"
    assert seen["unit"] is Unit.FAHRENHEIT
    assert "celsius" in error_of(Tools(convert).call("convert", '{"unit": "kelvin"}'))["hint"]


def test_registry_works_with_make_call_and_make_chat_call():
    tools = Tools(add_faq_entry)
    args = '{"question": "q", "answer": "a"}'
    assert make_call(function_call("add_faq_entry", args), tools)["output"] == '{"added":"q"}'
    chat = {"id": "c1", "type": "function", "function": {"name": "add_faq_entry", "arguments": args}}
    assert make_chat_call(chat, tools)["content"] == '{"added":"q"}'
    assert "add_faq_entry" in error_of(make_call(function_call("nope", "{}"), tools)["output"])["hint"]
    assert "JSON" in error_of(make_call(function_call("add_faq_entry", "{oops"), tools)["output"])["error"]


def test_registry_tool_that_raises():
    @tool
    def explode(query: str) -> str:
        """Always fails."""
        raise KeyError(query)

    assert "KeyError" in error_of(run_tool("explode", '{"query": "x"}', Tools(explode)))["error"]


def test_tool_objects_in_a_plain_dict_are_validated_too():
    payload = error_of(make_call(function_call("weather", '{"city": 1}'), {"weather": get_weather})["output"])
    assert "city" in payload["error"]


# --- Tool() reads a function once (registry._described), yet each Tool is its own --------------------------

def test_two_tools_of_one_function_share_no_schema_or_defaults():
    def lookup(city: str, days: int = 3) -> dict:
        """The forecast for a city.

        Args:
            city: the city's name
            days: how many days ahead
        """
        return {"city": city, "days": days}

    first, second = Tool(lookup), Tool(lookup)
    first.parameters["properties"]["city"]["description"] = "changed by one caller"
    first.defaults["days"] = 99
    assert second.parameters["properties"]["city"]["description"] == "the city's name"
    assert second.defaults == {"days": 3} and Tool(lookup).defaults == {"days": 3}
    assert Tool(lookup, name="forecast").name == "forecast" and Tool(lookup).name == "lookup"


def test_a_definition_error_is_raised_each_time_with_no_chained_error():
    def untyped(city) -> dict:
        """The forecast for a city."""
        return {}

    for _ in range(2):
        with pytest.raises(ToolDefinitionError, match="no type hint") as raised:
            Tool(untyped)
        assert raised.value.__context__ is None
