"""Lesson 15's exercise: `keep_last_turns(items, n)`, trimming a conversation by whole user turns.

The student writes the first memory policy: keep the instructions at the start of the list (system or developer
messages) and the last `n` user turns, whole. A turn starts at a user message and runs to the next one, so a
`function_call` always keeps its `function_call_output` (an output whose call was trimmed away is the API's
400). The check trims conversations of its own (Responses items with tool calls, a Chat message list with a
system message, one with fewer turns than `n`), compares with the turns it expects, checks that the input list
is left as it was, and sends each trimmed list to the offline model, which answers an orphaned output with the
real API's 400.

Left out on purpose: counting tokens (homework 7.3 keeps a token budget), and items the lessons never send
(reasoning items are kept with their turn like any other, but no case holds one).
"""

from __future__ import annotations

import copy

import openai

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_student_code, task_check

INSTRUCTIONS = [{"role": "developer", "content": "You help a community garden's members."}]


def _turn(question: str, call_id: str | None = None, answer: str = "Done.") -> list[dict]:
    items: list[dict] = [{"role": "user", "content": question}]
    if call_id:
        items += [{"type": "function_call", "call_id": call_id, "name": "plot_info", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": call_id, "output": f"plot data for {call_id}"}]
    return items + [{"role": "assistant", "content": answer}]


def cases() -> list[tuple[str, list[dict], int, int]]:
    """(name, conversation, n, how many turns from the end the right answer keeps), made anew for every check.
    The last turn is the question being asked: it has no answer yet.

    Example:
        >>> [(name, len(items), n) for name, items, n, _ in cases()]
        [('chat', 9, 1), ('responses', 16, 2), ('short', 4, 5)]
    """
    responses = INSTRUCTIONS + _turn("Which plot is mine?", "c1") + _turn("Is plot 7 sunny?", "c2") \
        + _turn("Thanks!") + _turn("And plots 9 and 12?", "c3")[:-1] + _turn("", "c4")[1:-1]  # two calls, no answer yet
    chat = [{"role": "system", "content": "You answer questions about a bicycle repair café."},
            {"role": "user", "content": "When are you open?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "t1", "type": "function", "function": {"name": "hours", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "t1", "content": "Saturdays 10-14"},
            {"role": "assistant", "content": "Saturdays from 10 to 14."},
            {"role": "user", "content": "Do I need to book?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "t2", "type": "function", "function": {"name": "booking", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "t2", "content": "no booking needed"},
            {"role": "assistant", "content": "No booking needed."}]
    short = INSTRUCTIONS + _turn("Hello!") + [{"role": "user", "content": "Who waters plot 3?"}]
    return [("chat", chat, 1, 1), ("responses", responses, 2, 2), ("short", short, 5, 2)]


def expected(items: list[dict], turns: int) -> list[dict]:
    """The right trim: the leading instructions and the last `turns` user turns (the check's own reference).

    Example:
        >>> [m["role"] for m in expected(cases()[0][1], 1)]
        ['system', 'user', 'assistant', 'tool', 'assistant']
    """
    head = 0
    while head < len(items) and items[head].get("role") in ("system", "developer"):
        head += 1
    starts = [i for i, item in enumerate(items) if item.get("role") == "user"]
    return items[:head] + items[starts[-turns]:]


def _accepted_by_api(name: str, trimmed: list[dict], client) -> None:
    """Send the trimmed list to the offline model: an orphaned tool output or call is its 400, as on OpenAI."""
    try:
        if name == "chat":
            client.chat.completions.create(model="offline-rules-v1", messages=trimmed)
        else:
            client.responses.create(model="offline-rules-v1", input=trimmed)
    except openai.BadRequestError as e:
        message = str((e.body.get("message") if isinstance(e.body, dict) else None) or e).rstrip(".")
        raise CheckFailed(f"the API refuses your trimmed list ({name} case): {message}. A tool call and its output "
                          "must stay together: trim whole user turns.") from None


def _head_size(items: list[dict]) -> int:
    return next((i for i, m in enumerate(items) if m.get("role") not in ("system", "developer")), len(items))


def _user_texts(items: list[dict]) -> list[str]:
    return [str(m.get("content")) for m in items if m.get("role") == "user"]


@task_check("15-memory", "E15", title="Keep the last N user turns")
def check_keep_last_turns(keep_last_turns):
    """Check `keep_last_turns(items, n)`: the instructions plus the last `n` whole user turns, input untouched.

    Example:
        >>> def keep_last_turns(items, n):
        ...     raise NotImplementedError
        >>> check_keep_last_turns(keep_last_turns)
        [NOT DONE YET] Task E15 · Keep the last N user turns: replace `raise NotImplementedError` with your code.
    """
    from helpers.offline import neutral_client  # the offline model judges the list as the real API would

    if keep_last_turns is None:
        raise NotDoneYet("define keep_last_turns in the cell above, then run this cell again.")
    client = neutral_client()
    for name, items, n, turns in cases():
        before = copy.deepcopy(items)
        trimmed = run_student_code(keep_last_turns, items, n, what="keep_last_turns")
        fail_if(items != before, f"keep_last_turns changed the list it was given ({name} case); build and return "
                "a new list, so the caller still has the whole conversation.")
        fail_if(not isinstance(trimmed, list), f"keep_last_turns returned a {type(trimmed).__name__}; return a "
                "list of items, the same kind of list it was given.")
        right = expected(items, turns)
        lead = right[0].get("role")
        fail_if(not trimmed or trimmed[0] != right[0], f"the trimmed list ({name} case) no longer starts with the "
                f"{lead} message: the instructions must survive every trim, or the model forgets its job.")
        _accepted_by_api(name, trimmed, client)
        rest = trimmed[_head_size(right):]
        fail_if(bool(rest) and rest[0].get("role") != "user", f"after the instructions, the trimmed list ({name} "
                "case) starts in the middle of a turn: keep whole turns, each from its user message on.")
        wanted, got = _user_texts(right), _user_texts(trimmed)
        fail_if(len(got) < len(wanted) and got == wanted[len(wanted) - len(got):],
                f"the {name} case keeps {len(got)} user turn(s) for n={n}; it should keep {len(wanted)}: the "
                "question being asked counts as a turn too, and a conversation shorter than n is kept whole.")
        fail_if(got and wanted and got[0] in _user_texts(items)[: len(_user_texts(items)) - len(wanted)],
                f"the {name} case keeps older user turns than it should: keep the most recent ones, the "
                "current question last.")
        fail_if(got != wanted, f"the {name} case keeps the user messages {got}, not the last {n} turn(s). Count "
                "turns by user messages, from the end of the list.")
        fail_if(trimmed != right, f"the {name} case keeps the right user messages but not their whole turns: "
                "each turn's tool calls, tool outputs and answers must stay, in order, right after its user "
                "message.")
    return "instructions kept, last n turns whole, every tool call with its output"
