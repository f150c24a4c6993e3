"""Homework 02 · The loop: the checks of tasks 2.1-2.5 (lessons 03 and 04).

Running every function call of a response, a second tool with its schema, an agent with both tools, the
student's own loop and an iteration counter. Scripted clients set up the exact cases (two calls in one
response). A tool's description must say what that tool does (`description_problem`), in any words.
Left out on purpose: a required number of searches, which depends on the model, and reading a description by
meaning: it must name what the tool works on in one of the common words for it.
"""

from __future__ import annotations

import re
import warnings

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import (
    SCRIPTED_ANSWER,
    ScriptedClient,
    SpyClient,
    judge_client,
    on_your_model,
    request_items,
    scripted_response,
    two_searches_then_answer,
)

# What each tool's description must name, in any of the words a student uses for it.
_FAQ_THING = re.compile(r"\b(?:entr(?:y|ies)|faqs?|records?|documents?|articles?|questions?|answers?|"
                        r"knowledge[ -]?base)\b", re.IGNORECASE)
_BY_ID = re.compile(r"\b(?:ids?|identifiers?|entry_id|key)\b", re.IGNORECASE)
_SEARCHES = re.compile(r"\b(?:search(?:es|ing)?|find|finds|look(?:s|ing)? ?up|lookup|quer(?:y|ies)|keywords?|"
                       r"retrieves?|matching)\b", re.IGNORECASE)


def description_problem(name: str, description, search_description: str = "") -> str | None:
    """What is wrong with a tool's description for the model (None when it fits the tool): get_entry's must
    name the FAQ entry it returns and the id it takes; search's must say it searches the FAQ. A copy of
    search's description (`search_description`) does not describe get_entry.

    Example:
        >>> description_problem("get_entry", "Fetch one full FAQ entry by its id.") is None
        True
        >>> print(description_problem("get_entry", "Get the current weather for a city."))
        get_entry's description doesn't say what it returns: one FAQ entry, looked up by its id. The model
        picks a tool by its description.
    """
    text = " ".join(str(description or "").split())
    if not text:
        return f"{name} has no description; the model picks a tool by its description, so say what it does."
    if name == "search":
        if not (_SEARCHES.search(text) and _FAQ_THING.search(text)):
            return ("search's description doesn't say that it searches the FAQ; keep SEARCH_TOOL's own "
                    "description, or write one that says what it searches.")
        return None
    if search_description and text == " ".join(search_description.split()):
        return (f"{name}'s description is search's; the model can't tell the two tools apart. Say what "
                f"{name} does instead.")
    if not (_FAQ_THING.search(text) and _BY_ID.search(text)):
        return (f"{name}'s description doesn't say what it returns: one FAQ entry, looked up by its id. The "
                "model picks a tool by its description.")
    return None


def _outputs_for(items, call_ids) -> dict:
    found = {}
    for item in items:
        if read_field(item, "type") == "function_call_output":
            found[read_field(item, "call_id")] = read_field(item, "output")
    return {cid: found.get(cid) for cid in call_ids}


@task_check("02-the-loop", "2.1")
def check_run_function_calls(run_function_calls):
    """Check `run_function_calls(response, tools) -> list[dict]`: one function_call_output per function call.

    Example:
        >>> check_run_function_calls(None)
        [NOT DONE YET] Task 2.1 · Run every function call: define the function in the cell above, then run
        this cell again.
    """
    seen = []

    def lookup(query: str) -> list:
        seen.append(query)
        return [{"query": query}]

    tools = {"search": lookup}
    response = scripted_response(("search", {"query": "docker"}), ("search", {"query": "certificate"}),
                                 text="Let me look that up.")
    outputs = run_student_code(run_function_calls, response, tools)
    fail_if(not isinstance(outputs, list), "return a list of function_call_output items, not a "
            f"{type(outputs).__name__}.")
    fail_if(len(outputs) < 2, f"the response had 2 function calls; you returned {len(outputs)} output(s). "
            "Loop over every item of response.output whose type is 'function_call'.")
    fail_if(len(outputs) > 2, f"the response had 2 function calls but you returned {len(outputs)} items; "
            "skip output items that are not function calls (e.g. a message).")
    fail_if(len(seen) != 2, f"the tool ran {len(seen)} time(s) for 2 function calls; run each call's tool "
            "once.")
    for item in outputs:
        fail_if(read_field(item, "type") != "function_call_output", "each item needs \"type\": "
                "\"function_call_output\".")
        fail_if(not isinstance(read_field(item, "output"), str), "an item's 'output' must be a string "
                "(serialize the tool result with json.dumps).")
    got = _outputs_for(outputs, ["call_1_0", "call_1_1"])
    fail_if(any(v is None for v in got.values()), "an output's call_id doesn't match its function call; "
            "copy call.call_id into each output.")
    fail_if("docker" not in got["call_1_0"] or "certificate" not in got["call_1_1"],
            "the outputs are paired with the wrong calls: each output must carry the call_id of the call "
            "whose arguments produced it.")
    empty = run_student_code(run_function_calls, scripted_response(text="Done.", n=2), tools, allow_none=True)
    fail_if(empty not in ([], None) and list(empty) != [], "for a response without function calls, return "
            "an empty list.")
    return "both calls ran, each output carries its call_id."


