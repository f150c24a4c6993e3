"""Structured output, `tool_choice` on every turn, and tool outputs of any textual form, on the offline model.

The schemas' field names are varied on purpose (plain, synonyms, meaningless names with descriptions, random
strings in the property tests): the filler must go by general rules over a schema, never by a field's name.
The property tests' budgets are multiples of the hypothesis profile's max_examples (tests/conftest.py)."""

import datetime
import enum
import json
import re
import string
import uuid
from typing import Any, Literal

import agents
import jsonschema
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.lib._pydantic import to_strict_json_schema
from pydantic import AnyUrl, BaseModel, Field
from test_offline_conformance import assert_valid, validators  # noqa: F401 - a fixture, used by name

from helpers.offline import OFFLINE_MODEL, handle, neutral_client
from helpers.offline.field_roles import name_words
from helpers.offline.instructions import schema_in_text
from helpers.offline.structured import Facts, SchemaError, fill

JOIN_QUESTION = "I just found out about the course. Can I still join?"
JOIN_ENTRY = "74eb249bbf"  # the FAQ entry "I just discovered the course. Can I still join?"
OFF_TOPIC = "What is the best way to cook risotto?"
EXAMPLES = settings.default.max_examples  # the profile's budget (tests/conftest.py): 10 in make test, 100 weekly


@pytest.fixture(scope="module")
def faq():
    from helpers.search import SEARCH_TOOL, search

    return SEARCH_TOOL, search


@pytest.fixture(scope="module")
def client():
    return neutral_client(_strict_response_validation=True)


def strict_object(properties: dict) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def chat_tool(tool: dict) -> dict:
    return {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}


def run_responses(client, faq, question, tool_output=json.dumps, **kwargs):
    """An agent loop on the Responses API: run every search the model asks for until it answers.
    Returns (final response, queries)."""
    schema, search = faq
    items, queries = [{"role": "user", "content": question}], []
    for _ in range(6):
        response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[schema], **kwargs)
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response, queries
        items += response.output
        for call in calls:
            queries.append(json.loads(call.arguments)["query"])
            items.append({"type": "function_call_output", "call_id": call.call_id,
                          "output": tool_output(search(queries[-1]))})
    raise AssertionError(f"no answer after 6 turns: {queries}")


def run_chat(client, faq, question, **kwargs):
    schema, search = faq
    messages, queries = [{"role": "user", "content": question}], []
    for _ in range(6):
        completion = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(schema)],
                                                    **kwargs)
        message = completion.choices[0].message
        if not message.tool_calls:
            return completion, queries
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            queries.append(json.loads(call.function.arguments)["query"])
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(search(queries[-1]))})
    raise AssertionError(f"no answer after 6 turns: {queries}")


# --- 1. the answer, its source and found/not found go where the schema's words say ----------------------

VARIANTS = {
    "plain": (strict_object({"answer": {"type": "string"}, "source": {"type": ["string", "null"]},
                             "found": {"type": "boolean"}}), "answer", "source", "found"),
    "synonyms": (strict_object({"reference": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                "is_covered": {"type": "boolean"}, "reply": {"type": "string"}}),
                 "reply", "reference", "is_covered"),
    "meaningless names": (strict_object({
        "f1": {"type": "boolean", "description": "True when the FAQ covers the question."},
        "f2": {"type": ["string", "null"], "description": "Identifier of the FAQ entry the answer came from."},
        "f3": {"type": "string", "description": "What to tell the student, in full sentences."}}), "f3", "f2", "f1"),
    "camelCase, nested": (strict_object({"result": strict_object({
        "replyText": {"type": "string"}, "citedEntryId": {"type": ["string", "null"]},
        "wasAnswered": {"type": "boolean"}})}), "result.replyText", "result.citedEntryId", "result.wasAnswered"),
}


