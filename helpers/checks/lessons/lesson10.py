"""Lesson 10's exercise: `collect_text(events) -> str`, the text of a streamed Responses API answer.

A `stream=True` call sends typed events: the answer's text arrives in pieces, one per
`response.output_text.delta` event (its `delta`), and everything else (the item and part events, the
`output_text.done` event that repeats the whole text, a function call's argument deltas, the final
`response.completed`) is not new text. The check streams real calls on the offline model and compares the
student's text with the `output_text` of the response the same requests give: a plain answer (the stream object
itself), the same stream cut off before its closing events (as a dropped connection leaves it), a stream with
only a function call (no text at all), and a whole agent turn: the events of a call that asks for a tool
followed by those of the call that answers.

Left out on purpose: Chat Completions chunks (lesson 10 streams the Responses API), refusals and reasoning
summaries (the offline model sends neither), and timing: the check does not ask that the text be used as it
arrives, only that the pieces add up to the answer.
"""

from __future__ import annotations

import itertools

from helpers.checks.core import NotDoneYet, fail_if, run_student_code, task_check
from helpers.tools import preview

QUESTION = "Can I still join the course late?"
# The tool the turn calls: a fixed FAQ entry, so the check needs no index and the answer never changes.
ENTRY = {"id": "e1", "question": "Can I join the course after it started?",
         "answer": "Yes. You can join at any time and still submit the homework until the deadlines."}


def turn_requests(client, model: str) -> list[dict]:
    """The two requests of one agent turn on `client`: the question (the model asks for `search`), then the
    question with the call and its output (the model answers).

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> [len(request["input"]) for request in turn_requests(neutral_client(), OFFLINE_MODEL)]
        [1, 3]
    """
    from helpers.search import SEARCH_TOOL
    from helpers.tools import make_call

    first = {"model": model, "input": [{"role": "user", "content": QUESTION}], "tools": [SEARCH_TOOL]}
    calls = [item for item in client.responses.create(**first).output if item.type == "function_call"]
    outputs = [make_call(call, {"search": lambda query: [ENTRY]}) for call in calls]
    second = {**first, "input": [*first["input"], *(call.model_dump(exclude_none=True) for call in calls),
                                 *outputs]}
    return [first, second]


def _text(client, requests: list[dict]) -> str:
    """What the requests answer in text, read from their plain (not streamed) responses."""
    return "".join(client.responses.create(**request).output_text for request in requests)


def _events(client, requests: list[dict]):
    """The streamed events of the requests, one stream after the other."""
    return itertools.chain.from_iterable(client.responses.create(**request, stream=True) for request in requests)


@task_check("10-chat-ui", "E10", title="Put a stream's text back together")
def check_collect_text(collect_text):
    """Check `collect_text(events) -> str` on real offline streams: text, text cut short, a function call, a turn.

    Example:
        >>> def collect_text(events):
        ...     raise NotImplementedError
        >>> check_collect_text(collect_text)
        [NOT DONE YET] Task E10 · Put a stream's text back together: replace `raise NotImplementedError` with
        your code.
    """
    from helpers.checks.doubles import offline_double
    from helpers.offline import OFFLINE_MODEL

    if collect_text is None:
        raise NotDoneYet("define collect_text in the cell above, then run this cell again.")
    client = offline_double()
    hello = {"model": OFFLINE_MODEL, "input": "Hi"}
    want = client.responses.create(**hello).output_text
    got = run_student_code(collect_text, client.responses.create(**hello, stream=True), what="collect_text")
    fail_if(not isinstance(got, str), f"collect_text returned a {type(got).__name__}; return the text as one "
            "str.")
    fail_if(got == want * 2 or (want in got and len(got) > len(want)), "your text holds the answer twice: "
            "after its pieces, the stream sends the whole text once more in events that end it. Keep only "
            "the events that carry a new piece.")
    fail_if(got and want.startswith(got) and got != want, f"your text stops early: {len(got)} of the "
            f"answer's {len(want)} characters. Keep collecting pieces until the stream ends.")
    fail_if(got != want and got.split() == want.split(), "your text has extra characters between the pieces. "
            "Each piece already carries its own spaces: put them side by side, with nothing in between.")
    fail_if(got != want, f"on a plain answer your text is {preview(got, 80)!r}, not the answer the stream "
            "sends. Print each event's type and fields to see which events carry the text.")

    # A stream cut off before it ends (a dropped connection): every piece arrived, the closing events didn't.
    events = list(client.responses.create(**hello, stream=True))
    cut = next(i for i, event in enumerate(events) if event.type == "response.output_text.done")
    got = run_student_code(collect_text, iter(events[:cut]), what="collect_text")
    fail_if(got != want, f"on a stream cut off just before its closing events, as a dropped connection leaves "
            f"it, your text is {preview(str(got), 60)!r}, though every piece had arrived. Build the text from "
            "the pieces themselves, not from a summary sent at the end.")

    turn = turn_requests(client, OFFLINE_MODEL)
    got = run_student_code(collect_text, _events(client, turn[:1]), what="collect_text")
    fail_if(got != "", f"a stream whose only output is a function call has no text, yet collect_text returned "
            f"{preview(str(got), 60)!r}. A function call's arguments also arrive in pieces: look at each "
            "event's type, not only at whether it has a piece.")
    want = _text(client, turn)
    got = run_student_code(collect_text, _events(client, turn), what="collect_text")
    fail_if(got == "" or (want.startswith(got) and got != want), "on a whole turn (a call that asks for a tool, "
            "then the call that answers) your text misses the answer. Keep reading after the function call: "
            "the text comes later in the events.")
    fail_if(got != want, f"on a whole turn your text is {preview(str(got), 80)!r}, not the answer. Look at the "
            "events after the function call's.")
    return "only the text deltas, joined as they come, whatever else the stream sends."
