"""Lesson 07's exercise check: a right `safe_loop` passes, the stub is not done yet, and the mistakes students
make (no answer at the cap, a last call that still offers tools, an API error re-raised or turned into None,
a bare `except:` that swallows Ctrl-C) fail with a hint that does not hand over the code."""

import hints
import openai
import pytest

from helpers.checks.lessons.lesson07 import check_safe_loop
from helpers.tools import make_call

# Words of the answer code that a hint must not spell out.
SECRETS = ['tool_choice="none"', "tool_choice='none'", "except openai.APIError", "except Exception",
           "range(max_iterations)"]


def assert_fails(result, *words):
    """The check failed with a useful hint that names what is wrong (`words`) and leaks no answer code."""
    hints.assert_fails(result, leaks=SECRETS, says=words)


def run_calls(response, messages, tools):
    """Lesson 04's handle_response without the prints: keep the output, answer each call; True if there were any."""
    messages.extend(response.output)
    calls = [item for item in response.output if item.type == "function_call"]
    messages.extend(make_call(call, tools) for call in calls)
    return bool(calls)


def make_loop(*, final_call="no tools", on_error="message", catch=(openai.APIError,), bare=False):
    """A safe_loop with one knob per mistake; the defaults are the right solution."""

    def create(client, model, messages, tool_schemas, **extra):
        if bare:
            try:
                return client.responses.create(model=model, input=messages, tools=tool_schemas, **extra)
            except:  # noqa: E722 -- the mistake under test: it also catches KeyboardInterrupt
                return None
        try:
            return client.responses.create(model=model, input=messages, tools=tool_schemas, **extra)
        except catch:
            if on_error == "raise":
                raise
            return None

    def failed(messages):
        return None if on_error == "none" else ("The model call failed.", "error", messages)

    def safe_loop(client, model, question, tools, tool_schemas, max_iterations=10):
        messages = [{"role": "user", "content": question}]
        for _ in range(max_iterations):
            response = create(client, model, messages, tool_schemas)
            if response is None:
                return failed(messages)
            if not run_calls(response, messages, tools):
                return response.output_text, "answered", messages
        if final_call == "none":  # stop at the cap with nothing to say
            return None, "iteration_limit", messages
        if final_call == "last tool output":
            return messages[-1]["output"], "iteration_limit", messages
        extra = {"tool_choice": "none"} if final_call == "tool_choice" else {}
        schemas = [] if final_call == "no tools" else tool_schemas
        response = create(client, model, messages, schemas, **extra)
        if response is None:
            return failed(messages)
        messages.extend(response.output)
        return response.output_text, "iteration_limit", messages

    return safe_loop


def test_right_solution_passes_without_tools_in_the_last_call():
    result = check_safe_loop(make_loop())
    assert result.status == "pass", result


def test_right_solution_passes_with_tool_choice_none():
    result = check_safe_loop(make_loop(final_call="tool_choice"))
    assert result.status == "pass", result


def test_catching_every_exception_still_passes():
    # `except Exception` is broader than needed but lets Ctrl-C through, so it meets the criterion.
    result = check_safe_loop(make_loop(catch=Exception))
    assert result.status == "pass", result


def test_stub_is_not_done_yet():
    def safe_loop(client, model, question, tools, tool_schemas, max_iterations=10):
        raise NotImplementedError

    result = check_safe_loop(safe_loop)
    assert result.status == "todo", result
    assert check_safe_loop(None).status == "todo"


def test_stopping_at_the_cap_without_an_answer_fails():
    assert_fails(check_safe_loop(make_loop(final_call="none")), "one more model call")


def test_returning_the_last_tool_output_at_the_cap_fails():
    assert_fails(check_safe_loop(make_loop(final_call="last tool output")), "one more model call")


def test_a_last_call_that_still_offers_tools_fails():
    assert_fails(check_safe_loop(make_loop(final_call="with tools")), "must not allow tools")


def test_re_raising_the_api_error_fails():
    assert_fails(check_safe_loop(make_loop(on_error="raise")), "InternalServerError", "escaped")


def test_returning_none_on_an_api_error_fails():
    assert_fails(check_safe_loop(make_loop(on_error="none")), "returned None")


def test_a_bare_except_that_swallows_ctrl_c_fails():
    assert_fails(check_safe_loop(make_loop(bare=True)), "KeyboardInterrupt")


def test_a_loop_without_a_cap_fails():
    def safe_loop(client, model, question, tools, tool_schemas, max_iterations=10):
        messages = [{"role": "user", "content": question}]
        for _ in range(50):  # ignores max_iterations
            response = client.responses.create(model=model, input=messages, tools=tool_schemas)
            if not run_calls(response, messages, tools):
                return response.output_text, "answered", messages
        return "", "iteration_limit", messages

    assert_fails(check_safe_loop(safe_loop), "max_iterations")


@pytest.mark.parametrize("reason", ["done", "answered"])
def test_a_wrong_stop_reason_at_the_cap_fails(reason):
    def safe_loop(*args, **kwargs):
        answer, _, messages = make_loop()(*args, **kwargs)
        return answer, reason, messages

    assert_fails(check_safe_loop(safe_loop), "iteration_limit")