def pick(data, dotted):
    for part in dotted.split("."):
        data = data[part]
    return data


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_answer_its_source_and_found_go_where_the_schema_says(client, faq, variant):
    schema, answer_field, source_field, found_field = VARIANTS[variant]
    fmt = {"format": {"type": "json_schema", "name": "faq_answer", "schema": schema, "strict": True}}
    response, queries = run_responses(client, faq, JOIN_QUESTION, text=fmt)
    assert queries, "a structured run still searches first"
    data = json.loads(response.output_text)
    jsonschema.validate(data, schema)
    assert "submit your project" in pick(data, answer_field)
    assert pick(data, source_field) == JOIN_ENTRY and pick(data, found_field) is True
    assert response.text.format.type == "json_schema" and response.text.format.name == "faq_answer"

    off, _ = run_responses(client, faq, OFF_TOPIC, text=fmt)
    off_data = json.loads(off.output_text)
    jsonschema.validate(off_data, schema)
    assert pick(off_data, found_field) is False and pick(off_data, source_field) is None
    assert "nothing relevant" in pick(off_data, answer_field)


def test_a_closing_question_asked_for_keeps_what_the_answer_rests_on(client, faq):
    # Instructions that want every answer to end with a question add words, not a found flag or a source.
    schema, answer_field, source_field, found_field = VARIANTS["plain"]
    fmt = {"format": {"type": "json_schema", "name": "faq_answer", "schema": schema, "strict": True}}
    follow_up = "End every answer with a follow-up question."
    off, _ = run_responses(client, faq, OFF_TOPIC, text=fmt, instructions=follow_up)
    off_data = json.loads(off.output_text)
    assert off_data[answer_field].endswith("?")
    assert off_data[found_field] is False and off_data[source_field] is None
    on, _ = run_responses(client, faq, JOIN_QUESTION, text=fmt, instructions=follow_up)
    assert json.loads(on.output_text)[source_field] == JOIN_ENTRY


def test_chat_response_format_gets_the_same_structured_answer(client, faq):
    schema, *_ = VARIANTS["synonyms"]
    fmt = {"type": "json_schema", "json_schema": {"name": "faq_answer", "schema": schema, "strict": True}}
    completion, queries = run_chat(client, faq, JOIN_QUESTION, response_format=fmt)
    data = json.loads(completion.choices[0].message.content)
    assert queries and data["reference"] == JOIN_ENTRY and data["is_covered"] is True


