"""A response format checked before the rules see it: a json_schema the structured-output filler can't fill,
or one that breaks strict mode's rules, gets a 400 naming the place in the schema (OpenAI's error shape).

The rules (structured.py) say what they can fill by raising SchemaError; turning that into an HTTP answer
is the API's business, so it is done here, while the request is read (wire.py), never while deciding.

What it leaves out on purpose: which keywords are supported and why (schema_rules.py, structured.py).
"""

from __future__ import annotations

from helpers.offline.api.errors import ApiError
from helpers.offline.schema_rules import SchemaError, strict_problem
from helpers.offline.structured import Facts, fill


def check_format(output_format: dict, where: str, name: str) -> None:
    """Raise a 400 ApiError when the schema of a response format uses a keyword the filler doesn't support
    or can't be filled (tried with an answer that found something and one that didn't), naming the place in
    the schema.

    Example:
        >>> check_format({"type": "json_schema", "name": "x", "schema": {"not": {}}}, "text.format", "x")
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Invalid schema for response_format 'x': at 'schema', 'not' is not
        supported by the offline model, ... Remove 'not', or say the rule in the field's description.
    """
    if output_format.get("type") != "json_schema":
        return
    schema = output_format.get("schema") or {}
    if output_format.get("strict") is True:
        problem = strict_problem(schema)
        if problem:
            raise ApiError(400, f"Invalid schema for response_format {name!r}: {problem} (strict mode, as on "
                                f"OpenAI: set strict to false, or fix the schema.)", param=f"{where}.schema",
                           code="invalid_json_schema")
    for facts in (Facts("An answer 1.", ["id1"], ["A title"], True), Facts("Nothing found.", [], [], False)):
        try:
            fill(schema, facts)
        except SchemaError as error:
            place = error.path if len(error.path) <= 100 else f"{error.path[:50]} ... {error.path[-40:]}"
            raise ApiError(400, f"Invalid schema for response_format {name!r}: at '{place}', {error.message}",
                           param=f"{where}.schema", code="invalid_json_schema") from None
        except RecursionError:
            raise ApiError(400, f"Invalid schema for response_format {name!r}: it nests too deeply to fill.",
                           param=f"{where}.schema", code="invalid_json_schema") from None
