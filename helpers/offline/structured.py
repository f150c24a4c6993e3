"""Structured output: the answer the rules would have given, written as JSON that fits a JSON schema.

Used for Responses `text.format` / Chat `response_format` ({"type": "json_schema", ...} or
{"type": "json_object"}) and for the arguments of a tool the caller forces (`tool_choice`) when the
rules would have answered in text (PydanticAI's `final_result` output tool, for instance).

What goes where is decided by the schema alone, never by one caller's field names:
- a field's *role* (field_roles.py) comes from the words of its name and of its description, the first
  words of the description counting most. A source field gets the cited FAQ entry id; the answer field
  (the words "what is said": answer, text, reply, summary, ...) gets the answer text. The one string field of an object that reads most like an answer gets the answer text (the
  first string field when none does); other string fields get the cited entry's title, else the text;
- booleans say whether something was found, inverted when the field's name or its description's first
  clause is negative ("not", "missing", "off", "refused", ...);
- enums: the member whose words best match the answer (and whose polarity matches found / not found),
  else the first; numbers: the first number in the answer text, else the minimum, kept in bounds;
- arrays: one item made by the same rules, or the cited ids for a source array; nested objects, $ref
  / $defs, anyOf (a nullable source is null when nothing was cited), allOf, const, formats and length
  limits are handled too.
Every value made is checked against the schema (jsonschema) before it leaves; a schema that cannot be
filled gets a 400 naming the place in the schema and what to change.

What it leaves out on purpose: inference. The values are extracts of what the rules would have said
(the answer text, the cited id, found or not), never facts worked out from the question. A `pattern` is
met only when an extract already matches it; `not`, `if/then/else`, `contains`, `patternProperties` and
the like are refused with a clear error.

Why one module of about 550 lines: filling is one recursive walk over a schema (`_Filler`), with one method
per JSON-schema keyword family, and `check_format` / `strict_problem` are the same walk's two questions
asked before the answer exists (can this schema be filled? does it meet strict mode?). Split, each keyword
would be read in one file and checked in another.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from helpers.offline.errors import ApiError
from helpers.offline.field_roles import NEGATIVE_WORDS, field_role, name_words, role_scores
from helpers.offline.text import stem

SOFT_DEPTH = 6  # below this nesting, only what is required is filled (recursive schemas end here)
HARD_DEPTH = 32  # a schema that still demands more nesting than this cannot be filled
_NUMBER = re.compile(r"(?<![\w.\[-])-?\d+(?:\.\d+)?(?![\w\]])")

# Keywords whose meaning the filler cannot honour: refused with a clear error rather than ignored.
UNSUPPORTED = ("not", "if", "then", "else", "contains", "minContains", "maxContains", "patternProperties",
               "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties",
               "unevaluatedItems", "$dynamicRef", "$recursiveRef")
_FORMATS = {"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z", "duration": "P1D",
            "email": "offline@example.com", "hostname": "example.com", "ipv4": "127.0.0.1", "ipv6": "::1",
            "uuid": "00000000-0000-4000-8000-000000000000", "uri": "https://example.com/",
            "uri-reference": "https://example.com/", "iri": "https://example.com/"}
_FORMAT_CHECKS = {"date-time": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "date": r"^\d{4}-\d\d-\d\d$",
                  "email": r"^[^@\s]+@[^@\s]+\.\w+$", "uri": r"^[a-zA-Z][\w+.-]*:\S+$",
                  "uri-reference": r"^\S+$", "iri": r"^[a-zA-Z][\w+.-]*:\S+$",
                  "uuid": r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$"}


@dataclass
class Facts:
    """What the model would have said: the text, the FAQ entries it cited (ids and titles), and whether
    it found an answer (False for "found nothing", a refusal or a failure)."""

    text: str
    cited: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    found: bool = True


class SchemaError(Exception):
    """A schema the filler cannot satisfy, with the path of the place in the schema."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