def test_a_negative_flag_an_enum_and_a_list_of_sources_follow_general_rules():
    schema = strict_object({
        "not_in_faq": {"type": "boolean"},
        "status": {"enum": ["answered", "no_answer"]},
        "sources": {"type": "array", "items": {"type": "string"}},
        "count": {"type": "integer", "minimum": 0, "maximum": 10},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": True}})
    found = fill(schema, Facts("Yes, join within 3 weeks.", ["e1"], ["Can I join?"], True))
    assert found["not_in_faq"] is False and found["status"] == "answered" and found["sources"] == ["e1"]
    assert found["count"] == 3 and len(set(found["tags"])) == 2
    nothing = fill(schema, Facts("I found nothing.", [], [], False))
    assert nothing["not_in_faq"] is True and nothing["status"] == "no_answer" and nothing["sources"] == []


def test_defs_refs_and_a_recursive_schema_are_filled():
    schema = {"$defs": {"Node": strict_object({"label": {"type": "string"},
                                                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}})},
              **strict_object({"tree": {"$ref": "#/$defs/Node"}})}
    value = fill(schema, Facts("An answer.", [], [], True))
    jsonschema.validate(value, schema)


def test_field_names_are_split_whatever_their_case_style():
    assert name_words("isCoveredBy_FAQ-entry") == ["is", "covered", "by", "faq", "entry"]


# --- 2. responses.parse and chat.completions.parse return the typed object --------------------------------

class FaqAnswer(BaseModel):
    reply: str = Field(description="What to tell the student")
    reference: str | None = Field(description="Id of the FAQ entry used")
    covered: bool


def test_responses_parse_returns_the_typed_object(client, faq):
    schema, search = faq
    items = [{"role": "user", "content": JOIN_QUESTION}]
    for _ in range(6):
        response = client.responses.parse(model=OFFLINE_MODEL, input=items, tools=[schema], text_format=FaqAnswer)
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            break
        items += response.output
        items += [{"type": "function_call_output", "call_id": c.call_id,
                   "output": json.dumps(search(json.loads(c.arguments)["query"]))} for c in calls]
    parsed = response.output_parsed
    assert isinstance(parsed, FaqAnswer) and parsed.reference == JOIN_ENTRY and parsed.covered


def test_chat_completions_parse_returns_the_typed_object(client):
    completion = client.chat.completions.parse(model=OFFLINE_MODEL, response_format=FaqAnswer,
                                               messages=[{"role": "user", "content": OFF_TOPIC}])
    parsed = completion.choices[0].message.parsed
    assert isinstance(parsed, FaqAnswer) and parsed.covered is False and parsed.reference is None


def test_json_object_returns_a_json_object(client, faq):
    response, _ = run_responses(client, faq, JOIN_QUESTION, text={"format": {"type": "json_object"}})
    data = json.loads(response.output_text)
    assert isinstance(data, dict) and JOIN_ENTRY in json.dumps(data)
    completion = client.chat.completions.create(model=OFFLINE_MODEL, response_format={"type": "json_object"},
                                                messages=[{"role": "user", "content": "Hello"}])
    assert isinstance(json.loads(completion.choices[0].message.content), dict)


def test_a_schema_given_in_the_instructions_shapes_the_answer(client):
    # PydanticAI's PromptedOutput: the schema is in the instructions, the format only says json_object.
    schema = strict_object({"text": {"type": "string"}, "ok": {"type": "boolean"}})
    instructions = f"Always respond with a JSON object that's compatible with this schema:\n\n{json.dumps(schema)}\n"
    assert schema_in_text(instructions) == schema
    response = client.responses.create(model=OFFLINE_MODEL, input=OFF_TOPIC, instructions=instructions,
                                       text={"format": {"type": "json_object"}})
    jsonschema.validate(json.loads(response.output_text), schema)


@pytest.mark.parametrize("schema,where", [
    ({"type": "object", "properties": {"a": {"type": "string", "minLength": 5, "maxLength": 2}},
      "required": ["a"]}, "minLength"),
    ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 3, "maximum": 2}}, "required": ["n"]},
     "properties.n"),
    ({"type": "object", "properties": {"a": {"type": "string", "pattern": "^[0-9]{12}$"}}, "required": ["a"]},
     "pattern"),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}, "required": ["a"]}, "$ref"),
    ({"type": "object", "properties": {"a": False}, "required": ["a"]}, "properties.a"),
    ({"type": "object", "properties": {"a": {"type": "array", "minItems": 3, "maxItems": 1}}, "required": ["a"]},
     "minItems"),
    ({"$defs": {"N": {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"],
                      "additionalProperties": False}}, "$ref": "#/$defs/N"}, "nests deeper"),
])
def test_a_schema_that_cannot_be_filled_is_a_clear_400(client, schema, where):
    with pytest.raises(openai.BadRequestError) as err:
        client.responses.create(model=OFFLINE_MODEL, input="Can I join?",
                                text={"format": {"type": "json_schema", "name": "x", "schema": schema}})
    assert where in err.value.body["message"] and err.value.body["param"] == "text.format.schema"
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model=OFFLINE_MODEL, messages=[{"role": "user", "content": "Can I join?"}],
                                       response_format={"type": "json_schema",
                                                        "json_schema": {"name": "x", "schema": schema}})


