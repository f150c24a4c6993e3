"""Homework 05 · Chat Completions and tools: the checks of tasks 5.1-5.3 (lessons 08, 09 and 10).

A Chat Completions loop (run on a scripted client, and on the student's provider unless it lacks that API),
a tool made from a typed, documented function with `@tool`, and a follow-up turn that sees the first.
Left out on purpose: streaming and the chat UI.
"""

from __future__ import annotations

from collections import Counter

from helpers.homework.core import CheckFailed, NotDoneYet, run_student_code, task_check
from helpers.homework.doubles import (
    SCRIPTED_ANSWER,
    SpyClient,
    plain_data,
    request_text,
    scripted_chat_completion,
    two_searches_then_answer,
    without_responses_api,
)


def _chat_messages(kwargs: dict) -> list:
    return [plain_data(m) for m in kwargs.get("messages") or []]


@task_check("05-chat-and-tools", "5.1")
def check_my_chat_loop(my_chat_loop, client, model):
    """Check `my_chat_loop(client, model, question, functions, schemas) -> (answer, iterations)`.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, offline_client
        >>> check_my_chat_loop(None, offline_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 5.1 · A Chat Completions loop: define the function in the cell above, then run
        this cell again.
    """
    from helpers.search import SEARCH_TOOL, search

    # Chat Completions nests the same fields under "function".
    chat_search = {"type": "function", "function": {k: v for k, v in SEARCH_TOOL.items() if k != "type"}}
    scripted, ran, answer, iterations = two_searches_then_answer(my_chat_loop, scripted_chat_completion,
                                                                 [chat_search])
    if len(scripted.calls) == 1:
        raise CheckFailed(f"your loop stopped after 1 iteration; the model asked for 2 tool calls in that message "
                    f"(ran {len(ran)}). Keep calling the model until a message has no tool_calls.")
    if len(ran) < 2:
        raise CheckFailed(f"the tool ran {len(ran)} time(s), but the model asked for 2 tool calls in one message — "
                    f"did you run all of them?")
    second = _chat_messages(scripted.calls[1][0])
    tool_ids = [m.get("tool_call_id") for m in second if m.get("role") == "tool"]
    if sorted(tool_ids) != ["call_1_0", "call_1_1"]:
        raise CheckFailed("the second request needs one {\"role\": \"tool\"} message per tool call, each with that "
                    "call's id as tool_call_id.")
    first_tool = next(i for i, m in enumerate(second) if m.get("role") == "tool")
    if not any(m.get("role") == "assistant" and m.get("tool_calls") for m in second[:first_tool]):
        raise CheckFailed("the tool messages don't follow the assistant message that asked for them (the trap of "
                    "lesson 08): append the model's message, with its tool_calls, before the tool results.")
    if answer != SCRIPTED_ANSWER:
        raise CheckFailed("the answer you returned is not the last message's content.")
    if iterations != 2:
        raise CheckFailed(f"you reported {iterations} iteration(s) for a run with 2 model calls; count model calls.")

    spy = SpyClient(client)
    answer, iterations = run_student_code(my_chat_loop, spy, model, "How do I run Olama locally?", {"search": search},
                              [chat_search])
    if iterations != len(spy.calls):
        raise CheckFailed(f"you reported {iterations} iteration(s) but the model was called {len(spy.calls)} time(s).")
    last = spy.calls[-1][1] if spy.calls else None
    if last is None or last.choices[0].message.tool_calls:
        raise CheckFailed("your loop returned while the model still wanted a tool; stop only on a message without "
                    "tool_calls.")
    if not isinstance(answer, str) or not answer.strip():
        raise CheckFailed("the answer is empty; return the last message's content.")
    return f"ran every call, and answered the Olama question in {iterations} iteration(s)."


