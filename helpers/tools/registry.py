"""Lesson 09's tool registry: a typed, documented function becomes a tool the model can see and call safely.

What it does:
- the `@tool` decorator reads a function's type hints and docstring, builds a pydantic model of its arguments,
  and emits the JSON schema in both API flavours (Responses and Chat Completions), strict mode included;
- `Tool.validate` checks the model's arguments against that pydantic model before the function runs;
- a `Tools` registry holds several tools, emits their schemas and runs calls by name; it is a mapping
  (`ToolMapping`, shared with helpers.mcp_tools' registry), so it plugs into lesson 04's `make_call` in place
  of the plain dict;
- a function that can't become a tool (no docstring, a parameter without a type hint, `*args`, a type with no
  JSON schema) fails at definition time with `ToolDefinitionError`, not when the model first calls it.

What it leaves out: running a call and turning failures into payloads the model reads (helpers.tools.dispatch,
which this module builds on; the helpers.tools package exports `tool`, `Tools`, `Tool` and `ToolDefinitionError`,
so lessons import them from there); async tools, timeouts, and permission prompts for tools that write.
Why one module of about 480 lines: the schema builders (`_build_model`, `_clean_schema`, `_strict_schema`) have
no user but `Tool`, and lesson 09 reads the decorator, the tool and the registry as one piece.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import typing
import warnings
from collections.abc import Callable, Iterator, Mapping

import docstring_parser
import pydantic

# The dispatch half: the error payload a model reads, and the one function every call goes through.
from helpers.tools.dispatch import ToolError, json_default, run_tool, signature_text


class ToolDefinitionError(TypeError):
    """A function that can't become a tool (missing type hint, no docstring, ...), caught at definition time.

    Example:
        >>> tool(lambda q: q)
        Traceback (most recent call last):
        helpers.tools.registry.ToolDefinitionError: tool '<lambda>' has no docstring; the model reads it ...
    """


class Tool:
    """A function plus what the model needs to call it: name, description and a pydantic argument model.

    Calling a Tool calls the function, so a decorated function still works as before.
    Example:
        >>> def search(query: str, limit: int = 3) -> list:
        ...     '''Search the FAQ.
        ...
        ...     Args:
        ...         query: keywords, e.g. join late
        ...         limit: how many entries
        ...     '''
        ...     return [query][:limit]
        >>> Tool(search).name, Tool(search)("join late")
        ('search', ['join late'])
        >>> Tool(search).parameters["properties"]["limit"]
        {'type': 'integer', 'description': 'how many entries', 'default': 3}
    """

    def __init__(self, fn: Callable, name: str | None = None):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "")
        if not self.name:  # a functools.partial or a callable object: nothing to call the tool by
            raise ToolDefinitionError(f"{fn!r} has no __name__ to call the tool by; pass name=... .")
        try:
            hash(fn)
        except TypeError:  # an unhashable callable object: described afresh each time
            described = _describe(fn, self.name)
        else:
            described = _described(fn, self.name)
        self.description, self.model, defaults, parameters = described
        self.defaults = dict(defaults)  # parameter -> default, used when a strict-mode model sends null
        self.parameters = copy.deepcopy(parameters)  # this tool's own: the cached one stays as built

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<tool {self.name}{inspect.signature(self.fn)}>"

    def schema(self, strict: bool = False) -> dict:
        """The argument JSON schema; `strict=True` gives OpenAI's strict-mode form.

        Example:
            >>> @tool
            ... def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> search.schema()
            {'type': 'object', 'properties': {'query': {'type': 'string'}}, 'required': ['query'],
            'additionalProperties': False}
        """
        # A copy, so that editing one printed schema can't change what the model is sent later.
        return copy.deepcopy(_strict_schema(self.parameters) if strict else self.parameters)

    def responses_schema(self, strict: bool = False) -> dict:
        """The tool as the Responses API wants it in `tools=[...]`.

        Example:
            >>> @tool
            ... def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> search.responses_schema()
            {'type': 'function', 'name': 'search', 'description': 'Search the FAQ for keywords.',
            'parameters': {'type': 'object', 'properties': {'query': {'type': 'string'}}, 'required':
            ['query'], 'additionalProperties': False}}
        """
        spec = {"type": "function", "name": self.name, "description": self.description}
        spec["parameters"] = self.schema(strict)
        return {**spec, "strict": True} if strict else spec

    def chat_schema(self, strict: bool = False) -> dict:
        """The tool as Chat Completions wants it: the same fields, nested under "function".

        Example:
            >>> @tool
            ... def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> search.chat_schema()
            {'type': 'function', 'function': {'name': 'search', 'description': 'Search the FAQ for keywords.',
            'parameters': {'type': 'object', 'properties': {'query': {'type': 'string'}}, 'required':
            ['query'], 'additionalProperties': False}}}
        """
        function = {k: v for k, v in self.responses_schema(strict).items() if k != "type"}
        return {"type": "function", "function": function}

    def validate(self, arguments: dict) -> dict:
        """Check arguments against the pydantic model; return keyword arguments or raise ToolError.

        Example:
            >>> @tool
            ... def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> search.validate({"query": "join late"})
            {'query': 'join late'}
            >>> search.validate({"query": 3})
            Traceback (most recent call last):
            helpers.tools.dispatch.ToolError: invalid arguments for 'search': query: Input should be a valid string
            (got 3)
        """
        # In strict mode every field is required, so the model sends null for "use the default".
        arguments = {k: v for k, v in arguments.items()
                     if not (v is None and self.defaults.get(k) is not None)}
        try:
            checked = self.model.model_validate(arguments)
        except pydantic.ValidationError as e:
            problems = "; ".join(_describe_problem(err) for err in e.errors())
            raise ToolError(
                f"invalid arguments for {self.name!r}: {problems}",
                f"Fix those fields and call {self.name} again with arguments for {signature_text(self.name, self)}.",
            ) from None
        # dict(model) keeps validated values as they are (enums stay enums), unlike model_dump().
        return dict(checked)


def tool(fn: Callable | None = None, *, name: str | None = None):
    """Decorator: turn a typed function with a docstring into a `Tool`. Works bare or as @tool(name=...).

    Example:
        >>> @tool
        ... def search(query: str) -> list:
        ...     "Search the FAQ for keywords."
        ...     return [query]
        >>> search.name, search("join late")
        ('search', ['join late'])
    """
    if fn is None:
        return lambda f: Tool(f, name=name)
    return Tool(fn, name=name)


class ToolMapping(Mapping):
    """A read-only mapping from tool name to tool over `self._tools`, the part every registry shares (this
    module's `Tools`, helpers.mcp_tools' `MCPTools`): `"search" in tools`, `tools["search"]`, `len(tools)`,
    `get`, `keys`, `items`. Registries stay compared and hashed by identity, as before they were mappings.

    Example:
        >>> class Two(ToolMapping):
        ...     def __init__(self):
        ...         self._tools = {"a": 1, "b": 2}
        >>> registry = Two()
        >>> "a" in registry, registry["b"], len(registry), list(registry), registry == Two()
        (True, 2, 2, ['a', 'b'], False)
    """

    _tools: dict

    # Mapping compares contents and so drops __hash__; a registry is one object (a cache key, a set member).
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __getitem__(self, name: str):
        return self._tools[name]

    def __contains__(self, name) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)


class Tools(ToolMapping):
    """A registry of tools: emits their schemas and runs calls by name (the dict of lesson 04, grown up).

    Behaves like a read-only dict from name to Tool: `"search" in tools`, `tools["search"]`, `len(tools)`.
    Example:
        >>> def search(query: str) -> list:
        ...     "Search the FAQ for keywords."
        ...     return [query]
        >>> tools = Tools(search)
        >>> "search" in tools, len(tools), tools.call("search", '{"query": "late"}')
        (True, 1, '["late"]')
    """

    def __init__(self, *fns: Callable, strict: bool = False):
        self.strict = strict
        self._tools: dict[str, Tool] = {}
        for fn in fns:
            self.add(fn)

    def add(self, fn: Callable, name: str | None = None) -> Tool:
        """Register a function (wrapped with @tool if it isn't yet); usable as a decorator too.

        Example:
            >>> def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> tools = Tools(search)
            >>> def get_weather(city: str) -> dict:
            ...     "The weather now in a city."
            ...     return {"city": city}
            >>> tools.add(get_weather).name, tools.names()
            ('get_weather', ['search', 'get_weather'])
        """
        if isinstance(fn, Tool):
            t = fn if name in (None, fn.name) else Tool(fn.fn, name=name)
        else:
            t = Tool(fn, name=name)
        if t.name in self._tools:
            raise ToolDefinitionError(f"a tool named {t.name!r} is already registered; the model could not "
                                      "tell them apart. Rename one of the functions or pass name=... to "
                                      "add().")
        self._tools[t.name] = t
        return t

    def names(self) -> list[str]:
        """Tool names in registration order.

        Example:
            >>> def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> tools = Tools(search)
            >>> tools.names()
            ['search']
        """
        return list(self._tools)

    def call(self, name: str, arguments) -> str:
        """Validate the JSON arguments and run the tool; errors come back as payload text, never raised.

        Example:
            >>> def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> tools = Tools(search)
            >>> print(tools.call("search", '{"query": 3}'))
            {"error":"invalid arguments for 'search': query: Input should be a valid string (got
            3)","hint":"Fix those fields and call search again with arguments for search(query: string,
            required)."}
        """
        return run_tool(name, arguments, self)

    def responses_schemas(self, strict: bool | None = None) -> list[dict]:
        """Every tool in the Responses API shape.

        Example:
            >>> def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> tools = Tools(search)
            >>> [(schema["type"], schema["name"]) for schema in tools.responses_schemas()]
            [('function', 'search')]
        """
        strict = self.strict if strict is None else strict
        return [t.responses_schema(strict) for t in self._tools.values()]

    def chat_schemas(self, strict: bool | None = None) -> list[dict]:
        """Every tool in the Chat Completions shape.

        Example:
            >>> def search(query: str) -> list:
            ...     "Search the FAQ for keywords."
            ...     return [query]
            >>> tools = Tools(search)
            >>> [(schema["type"], schema["function"]["name"]) for schema in tools.chat_schemas()]
            [('function', 'search')]
        """
        strict = self.strict if strict is None else strict
        return [t.chat_schema(strict) for t in self._tools.values()]

    def __repr__(self) -> str:
        return f"Tools({', '.join(self._tools)})"


def _read_docstring(name: str, fn: Callable) -> tuple[str, dict[str, str]]:
    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    if not doc.short_description:
        raise ToolDefinitionError(f"tool {name!r} has no docstring; the model reads it to decide when to "
                                  "call the tool. Add one: a first line saying what the tool does, then "
                                  "an Args: section describing each parameter.")
    description = doc.short_description
    if doc.long_description:
        description += "\n\n" + doc.long_description
    # Collapse wrapped lines: the model needs the words, not the source layout.
    param_docs = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    return description, param_docs


def _describe(fn: Callable, name: str) -> tuple[str, type[pydantic.BaseModel], dict, dict]:
    """What Tool() reads from a function: its description, argument model, defaults and cleaned schema."""
    description, param_docs = _read_docstring(name, fn)
    defaults: dict = {}
    model = _build_model(name, fn, param_docs, defaults)
    return description, model, defaults, _clean_schema(name, model.model_json_schema())


# Cached per function and name: building the pydantic model costs milliseconds, and the course wraps the same
# functions again and again (every agent_loop call, every case of an injection measure, every check). A
# definition error is not cached, so it is raised each time.
_described = functools.lru_cache(maxsize=512)(_describe)


def _build_model(name: str, fn: Callable, param_docs: dict[str, str],
                 defaults: dict) -> type[pydantic.BaseModel]:
    params = inspect.signature(fn).parameters
    unknown = sorted(set(param_docs) - set(params))
    if unknown:
        raise ToolDefinitionError(f"tool {name!r} documents parameter(s) {', '.join(unknown)} that the "
                                  "function does not have. Fix the Args: section of the docstring so it "
                                  "matches the signature.")
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as e:
        raise ToolDefinitionError(
            f"tool {name!r}: can't resolve its type hints ({e}); fix the annotations."
        ) from e
    fields: dict[str, typing.Any] = {}  # parameter -> (type, pydantic.Field)
    for p in params.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
            raise ToolDefinitionError(f"tool {name!r}: parameter {p} can't be described by a JSON schema; "
                                      "the model sends named arguments only. Replace it with named, typed "
                                      "parameters.")
        if p.name not in hints:
            raise ToolDefinitionError(f"tool {name!r}: parameter {p.name!r} has no type hint, so the "
                                      f"schema can't say what to send. Annotate it, e.g. `{p.name}: str`.")
        default = ... if p.default is p.empty else p.default
        if default is not ...:
            defaults[p.name] = default
        fields[p.name] = (hints[p.name], pydantic.Field(default, description=param_docs.get(p.name) or None))
    try:
        with warnings.catch_warnings():  # a parameter named like a BaseModel method only triggers a warning
            warnings.simplefilter("ignore")
            model = pydantic.create_model(f"{name}_arguments",
                                          __config__=pydantic.ConfigDict(extra="forbid"), **fields)
            model.model_json_schema()  # fail now, at definition time, if a type has no JSON schema
    except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError, NameError, TypeError) as e:
        raise ToolDefinitionError(f"tool {name!r}: pydantic can't build a schema from its parameters "
                                  f"({str(e).splitlines()[0]}) Use JSON-friendly types: str, int, float, "
                                  "bool, list[...], Literal[...], Enum or a pydantic model.") from e
    return model


# Key order for printed schemas: what a reader looks for first comes first.
_KEY_ORDER = ["type", "enum", "items", "properties", "required", "additionalProperties", "anyOf", "description"]


def _clean_schema(name: str, schema: dict) -> dict:
    """Pydantic's schema minus the noise: no titles, $refs inlined, a single-value Literal as an enum."""
    defs = schema.get("$defs", {})

    def clean(node, seen=()):
        if isinstance(node, list):
            return [clean(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"].split("/")[-1]
            if ref in seen:
                raise ToolDefinitionError(f"tool {name!r}: recursive type {ref!r} can't be inlined into a "
                                          "schema.")
            merged = {**defs[ref], **{k: v for k, v in node.items() if k != "$ref"}}
            return clean(merged, (*seen, ref))
        out = {}
        for key, value in node.items():
            if key in ("title", "$defs"):
                continue
            if key == "properties":  # its keys are parameter names, not schema keywords
                out[key] = {prop: clean(sub, seen) for prop, sub in value.items()}
            elif key == "const":
                out["enum"] = [value]
            else:
                out[key] = clean(value, seen)
        # Optional[str] arrives as anyOf [string, null]; {"type": ["string", "null"]} says the same, shorter.
        options = out.get("anyOf", [])
        if options and all(list(o) == ["type"] and isinstance(o["type"], str) for o in options):
            del out["anyOf"]
            out["type"] = [o["type"] for o in options]
        if out.get("type") == "object" and "properties" in out:
            out.setdefault("required", [])
            out.setdefault("additionalProperties", False)
        order = {k: i for i, k in enumerate(_KEY_ORDER)}
        return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))

    return clean(schema)


def _strict_schema(schema: dict) -> dict:
    """OpenAI strict mode: every property required (optional ones made nullable), no defaults."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "default":
            continue  # not allowed in strict mode; the note below keeps the information
        if key == "properties":
            out[key] = {prop: _strict_schema(sub) for prop, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = _strict_schema(value)
        elif key == "anyOf":
            out[key] = [_strict_schema(sub) for sub in value]
        else:
            out[key] = value
    if "default" in schema and schema["default"] is not None:
        note = f"Default: {json.dumps(schema['default'], default=json_default)}; send null to use it."
        out["description"] = f"{out['description']} {note}" if out.get("description") else note
    if out.get("type") == "object" and "properties" in out:
        optional = set(out["properties"]) - set(out.get("required", []))
        out["properties"] = {p: _nullable(s) if p in optional else s for p, s in out["properties"].items()}
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def _nullable(schema: dict) -> dict:
    """Let a schema also accept null, in the simplest form that says so."""
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return schema
    if "anyOf" in schema:
        if {"type": "null"} in schema["anyOf"]:
            return schema
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    if isinstance(kind, str) and "enum" not in schema:
        return {**schema, "type": [kind, "null"]}
    described = {k: v for k, v in schema.items() if k != "description"}
    nullable = {"anyOf": [described, {"type": "null"}]}
    return {**nullable, "description": schema["description"]} if "description" in schema else nullable


def _describe_problem(err: Mapping[str, typing.Any]) -> str:
    field = ".".join(str(part) for part in err["loc"]) or "(arguments)"
    if err["type"] in ("missing", "extra_forbidden"):
        return f"{field}: {err['msg']}"
    return f"{field}: {err['msg']} (got {json.dumps(err.get('input'), default=json_default)})"