UNSUPPORTED = {
    "allOf": [{"type": "string"}], "not": {"type": "string"}, "if": {"type": "string"}, "then": {"type": "string"},
    "else": {"type": "string"}, "prefixItems": [{"type": "string"}], "multipleOf": 5, "minProperties": 1,
    "maxProperties": 3, "patternProperties": {"^x": {"type": "string"}}, "propertyNames": {"maxLength": 3},
    "contains": {"type": "string"}, "minContains": 1, "dependentRequired": {"a": ["b"]},
    "dependentSchemas": {"a": {}}, "unevaluatedProperties": False, "unevaluatedItems": False,
    "$dynamicRef": "#x", "definitions": {}, "$id": "https://example.com/s", "readOnly": True,
}


@pytest.mark.parametrize("keyword", list(UNSUPPORTED))
def test_each_unsupported_keyword_is_a_clear_400_naming_it_and_its_place(client, keyword):
    inner = {"type": "object", "properties": {"b": {"type": "string", keyword: UNSUPPORTED[keyword]}},
             "required": ["b"], "additionalProperties": False}
    schema = strict_object({"a": {"type": "array", "items": {"$ref": "#/$defs/Inner"}}})
    schema["$defs"] = {"Inner": inner}
    message = f"at 'schema.$defs.Inner.properties.b', '{keyword}' is not supported by the offline model"
    with pytest.raises(openai.BadRequestError) as err:
        client.responses.create(model=OFFLINE_MODEL, input="Can I join?", text={
            "format": {"type": "json_schema", "name": "x", "schema": schema, "strict": True}})
    assert message in err.value.body["message"] and err.value.body["param"] == "text.format.schema"
    assert err.value.body["code"] == "invalid_json_schema"
    with pytest.raises(openai.BadRequestError, match=re.escape(message)):
        client.chat.completions.create(model=OFFLINE_MODEL, messages=[{"role": "user", "content": "Can I join?"}],
                                       response_format={"type": "json_schema",
                                                        "json_schema": {"name": "x", "schema": schema}})
    # Under a property named like a keyword, nothing is refused: only keyword places are read.
    named = strict_object({keyword: {"type": "string"}})
    assert list(fill(named, Facts("An answer."))) == [keyword]


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    bark: str


class Detail(BaseModel):
    """A nested model: Pydantic writes it under $defs and refers to it."""

    name: str = Field(min_length=1, max_length=20, description="A short name")
    score: float = Field(ge=0, le=1)
    rank: int = Field(gt=0, lt=100)


class Everything(BaseModel):
    """The field types a course output type uses, each as Pydantic v2 writes it into a JSON schema."""

    answer: str = Field(description="What to tell the student")
    source: str | None = None
    found: bool
    level: Literal["low", "high"]
    always: Literal["x"]
    colour: Colour
    counts: list[int] = Field(min_length=1, max_length=3)
    detail: Detail
    details: list[Detail]
    maybe_detail: Detail | None = Field(default=None, description="An optional nested model")
    when: datetime.datetime
    day: datetime.date
    uid: uuid.UUID
    link: AnyUrl
    mapping: dict[str, int]
    tags: set[str] = Field(min_length=2)
    pet: Cat | Dog = Field(discriminator="kind")
    either: int | str
    anything: Any = Field(examples=["e"], title="Custom")
    old: int = Field(default=1, deprecated=True)


class StrictEverything(BaseModel):
    """What the strict form (openai SDK, Agents SDK) can hold: no dict, no default of a required field."""

    reply: str
    reference: str | None
    covered: bool
    level: Literal["low", "high"]
    colour: Colour
    details: list[Detail]
    maybe_detail: Detail | None
    when: datetime.datetime


@pytest.mark.parametrize("found", [True, False])
def test_pydantic_made_schemas_are_filled_and_parse_back(found):
    facts = Facts("Yes, join within 3 weeks.", ["e1"], ["Can I join?"]) if found else Facts("Nothing.", found=False)
    Everything.model_validate(fill(Everything.model_json_schema(), facts))
    value = StrictEverything.model_validate(fill(to_strict_json_schema(StrictEverything), facts))
    assert (value.reference == "e1") is found and value.covered is found
    agents_schema = agents.AgentOutputSchema(StrictEverything).json_schema()
    assert StrictEverything.model_validate(fill(agents_schema, facts)).covered is found


