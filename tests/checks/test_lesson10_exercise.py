"""Lesson 10's exercise check: `collect_text(events)` puts a streamed Responses answer's text back together.
The right function passes, the stub is not done yet, and each plausible mistake fails with a hint that does
not name the event type to keep. Every stream is a real one from the offline model."""

import hints
import pytest
from hints import stub

from helpers.checks.lessons.lesson10 import check_collect_text, turn_requests
from helpers.offline import OFFLINE_MODEL, neutral_client

DELTA = "response.output_text.delta"


def right(events):
    return "".join(event.delta for event in events if event.type == DELTA)


def every_text_field(events):
    """Joins whatever text an event has: the deltas, and the `text` of the events that repeat it whole."""
    return "".join(getattr(event, "delta", None) or getattr(event, "text", None) or "" for event in events
                   if "output_text" in event.type)


def first_delta_only(events):
    return next((event.delta for event in events if event.type == DELTA), "")


def stops_at_function_call(events):
    text = ""
    for event in events:
        if event.type == "response.output_item.added" and event.item.type == "function_call":
            break
        if event.type == DELTA:
            text += event.delta
    return text


def spaces_between(events):
    return " ".join(event.delta for event in events if event.type == DELTA)


def lines_between(events):
    return "\n".join(event.delta for event in events if event.type == DELTA)


def every_delta(events):
    """Any event with a delta, function-call arguments included."""
    return "".join(event.delta for event in events if hasattr(event, "delta"))


def the_done_text(events):
    """The whole text from the event that repeats it at the end: right on a whole stream, empty on a cut one."""
    return "".join(event.text for event in events if event.type == "response.output_text.done")


def test_the_right_function_passes():
    result = check_collect_text(right)
    assert result.status == "pass", result


@pytest.mark.parametrize("collect_text", [stub, None])
def test_a_stub_is_not_done_yet(collect_text):
    hints.assert_todo(check_collect_text(collect_text))


def as_a_list(events):
    return [event.delta for event in events if event.type == DELTA]


# (a plausible mistake, words its hint must contain)
MISTAKES = [
    pytest.param(every_text_field, ["twice"], id="joining every text field doubles the text"),
    pytest.param(first_delta_only, ["stops early"], id="only the first delta"),
    pytest.param(stops_at_function_call, ["function call"], id="ignoring deltas after a function call"),
    pytest.param(spaces_between, ["between the pieces"], id="spaces between deltas"),
    pytest.param(lines_between, ["between the pieces"], id="lines between deltas"),
    pytest.param(every_delta, ["function call"], id="function call argument deltas"),
    pytest.param(the_done_text, ["cut off"], id="reading the done event instead of the deltas"),
    pytest.param(as_a_list, [], id="returning a list"),
]


@pytest.mark.parametrize(("collect_text", "says"), MISTAKES)
def test_a_mistake_fails_without_naming_the_event_type(collect_text, says):
    hints.assert_fails(check_collect_text(collect_text), leaks=(DELTA, "output_text.delta"), says=says)


def test_the_turn_has_a_tool_call_then_text():
    """The whole-turn stream the check builds really is a function call followed by an answer."""
    client = neutral_client()
    first, second = turn_requests(client, OFFLINE_MODEL)
    assert [item.type for item in client.responses.create(**first).output] == ["function_call"]
    assert client.responses.create(**second).output_text.startswith("According to")
