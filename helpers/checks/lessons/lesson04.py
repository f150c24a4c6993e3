"""Lesson 04's exercise: the agent loop, written by the student around the lesson's `make_call`.

The student writes `run_agent(client, model, question, tools, tool_schemas) -> str`: call the model with the
tools, keep its output in the history, answer every function call with `make_call`, and stop on the first
response without one, returning its text. The check runs it three times, and its verdict never depends on the
student's model. First on a scripted model (a ScriptedClient) that asks for two searches in one response and
then answers: the one situation that shows whether every call runs, and one that no model produces on demand.
Then on a scripted model shaped as reasoning models answer (a reasoning item first, text beside a call, one call
per response), whose reasoning items must come back with the calls. Then on the offline model through a
SpyClient, on the lesson's "Olama" question: each request must carry the previous response's function calls and
an output for each, and the run must end on a response without calls. What the student's own model did with
the same code is said beside the PASS (`on_your_model`), never as a FAIL.
Left out on purpose: a number of iterations or searches (that is the model's business), the instructions (the
lesson's loop takes none), and what the loop prints.
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    SCRIPTED_ANSWER,
    ScriptedClient,
    SpyClient,
    judge_client,
    on_your_model,
    request_items,
    scripted_response,
)

# Far more model calls than the lesson's question needs (the offline model takes 3): a loop that gets here
# has stopped checking whether the model still wants a tool.
MAX_CALLS = 12


def _function_calls(items) -> list:
    return [item for item in items if read_field(item, "type") == "function_call"]


def _output_ids(items) -> set:
    return {read_field(item, "call_id") for item in items if read_field(item, "type") == "function_call_output"}


class _Capped:
    """Wraps a client (under the SpyClient): passes Responses API calls through until MAX_CALLS, then fails
    the check, so a loop that never stops ends with a hint instead of running up a bill."""

    def __init__(self, client):
        self._client, self._count = client, 0
        self.responses = self  # `client.responses.create(...)` lands on create below

    def create(self, **kwargs):
        self._count += 1
        if self._count > MAX_CALLS:
            raise CheckFailed(f"your loop called the model {MAX_CALLS} times on a question it answers in a few "
                              "steps; stop as soon as a response asks for no tool.")
        return self._client.responses.create(**kwargs)

    def __getattr__(self, name):  # anything else (chat, with_options, base_url) is the client's own
        return getattr(self._client, name)


def _check_history(calls: list, what: str) -> None:
    """Each request after a response with function calls carries those calls and an output for each."""
    for (_, response), (request, _) in zip(calls, calls[1:], strict=False):
        asked = _function_calls(read_field(response, "output") or [])
        sent = request_items(request)
        sent_ids = {read_field(item, "call_id") for item in _function_calls(sent)}
        fail_if(any(read_field(call, "call_id") not in sent_ids for call in asked),
                f"{what}, the next request lacks the model's own function calls: the model is stateless and must "
                "see what it asked for. Keep the response's output in the history.")
        missing = {read_field(call, "call_id") for call in asked} - _output_ids(sent)
        fail_if(missing, f"{what}, the next request has no function_call_output for {len(missing)} of the "
                f"{len(asked)} call(s), matched by call_id. Answer every function call before calling the "
                "model again.")


@task_check("04-agentic-loop", "E04", title="Write the agent loop")
def check_run_agent(run_agent, client, model):
    """Check `run_agent(client, model, question, tools, tool_schemas) -> str` on a scripted model, then on yours.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_run_agent(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task E04 · Write the agent loop: define the function in the cell above, then run this
        cell again.
    """
    from helpers.search import SEARCH_TOOL, search

    # 1. A scripted model: two searches in one response, then the answer.
    ran = []

    def fake_search(query: str) -> list:
        ran.append(query)
        return [{"question": f"about {query}", "answer": "..."}]

    scripted = ScriptedClient([scripted_response(("search", {"query": "docker"}), ("search", {"query": "install"}),
                                                 n=1),
                               scripted_response(text=SCRIPTED_ANSWER, n=2)])
    answer = run_student_code(run_agent, scripted, "scripted", "How do I install Docker?", {"search": fake_search},
                              [SEARCH_TOOL], what="run_agent on a scripted model")
    offered = [[read_field(t, "name") for t in request.get("tools") or []] for request, _ in scripted.calls]
    fail_if(any("search" not in names for names in offered), "a request offered the model no search tool; "
            "pass the tool schemas with every call, or the model can never ask for a tool.")
    fail_if(len(scripted.calls) == 1, f"your loop stopped after the first response, which asked for 2 tool calls "
            f"(it ran {len(ran)}). Call the model again until a response has no function call.")
    fail_if(len(ran) < 2, f"the first response asked for 2 tool calls in one go and your loop ran {len(ran)}; "
            "run every function_call item of a response, not only the first.")
    fail_if(len(ran) > 2, f"the tool ran {len(ran)} times for 2 function calls; run each call once.")
    _check_history(scripted.calls, "after the response with two calls")
    fail_if(hasattr(answer, "output"), "you returned the whole response object; the task asks for the answer's "
            "text only.")
    fail_if(not isinstance(answer, str), f"you returned a {type(answer).__name__}; return the answer's text.")
    fail_if(answer != SCRIPTED_ANSWER, "the text you returned is not the final response's text; return the text "
            "of the response that asked for no tool.")

    # 2. A model shaped as reasoning models answer: reasoning first, text beside a call, one call per response.
    shaped = ScriptedClient([scripted_response(("search", {"query": "docker"}), text="Let me look that up.", n=1,
                                               reasoning=True),
                             scripted_response(("search", {"query": "docker install"}), n=2, reasoning=True),
                             scripted_response(text=SCRIPTED_ANSWER, n=3, reasoning=True)])
    ran.clear()
    answer = run_student_code(run_agent, shaped, "scripted", "How do I install Docker?", {"search": fake_search},
                              [SEARCH_TOOL], what="run_agent on a scripted reasoning model")
    fail_if(len(shaped.calls) < 3, f"your loop stopped after {len(shaped.calls)} response(s), but the model asked "
            "for a tool in each of the first two (the first also held text beside its call). Stop only on a "
            "response without function calls, whatever else it holds.")
    _check_history(shaped.calls, "on a model that answers in several steps")
    for (_, response), (request, _) in zip(shaped.calls, shaped.calls[1:], strict=False):
        kept = {read_field(item, "id") for item in request_items(request)}
        fail_if(read_field(response.output[0], "id") not in kept, "a reasoning model's next request lacks the "
                "reasoning item of its previous response: keep the response's whole output in the history, "
                "not only its function calls (real reasoning models refuse a call sent back without it).")
    fail_if(answer != SCRIPTED_ANSWER, "on a model that answers in several steps, what you returned is not the "
            "final response's text.")

    # 3. A whole run on the offline model, on the lesson's typo question: the verdict never depends on the
    # student's model (one that never stops or answers with an empty text would fail right code).
    from helpers.offline import OFFLINE_MODEL

    question = "How do I run Olama locally?"
    spy = SpyClient(_Capped(judge_client()))
    answer = run_student_code(run_agent, spy, OFFLINE_MODEL, question, {"search": search}, [SEARCH_TOOL],
                              what="run_agent on the offline model")
    fail_if(not spy.calls, "your loop never called the model.")
    _check_history(spy.calls, "on the offline model")
    last = spy.calls[-1][1]
    fail_if(_function_calls(last.output), "your loop returned while the model still wanted a tool; stop only on "
            "a response without function calls.")
    fail_if(not isinstance(answer, str) or answer != last.output_text, "what you returned is not the text of the "
            "last response.")
    fail_if(not answer.strip(), "the answer is empty; return the text of the response that asked for no tool.")

    def what_your_model_did(client, model) -> str:
        seen = SpyClient(_Capped(client))
        run_student_code(run_agent, seen, model, question, {"search": search}, [SEARCH_TOOL],
                         what="run_agent on your model")
        return f"your loop answered in {len(seen.calls)} model call(s)."

    return (f"every call answered by call_id; the Olama question answered in {len(spy.calls)} model call(s)."
            + on_your_model(client, model, what_your_model_did))