def test_pydantic_fields_outside_the_subset_are_named_in_the_400(client):
    class Tupled(BaseModel):
        pair: tuple[int, str]

    class Stepped(BaseModel):
        step: int = Field(multiple_of=5)

    for model, keyword, place in ((Tupled, "prefixItems", "schema.properties.pair"),
                                  (Stepped, "multipleOf", "schema.properties.step")):
        with pytest.raises(openai.BadRequestError, match=re.escape(f"at '{place}', '{keyword}' is not supported")):
            client.chat.completions.parse(model=OFFLINE_MODEL, response_format=model,
                                          messages=[{"role": "user", "content": "Can I join?"}])


def test_a_strict_schema_that_breaks_the_strict_rules_gets_the_real_apis_400(client):
    loose = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a"],
             "additionalProperties": False}
    with pytest.raises(openai.BadRequestError, match="'required' is required to be supplied .* Missing 'b'"):
        client.responses.create(model=OFFLINE_MODEL, input="Can I join?",
                                text={"format": {"type": "json_schema", "name": "x", "schema": loose, "strict": True}})
    # Without strict the same schema is fine, as on OpenAI.
    response = client.responses.create(model=OFFLINE_MODEL, input="Can I join?",
                                       text={"format": {"type": "json_schema", "name": "x", "schema": loose}})
    jsonschema.validate(json.loads(response.output_text), loose)


# --- 3. property test: any schema gets JSON that fits it, or a clear 400; never a 500 -----------------------

NAMES = st.text(alphabet=string.ascii_letters + string.digits + "_- ", min_size=1, max_size=12)
WORDS = st.text(alphabet=string.ascii_lowercase + " ", max_size=40)


@st.composite
def schemas(draw, depth=0, defs=None):
    """A JSON schema made of the supported keywords only, with random field names and descriptions;
    strict-style objects."""
    leaves = [
        st.fixed_dictionaries({"type": st.just("string")}, optional={
            "minLength": st.integers(0, 5), "maxLength": st.integers(5, 400),
            "format": st.sampled_from(["date", "date-time", "email", "uuid", "uri"])}),
        st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])}, optional={
            "minimum": st.integers(-5, 5), "maximum": st.integers(6, 1000), "exclusiveMinimum": st.integers(-10, -6),
            "exclusiveMaximum": st.floats(1000.5, 2000)}),
        st.just({"type": "boolean"}),
        st.just({"type": "null"}),
        st.lists(st.one_of(NAMES, st.integers(), st.booleans()), min_size=1, max_size=4, unique=True).map(
            lambda values: {"enum": values}),
        st.one_of(NAMES, st.integers()).map(lambda value: {"const": value}),
    ]
    if depth >= 3:
        schema = draw(st.one_of(leaves))
    else:
        kind = draw(st.sampled_from(["leaf", "leaf", "object", "array", "nullable", "ref", "union"]))
        if kind == "leaf":
            schema = draw(st.one_of(leaves))
        elif kind == "object":
            names = draw(st.lists(NAMES, max_size=4, unique=True))
            schema = strict_object({name: draw(schemas(depth + 1, defs)) for name in names})
        elif kind == "array":
            low = draw(st.integers(0, 2))
            schema = {"type": "array", "items": draw(schemas(depth + 1, defs)), "minItems": low}
            if draw(st.booleans()):
                schema["maxItems"] = low + draw(st.integers(0, 2))
            if draw(st.booleans()):
                schema["uniqueItems"] = True
        elif kind == "nullable":
            schema = {"anyOf": [draw(schemas(depth + 1, defs)), {"type": "null"}]}
        elif kind == "union":
            schema = {"anyOf": [draw(schemas(depth + 1, defs)), draw(schemas(depth + 1, defs))]}
        else:
            name = draw(st.text(alphabet=string.ascii_letters + string.digits + "_", min_size=1, max_size=12))
            defs[name] = draw(schemas(depth + 1, defs))
            schema = {"$ref": f"#/$defs/{name}"}
    if draw(st.booleans()):
        schema = {**schema, "description": draw(WORDS)}
    if draw(st.booleans()):
        schema = {**schema, "title": draw(NAMES)}
    return schema


