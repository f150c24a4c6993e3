"""Which JSON schemas the offline model accepts for structured output, and why it refuses the others.

- `unsupported_keyword`: the first keyword outside `SUPPORTED`, the keywords Pydantic v2 writes (and the
  openai SDK's strict form, the OpenAI Agents SDK and PydanticAI pass on), named with its place;
- `check_well_formed`: the schema is valid JSON Schema (the metaschema), so the filler reads well-typed values;
- `strict_problem`: what the real API refuses under `strict: true`, in its words.

Used by structured.py, which fills the schemas that pass. What it leaves out on purpose: the rest of JSON
Schema (`allOf`, `not`, `prefixItems`, `multipleOf`, `minProperties`, ...): no Pydantic model or framework this package serves sends it, and
a schema that does gets a 400 that says which keyword to remove.
"""

from __future__ import annotations

# The keywords Pydantic v2 writes (and the openai SDK, the Agents SDK and PydanticAI pass on or add).
SUPPORTED = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "$defs", "$ref", "anyOf", "oneOf",
    "enum", "const", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minItems", "maxItems", "uniqueItems",
    # annotations: they constrain nothing
    "title", "description", "default", "examples", "deprecated", "discriminator"})


class SchemaError(Exception):
    """A schema the filler cannot satisfy, with the path of the place in the schema."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


def unsupported_keyword(schema: object, path: str = "schema") -> SchemaError | None:
    """The first keyword outside `SUPPORTED`, as a SchemaError naming it and its place, or None.

    Example:
        >>> unsupported_keyword({"type": "array", "prefixItems": []}).message
        "'prefixItems' is not supported by the offline model, which fills the schemas Pydantic models make
        (...). Remove 'prefixItems', or say the rule in the field's description."
    """
    if not isinstance(schema, dict):
        return None
    for key, value in schema.items():
        if key not in SUPPORTED:
            return SchemaError(path, f"'{key}' is not supported by the offline model, which fills the schemas "
                                     f"Pydantic models make (objects, $defs/$ref, anyOf, enum, const, the JSON "
                                     f"types, items, formats, lengths and bounds). Remove '{key}', or say the rule "
                                     f"in the field's description.")
        if key in ("properties", "$defs") and isinstance(value, dict):
            subs = [(sub, f"{path}.{key}.{name}") for name, sub in value.items()]
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            subs = [(sub, f"{path}.{key}[{i}]") for i, sub in enumerate(value)]
        else:
            subs = [(value, f"{path}.{key}")] if key in ("items", "additionalProperties") else []
        for sub, where in subs:
            if (error := unsupported_keyword(sub, where)) is not None:
                return error
    return None


def check_well_formed(schema: dict | bool) -> None:
    """Raise SchemaError, naming the place, when the schema is not valid JSON Schema (checked against the
    metaschema), so the filler only reads well-typed keywords.

    Example:
        >>> check_well_formed({"type": "text"})
        Traceback (most recent call last):
        helpers.offline.schema_rules.SchemaError: schema.type: is not valid JSON Schema: 'text' is not valid
        under any of the given schemas.
    """
    # Imported here: jsonschema is slow to import, and most runs never ask for structured output.
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError as InvalidSchema

    try:
        Draft202012Validator.check_schema(schema)
    except InvalidSchema as error:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise SchemaError(f"schema{where}", f"is not valid JSON Schema: {error.message[:200]}.") from None


def strict_problem(schema: object) -> str | None:
    """What the real API refuses in a strict schema, in its words, or None: the root must be an object,
    and every object must set additionalProperties to false and list every property in `required`.

    Example:
        >>> strict_problem({"type": "object", "properties": {"a": {"type": "string"}}})
        "In context=(), 'additionalProperties' is required to be supplied and to be false."
    """
    if not isinstance(schema, dict) or schema.get("type") != "object" and "$ref" not in schema:
        return "In context=(), the root schema must be an object (\"type\": \"object\"), not anyOf or another type."

    def walk(node: object, context: tuple) -> str | None:
        if isinstance(node, list):
            return next((p for i, item in enumerate(node) if (p := walk(item, context + (str(i),)))), None)
        if not isinstance(node, dict):
            return None
        where = f"In context=({', '.join(repr(c) for c in context)}{',' if len(context) == 1 else ''})"
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") is not False:
                return f"{where}, 'additionalProperties' is required to be supplied and to be false."
            missing = [k for k in node.get("properties") or {} if k not in (node.get("required") or [])]
            if missing:
                return (f"{where}, 'required' is required to be supplied and to be an array including every key "
                        f"in properties. Missing '{missing[0]}'.")
        for key, value in node.items():
            if key in ("properties", "$defs") and isinstance(value, dict):
                for name, sub in value.items():
                    if (p := walk(sub, context + (key, name))):
                        return p
            elif key in ("items", "anyOf", "oneOf", "additionalProperties"):
                if (p := walk(value, context + (key,))):
                    return p
        return None

    return walk(schema, ())
