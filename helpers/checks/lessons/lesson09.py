"""Lesson 09's exercise: `my_tool`, a decorator that makes a Responses API tool schema from a typed function.

What the lesson's decorator promises, and so what the check asks for: `my_tool(fn)` gives back a function that
still works as `fn` did, carrying `.schema`, a dict in the Responses function-tool shape: "type": "function",
the function's name, the first line of its docstring as the description, and the JSON schema of its arguments
(from the type hints, through pydantic) with the parameters that have no default listed as required. The check
decorates functions of its own, not the lesson's, so a decorator written for one example doesn't pass.

Left out on purpose: what the course's `@tool` adds (parameter descriptions, `additionalProperties`, strict
mode, errors at definition time), pydantic's `title` fields (allowed, not required), and the exact shape of an
optional type (`str | None` may come out as `anyOf` or a list of types).
"""

from __future__ import annotations

import inspect

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_student_code, task_check


def fresh_cases() -> list[tuple]:
    """The functions the check decorates, made anew for every check (a decorator may set attributes on them):
    each with a call and its result, the JSON type of each typed parameter, and the parameters a model must
    always send.

    Example:
        >>> [(fn.__name__, sorted(required)) for fn, _, _, required in fresh_cases()]
        [('book_room', ['nights', 'room']), ('scale', ['values'])]
    """

    def book_room(room: str, nights: int, breakfast: bool = False, note: str | None = None) -> str:
        """Book a hotel room for a number of nights.

        The room is held for 24 hours; a note goes to the front desk.
        """
        return f"{room} x{nights}{' +breakfast' if breakfast else ''}"

    def scale(values: list[float], factor: float = 2.0) -> list[float]:
        """Multiply every value by the same factor."""
        return [v * factor for v in values]

    return [
        (book_room, (("101", 2), {"breakfast": True}),
         {"room": "string", "nights": "integer", "breakfast": "boolean"}, {"room", "nights"}),
        (scale, (([1.0, 2.5],), {}), {"values": "array", "factor": "number"}, {"values"}),
    ]


def _first_line(fn) -> str:
    return (inspect.getdoc(fn) or "").splitlines()[0]


@task_check("09-tool-registry", "E09", title="Write your own @tool")
def check_my_tool(my_tool):
    """Check `my_tool(fn)`: it keeps `fn` callable and attaches `fn.schema`, a Responses function-tool schema.

    Example:
        >>> def my_tool(fn):
        ...     raise NotImplementedError
        >>> check_my_tool(my_tool)
        [NOT DONE YET] Task E09 · Write your own @tool: replace `raise NotImplementedError` with your code.
    """
    if my_tool is None:
        raise NotDoneYet("define my_tool in the cell above, then run this cell again.")
    for fn, (args, kwargs), types, required in fresh_cases():
        name = fn.__name__
        decorated = run_student_code(my_tool, fn, what="my_tool")
        fail_if(isinstance(decorated, dict), f"my_tool({name}) returned a dict: the decorated function can no "
                "longer be called. Give back the function, with the schema attached to it as `.schema`.")
        fail_if(not callable(decorated), f"my_tool({name}) returned a {type(decorated).__name__}, which can't be "
                "called. A decorator gives back the function, so code that calls it keeps working.")
        got = run_student_code(decorated, *args, what=f"the decorated {name}", **kwargs)
        fail_if(got != fn(*args, **kwargs), f"the decorated {name} returns something else than {name} itself; "
                "leave the function's behaviour alone and only attach the schema.")
        schema = getattr(decorated, "schema", None)
        if not isinstance(schema, dict):  # a raise, not fail_if, so the type checker knows it is a dict below
            raise CheckFailed(f"the decorated {name} has no `.schema` dict (found {type(schema).__name__}); "
                              "attach the tool schema to the function as an attribute.")
        fail_if(schema.get("type") != "function", f"{name}.schema['type'] is {schema.get('type')!r}; a "
                "Responses API function tool has the type 'function'.")
        fail_if(schema.get("name") != name, f"{name}.schema['name'] is {schema.get('name')!r}; the tool's "
                "name is the function's name (fn.__name__).")
        description = schema.get("description")
        fail_if(not description, f"{name}.schema has no description; the model reads it to decide when to call "
                "the tool. Take it from the docstring.")
        fail_if(description == inspect.getdoc(fn) and description != _first_line(fn), f"{name}'s description is "
                "its whole docstring; the tool's description is only the docstring's first line.")
        fail_if(description != _first_line(fn), f"{name}'s description is {description!r}, not the first line "
                "of its docstring (inspect.getdoc gives the docstring without its indentation).")
        parameters = schema.get("parameters") or {}
        properties = parameters.get("properties") or {}
        fail_if(set(properties) != set(inspect.signature(fn).parameters), f"{name}.schema['parameters'] "
                f"describes {sorted(properties)}; it should have one property per parameter of {name}.")
        for param, json_type in types.items():
            fail_if(properties[param].get("type") != json_type, f"in {name}'s schema, {param!r} has the type "
                    f"{properties[param].get('type')!r}, which doesn't match its type hint. Build the schema "
                    "from the type hints (typing.get_type_hints), not one type for everything.")
        listed = parameters.get("required") or []
        fail_if(not listed, f"{name}.schema['parameters'] has no 'required' list, so the model may leave every "
                "argument out. A parameter without a default must be required (pydantic: `...` as the default).")
        fail_if(set(listed) - required, f"{name}'s schema requires a parameter that has a default; a parameter "
                "with a default is optional, and its default goes in the field.")
        fail_if(required - set(listed), f"{name}'s schema leaves out of 'required' a parameter that has no "
                "default; a parameter without a default must be required.")
    return "the schema comes from the function itself: name, docstring and type hints."
