"""Homework 05 · Chat Completions and tools: the checks of tasks 5.1-5.3 (lessons 08, 09 and 10).

A Chat Completions loop (run on a scripted client, and on the student's provider unless it lacks that API),
a tool made from a typed, documented function with `@tool`, and a follow-up turn that sees the first.
Left out on purpose: streaming and the chat UI.
"""

from __future__ import annotations

from collections import Counter

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    SCRIPTED_ANSWER,
    SpyClient,
    judge_client,
    on_your_model,
    plain_data,
    request_text,
    scripted_chat_completion,
    two_searches_then_answer,
    without_responses_api,
)
from helpers.offline import OFFLINE_MODEL


def _chat_messages(kwargs: dict) -> list:
    return [plain_data(m) for m in kwargs.get("messages") or []]


@task_check("05-chat-and-tools", "5.1")
def check_my_chat_loop(my_chat_loop, client, model):
    """Check `my_chat_loop(client, model, question, functions, schemas) -> (answer, iterations)`.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_my_chat_loop(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 5.1 · A Chat Completions loop: define the function in the cell above, then run
        this cell again.
    """
    from helpers.apis.adapter import CHAT
    from helpers.search import SEARCH_TOOL, search

    chat_search = CHAT.function_tool(SEARCH_TOOL)  # Chat Completions nests the same fields under "function"
    scripted, ran, answer, iterations = two_searches_then_answer(my_chat_loop, scripted_chat_completion,
                                                                 [chat_search])
    fail_if(len(scripted.calls) == 1, "your loop stopped after 1 iteration; the model asked for 2 tool "
            f"calls in that message (ran {len(ran)}). Keep calling the model until a message has no "
            "tool_calls.")
    fail_if(len(ran) < 2, f"the tool ran {len(ran)} time(s), but the model asked for 2 tool calls in one "
            "message — did you run all of them?")
    second = _chat_messages(scripted.calls[1][0])
    tool_ids = [m.get("tool_call_id") for m in second if m.get("role") == "tool"]
    fail_if(sorted(tool_ids) != ["call_1_0", "call_1_1"], "the second request needs one {\"role\": "
            "\"tool\"} message per tool call, each with that call's id as tool_call_id.")
    first_tool = next(i for i, m in enumerate(second) if m.get("role") == "tool")
    fail_if(not any(m.get("role") == "assistant" and m.get("tool_calls") for m in second[:first_tool]),
            "the tool messages don't follow the assistant message that asked for them (the trap of lesson "
            "08): append the model's message, with its tool_calls, before the tool results.")
    fail_if(answer != SCRIPTED_ANSWER, "the answer you returned is not the last message's content.")
    fail_if(iterations != 2, f"you reported {iterations} iteration(s) for a run with 2 model calls; count "
            "model calls.")

    # A whole run on the offline model: the verdict never depends on the student's model (one that never stops
    # or answers with empty content would fail right code); what their model did is reported beside the PASS.
    question = "How do I run Olama locally?"
    spy = SpyClient(judge_client())
    answer, iterations = run_student_code(my_chat_loop, spy, OFFLINE_MODEL, question, {"search": search},
                                          [chat_search])
    fail_if(iterations != len(spy.calls), f"you reported {iterations} iteration(s) but the model was called "
            f"{len(spy.calls)} time(s).")
    last = spy.calls[-1][1] if spy.calls else None
    fail_if(last is None or last.choices[0].message.tool_calls, "your loop returned while the model still "
            "wanted a tool; stop only on a message without tool_calls.")
    fail_if(not isinstance(answer, str) or not answer.strip(), "the answer is empty; return the last "
            "message's content.")

    def what_your_model_did(client, model) -> str:
        _, seen = run_student_code(my_chat_loop, client, model, question, {"search": search}, [chat_search])
        return f"your loop answered in {seen} iteration(s)."

    return (f"ran every call, and answered the Olama question in {iterations} iteration(s)."
            + on_your_model(client, model, what_your_model_did))


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
    fail_if(got != counts["llm-zoomcamp"], "count_faq_entries(course='llm-zoomcamp') gives a wrong count; "
            "count that course's entries.")
    got = run_student_code(count_tool, course="llm-zoomcamp", section="Workshops: Agents")
    fail_if(got != sections[("llm-zoomcamp", "Workshops: Agents")], "with a section, count only that "
            "section's entries of the course.")
    fail_if(not isinstance(count_tool, Tool), "the counts are right; now decorate the function with @tool "
            "(from helpers.tools), so it carries its schema.")
    schema = count_tool.responses_schema()
    fail_if(len(schema.get("description") or "") < 15, "the tool has no real description: write a "
            "docstring whose first line says what it does.")
    props, required = schema["parameters"].get("properties", {}), schema["parameters"].get("required", [])
    fail_if(set(props) != {"course", "section"}, f"the schema's parameters are {sorted(props)}; the "
            "function should take course and section.")
    fail_if(required != ["course"], f"required is {required}: course must be required and section optional "
            "(give it a default of None).")
    undocumented = [name for name, spec in props.items() if not spec.get("description")]
    if undocumented:
        raise CheckFailed(f"parameter {undocumented[0]!r} has no description; describe each one in an Args: "
                          "section of the docstring, with an example value.")
    reply = Tools(count_tool).call(count_tool.name, '{"course": 5}')
    fail_if("error" not in reply, "a call with course=5 was accepted; annotate course as str so the "
            "registry rejects it.")
    return "a documented tool whose schema the registry builds and checks."


@task_check("05-chat-and-tools", "5.3")
def check_follow_up(follow_up, client, model):
    """Check `follow_up(client, model, result, question) -> LoopResult`: the second turn sees the first.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_follow_up(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 5.3 · Continue the conversation: define the function in the cell above, then run
        this cell again.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    # The verdict comes from the offline model, whatever model the student uses: a model that stops early on
    # the second turn would fail right code. What theirs did is reported beside the PASS, unless their provider
    # has no Responses API, which this task calls.
    lacking = without_responses_api(client)
    where = f" (checked on the offline model: {lacking} has no Responses API, which this task calls)" if lacking else ""
    first = "Can I still join the course after it has started?"
    result = agent_loop(judge_client(), OFFLINE_MODEL, first, {"search": search}, schemas=[SEARCH_TOOL],
                        verbose=False)
    kept = len(result.messages)
    spy = SpyClient(judge_client())
    second = run_student_code(follow_up, spy, OFFLINE_MODEL, result, "And will I get a certificate?")
    fail_if(not hasattr(second, "messages") or not hasattr(second, "stop_reason"),
            "return the LoopResult of the second run, not only its answer.")
    fail_if(not spy.calls, "follow_up made no model call with the client it was given.")
    sent = request_text(spy.calls[0][0])
    fail_if(first not in sent, "the model never saw the first question in the second turn: pass the first "
            "run's messages to agent_loop (messages=result.messages).")
    fail_if("certificate" not in sent, "the follow-up question is missing from the request.")
    fail_if(len(second.messages) <= kept, "the second run's messages are not longer than the first's; it "
            "should add to the history.")
    fail_if(second.stop_reason != "answered", f"the second turn stopped with {second.stop_reason!r} instead "
            "of answering.")
    def what_your_model_did(client, model) -> str:
        earlier = agent_loop(client, model, first, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)
        later = run_student_code(follow_up, client, model, earlier, "And will I get a certificate?")
        return f"the second turn ended {read_field(later, 'stop_reason')!r}."

    return ("the second turn carried the whole first conversation."
            + (where or on_your_model(client, model, what_your_model_did)))