@st.composite
def root_schemas(draw):
    defs: dict = {}
    names = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    schema = strict_object({name: draw(schemas(1, defs)) for name in names})
    return {**schema, "$defs": defs} if defs else schema


@settings(max_examples=EXAMPLES * 2)
@given(schema=root_schemas(), question=st.sampled_from([JOIN_QUESTION, OFF_TOPIC, "Hello", "What is 12 + 30?"]),
       api=st.sampled_from(["responses", "chat"]))
def test_any_schema_gets_json_that_fits_or_a_clear_400(schema, question, api):
    if api == "responses":
        body = {"model": "m", "input": question,
                "text": {"format": {"type": "json_schema", "name": "out", "schema": schema, "strict": True}}}
    else:
        body = {"model": "m", "messages": [{"role": "user", "content": question}],
                "response_format": {"type": "json_schema", "json_schema": {"name": "out", "schema": schema}}}
    status, _, content = handle("POST", f"/v1/{api}" if api == "responses" else "/v1/chat/completions", {},
                                json.dumps(body).encode())
    data = json.loads(content)
    assert status in (200, 400), data
    if status == 400:
        assert "schema" in data["error"]["message"] and data["error"]["param"].endswith("schema"), data
        assert "is not supported" not in data["error"]["message"], data  # only supported keywords are generated
        return
    text = data["output"][0]["content"][0]["text"] if api == "responses" else data["choices"][0]["message"]["content"]
    jsonschema.validate(json.loads(text), schema)


@settings(max_examples=EXAMPLES)
@given(schema=root_schemas(), found=st.booleans(), cited=st.lists(NAMES, max_size=3))
def test_the_filler_itself_fits_any_schema_or_says_where_it_cannot(schema, found, cited):
    try:
        value = fill(schema, Facts("An answer with 7 words in it.", cited, ["A title"] * len(cited), found))
    except SchemaError as error:
        assert error.path.startswith("schema") and error.message
        assert "is not supported" not in error.message  # the generators use supported keywords only
        return
    jsonschema.validate(value, schema)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["string", "object", "array", "integer", "null", "#/$defs/x", "#", "^a+$", "date"]) | NAMES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "properties", "required", "items", "enum", "const", "anyOf", "allOf", "oneOf",
                         "$ref", "$defs", "minimum", "maximum", "multipleOf", "minItems", "maxItems", "minLength",
                         "maxLength", "pattern", "format", "additionalProperties", "not", "exclusiveMinimum",
                         "uniqueItems", "prefixItems", "description", "x"]) | NAMES, inner, max_size=5),
    max_leaves=25)


@settings(max_examples=EXAMPLES * 3)
@given(schema=st.dictionaries(st.sampled_from(["type", "properties", "required", "$defs", "anyOf", "items", "x"]),
                              JSON_VALUES, max_size=4) | JSON_VALUES, strict=st.sampled_from([True, False, None]), api=st.sampled_from(["responses", "chat"]),
       forced=st.booleans())
def test_any_json_as_a_schema_is_answered_or_refused_never_a_500(schema, strict, api, forced):
    tool = {"type": "function", "name": "take", "parameters": schema if isinstance(schema, dict) else {}}
    fmt = {"type": "json_schema", "name": "out", "schema": schema, "strict": strict}
    if api == "responses":
        body = {"model": "m", "input": "Can I join the course? 2", "text": {"format": fmt}}
        if forced:
            body.update(tools=[tool], tool_choice="required")
        route = "/v1/responses"
    else:
        body = {"model": "m", "messages": [{"role": "user", "content": "Can I join?"}],
                "response_format": {"type": "json_schema", "json_schema": {k: v for k, v in fmt.items() if k != "type"}}}
        if forced:
            body.update(tools=[chat_tool(tool)], tool_choice={"type": "function", "function": {"name": "take"}})
        route = "/v1/chat/completions"
    status, _, content = handle("POST", route, {}, json.dumps(body).encode())
    assert status in (200, 400), content


