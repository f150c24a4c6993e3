"""Lesson 10's exercise check: `collect_text(events)` puts a streamed Responses answer's text back together.
The right function passes, the stub is not done yet, and each plausible mistake fails with a hint that does
not name the event type to keep. Every stream is a real one from the offline model."""

import hints
import pytest
from hints import stub

from helpers.homework.lesson10 import check_collect_text, turn_requests
from helpers.offline import OFFLINE_MODEL, offline_client

DELTA = "response.output_text.delta"


def right(events):
    return "".join(event.delta for event in events if event.type == DELTA)


def assert_fails(result):
    hints.assert_fails(result, leaks=(DELTA, "output_text.delta"))  # the hint names no event type to keep


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


def test_a_stub_is_not_done_yet():
    assert check_collect_text(stub).status == "todo"
    assert check_collect_text(None).status == "todo"


def test_joining_every_text_field_doubles_the_text_and_fails():
    result = check_collect_text(every_text_field)
    assert_fails(result)
    assert "twice" in result.hint


def test_only_the_first_delta_fails():
    result = check_collect_text(first_delta_only)
    assert_fails(result)
    assert "stops early" in result.hint


def test_ignoring_deltas_after_a_function_call_fails():
    result = check_collect_text(stops_at_function_call)
    assert_fails(result)
    assert "function call" in result.hint


@pytest.mark.parametrize("wrong", [spaces_between, lines_between])
def test_separators_between_deltas_fail(wrong):
    result = check_collect_text(wrong)
    assert_fails(result)
    assert "between the pieces" in result.hint


def test_function_call_argument_deltas_fail():
    result = check_collect_text(every_delta)
    assert_fails(result)
    assert "function call" in result.hint


def test_reading_the_done_event_instead_of_the_deltas_fails():
    result = check_collect_text(the_done_text)
    assert_fails(result)
    assert "cut off" in result.hint


def test_returning_a_list_fails():
    result = check_collect_text(lambda events: [event.delta for event in events if event.type == DELTA])
    assert_fails(result)


def test_the_turn_has_a_tool_call_then_text():
    """The whole-turn stream the check builds really is a function call followed by an answer."""
    client = offline_client()
    first, second = turn_requests(client, OFFLINE_MODEL)
    assert [item.type for item in client.responses.create(**first).output] == ["function_call"]
    assert client.responses.create(**second).output_text.startswith("According to")
