"""Lesson 07 · Safety nets: the check of the lesson's exercise, an iteration cap and a safe API call.

The student writes `safe_loop(client, model, question, tools, tool_schemas, max_iterations=10)`, lesson 04's
loop with two nets: a `for` over at most `max_iterations` model calls, then ONE last call that may not use
tools (so the model must answer in text), and a try/except around the API call that ends the run with a
message instead of a traceback. It returns `(answer, stop_reason, messages)`, stop_reason being "answered",
"iteration_limit" or "error".

The check runs it four times, on clients it makes itself (so the student's provider plays no part): the offline
model with the "never_stop" fault (it calls a tool on every turn while it may), the plain offline model, the
offline model whose second request fails with a 500 (no retries), and a client whose call raises
KeyboardInterrupt, which must reach the caller (Ctrl-C is not an API error).
Left out on purpose: the token budget and tool failures (the lesson shows them finished), and which exception
class is caught, as long as API errors are and Ctrl-C is not.
"""

from __future__ import annotations

import openai

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import SpyClient, offline_double
from helpers.search import SEARCH_TOOL

QUESTION = "How do I run Ollama locally?"
_ESCAPED = object()  # what the check's wrapper returns when the student's function let an API error out


def _fake_search(query: str) -> list:
    return [{"id": "e1", "question": "How do I run Ollama locally?", "answer": "Install Ollama, then `ollama serve`."}]


def _run(safe_loop, client, **kwargs):
    """Call the student's loop; an API error that escapes it comes back as _ESCAPED, anything else as usual."""

    def call():
        try:
            return safe_loop(client, "offline-rules-v1", QUESTION, {"search": _fake_search}, [SEARCH_TOOL], **kwargs)
        except openai.APIError as error:
            return _ESCAPED, type(error).__name__

    got = run_student_code(call, what="safe_loop", allow_none=True)
    if isinstance(got, tuple) and got and got[0] is _ESCAPED:
        raise CheckFailed(f"an API call raised {got[1]} and it escaped safe_loop: put a try/except around the model "
                          "call and return a message saying it failed, with stop_reason \"error\".")
    fail_if(got is None, "safe_loop returned None; return (answer, stop_reason, messages).")
    fail_if(not isinstance(got, tuple) or len(got) != 3,
            f"safe_loop returned {type(got).__name__}; return three things: (answer, stop_reason, messages).")
    return got


def _allows_tools(request: dict) -> bool:
    return bool(request.get("tools")) and request.get("tool_choice") != "none"


def _check_cap(safe_loop) -> None:
    spy = SpyClient(offline_double("never_stop"))  # a string: the fault applies to every request
    answer, stop_reason, _ = _run(safe_loop, spy, max_iterations=2)
    calls = len(spy.calls)
    fail_if(calls == 0, "safe_loop made no model call through the client it was given.")
    fail_if(not _allows_tools(spy.calls[0][0]), "the first call offered no tools; pass tool_schemas to the calls "
            "inside the loop.")
    fail_if(calls <= 2, f"with max_iterations=2 and a model that never stops, safe_loop made {calls} call(s) and "
            "stopped without asking for an answer: after the cap comes one more model call (see Net 1).")
    fail_if(calls > 3, f"with max_iterations=2, safe_loop made {calls} model calls; the cap allows max_iterations "
            "calls inside the loop and one last call after it.")
    fail_if(_allows_tools(spy.calls[-1][0]), "the last call after the cap still lets the model call a tool, so "
            "it may ask for one more search instead of answering; that call must not allow tools (see Net 1).")
    final_text = spy.calls[-1][1].output_text
    fail_if(answer != final_text, "at the cap, the answer must be the text of that last call's response "
            f"(safe_loop returned {type(answer).__name__} {str(answer)[:60]!r}).")
    fail_if(stop_reason != "iteration_limit", f"at the cap, stop_reason should be \"iteration_limit\", not "
            f"{stop_reason!r}.")


def _check_answered(safe_loop) -> None:
    spy = SpyClient(offline_double())
    answer, stop_reason, _ = _run(safe_loop, spy)
    fail_if(not spy.calls, "safe_loop made no model call through the client it was given.")
    fail_if(stop_reason != "answered", f"a model that answers on its own should end with stop_reason "
            f"\"answered\", not {stop_reason!r}.")
    fail_if(not isinstance(answer, str) or answer != spy.calls[-1][1].output_text,
            "when the model answers, return the text of that response as the answer.")


def _check_api_error(safe_loop) -> None:
    spy = SpyClient(offline_double([None, "server_error"]))  # the first call works, the second gets a 500
    answer, stop_reason, messages = _run(safe_loop, spy)
    fail_if(not isinstance(answer, str) or not answer.strip(), f"when the API call fails, return a message that "
            f"says so as the answer (safe_loop returned {answer!r}).")
    fail_if(stop_reason != "error", f"when the API call fails, stop_reason should be \"error\", not "
            f"{stop_reason!r}.")
    kept = [read_field(item, "type") for item in messages or []]
    fail_if("function_call" not in kept, "when the API call fails, return the messages gathered so far: the "
            "first call's search should still be in them.")


class _CtrlCClient:
    """A client whose model call raises KeyboardInterrupt, as Ctrl-C during the request would."""

    class responses:  # noqa: N801 -- stands in for client.responses
        @staticmethod
        def create(**kwargs):
            raise KeyboardInterrupt

    def with_options(self, **options):
        return self


def _check_ctrl_c(safe_loop) -> None:
    try:
        got = _run(safe_loop, _CtrlCClient())
    except KeyboardInterrupt:
        return
    raise CheckFailed(f"Ctrl-C (KeyboardInterrupt) during the model call was caught and safe_loop returned "
                      f"{str(got[:2])[:80]}; catch only the errors an API call raises, so the user can still stop "
                      "the run.")


@task_check("07-safety-nets", "E07", title="An iteration cap and a safe API call")
def check_safe_loop(safe_loop):
    """Check `safe_loop(client, model, question, tools, tool_schemas, max_iterations=10)` -> (answer, stop_reason,
    messages): a capped loop that ends with one call without tools, and survives a failing API call.

    Example:
        >>> def safe_loop(client, model, question, tools, tool_schemas, max_iterations=10):
        ...     raise NotImplementedError
        >>> check_safe_loop(safe_loop)
        [NOT DONE YET] Task E07 · An iteration cap and a safe API call: replace `raise NotImplementedError` with
        your code.
    """
    if safe_loop is None:
        raise NotDoneYet("define safe_loop in the cell above, then run this cell again.")
    _check_cap(safe_loop)
    _check_answered(safe_loop)
    _check_api_error(safe_loop)
    _check_ctrl_c(safe_loop)
    return ("the cap ends with an answer from a call without tools, an API error ends the run cleanly, and "
            "Ctrl-C still stops it.")