@task_check("02-the-loop", "2.2")
def check_get_entry(get_entry, get_entry_tool, documents):
    """Check the second tool `get_entry(entry_id) -> dict` and its schema `GET_ENTRY_TOOL`.

    Example:
        >>> from helpers.ingest import load_faq_data
        >>> check_get_entry(None, None, load_faq_data(progress=False))
        [NOT DONE YET] Task 2.2 · A second tool: get_entry: define the function in the cell above, then run
        this cell again.
    """
    from helpers.search import SEARCH_TOOL

    doc = next(d for d in documents if d["course"] == "llm-zoomcamp")
    got = run_student_code(get_entry, doc["id"])
    fail_if(not isinstance(got, dict), f"get_entry returned a {type(got).__name__}; return the FAQ entry (a "
            "dict).")
    fail_if(got.get("id") != doc["id"] or got.get("answer") != doc["answer"], "get_entry(an existing id) "
            "returned a different entry; look it up by its 'id' field.")
    try:
        missing = run_student_code(get_entry, "no-such-id", what="get_entry('no-such-id')", allow_none=True)
    except CheckFailed as e:
        raise CheckFailed(f"{e} For an unknown id, return a dict with an 'error' key instead of raising.") from None
    fail_if(not isinstance(missing, dict) or "error" not in missing, "for an unknown id, return a dict "
            "with an 'error' key (saying what to do) instead of None or an exception: the model reads it "
            "and can try again.")
    schema = get_entry_tool
    if schema is None:
        raise NotDoneYet("fill in GET_ENTRY_TOOL, the tool's JSON schema.")
    fail_if(not isinstance(schema, dict) or schema.get("type") != "function", "GET_ENTRY_TOOL must be a "
            "dict with \"type\": \"function\" (look at SEARCH_TOOL).")
    fail_if(schema.get("name") != "get_entry", f"GET_ENTRY_TOOL's name is {schema.get('name')!r}; it must "
            "match the key in your tools dict, 'get_entry'.")
    problem = description_problem("get_entry", schema.get("description"), str(SEARCH_TOOL["description"]))
    fail_if(problem is not None, f"GET_ENTRY_TOOL: {problem}")
    params = schema.get("parameters") or {}
    props = params.get("properties") or {}
    fail_if(params.get("type") != "object" or "entry_id" not in props, "GET_ENTRY_TOOL's parameters must "
            "be {\"type\": \"object\", \"properties\": {\"entry_id\": ...}} so the arguments match "
            "get_entry(entry_id).")
    fail_if(props["entry_id"].get("type") != "string", "the entry_id parameter must have \"type\": "
            "\"string\".")
    fail_if(params.get("required") != ["entry_id"], "list entry_id under \"required\", so the model always "
            "sends it.")
    return "the tool works, and its schema matches its signature."