# --- 4. tool_choice on every turn -------------------------------------------------------------------------

SUBMIT = {"type": "function", "name": "submit", "description": "Hand in the result.",
          "parameters": strict_object({"text": {"type": "string"}, "entry": {"type": ["string", "null"]},
                                       "covered": {"type": "boolean"}})}


def after_search(faq, question=JOIN_QUESTION):
    """The conversation after one search: (items for Responses, messages for Chat)."""
    schema, search = faq
    output = json.dumps(search("join course late"))
    call = {"type": "function_call", "call_id": "call_1", "name": schema["name"], "arguments": '{"query": "join"}'}
    items = [{"role": "user", "content": question}, call,
             {"type": "function_call_output", "call_id": "call_1", "output": output}]
    messages = [{"role": "user", "content": question},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": schema["name"], "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": output}]
    return items, messages


def test_required_is_honoured_after_the_tool_outputs_on_both_apis(client, faq):
    items, messages = after_search(faq)
    response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[faq[0], SUBMIT], tool_choice="required")
    (call,) = [o for o in response.output if o.type == "function_call"]
    args = json.loads(call.arguments)
    assert call.name == "submit" and args["entry"] == JOIN_ENTRY and args["covered"] is True
    assert "submit your project" in args["text"]

    completion = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tool_choice="required",
                                                tools=[chat_tool(faq[0]), chat_tool(SUBMIT)])
    (chat_call,) = completion.choices[0].message.tool_calls
    assert chat_call.function.name == "submit" and json.loads(chat_call.function.arguments) == args


def test_a_named_tool_is_called_after_the_tool_outputs_too(client, faq):
    items, messages = after_search(faq)
    response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[faq[0], SUBMIT],
                                       tool_choice={"type": "function", "name": faq[0]["name"]})
    assert [o.name for o in response.output if o.type == "function_call"] == [faq[0]["name"]]
    completion = client.chat.completions.create(
        model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(faq[0]), chat_tool(SUBMIT)],
        tool_choice={"type": "function", "function": {"name": "submit"}})
    (call,) = completion.choices[0].message.tool_calls
    jsonschema.validate(json.loads(call.function.arguments), SUBMIT["parameters"])


def test_allowed_tools_required_is_honoured(client, faq):
    items, messages = after_search(faq)
    choice = {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "submit"}]}
    response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[faq[0], SUBMIT], tool_choice=choice)
    assert [o.name for o in response.output if o.type == "function_call"] == ["submit"]
    chat_choice = {"type": "allowed_tools", "allowed_tools": {
        "mode": "required", "tools": [{"type": "function", "function": {"name": "submit"}}]}}
    completion = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tool_choice=chat_choice,
                                                tools=[chat_tool(faq[0]), chat_tool(SUBMIT)])
    assert completion.choices[0].message.tool_calls[0].function.name == "submit"


def test_a_forced_tool_with_no_sensible_arguments_still_gets_valid_ones(client):
    odd = {"type": "function", "name": "log_event", "description": "Record an event.",
           "parameters": strict_object({"level": {"enum": ["debug", "info"]}, "n": {"type": "integer", "minimum": 4},
                                        "at": {"type": "string", "format": "date-time"}})}
    response = client.responses.create(model=OFFLINE_MODEL, input="Hello", tools=[odd], tool_choice="required")
    (call,) = [o for o in response.output if o.type == "function_call"]
    jsonschema.validate(json.loads(call.arguments), odd["parameters"])


