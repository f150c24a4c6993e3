"""Lesson 11 · The same loop inside a framework: the check of its exercise, a `max_turns` handler.

The student writes `answer_without_tools(data)`, the handler the OpenAI Agents SDK calls through
`Runner.run(..., error_handlers={"max_turns": handler})` when a run reaches its turn cap. It makes lesson 07's
last call: the agent that ran out of turns (`data.run_data.last_agent`) runs once more on the conversation so far
(`data.run_data.history`) with tools switched off, and its answer becomes the run's final output.

The check runs a small FAQ agent on the offline model with the "never_stop" fault (it calls a tool on every turn
while it may, and answers only when no tool may be called) and a cap of MAX_TURNS turns. It watches every model
call through the agent's hooks (`AgentHooks`, which `Agent.clone` keeps, so the handler's last call is seen too)
and passes when the run ends without an exception and its final output is the text the model wrote on a call
after the cap. Any way of switching tools off passes (`tool_choice="none"`, or no tools at all).
Left out on purpose: streamed runs (`Runner.run_streamed` takes the same handlers), the SDK's other error kinds
("model_refusal", "invalid_final_output"), and a real model (a real one may answer before the cap).
"""

from __future__ import annotations

import contextlib
import inspect
import io

from agents import (
    Agent,
    AgentHooks,
    ItemHelpers,
    OpenAIResponsesModel,
    Runner,
    function_tool,
    set_tracing_disabled,
)
from agents.exceptions import MaxTurnsExceeded

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_async, task_check
from helpers.offline import OFFLINE_MODEL, async_neutral_client
from helpers.tools import preview

MAX_TURNS = 2
QUESTION = "Can I still join the course?"
ENTRY = {"id": "5e1c0a7b3d", "question": "Can I still join the course after it started?",
         "answer": "Yes. You can join at any time and submit the remaining homework."}


def search_faq(query: str) -> list[dict]:
    """Search the course FAQ for entries that match a query."""
    return [ENTRY]


class CallLog(AgentHooks):
    """Agent hooks that note every model call: the tool_choice and tool count it ran with, and its text.

    Example:
        >>> CallLog().calls
        []
    """

    def __init__(self):
        self.calls: list[dict] = []

    async def on_llm_start(self, context, agent, system_prompt, input_items) -> None:
        self.calls.append({"tool_choice": agent.model_settings.tool_choice, "tools": len(agent.tools), "text": None})

    async def on_llm_end(self, context, agent, response) -> None:
        messages = [item for item in response.output if getattr(item, "type", None) == "message"]
        self.calls[-1]["text"] = ItemHelpers.extract_last_text(messages[-1]) if messages else None


async def _capped_run(handler) -> dict:
    """Run the looping agent with `handler` for "max_turns"; what happened, exceptions included, as a dict."""
    log, seen = CallLog(), {"called": False}

    async def watched(data):
        seen["called"] = True
        value = handler(data)
        if inspect.isawaitable(value):
            value = await value
        seen["returned"] = True
        seen["value"] = value
        return value

    model = OpenAIResponsesModel(OFFLINE_MODEL, async_neutral_client("never_stop", max_retries=0))
    agent = Agent(name="FAQ assistant", instructions="Answer from the course FAQ; search it first.",
                  tools=[function_tool(search_faq)], model=model, hooks=log)
    outcome = {"log": log.calls, "seen": seen, "error": None, "final_output": None}
    try:
        result = await Runner.run(agent, QUESTION, max_turns=MAX_TURNS, error_handlers={"max_turns": watched})
        outcome["final_output"] = result.final_output
    except Exception as error:  # noqa: BLE001 -- the check reads which error, and where it came from
        outcome["error"] = error
    return outcome


def run_capped(handler) -> dict:
    """Run the check's looping agent with `handler`, on a fresh event loop in a worker thread (a notebook cell
    already runs one), with the handler's prints hidden. Returns the model calls, the error and the final output.

    Example:
        >>> outcome = run_capped(lambda data: None)
        >>> len(outcome["log"]), type(outcome["error"]).__name__
        (2, 'MaxTurnsExceeded')
    """
    # The lesson switches the SDK's trace upload off too; a check must never send anything to OpenAI.
    set_tracing_disabled(True)
    with contextlib.redirect_stdout(io.StringIO()):
        return run_async(lambda: _capped_run(handler))


@task_check("11-frameworks", "E11", title="A last call without tools")
def check_answer_without_tools(answer_without_tools):
    """Check `answer_without_tools(data)`, a "max_turns" error handler: a run of an agent that never stops, capped
    at MAX_TURNS turns, must end with the answer of one more model call made without tools.

    Example:
        >>> check_answer_without_tools(None)
        [NOT DONE YET] Task E11 · A last call without tools: define the function in the cell above, then run this
        cell again.
    """
    if answer_without_tools is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    outcome = run_capped(answer_without_tools)
    error, seen, log = outcome["error"], outcome["seen"], outcome["log"]
    extra = log[MAX_TURNS:]  # the calls made after the cap: the handler's own
    if isinstance(error, NotImplementedError):
        raise NotDoneYet("replace `raise NotImplementedError` with your code.")
    fail_if(not seen["called"], "the run never reached its turn cap, so your handler was not called; run this "
            "cell again, and if it persists, reinstall the course's packages.")
    if error is not None:
        fail_if(seen.get("returned") and seen.get("value") is None, "your handler returned None, and for None the "
                "SDK raises MaxTurnsExceeded as if there were no handler (did you forget `return`?). Whatever "
                "it returns becomes the run's final output.")
        fail_if(isinstance(error, MaxTurnsExceeded) and not extra, "your handler raised the MaxTurnsExceeded "
                "error again, so the run still ends with an exception and no answer. The handler is there to "
                "end the run with an answer instead.")
        fail_if(isinstance(error, MaxTurnsExceeded), f"your last call ran out of turns too: on it the model could "
                f"still call a tool, and it asked for another search ({len(extra)} more call(s) after the cap, "
                "none of them an answer). Compare with how lesson 07's cap makes its last call.")
        raise CheckFailed(f"your handler raised {type(error).__name__}: {preview(str(error), 160)}. Run it on its "
                          "own in a new cell to see the full traceback.")
    answer = outcome["final_output"]
    fail_if(not isinstance(answer, str), f"the run's final output is a {type(answer).__name__}, not the answer's "
            "text: return the text the last call answered, not the object that holds it.")
    fail_if(not extra, f"your handler returned text that no model call wrote ({preview(answer, 60)!r}): the check "
            "saw no call of the agent that ran out of turns (data.run_data.last_agent) after the cap. The answer "
            "should come from the model, from what its searches found.")
    fail_if(answer != extra[-1]["text"], "the run's final output is not the text the model wrote on the last "
            "call after the cap; return that answer as it is.")
    return f"the capped run made {len(log)} model calls and answered: {preview(answer, 100)}"