@task_check("02-the-loop", "2.3")
def check_ask(ask, client, model, documents):
    """Check `ask(client, model, question) -> LoopResult`: the agent gets search and get_entry.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> from helpers.ingest import load_faq_data
        >>> check_ask(None, neutral_client(), OFFLINE_MODEL, load_faq_data(progress=False))
        [NOT DONE YET] Task 2.3 · Give the agent both tools: define the function in the cell above, then run
        this cell again.
    """
    entry = next(d for d in documents if d["course"] == "llm-zoomcamp" and "Ollama" in d["question"])
    question = f'Show me the full FAQ entry with the id "{entry["id"]}".'
    # The verdict: a scripted model that asks for get_entry with the entry's id, then answers. Whether a real
    # model chooses get_entry is the model's judgement, reported beside the verdict (on_your_model), never judged.
    scripted = ScriptedClient([scripted_response(("get_entry", {"entry_id": entry["id"]}), n=1),
                               scripted_response(text=SCRIPTED_ANSWER, n=2)])
    with warnings.catch_warnings():  # a scripted model has no price; that is not the student's concern
        warnings.simplefilter("ignore")
        result = run_student_code(ask, scripted, "scripted", question)
    fail_if(not hasattr(result, "stop_reason") or not hasattr(result, "messages"),
            "return what agent_loop returns (a LoopResult), not only the answer text.")
    offered = [read_field(t, "name") for kwargs, _ in scripted.calls[:1] for t in kwargs.get("tools") or []]
    fail_if("get_entry" not in offered, f"the model was offered {offered or 'no tools'}; pass both tools "
            "(and both schemas) to agent_loop.")
    fail_if("search" not in offered, "the model was offered get_entry but not search any more: keep both "
            "tools.")
    described = {read_field(t, "name"): read_field(t, "description") for t in scripted.calls[0][0].get("tools") or []}
    search_description = described["search"] or ""
    for name in ("search", "get_entry"):
        problem = description_problem(name, described[name], search_description)
        fail_if(problem is not None, f"the schemas you passed to agent_loop: {problem}")
    if result.stop_reason != "answered":
        raise CheckFailed(f"the run stopped with {result.stop_reason!r} instead of answering: {result.error or ''}")
    outputs = [m for m in result.messages if read_field(m, "type") == "function_call_output"]
    fail_if(not outputs or all('"error"' in str(read_field(m, "output")) for m in outputs),
            "the model asked for get_entry, but it only returned errors: is the tools dict key 'get_entry' bound "
            "to your function, and does it accept the argument name the schema declares?")
    fail_if(entry["id"] not in str(read_field(outputs[0], "output")), "get_entry was called with the entry's id, "
            "but its output does not hold that entry: pass the tools dict your get_entry is in.")

    def what_your_model_did(client, model) -> str:
        spy = SpyClient(client)
        seen = run_student_code(ask, spy, model, question)
        if any(read_field(c, "name") == "get_entry" for c in spy.function_calls()):
            return f"it called get_entry and the run ended with {read_field(seen, 'stop_reason')!r}."
        return ("it answered without calling get_entry: that is the model's choice, not your code (the scripted "
                "run above shows your agent runs get_entry when a model asks for it).")

    return ("a model asking for get_entry gets the entry from your tool, and the run answers."
            + on_your_model(client, model, what_your_model_did))


@task_check("02-the-loop", "2.4")
def check_my_agent_loop(my_agent_loop, client, model):
    """Check `my_agent_loop(client, model, question, tools, schemas) -> (answer, iterations)`.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_my_agent_loop(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 2.4 · Your own agent loop: define the function in the cell above, then run this
        cell again.
    """
    from helpers.search import SEARCH_TOOL, search

    # 1. A scripted model that asks for two searches in one response, then answers.
    scripted, ran, answer, iterations = two_searches_then_answer(my_agent_loop, scripted_response, [SEARCH_TOOL])
    fail_if(len(scripted.calls) == 1, "your loop stopped after 1 iteration; the model asked for 2 tool "
            f"calls in that response (ran {len(ran)}). Keep calling the model until a response has no "
            "function call.")
    fail_if(len(ran) < 2, f"your loop stopped after {len(scripted.calls)} iteration(s) but the tool ran "
            f"{len(ran)} time(s); the model asked for 2 tool calls in one response — did you run all of "
            "them?")
    second = request_items(scripted.calls[1][0])
    outs = _outputs_for(second, ["call_1_0", "call_1_1"])
    fail_if(any(v is None for v in outs.values()), "the second request lacks a function_call_output for "
            "each call (matching call_id); append one per call to the message list before calling the "
            "model again.")
    fail_if(not any(read_field(i, "type") == "function_call" for i in second), "the second request has "
            "tool outputs but not the function calls they answer; append response.output to the messages "
            "first (the model is stateless).")
    fail_if(answer != SCRIPTED_ANSWER, "the answer you returned is not the text of the last response; "
            "return response.output_text.")
    fail_if(iterations != 2, f"you reported {iterations} iteration(s) for a run with 2 model calls; count "
            "one iteration per model call.")

    # 2. A whole run on the typo question of lesson 04, on the offline model: the verdict never depends on the
    # student's model (one that never stops, or answers with an empty text, would fail right code). What their
    # own model did with the same loop is reported beside the PASS.
    from helpers.offline import OFFLINE_MODEL

    question = "How do I run Olama locally?"
    spy = SpyClient(judge_client())
    answer, iterations = run_student_code(my_agent_loop, spy, OFFLINE_MODEL, question, {"search": search},
                                          [SEARCH_TOOL])
    fail_if(iterations != len(spy.calls), f"you reported {iterations} iteration(s) but the model was called "
            f"{len(spy.calls)} time(s); count model calls.")
    last = spy.calls[-1][1] if spy.calls else None
    fail_if(last is None or any(read_field(i, "type") == "function_call" for i in last.output),
            "your loop returned while the model still wanted a tool; stop only on a response without "
            "function calls.")
    fail_if(not isinstance(answer, str) or not answer.strip(), "the answer is empty; return the last "
            "response's output_text.")

    def what_your_model_did(client, model) -> str:
        _, seen = run_student_code(my_agent_loop, client, model, question, {"search": search}, [SEARCH_TOOL])
        return f"your loop answered in {seen} iteration(s)."

    return (f"ran every call, and answered the Olama question in {iterations} iteration(s)."
            + on_your_model(client, model, what_your_model_did))