def test_a_tool_choice_naming_a_tool_not_offered_is_a_400(client, faq):
    with pytest.raises(openai.BadRequestError, match="Tool choice 'lookup' not found in 'tools' parameter"):
        client.responses.create(model=OFFLINE_MODEL, input="Can I join?", tools=[faq[0]],
                                tool_choice={"type": "function", "name": "lookup"})
    with pytest.raises(openai.BadRequestError, match="Tool choice 'lookup' not found"):
        client.chat.completions.create(model=OFFLINE_MODEL, messages=[{"role": "user", "content": "Can I join?"}],
                                       tools=[chat_tool(faq[0])],
                                       tool_choice={"type": "function", "function": {"name": "lookup"}})


# PydanticAI's forced `final_result` output tool and the Agents SDK's typed output over a Python-repr tool
# output are run, with the frameworks themselves, in tests/test_frameworks.py.


# --- 5. tool outputs of any textual form --------------------------------------------------------------------

def test_a_python_repr_tool_output_reads_like_its_json(client, faq):
    # The Agents SDK sends a tool's list[dict] as str() of it: single quotes, True/None.
    from_json, _ = run_responses(client, faq, JOIN_QUESTION)
    from_repr, _ = run_responses(client, faq, JOIN_QUESTION, tool_output=str)
    assert from_repr.output_text == from_json.output_text and f"[{JOIN_ENTRY}]" in from_repr.output_text
    entries = [{"id": "abc", "question": "Can I still join the course?", "answer": "Yes, you can join at any time.",
                "section": "General", "paid": False, "note": None}]
    texts = []
    for output in (str(entries), json.dumps(entries)):
        items = [{"role": "user", "content": "Can I still join the course?"},
                 {"type": "function_call", "call_id": "c1", "name": faq[0]["name"], "arguments": '{"query": "join"}'},
                 {"type": "function_call_output", "call_id": "c1", "output": output}]
        texts.append(client.responses.create(model=OFFLINE_MODEL, input=items, tools=[faq[0]],
                                             tool_choice="none").output_text)
    assert texts[0] == texts[1] and "[abc]" in texts[0] and "join at any time" in texts[0]


def test_plain_text_records_and_content_part_outputs_are_read(client, faq):
    records = "id: abc\nquestion: Can I still join the course?\nanswer: Yes, you can join at any time.\n"
    for output in (records, [{"type": "input_text", "text": records}]):
        items = [{"role": "user", "content": "Can I still join the course?"},
                 {"type": "function_call", "call_id": "c1", "name": faq[0]["name"], "arguments": '{"query": "join"}'},
                 {"type": "function_call_output", "call_id": "c1", "output": output}]
        text = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[faq[0]],
                                       tool_choice="none").output_text
        assert "[abc]" in text and "join at any time" in text


# --- 6. conformance ---------------------------------------------------------------------------------------

def test_a_structured_response_validates_against_the_openapi_spec(validators):  # noqa: F811
    schema, *_ = VARIANTS["plain"]
    for fmt in ({"type": "json_schema", "name": "faq_answer", "schema": schema, "strict": True},
                {"type": "json_object"}):
        body = {"model": "m", "input": "Can I join the course?", "text": {"format": fmt}}
        status, _, content = handle("POST", "/v1/responses", {}, json.dumps(body).encode())
        data = json.loads(content)
        assert status == 200 and data["text"]["format"] == fmt
        assert_valid(validators["Response"], data)
    allowed = {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "search"}]}
    search = {"type": "function", "name": "search", "parameters": strict_object({"query": {"type": "string"}})}
    body = {"model": "m", "input": "Can I join the course?", "tools": [search], "tool_choice": allowed}
    status, _, content = handle("POST", "/v1/responses", {}, json.dumps(body).encode())
    assert status == 200 and json.loads(content)["tool_choice"] == allowed
    assert_valid(validators["Response"], json.loads(content))
    chat = {"model": "m", "messages": [{"role": "user", "content": "Can I join?"}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}}}
    status, _, content = handle("POST", "/v1/chat/completions", {}, json.dumps(chat).encode())
    assert status == 200
    assert_valid(validators["CreateChatCompletionResponse"], json.loads(content))
