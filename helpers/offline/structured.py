"""Structured output: the answer the rules would have given, written as JSON that fits a JSON schema.

Used for Responses `text.format` / Chat `response_format` ({"type": "json_schema", ...} or
{"type": "json_object"}) and for the arguments of a tool the caller forces (`tool_choice`) when the
rules would have answered in text (PydanticAI's `final_result` output tool, for instance).

The schemas it fills are the ones Python clients send: Pydantic v2's `model_json_schema()`, the strict
form the openai SDK's `parse` helpers and the OpenAI Agents SDK make from it, and PydanticAI's output
tools and prompts. So it reads the `SUPPORTED` keywords only (schema_rules.py): objects (`properties`, `required`,
`additionalProperties`), `$defs` / `$ref`, `anyOf` (and the `oneOf` + `discriminator` of Pydantic's
tagged unions), `enum`, `const`, the JSON types (one, or a list such as ["string", "null"]), `items`, and
the formats, lengths and bounds Pydantic's `Field(...)` writes. Any other keyword gets a 400 naming it
and its place in the schema, as the real API refuses what strict mode doesn't allow.

What goes where is decided by the schema alone, never by one caller's field names:
- a field's *role* (field_roles.py) comes from the words of its name and of its description. A source
  field gets the cited document's id; the one string field of an object that reads most like an answer
  (the first string field when none does) gets the answer text; other string fields get the cited
  document's title, else the text;
- booleans say whether something was found, inverted when the field's name or its description's first
  clause is negative ("not", "missing", "off", "refused", ...);
- enums: the member whose words best match the answer (and whose polarity matches found / not found),
  else the first; numbers: the first number in the answer text, else 0, moved into the bounds;
- arrays: one item made by the same rules, or the cited ids for a source array; a nullable source is
  null when nothing was cited.
Every value made is checked against the schema (jsonschema) before it leaves; a schema that cannot be
filled gets a 400 naming the place in the schema and what to change (api/formats.py asks, while the request is read).

What it leaves out on purpose: inference, and the rest of JSON Schema. The values are extracts of what
the rules would have said (the answer text, the cited id, found or not), never facts worked out from the
question; a `pattern` is met only when an extract already matches it. `allOf`, `not`, `prefixItems`
(tuples), `multipleOf`, `minProperties` and the like are refused: Pydantic's common models and the frameworks don't send them.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from helpers.offline.field_roles import NEGATIVE_WORDS, field_role, name_words, role_scores
from helpers.offline.schema_rules import SchemaError, check_well_formed, unsupported_keyword
from helpers.offline.text import stem

SOFT_DEPTH = 6  # below this nesting, only what is required is filled (recursive schemas end here)
HARD_DEPTH = 32  # a schema that still demands more nesting than this cannot be filled
_NUMBER = re.compile(r"(?<![\w.\[-])-?\d+(?:\.\d+)?(?![\w\]])")

_FORMATS = {"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z", "duration": "P1D",
            "email": "offline@example.com", "ipv4": "127.0.0.1", "ipv6": "::1",
            "uuid": "00000000-0000-4000-8000-000000000000", "uri": "https://example.com/"}
_FORMAT_CHECKS = {"date-time": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "date": r"^\d{4}-\d\d-\d\d$",
                  "email": r"^[^@\s]+@[^@\s]+\.\w+$", "uri": r"^[a-zA-Z][\w+.-]*:\S+$",
                  "uuid": r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$"}


@dataclass
class Facts:
    """What the model would have said: the text, the documents it cited (ids and titles), and whether
    it found an answer (False for "found nothing", a refusal or a failure)."""

    text: str
    cited: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    found: bool = True


class _Filler:
    def __init__(self, root: dict | bool, facts: Facts):
        self.root, self.facts = root, facts

    # JSON values are typed Any in this class: its method `object` (the filler of "type": "object") hides
    # the builtin in the class body, where the annotations are read.
    def resolve(self, schema: Any, path: str) -> Any:
        """`schema` with its $ref followed (refs inside the document only); annotations beside the $ref
        (Pydantic's description of a field whose type is a model) are kept."""
        for _ in range(HARD_DEPTH):
            if not isinstance(schema, dict) or "$ref" not in schema:
                return schema
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**self.lookup(schema["$ref"], path), **rest}
        raise SchemaError(path, "the $ref chain never ends.")

    def lookup(self, ref: str, path: str) -> dict:
        if not ref.startswith("#"):
            raise SchemaError(f"{path}.$ref", f"only references inside the schema ('#/$defs/Name') are "
                                              f"supported, not {ref!r}.")
        node: object = self.root
        for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/") if p]:
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"{path}.$ref", f"{ref!r} points at nothing in the schema. Define it under "
                                                  f"'$defs'.")
            node = node[part]
        if node is True:
            return {}
        if not isinstance(node, dict):
            raise SchemaError(f"{path}.$ref", f"{ref!r} does not point at a schema (or points at false).")
        return node

    # --- values ------------------------------------------------------------------------------------

    def value(self, schema: Any, path: str, role: str, depth: int):
        if depth > HARD_DEPTH:
            raise SchemaError(path, f"the schema nests deeper than {HARD_DEPTH} levels even when only required "
                                    f"fields are filled (a recursion with no way out). Make the recursive field "
                                    f"optional, nullable or an array that may be empty.")
        schema = self.resolve(schema, path)
        if schema is False:
            raise SchemaError(path, "the schema is false, so no value fits it. Give this field a schema it can "
                                    "meet, or drop it from 'required'.")
        if schema is True:
            schema = {}
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return self.enum(schema["enum"], path)
        key = "anyOf" if "anyOf" in schema else "oneOf" if "oneOf" in schema else None
        if key:
            return self.any_of(schema[key], f"{path}.{key}", role, depth)
        kinds = schema.get("type", "any")
        if isinstance(kinds, list):
            if "null" in kinds and (self.empty(role) or depth >= SOFT_DEPTH or kinds == ["null"]):
                return None
            kinds = next(k for k in kinds if k != "null")
        if kinds == "any":  # Pydantic's `Any`: no type at all
            return self.text_for(role)
        fill = {"object": self.object, "array": self.array, "string": self.string, "integer": self.number,
                "number": self.number, "boolean": self.boolean, "null": lambda *a: None}[kinds]
        return fill(schema, path, role, depth, kinds)

    def empty(self, role: str) -> bool:
        """True when the role has nothing to say: a source field with nothing cited."""
        return role == "source" and not self.facts.cited

    def text_for(self, role: str) -> str:
        if role == "source":
            return self.facts.cited[0] if self.facts.cited else ""
        if role in ("title", "other") and self.facts.titles:
            return self.facts.titles[0]
        return self.facts.text

    def any_of(self, options: list, path: str, role: str, depth: int):
        """The first option that can be filled; null first when there is nothing to say (Optional)."""
        resolved = [self.resolve(o, f"{path}[{i}]") for i, o in enumerate(options)]
        nulls = [i for i, o in enumerate(resolved) if isinstance(o, dict) and o.get("type") == "null"]
        order = [i for i in range(len(options)) if i not in nulls]
        order = nulls + order if (self.empty(role) or depth >= SOFT_DEPTH) else order + nulls
        first_error = None
        for i in order:
            try:
                return self.value(resolved[i], f"{path}[{i}]", role, depth)
            except SchemaError as error:
                first_error = first_error or error
        # Never None here (options is non-empty), but a type checker can't know that.
        raise first_error or SchemaError(path, "no option fits.")

    def enum(self, members: list, path: str):
        if not members:
            raise SchemaError(f"{path}.enum", "is empty: no value fits it.")
        text_stems = {stem(w) for w in name_words(self.facts.text)}
        polar = [any(stem(w) in NEGATIVE_WORDS for w in name_words(str(m))) for m in members]

        def fit(i: int) -> tuple:
            overlap = len({stem(w) for w in name_words(str(members[i]))} & text_stems)
            polarity = (polar[i] != self.facts.found) if any(polar) else False
            return (polarity, overlap, -i)

        return members[max(range(len(members)), key=fit)]

    def object(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> dict:
        props, required = schema.get("properties", {}), schema.get("required", [])
        extra = schema.get("additionalProperties", True)
        names = list(props) if depth < SOFT_DEPTH else [n for n in props if n in required]
        names += [n for n in required if n not in props]
        if not props and not required:  # a free-form `dict`: the answer and its source; `dict[str, X]`: {}
            return self.json_object() if extra is True else {}
        roles = {n: field_role(n, props.get(n) if isinstance(props.get(n), dict) else {}) for n in names}
        # The answer text goes to the one string field that reads most like an answer (or the first one).
        strings = [n for n in names if self._stringy(props.get(n, {}), path) and roles[n] not in ("source", "title")]
        if strings and "answer" not in [roles[n] for n in strings]:
            roles[strings[0]] = "answer"
        for n in [n for n in strings if roles[n] == "answer"][1:]:
            roles[n] = "other"
        out = {}
        for name in names:
            sub = props.get(name, extra if isinstance(extra, dict) else {})
            value = self.value(sub, f"{path}.properties.{name}", roles[name], depth + 1)
            if isinstance(value, bool) and self._negative(name, sub, path):
                value = not value  # "is_off_topic", "not_found": true when nothing was found
            out[name] = value
        return out

    def _negative(self, name: str, schema: Any, path: str) -> bool:
        schema = self.resolve(schema, path)
        if not isinstance(schema, dict) or "const" in schema or "enum" in schema:
            return False
        return bool(role_scores(name, str(schema.get("description") or ""))["negative"])

    def _stringy(self, schema: Any, path: str) -> bool:
        try:
            schema = self.resolve(schema, path)
        except SchemaError:
            return False
        if not isinstance(schema, dict):
            return schema is True
        kinds = schema.get("type")
        options = schema.get("anyOf") or schema.get("oneOf") or []
        return (kinds == "string" or isinstance(kinds, list) and "string" in kinds
                or any(self._stringy(o, path) for o in options)) and "enum" not in schema

    def json_object(self) -> dict:
        out: dict = {"answer": self.facts.text}
        if self.facts.cited:
            out["source"] = self.facts.cited[0]
        return out

    def array(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> list:
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if high is not None and low > high:
            raise SchemaError(f"{path}.minItems", f"minItems {low} is above maxItems {high}: no array fits.")
        wanted = len(self.facts.cited) if role == "source" else 0 if depth >= SOFT_DEPTH else 1
        count = max(low, wanted) if high is None else min(max(low, wanted), high)
        out, facts = [], self.facts
        for i in range(count):
            if role == "source" and i < len(facts.cited):  # item i of a source array is the i-th cited entry
                self.facts = Facts(facts.text, facts.cited[i:] + facts.cited[:i], facts.titles[i:] + facts.titles[:i],
                                   facts.found)
            try:
                out.append(self.value(schema.get("items", {}), f"{path}.items", role, depth + 1))
            finally:
                self.facts = facts
        return self.unique(out, path) if schema.get("uniqueItems") else out

    @staticmethod
    def unique(values: list, path: str) -> list:
        """Pydantic's `set[str]`: repeated strings numbered ("text (2)"); other repeats can't be told apart."""
        seen: list = []
        for value in values:
            if value in seen:
                if not isinstance(value, str):
                    raise SchemaError(f"{path}.uniqueItems", "needs more different items than the answer holds. "
                                                             "Lower minItems or drop uniqueItems.")
                value = next(f"{value} ({n})" for n in range(2, len(values) + 2) if f"{value} ({n})" not in seen)
            seen.append(value)
        return seen

    def string(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> str:
        candidates = [self.text_for(role), *self.facts.cited, *self.facts.titles, self.facts.text]
        fmt = schema.get("format")
        if fmt in _FORMATS:
            check = _FORMAT_CHECKS.get(fmt)
            fitting = [c for c in candidates if check and re.search(check, c)]
            candidates = fitting or [_FORMATS[fmt]]  # a format the extracts don't have: a fixed placeholder
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if high is not None and low > high:
            raise SchemaError(f"{path}.minLength", f"minLength {low} is above maxLength {high}: no string fits.")
        # Cut to maxLength, padded to minLength.
        candidates = [(c if high is None else c[:high]).ljust(low, ".") for c in candidates]
        pattern = schema.get("pattern")
        if pattern is not None:
            try:
                candidates = [c for c in candidates if re.search(pattern, c)]
            except re.error as error:
                raise SchemaError(f"{path}.pattern", f"is not a regular expression the offline model can read "
                                                     f"({error}).") from None
            if not candidates:
                raise SchemaError(f"{path}.pattern", f"no extract of the answer matches {pattern!r}, and the "
                                                     f"offline model doesn't invent text to fit a pattern. Drop the "
                                                     f"pattern, or use a real model.")
        return candidates[0]

    def number(self, schema: dict, path: str, role: str, depth: int, kind: str):
        """The first number in the answer, else 0; out of bounds, the nearest bound (or a value just inside)."""
        low, high = schema.get("minimum", -math.inf), schema.get("maximum", math.inf)
        xlow, xhigh = schema.get("exclusiveMinimum", -math.inf), schema.get("exclusiveMaximum", math.inf)
        found = _NUMBER.findall(self.facts.text)
        start = float(found[0]) if found else 0.0
        lower, upper = max(low, xlow), min(high, xhigh)
        for value in (start, min(max(start, lower), upper), lower + 1, upper - 1, (lower + upper) / 2):
            if not math.isfinite(value):
                continue
            value = float(math.ceil(value) if kind == "integer" else value)
            if low <= value <= high and xlow < value < xhigh:
                return int(value) if kind == "integer" or value.is_integer() else value
        raise SchemaError(path, f"no {kind} fits the bounds (minimum/maximum) of this field.")

    def boolean(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> bool:
        return self.facts.found


def fill(schema: object, facts: Facts) -> object:
    """A value that fits `schema`, made from what the model would have said. Raises SchemaError.

    Example:
        >>> fill({"type": "object", "properties": {"reply": {"type": "string"}, "ref": {"type": "string"}},
        ...       "required": ["reply", "ref"], "additionalProperties": False}, Facts("Yes, you can.", ["74eb249bbf"]))
        {'reply': 'Yes, you can.', 'ref': '74eb249bbf'}
    """
    if not isinstance(schema, dict | bool):
        raise SchemaError("schema", "must be a JSON schema (an object).")
    if (error := unsupported_keyword(schema)) is not None:
        raise error
    check_well_formed(schema)
    value = _Filler(schema, facts).value(schema, "schema", "answer", 0)
    _check(schema, value)
    return value


def _check(schema: dict | bool, value: object) -> None:
    """Validate the value made against the schema: the filler's rules must never send JSON that doesn't fit."""
    from jsonschema import Draft202012Validator  # imported here: slow to import, and seldom needed

    try:
        errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    except Exception as error:  # a $ref the validator can't resolve
        raise SchemaError("schema", f"is not a valid JSON schema ({type(error).__name__}: {error}).") from None
    if errors:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in errors[0].absolute_path)
        raise SchemaError(f"schema{where}", f"the offline model could not make a value that fits here "
                                            f"({errors[0].message[:200]}). Simplify this part of the schema.")


def structured_text(output_format: dict, facts: Facts) -> str:
    """The output text for a `text.format` / `response_format`: JSON of the answer, or the text itself.

    Example:
        >>> structured_text({"type": "json_object"}, Facts("Yes.", ["abc"]))
        '{"answer": "Yes.", "source": "abc"}'
    """
    kind = output_format.get("type")
    if kind == "json_object":
        return json.dumps(_Filler({}, facts).json_object(), ensure_ascii=False)
    if kind == "json_schema":
        return json.dumps(fill(output_format.get("schema") or {}, facts), ensure_ascii=False)
    return facts.text