@task_check("02-the-loop", "2.5")
def check_count_iterations(count_iterations, client, model):
    """Check `count_iterations(messages) -> int` against the loop's own count, on several questions.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_count_iterations(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 2.5 · Count the iterations: define the function in the cell above, then run this
        cell again.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    # A hand-made history first: one response with two calls, then the answer -> 2 iterations.
    messages = [{"role": "user", "content": "Docker?"},
                {"type": "function_call", "call_id": "a", "name": "search", "arguments": "{}"},
                {"type": "function_call", "call_id": "b", "name": "search", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "a", "output": "[]"},
                {"type": "function_call_output", "call_id": "b", "output": "[]"},
                {"role": "assistant", "type": "message", "content": [{"type": "output_text", "text": "Yes."}]}]
    got = run_student_code(count_iterations, messages)
    fail_if(not isinstance(got, int), f"return a whole number, not a {type(got).__name__}.")
    fail_if(got != 2, f"you counted {got} for a run with 2 iterations (one response with two function "
            "calls, then the answer): count model responses, not function calls or messages.")
    # Real models put reasoning items first and text beside their calls: 3 responses here, 9 items.
    shaped = [{"role": "user", "content": "Docker?"},
              {"type": "reasoning", "id": "rs_1", "summary": []},
              {"role": "assistant", "type": "message", "content": [{"type": "output_text", "text": "Searching."}]},
              {"type": "function_call", "call_id": "a", "name": "search", "arguments": "{}"},
              {"type": "function_call_output", "call_id": "a", "output": "[]"},
              {"type": "reasoning", "id": "rs_2", "summary": []},
              {"type": "function_call", "call_id": "b", "name": "search", "arguments": "{}"},
              {"type": "function_call_output", "call_id": "b", "output": "[]"},
              {"role": "assistant", "type": "message", "content": [{"type": "output_text", "text": "Yes."}]}]
    got = run_student_code(count_iterations, shaped)
    fail_if(got != 3, f"you counted {got} for a run with 3 model responses, where a response may begin with a "
            "reasoning item and hold text beside its function call, as real models' do: count model responses, "
            "not items.")
    # Whole runs, on the offline model: the loop's own count is the truth whatever the model did, and the
    # verdict then never depends on the student's model or its provider's errors.
    from helpers.offline import OFFLINE_MODEL

    for question in ["Can I still join the course?", "How do I run Olama locally?"]:
        result = agent_loop(judge_client(), OFFLINE_MODEL, question, {"search": search}, schemas=[SEARCH_TOOL],
                            verbose=False)
        got = run_student_code(count_iterations, result.messages)
        fail_if(got != result.iterations, f"for {question!r} you counted {got}, but the loop made a "
                "different number of model calls. A new iteration starts with each model output that "
                "follows a user message or a tool output.")

    def what_your_model_did(client, model) -> str:
        result = agent_loop(client, model, "Can I still join the course?", {"search": search},
                            schemas=[SEARCH_TOOL], verbose=False)
        got = run_student_code(count_iterations, result.messages)
        agrees = "agrees with" if got == result.iterations else "differs from"
        return f"you counted {got} iteration(s) of a run on it, which {agrees} the loop's {result.iterations}."

    return "matches the loop's own count." + on_your_model(client, model, what_your_model_did)