class _Filler:
    def __init__(self, root: dict | bool, facts: Facts):
        self.root, self.facts = root, facts

    # --- schema plumbing ---------------------------------------------------------------------------

    def resolve(self, schema: dict, path: str, seen: int = 0) -> dict:
        """`schema` with its $ref and allOf merged in (refs inside the document only)."""
        if not isinstance(schema, dict):
            return schema
        for keyword in UNSUPPORTED:
            if keyword in schema:
                raise SchemaError(f"{path}.{keyword}", f"the offline model cannot honour '{keyword}'. Remove it "
                                                        f"from the schema (or describe the rule in words).")
        if "$ref" in schema:
            if seen > HARD_DEPTH:
                raise SchemaError(path, "the $ref chain never ends.")
            target = self.lookup(schema["$ref"], path)
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = self.merge([self.resolve(target, path, seen + 1), rest], path) if rest else \
                self.resolve(target, path, seen + 1)
        if "allOf" in schema:
            parts = schema["allOf"]
            if not isinstance(parts, list):
                raise SchemaError(f"{path}.allOf", "must be an array of schemas.")
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            schema = self.merge([rest] + [self.resolve(p, f"{path}.allOf[{i}]", seen + 1)
                                          for i, p in enumerate(parts)], path)
        return schema

    def lookup(self, ref: Any, path: str) -> dict:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise SchemaError(f"{path}.$ref", f"only references inside the schema ('#/$defs/Name') are "
                                              f"supported, not {ref!r}.")
        node: object = self.root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise SchemaError(f"{path}.$ref", f"{ref!r} points at nothing in the schema. Define it under "
                                                  f"'$defs'.")
        if node is True:
            return {}
        if not isinstance(node, dict):
            raise SchemaError(f"{path}.$ref", f"{ref!r} does not point at a schema (or points at false).")
        return node

    def merge(self, parts: list, path: str) -> dict:
        merged: dict = {}
        for part in parts:
            if part is True:
                continue
            if not isinstance(part, dict):
                raise SchemaError(path, "allOf can't be satisfied: one of its schemas is false.")
            for key, value in part.items():
                if key == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required":
                    merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
                elif key in ("description", "title", "$defs", "definitions", "default", "examples", "$comment"):
                    merged.setdefault(key, value)
                elif key in merged and merged[key] != value:
                    raise SchemaError(f"{path}.allOf", f"its schemas disagree on '{key}', which the offline "
                                                       f"model can't combine. Write the object out in one schema.")
                else:
                    merged[key] = value
        return merged

    # --- values ------------------------------------------------------------------------------------

    def value(self, schema: Any, path: str, role: str, depth: int):
        if depth > HARD_DEPTH:
            raise SchemaError(path, f"the schema nests deeper than {HARD_DEPTH} levels even when only required "
                                    f"fields are filled (a recursion with no way out). Make the recursive field "
                                    f"optional, nullable or an array that may be empty.")
        if schema is True or schema == {}:
            return self.text_for(role)
        if schema is False:
            raise SchemaError(path, "the schema is false, so no value fits it. Give this field a schema it can "
                                    "meet, or drop it from 'required'.")
        if not isinstance(schema, dict):
            raise SchemaError(path, "must be a schema (an object).")
        schema = self.resolve(schema, path)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return self.enum(schema, path)
        options = schema.get("anyOf") if "anyOf" in schema else schema.get("oneOf")
        if options is not None:
            return self.any_of(schema, options, path, role, depth)
        kinds = schema.get("type")
        if isinstance(kinds, list):
            if not kinds:
                raise SchemaError(f"{path}.type", "is an empty list: no value fits it.")
            if "null" in kinds and (self.empty(role) or depth >= SOFT_DEPTH or kinds == ["null"]):
                return None
            kind = next(k for k in kinds if k != "null")
        else:
            kind = kinds or self.implied_type(schema)
        fill = {"object": self.object, "array": self.array, "string": self.string, "integer": self.number,
                "number": self.number, "boolean": self.boolean, "null": lambda *a: None}.get(kind)
        if fill is None:
            raise SchemaError(f"{path}.type", f"unknown type {kind!r}. Use string, number, integer, boolean, "
                                              f"object, array or null.")
        return fill(schema, path, role, depth, kind)

    @staticmethod
    def implied_type(schema: dict) -> str:
        if "properties" in schema or "additionalProperties" in schema or "required" in schema:
            return "object"
        if "items" in schema or "prefixItems" in schema or "minItems" in schema:
            return "array"
        if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
            return "number"
        return "string"

    def empty(self, role: str) -> bool:
        """True when the role has nothing to say: a source field with nothing cited."""
        return role == "source" and not self.facts.cited

    def text_for(self, role: str) -> str:
        if role == "source":
            return self.facts.cited[0] if self.facts.cited else ""
        if role in ("title", "other") and self.facts.titles:
            return self.facts.titles[0]
        return self.facts.text

    def any_of(self, schema: dict, options: Any, path: str, role: str, depth: int):
        key = "anyOf" if "anyOf" in schema else "oneOf"
        if not isinstance(options, list) or not options:
            raise SchemaError(f"{path}.{key}", "must be a non-empty array of schemas.")
        rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        resolved = [self.resolve(o, f"{path}.{key}[{i}]") if isinstance(o, dict) else o for i, o in enumerate(options)]
        nulls = [i for i, o in enumerate(resolved) if isinstance(o, dict) and o.get("type") == "null"]
        order = [i for i in range(len(options)) if i not in nulls]
        order = nulls + order if (self.empty(role) or depth >= SOFT_DEPTH) else order + nulls
        first_error = None
        for i in order:
            option = resolved[i]
            merged = self.merge([rest, option], path) if isinstance(option, dict) and rest else option
            try:
                return self.value(merged, f"{path}.{key}[{i}]", role, depth)
            except SchemaError as error:
                first_error = first_error or error
        # Never None here (options is non-empty), but a type checker can't know that.
        raise first_error or SchemaError(f"{path}.{key}", "no option fits.")

    def enum(self, schema: dict, path: str):
        members = schema["enum"]
        if not isinstance(members, list) or not members:
            raise SchemaError(f"{path}.enum", "must be a non-empty array of values.")
        text_stems = {stem(w) for w in name_words(self.facts.text)}
        polar = [any(stem(w) in NEGATIVE_WORDS for w in name_words(str(m))) for m in members]

        def fit(i: int) -> tuple:
            overlap = len({stem(w) for w in name_words(str(members[i]))} & text_stems)
            polarity = (polar[i] != self.facts.found) if any(polar) else False
            return (polarity, overlap, -i)

        return members[max(range(len(members)), key=fit)]

    def object(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> dict:
        props = schema.get("properties") or {}
        if not isinstance(props, dict):
            raise SchemaError(f"{path}.properties", "must be an object mapping names to schemas.")
        required = schema.get("required") or []
        if not isinstance(required, list):
            raise SchemaError(f"{path}.required", "must be an array of property names.")
        extra = schema.get("additionalProperties", True)
        closed = extra is False
        for name in required:
            if name not in props and closed:
                raise SchemaError(f"{path}.required", f"lists '{name}', which has no schema under 'properties' "
                                                      f"while additionalProperties is false. Add it to properties.")
        names = list(props) if depth < SOFT_DEPTH else [n for n in props if n in required]
        names += [n for n in required if n not in props]
        roles = {n: field_role(n, prop if isinstance(prop := props.get(n), dict) else {}) for n in names}
        # The answer text goes to the one string field that reads most like an answer (or the first one).
        strings = [n for n in names if self._stringy(props.get(n, {}), f"{path}.properties.{n}")
                   and roles[n] not in ("source", "title")]
        if strings and "answer" not in [roles[n] for n in strings]:
            roles[strings[0]] = "answer"
        answer_fields = [n for n in strings if roles[n] == "answer"]
        for n in answer_fields[1:]:
            roles[n] = "other"
        out = {}
        for name in names:
            sub = props.get(name, extra if isinstance(extra, dict) else {})
            value = self.value(sub, f"{path}.properties.{name}", roles[name], depth + 1)
            if isinstance(value, bool) and self._negative(name, sub, path):
                value = not value  # "is_off_topic", "not_found": true when nothing was found
            out[name] = value
        if not props and not closed:
            out = self.json_object() if not isinstance(extra, dict) else {}
        low, high = schema.get("minProperties", 0), schema.get("maxProperties")
        while len(out) < low and not closed:
            out[f"field_{len(out) + 1}"] = self.value(extra if isinstance(extra, dict) else {}, path, "other",
                                                      depth + 1)
        if high is not None and len(out) > high:
            for name in [n for n in list(out) if n not in required][: len(out) - high]:
                del out[name]
        return out

    def _negative(self, name: str, schema: Any, path: str) -> bool:
        if not isinstance(schema, dict):
            return False
        schema = self.resolve(schema, path)
        if "const" in schema or "enum" in schema:
            return False
        return bool(role_scores(name, str(schema.get("description") or ""))["negative"])

    def _stringy(self, schema: Any, path: str) -> bool:
        if not isinstance(schema, dict):
            return schema is True
        try:
            schema = self.resolve(schema, path)
        except SchemaError:
            return False
        kinds = schema.get("type")
        options = schema.get("anyOf") or schema.get("oneOf") or []
        return (kinds == "string" or isinstance(kinds, list) and "string" in kinds
                or any(isinstance(o, dict) and self._stringy(o, path) for o in options)) and "enum" not in schema

    def json_object(self) -> dict:
        out: dict = {"answer": self.facts.text}
        if self.facts.cited:
            out["source"] = self.facts.cited[0]
        return out

    def array(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> list:
        items = schema.get("items", {})
        prefix = schema.get("prefixItems") or []
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if high is not None and low > high:
            raise SchemaError(f"{path}.minItems", f"minItems {low} is above maxItems {high}: no array fits.")
        if role == "source":
            wanted = len(self.facts.cited)
        else:
            wanted = 0 if depth >= SOFT_DEPTH else 1
        count = max(low, len(prefix) if depth < SOFT_DEPTH else 0, wanted)
        if high is not None:
            count = min(count, high)
        if items is False and count > len(prefix):
            count = len(prefix)
            if count < low:
                raise SchemaError(f"{path}.items", "is false, so the array can't reach minItems.")
        out = []
        for i in range(count):
            sub = prefix[i] if i < len(prefix) else items
            facts = self.facts
            if role == "source" and i < len(facts.cited):
                self.facts = Facts(facts.text, facts.cited[i:] + facts.cited[:i], facts.titles[i:] + facts.titles[:i],
                                   facts.found)
            try:
                out.append(self.value(sub, f"{path}.items" if i >= len(prefix) else f"{path}.prefixItems[{i}]",
                                      role, depth + 1))
            finally:
                self.facts = facts
        if schema.get("uniqueItems"):
            out = self.unique(out, path)
        return out

    @staticmethod
    def unique(values: list, path: str) -> list:
        seen: list = []
        for value in values:
            if value in seen:
                if not isinstance(value, str):
                    raise SchemaError(f"{path}.uniqueItems", "needs more different items than the answer holds. "
                                                             "Lower minItems or drop uniqueItems.")
                n = 2
                while f"{value} ({n})" in seen:
                    n += 1
                value = f"{value} ({n})"
            seen.append(value)
        return seen

    def string(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> str:
        candidates = [self.text_for(role), *self.facts.cited, *self.facts.titles, self.facts.text]
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            check = _FORMAT_CHECKS.get(fmt)
            fitting = [c for c in candidates if check and re.search(check, c)]
            candidates = fitting or [_FORMATS[fmt]]  # a format the extracts don't have: a fixed placeholder
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                compiled = re.compile(pattern)
            except re.error as error:
                raise SchemaError(f"{path}.pattern", f"is not a regular expression the offline model can read "
                                                     f"({error}).") from None
            fitting = [c for c in candidates + [""] if compiled.search(c)]
            if not fitting:
                raise SchemaError(f"{path}.pattern", f"no extract of the answer matches {pattern!r}, and the "
                                                     f"offline model doesn't invent text to fit a pattern. Drop the "
                                                     f"pattern, or use a real model.")
            candidates = fitting
        value = candidates[0]
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if high is not None and low > high:
            raise SchemaError(f"{path}.minLength", f"minLength {low} is above maxLength {high}: no string fits.")
        if high is not None and len(value) > high:
            value = value[:high]
            if isinstance(pattern, str) and not re.search(pattern, value):
                raise SchemaError(f"{path}.maxLength", "the answer cut to maxLength no longer matches the pattern.")
        if len(value) < low:
            value = value + "." * (low - len(value))
            if isinstance(pattern, str) and not re.search(pattern, value):
                raise SchemaError(f"{path}.minLength", "the answer padded to minLength no longer matches the "
                                                       "pattern.")
        return value

    def number(self, schema: dict, path: str, role: str, depth: int, kind: str):
        low, high = schema.get("minimum"), schema.get("maximum")
        xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        step = schema.get("multipleOf")
        found = _NUMBER.findall(self.facts.text)
        start = float(found[0]) if found else float(low if low is not None else xlow if xlow is not None else 0)
        lower = max([b for b in (low,) if b is not None] + [b for b in (xlow,) if b is not None], default=-math.inf)
        upper = min([b for b in (high,) if b is not None] + [b for b in (xhigh,) if b is not None], default=math.inf)

        def fits(v: float) -> bool:
            return ((low is None or v >= low) and (high is None or v <= high) and (xlow is None or v > xlow)
                    and (xhigh is None or v < xhigh) and (kind != "integer" or float(v).is_integer())
                    and (step is None or _multiple(v, step)))

        # Candidates from the start value moved into the bounds, then the steps just above the lower bound.
        grid = step if step else 1.0
        if kind == "integer" and step and not float(step).is_integer():
            grid = step * _integer_ratio(step)
        candidates = [start, 0.0]
        try:
            clamped = min(max(start, lower), upper) if math.isfinite(min(max(start, lower), upper)) else 0.0
            base = math.ceil(clamped / grid) * grid if (step or kind == "integer") else clamped
            candidates += [clamped, base, base + grid, base - grid]
            if math.isfinite(lower):
                first = math.floor(lower / grid) * grid
                candidates += [first + i * grid for i in range(4)]
            if math.isfinite(upper):
                last = math.floor(upper / grid) * grid
                candidates += [last - i * grid for i in range(3)]
            if math.isfinite(lower) and math.isfinite(upper):
                candidates.append((lower + upper) / 2)  # strictly inside two exclusive bounds
        except (OverflowError, ValueError, ZeroDivisionError):
            pass  # bounds beyond what a float can step through: the candidates so far must do
        for value in candidates:
            try:
                if math.isfinite(value) and fits(value):
                    return int(value) if kind == "integer" or float(value).is_integer() else value
            except (OverflowError, ValueError, ZeroDivisionError):
                continue
        raise SchemaError(path, f"no {kind} fits the bounds (minimum/maximum/multipleOf) of this field.")

    def boolean(self, schema: dict, path: str, role: str, depth: int, _kind: str) -> bool:
        return self.facts.found


def _multiple(value: float, step: float) -> bool:
    # The test jsonschema makes (the quotient is a whole number), so no float rounding slips through.
    ratio = value / step
    return math.isfinite(ratio) and int(ratio) == ratio


def _integer_ratio(step: float) -> int:
    """The smallest n with n * step a whole number (1 if there is none below 1000)."""
    return next((n for n in range(1, 1000) if float(n * step).is_integer()), 1)


def fill(schema: Any, facts: Facts) -> object:
    """A value that fits `schema`, made from what the model would have said. Raises SchemaError.

    Example:
        >>> fill({"type": "object", "properties": {"reply": {"type": "string"}, "ref": {"type": "string"}},
        ...       "required": ["reply", "ref"], "additionalProperties": False}, Facts("Yes, you can.", ["74eb249bbf"]))
        {'reply': 'Yes, you can.', 'ref': '74eb249bbf'}
    """
    _check_schema(schema)
    value = _Filler(schema, facts).value(schema, "schema", "answer", 0)
    _check(schema, value)
    return value


def _check_schema(schema: Any) -> None:
    """Check the schema against the JSON Schema metaschema, so the filler only reads well-typed keywords."""
    try:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError as InvalidSchema
    except ImportError:  # pragma: no cover - jsonschema comes with the course's requirements
        return
    if not isinstance(schema, dict | bool):
        raise SchemaError("schema", "must be a JSON schema (an object).")
    try:
        Draft202012Validator.check_schema(schema)
    except InvalidSchema as error:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise SchemaError(f"schema{where}", f"is not valid JSON Schema: {error.message[:200]}.") from None


def _check(schema: Any, value: object) -> None:
    """Validate the value made against the schema: the filler's rules must never send JSON that doesn't fit."""
    try:
        from jsonschema import Draft202012Validator
    except ImportError:  # pragma: no cover - jsonschema comes with the course's requirements
        return
    try:
        errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    except Exception as error:  # an invalid schema (a bad $ref, a wrong keyword type)
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


def strict_problem(schema: object) -> str | None:
    """What the real API refuses in a strict schema, in its words, or None: the root must be an object,
    and every object must set additionalProperties to false and list every property in `required`.

    Example:
        >>> strict_problem({"type": "object", "properties": {"a": {"type": "string"}}})
        "In context=(), 'additionalProperties' is required to be supplied and to be false."
        >>> strict_problem({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
        ...                 "additionalProperties": False}) is None
        True
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
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                for name, sub in value.items():
                    if (p := walk(sub, context + (key, name))):
                        return p
            elif key in ("items", "anyOf", "allOf", "oneOf", "prefixItems", "additionalProperties"):
                if (p := walk(value, context + (key,))):
                    return p
        return None

    return walk(schema, ())


def check_format(output_format: dict, where: str, name: str) -> None:
    """Raise a 400 ApiError when the schema of a response format can't be filled (tried with an answer
    that found something and one that didn't), naming the place in the schema.

    Example:
        >>> check_format({"type": "json_schema", "name": "x", "schema": {"not": {}}}, "text.format", "x")
        Traceback (most recent call last):
        helpers.offline.errors.ApiError: Invalid schema for response_format 'x': at 'schema.not', the offline
        model cannot honour 'not'. Remove it from the schema (or describe the rule in words).
    """
    if output_format.get("type") != "json_schema":
        return
    if output_format.get("strict") is True:
        problem = strict_problem(output_format.get("schema") or {})
        if problem:
            raise ApiError(400, f"Invalid schema for response_format {name!r}: {problem} (strict mode, as on "
                                f"OpenAI: set strict to false, or fix the schema.)", param=f"{where}.schema",
                           code="invalid_json_schema")
    for facts in (Facts("An answer 1.", ["id1"], ["A title"], True), Facts("Nothing found.", [], [], False)):
        try:
            fill(output_format.get("schema") or {}, facts)
        except SchemaError as error:
            place = error.path if len(error.path) <= 100 else f"{error.path[:50]} ... {error.path[-40:]}"
            raise ApiError(400, f"Invalid schema for response_format {name!r}: at '{place}', {error.message}",
                           param=f"{where}.schema", code="invalid_json_schema") from None
        except RecursionError:
            raise ApiError(400, f"Invalid schema for response_format {name!r}: it nests too deeply to fill.",
                           param=f"{where}.schema", code="invalid_json_schema") from None