@task_check("05-chat-and-tools", "5.2")
def check_count_tool(count_tool, documents):
    """Check `count_tool`, a `@tool` with parameters course (required) and section (optional), documented.

    Example:
        >>> check_count_tool(None, [])
        [NOT DONE YET] Task 5.2 · A tool from a typed function: define the function in the cell above, then
        run this cell again.
    """
    from helpers.tools import Tool, Tools

    if count_tool is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    counts = Counter(d["course"] for d in documents)
    sections = Counter((d["course"], d["section"]) for d in documents)
    got = run_student_code(count_tool, course="llm-zoomcamp")
    if got != counts["llm-zoomcamp"]:
        raise CheckFailed("count_faq_entries(course='llm-zoomcamp') gives a wrong count; count that course's entries.")
    got = run_student_code(count_tool, course="llm-zoomcamp", section="Workshops: Agents")
    if got != sections[("llm-zoomcamp", "Workshops: Agents")]:
        raise CheckFailed("with a section, count only that section's entries of the course.")
    if not isinstance(count_tool, Tool):
        raise CheckFailed("the counts are right; now decorate the function with @tool (from helpers.tools), so it "
                    "carries its schema.")
    schema = count_tool.responses_schema()
    if len(schema.get("description") or "") < 15:
        raise CheckFailed("the tool has no real description: write a docstring whose first line says what it does.")
    props, required = schema["parameters"].get("properties", {}), schema["parameters"].get("required", [])
    if set(props) != {"course", "section"}:
        raise CheckFailed(f"the schema's parameters are {sorted(props)}; the function should take course and section.")
    if required != ["course"]:
        raise CheckFailed(f"required is {required}: course must be required and section optional (give it a default "
                    f"of None).")
    undocumented = [name for name, spec in props.items() if not spec.get("description")]
    if undocumented:
        raise CheckFailed(f"parameter {undocumented[0]!r} has no description; describe each one in an Args: section of "
                    f"the docstring, with an example value.")
    reply = Tools(count_tool).call(count_tool.name, '{"course": 5}')
    if "error" not in reply:
        raise CheckFailed("a call with course=5 was accepted; annotate course as str so the registry rejects it.")
    return "a documented tool whose schema the registry builds and checks."


@task_check("05-chat-and-tools", "5.3")
def check_follow_up(follow_up, client, model):
    """Check `follow_up(client, model, result, question) -> LoopResult`: the second turn sees the first.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, offline_client
        >>> check_follow_up(None, offline_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 5.3 · Continue the conversation: define the function in the cell above, then run
        this cell again.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    lacking = without_responses_api(client)
    if lacking:
        # Not the student's mistake, so not a hint about their code: say which API is missing and what to do.
        raise CheckFailed(f"this task continues a Responses API conversation, and {lacking} has no Responses API. Run "
                    f"this notebook with LLM_PROVIDER=offline (or another provider with the Responses API) in .env, "
                    f"then restart the kernel.")
    first = "Can I still join the course after it has started?"
    result = agent_loop(client, model, first, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)
    kept = len(result.messages)
    spy = SpyClient(client)
    second = run_student_code(follow_up, spy, model, result, "And will I get a certificate?")
    if not hasattr(second, "messages") or not hasattr(second, "stop_reason"):
        raise CheckFailed("return the LoopResult of the second run, not only its answer.")
    if not spy.calls:
        raise CheckFailed("follow_up made no model call with the client it was given.")
    sent = request_text(spy.calls[0][0])
    if first not in sent:
        raise CheckFailed("the model never saw the first question in the second turn: pass the first run's messages "
                    "to agent_loop (messages=result.messages).")
    if "certificate" not in sent:
        raise CheckFailed("the follow-up question is missing from the request.")
    if len(second.messages) <= kept:
        raise CheckFailed("the second run's messages are not longer than the first's; it should add to the history.")
    if second.stop_reason != "answered":
        raise CheckFailed(f"the second turn stopped with {second.stop_reason!r} instead of answering.")
    return "the second turn carried the whole first conversation."
