"""Lesson 03's exercise: answer a function call with the item that carries its result back to the model.

The student writes `answer_call(call, tools)`: given one Responses API `function_call` item (an SDK object or
a dict) and a dict from tool name to function, run the tool and return the `function_call_output` item. The
check feeds one call of each kind to made-up tools and reads the item: its type, the call_id that pairs it
with its request, and an output that is the result as a JSON string. Left out on purpose: errors (an unknown
tool, broken JSON, a failing tool), which lesson 04 shows and helpers.tools.make_call handles, and the model:
no request is sent, so the check runs the same on every provider.
"""

from __future__ import annotations

import json

from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check

# Made-up results with a nested dict and a non-ASCII character, so that only JSON text decodes back to them.
_ENTRIES = [{"id": "a1", "question": "Can I join late?", "answer": "Yes – submit the project in time.",
             "meta": {"section": "General"}}]
_ENTRY = {"id": "b2", "question": "Do I need a GPU?", "answer": "No.", "score": 0.5}


def _sdk_call(name: str, arguments: dict, call_id: str, item_id: str):
    """A function_call item as the SDK returns it: its `id` and its `call_id` differ, as on a real provider."""
    from openai.types.responses import ResponseFunctionToolCall

    return ResponseFunctionToolCall(type="function_call", id=item_id, call_id=call_id, name=name,
                                    arguments=json.dumps(arguments), status="completed")


def _check_item(item, call, ran: list, result, expected_args: dict, what: str) -> None:
    """One answered call: the tool ran once with the parsed arguments, and the item has the right fields."""
    fail_if(not ran, f"for {what}, the tool the call names never ran; look it up by the call's `name` in `tools` "
            "and call it.")
    fail_if(len(ran) > 1, f"for {what}, the tool ran {len(ran)} times; run it once per call.")
    got_args = ran[0]
    fail_if(any(isinstance(v, str) and v.lstrip().startswith("{") for v in got_args.values()),
            f"for {what}, the tool received the arguments as one piece of text. `arguments` is a JSON string; "
            "turn it into a dict before you pass its entries to the tool.")
    fail_if(got_args != expected_args, f"for {what}, the tool got {got_args}, not the arguments the call "
            "carries; pass each argument under its own name.")
    fail_if(not isinstance(item, dict) and not hasattr(item, "type"), f"for {what}, you returned a "
            f"{type(item).__name__}; return the output item (a dict with type, call_id and output).")
    fail_if(read_field(item, "type") != "function_call_output", f"for {what}, the item's type is "
            f"{read_field(item, 'type')!r}; an item that answers a call has its own type (lesson 03, 'Sending the "
            "result back').")
    got_id = read_field(item, "call_id")
    fail_if(got_id == read_field(call, "id"), f"for {what}, your call_id is the function_call item's `id`. "
            "That names the item itself, not the request the API pairs your result with; look again at the three "
            "fields lesson 03 says matter.")
    fail_if(got_id != read_field(call, "call_id"), f"for {what}, the call_id doesn't match the call's, so the "
            "API could not tell which request this result answers.")
    output = read_field(item, "output")
    fail_if(not isinstance(output, str), f"for {what}, the output is a {type(output).__name__}; the API takes "
            "the result as a string of JSON text.")
    try:
        decoded = json.loads(output)
    except ValueError:
        raise CheckFailed(f"for {what}, the output is a string but not JSON (it starts {output[:30]!r}); "
                          "Python's own spelling of a list or dict is not JSON. Serialize the result as JSON."
                          ) from None
    fail_if(decoded != result, f"for {what}, the output decodes to something other than the tool's result; "
            "send back exactly what the tool returned, serialized.")


@task_check("03-function-calling", "E03", title="Answer a function call")
def check_answer_call(answer_call):
    """Check `answer_call(call, tools) -> dict`: the function_call_output item for one function call.

    Example:
        >>> check_answer_call(None)
        [NOT DONE YET] Task E03 · Answer a function call: define the function in the cell above, then run this
        cell again.
    """
    ran: dict[str, list] = {"search": [], "get_entry": []}

    def recording(name, result):
        # Records what the tool received by name; a value passed by position (tools[name](arguments))
        # is recorded too, so the check can say what went wrong instead of crashing on it.
        def tool(*args, **kwargs):
            ran[name].append({**{f"positional {i}": v for i, v in enumerate(args)}, **kwargs})
            return result
        tool.__name__ = tool.__qualname__ = name  # a crash inside it then reads "search() ...", like the real tool
        return tool

    tools = {"search": recording("search", _ENTRIES), "get_entry": recording("get_entry", _ENTRY)}

    call = _sdk_call("search", {"query": "join late"}, "call_7Qx2", "fc_91b3")
    item = run_student_code(answer_call, call, tools, what="answer_call(an SDK function_call, tools)")
    _check_item(item, call, ran["search"], _ENTRIES, {"query": "join late"}, "an SDK function_call item")
    fail_if(ran["get_entry"], "for a call to 'search', the 'get_entry' tool ran too; run only the tool the "
            "call names.")

    as_dict = {"type": "function_call", "id": "fc_55d0", "call_id": "call_Kd81", "name": "get_entry",
               "arguments": json.dumps({"entry_id": "b2"}), "status": "completed"}
    try:
        item = run_student_code(answer_call, as_dict, tools, what="answer_call(a dict function_call, tools)")
    except CheckFailed as e:
        raise CheckFailed(f"{e} The call can be a dict as well as an SDK object: read its fields either way."
                          ) from None
    _check_item(item, as_dict, ran["get_entry"], _ENTRY, {"entry_id": "b2"}, "a function_call given as a dict")
    fail_if(len(ran["search"]) != 1, "for a call to 'get_entry', the 'search' tool ran; look the tool up by "
            "the call's name.")
    return "both calls answered: the right tool, its call_id, its result as JSON."
