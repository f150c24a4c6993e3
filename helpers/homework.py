"""Self-checks for the homework notebooks, and the runner behind `make homework`.

Each task in notebooks/homework/ ends with a `check_*()` call. A check runs the student's function (or
inspects their result) against the pinned FAQ data and the model client they pass in, and returns a
`CheckResult`, shown as PASS, FAIL with a specific hint, or NOT DONE YET (a stub that raises
NotImplementedError or returns None); the runner adds NOT RUN for a check that never ran. A hint says what
is wrong and where to look; it never prints the expected answer.

Checks that depend on the model accept any trajectory that meets the task's criterion (e.g. "searched at
least twice", not "made exactly these calls"), so they stay valid on a real model. Checks that need a
particular behaviour (two function calls in one response, a model that never stops) use a scripted client
or the offline model's fault injection instead of hoping a real model does it.

`python -m helpers.homework [NOTEBOOK_OR_DIR ...]` runs the notebooks headlessly (nbclient) and prints a
score table. The checks report to it through a JSONL file named by the HOMEWORK_RESULTS environment
variable, so the runner never parses cell outputs.

Left out on purpose: grading scales, hidden tests and any upload. This is feedback for a student working
alone, not an exam.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from helpers import ROOT
from helpers.tools import preview

# One wording everywhere: the checks in the notebooks, `make homework`'s table and the README.
STATUS_MARK = {"pass": "PASS", "fail": "FAIL", "todo": "NOT DONE YET", "not run": "NOT RUN"}
HOMEWORK_DIR = ROOT / "notebooks" / "homework"

# Every task of every homework notebook, in order: the runner lists a task even when its check never ran.
TASKS = {
    "01-search-and-rag": [
        ("1.1", "Count a course's entries"),
        ("1.2", "Find the biggest section"),
        ("1.3", "Search within one section"),
        ("1.4", "Build a RAG prompt"),
        ("1.5", "One-call RAG"),
    ],
    "02-the-loop": [
        ("2.1", "Run every function call"),
        ("2.2", "A second tool: get_entry"),
        ("2.3", "Give the agent both tools"),
        ("2.4", "Your own agent loop"),
        ("2.5", "Count the iterations"),
    ],
    "03-prompts-and-guardrails": [
        ("3.1", "Instructions for several searches"),
        ("3.2", "An input guardrail"),
        ("3.3", "Measure the guardrail"),
        ("3.4", "Guard the agent"),
    ],
    "04-cost-and-safety": [
        ("4.1", "Price one call"),
        ("4.2", "Price a whole run"),
        ("4.3", "A token budget"),
        ("4.4", "A tool call that never crashes"),
    ],
    "05-chat-and-tools": [
        ("5.1", "A Chat Completions loop"),
        ("5.2", "A tool from a typed function"),
        ("5.3", "Continue the conversation"),
    ],
}

# A small labelled question set for the guardrail tasks: (question, is it about the course FAQ?).
LABELLED_QUESTIONS = [
    ("Can I still join the course after it has started?", True),
    ("How do I get a certificate for the course?", True),
    ("Where can I find the homework deadlines?", True),
    ("How do I install Ollama on my laptop?", True),
    ("Which vector database does the course use for search?", True),
    ("Do I need Docker for the first module?", True),
    ("How do I win with the queen's gambit?", False),
    ("What is a good recipe for banana bread?", False),
    ("Who won the football world cup in 2018?", False),
    ("Recommend me a movie for tonight.", False),
    ("How tall is the Eiffel tower?", False),
    ("Write a poem about the sea.", False),
]


@dataclass
class CheckResult:
    """The outcome of one check: status is "pass", "fail" or "todo" (not done yet).

    Example: check_count_entries(count_entries, documents) -> CheckResult(task="1.1", status="pass", ...)
    """

    notebook: str
    task: str
    title: str
    status: str
    hint: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def __repr__(self) -> str:
        text = f"[{STATUS_MARK[self.status]}] Task {self.task} · {self.title}"
        return f"{text}: {self.hint}" if self.hint else text


class _Fail(Exception):
    """Raised inside a check: the student's work misses the criterion; the message is the hint."""


class _Todo(Exception):
    """Raised inside a check: the task is still a stub."""


def _task_title(notebook: str, task: str) -> str:
    return dict(TASKS[notebook])[task]


def _record(result: CheckResult) -> None:
    """Append the result to the runner's JSONL file, when the runner set one (HOMEWORK_RESULTS)."""
    path = os.environ.get("HOMEWORK_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(result)) + "\n")


def _check(notebook: str, task: str):
    """Decorator: turn a check body (raises _Fail/_Todo, returns a pass note or None) into a CheckResult."""

    def wrap(body):
        def check(*args, **kwargs):
            title = _task_title(notebook, task)
            try:
                note = body(*args, **kwargs)
                result = CheckResult(notebook, task, title, "pass", note or "")
            except _Todo as e:
                result = CheckResult(notebook, task, title, "todo", str(e))
            except _Fail as e:
                result = CheckResult(notebook, task, title, "fail", str(e))
            except Exception as e:  # noqa: BLE001 -- e.g. a result of an unexpected shape; still a hint
                result = CheckResult(notebook, task, title, "fail",
                                     f"the check could not read your result ({type(e).__name__}: "
                                     f"{preview(str(e), 120)}). Compare what you return with the task.")
            _record(result)
            return result

        check.__name__, check.__doc__ = body.__name__, body.__doc__
        return check

    return wrap


def _run(fn, *args, what: str = "your function", allow_none: bool = False, **kwargs):
    """Call student code quietly (its prints are hidden) and translate stubs and crashes into _Todo/_Fail."""
    if fn is None:
        raise _Todo("define the function in the cell above, then run this cell again.")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            value = fn(*args, **kwargs)
    except NotImplementedError:
        raise _Todo("replace `raise NotImplementedError` with your code.") from None
    except (_Todo, _Fail):
        raise
    except Exception as e:  # noqa: BLE001 -- any crash in student code becomes a hint, never a traceback
        raise _Fail(f"{what} raised {type(e).__name__}: {preview(str(e), 200)}. Run it on its own in a new "
                    f"cell to see the full traceback.") from None
    if value is None and not allow_none:
        raise _Todo("your function returned None (did you forget `return`?).")
    return value


def _get(obj, key, default=None):
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


# ---------------------------------------------------------------------------------------------------------
# Clients the checks use: a spy around the student's client, and a scripted client for exact situations.


def _snapshot(kwargs: dict) -> dict:
    """A copy of a request's arguments: loops keep appending to the same input list after the call."""
    copied = dict(kwargs)
    for key in ("input", "messages"):
        if isinstance(kwargs.get(key), list):
            copied[key] = list(kwargs[key])
    return copied


class _Namespace:
    def __init__(self, **attributes):
        self.__dict__.update(attributes)


class _Recorder:
    """Stands in for `client.responses` (or `client.chat.completions`): records requests and responses."""

    def __init__(self, target, log: list):
        self._target, self._log = target, log

    def create(self, **kwargs):
        response = self._target.create(**kwargs)
        self._log.append((_snapshot(kwargs), response))
        return response

    def __getattr__(self, name):
        return getattr(self._target, name)


class SpyClient:
    """Wrap a client so a check can see every Responses API request and response, then pass them through.

    Example: spy = SpyClient(client); agent_loop(spy, model, "Can I join?", tools); len(spy.calls) -> 2
    """

    def __init__(self, client, calls: list | None = None):
        self._client = client
        self.calls: list[tuple[dict, object]] = calls if calls is not None else []
        self.responses = _Recorder(client.responses, self.calls)
        # Chat Completions (lesson 08) goes through client.chat.completions; record those calls too.
        self.chat = _Namespace(completions=_Recorder(client.chat.completions, self.calls))

    def with_options(self, **options):
        return SpyClient(self._client.with_options(**options), self.calls)

    def __getattr__(self, name):
        return getattr(self._client, name)

    def function_calls(self) -> list:
        """Every function_call item the model produced, across all recorded Responses API results."""
        return [item for _, r in self.calls for item in (_get(r, "output") or []) if _get(item, "type") ==
                "function_call"]


def scripted_response(*items, text: str | None = None, n: int = 1):
    """A Responses API result holding the given function calls (name, arguments) and/or a text message.

    Example: scripted_response(("search", {"query": "docker"}), ("search", {"query": "join"})).output[1].name
             -> "search"
    """
    from openai.types.responses import Response

    output = [{"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}", "name": name,
               "arguments": args if isinstance(args, str) else json.dumps(args), "status": "completed"}
              for i, (name, args) in enumerate(items)]
    if text is not None:
        output.append({"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": text, "annotations": []}]})
    return Response.model_validate({"id": f"resp_{n}", "created_at": 0, "model": "scripted", "object": "response",
                                    "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                                    "output": output})


def scripted_chat_completion(*items, text: str | None = None, n: int = 1):
    """A Chat Completions result whose message holds the given tool calls (name, arguments) and/or text.

    Example: scripted_chat_completion(("search", {"query": "docker"})).choices[0].message.tool_calls[0].id
             -> "call_1_0"
    """
    from openai.types.chat import ChatCompletion

    calls = [{"id": f"call_{n}_{i}", "type": "function",
              "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
             for i, (name, args) in enumerate(items)]
    message = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = calls
    return ChatCompletion.model_validate({
        "id": f"chat_{n}", "object": "chat.completion", "created": 0, "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}]})


class _ScriptedResponses:
    def __init__(self, script: list, log: list):
        self._script, self._log = list(script), log

    def create(self, **kwargs):
        if not self._script:
            raise _Fail("your loop called the model again after it had already answered in plain text; stop "
                        "when a response has no function_call items.")
        response = self._script.pop(0)
        self._log.append((_snapshot(kwargs), response))
        return response


class ScriptedClient:
    """A fake client that returns prepared responses in order and records each request.

    Example: ScriptedClient([scripted_response(text="Hi")]).responses.create(model="m", input=[]).output_text
             -> "Hi"
    """

    def __init__(self, script: list):
        self.calls: list[tuple[dict, object]] = []
        self.responses = _ScriptedResponses(script, self.calls)
        self.chat = _Namespace(completions=self.responses)  # the script decides which flavour it speaks

    def with_options(self, **options):
        return self


def offline_client(faults: str | list | None = None):
    """A client on the offline model, optionally with injected faults (used for the safety-net checks).

    Example: offline_client("never_stop").responses.create(...) -> a response that always calls a tool
    """
    from helpers.offline import offline_client as make_offline

    # No retries: a check wants to see each call the student's code makes, not the SDK's repeats.
    return make_offline(faults, max_retries=0)


def _without_responses_api(client) -> str | None:
    """The provider's name when it has no Responses API (GitHub Models), else None (also for test doubles)."""
    from helpers.llm import PRETTY_NAMES, provider_of

    try:
        preset = provider_of(client)
    except AttributeError:  # a client without a base URL: a test double, which speaks whatever it is given
        return None
    return None if preset.responses_api else PRETTY_NAMES.get(preset.name, preset.name)


def _request_items(kwargs: dict) -> list:
    items = kwargs.get("input")
    return items if isinstance(items, list) else ([] if items is None else [items])


def _request_text(kwargs: dict) -> str:
    """Everything a request sends as text (instructions and input), for "did the prompt contain X" checks."""
    parts = [str(kwargs.get("instructions") or "")]
    for item in _request_items(kwargs):
        parts.append(item if isinstance(item, str) else json.dumps(_plain(item), ensure_ascii=False))
    return "\n".join(parts)


def _plain(item):
    if hasattr(item, "model_dump"):
        return item.model_dump(mode="json", exclude_none=True)
    if isinstance(item, dict):
        return {k: _plain(v) for k, v in item.items()}
    if isinstance(item, list):
        return [_plain(v) for v in item]
    return item


# ---------------------------------------------------------------------------------------------------------
# Homework 01 · Search and RAG


@_check("01-search-and-rag", "1.1")
def check_count_entries(count_entries, documents):
    """Check `count_entries(documents, course) -> int` on two courses.

    Example: check_count_entries(count_entries, documents) -> [PASS] Task 1.1 · Count a course's entries
    """
    counts = Counter(d["course"] for d in documents)
    for course in ("llm-zoomcamp", "mlops-zoomcamp"):
        got = _run(count_entries, documents, course)
        if not isinstance(got, int):
            raise _Fail(f"count_entries(documents, {course!r}) returned a {type(got).__name__}; return a whole "
                        f"number (len(...) of a list gives one).")
        if got == len(documents):
            raise _Fail(f"count_entries(documents, {course!r}) counts every document in the FAQ; keep only "
                        f"those whose 'course' field equals the course you were given.")
        if got != counts[course]:
            side = "high" if got > counts[course] else "low"
            raise _Fail(f"count_entries(documents, {course!r}) = {got} is too {side}. Compare each document's "
                        f"'course' field with the argument exactly (no substring match).")
    return "right for llm-zoomcamp and mlops-zoomcamp."


@_check("01-search-and-rag", "1.2")
def check_biggest_section(biggest_section, documents):
    """Check `biggest_section(documents, course) -> str` (the section name with the most entries).

    Example: check_biggest_section(biggest_section, documents) -> [PASS] Task 1.2 · Find the biggest section
    """
    for course in ("llm-zoomcamp", "data-engineering-zoomcamp"):
        sizes = Counter(d["section"] for d in documents if d["course"] == course)
        got = _run(biggest_section, documents, course)
        if not isinstance(got, str):
            raise _Fail(f"biggest_section(documents, {course!r}) returned a {type(got).__name__}; return the "
                        f"section's name as a string (Counter.most_common(1) gives [(name, count)]).")
        if got not in sizes:
            raise _Fail(f"{preview(got)!r} is not a section of {course!r}: count sections only among that "
                        f"course's entries.")
        if sizes[got] != max(sizes.values()):
            raise _Fail(f"in {course!r}, section {got!r} has {sizes[got]} entries, but another section has "
                        f"more. Count every section before picking the largest.")
    return "right for two courses."


_SECTION_INDEX: dict = {}


@_check("01-search-and-rag", "1.3")
def check_search_section(search_section, documents):
    """Check `search_section(query, section) -> list[dict]`: search one course's section, with the boosts.

    Example: check_search_section(search_section, documents) -> [PASS] Task 1.3 · Search within one section
    """
    from minsearch import Index

    from helpers.search import DEFAULT_COURSE, TEXT_FIELDS, ZOOMCAMP_BOOST

    cases = [("openai api key", "Module 1: Introduction"), ("run ollama", "Workshops: Agents")]
    for query, section in cases:
        got = _run(search_section, query, section)
        if not isinstance(got, list) or not all(isinstance(d, dict) for d in got):
            raise _Fail(f"search_section({query!r}, {section!r}) must return a list of FAQ documents (dicts), "
                        f"as index.search() does.")
        if not got:
            raise _Fail(f"search_section({query!r}, {section!r}) found nothing. Is 'section' one of the "
                        f"index's keyword_fields, and spelled exactly like the documents' section names?")
        wrong = [d for d in got if d.get("section") != section or d.get("course") != DEFAULT_COURSE]
        if wrong:
            d = wrong[0]
            raise _Fail(f"a result comes from section {d.get('section')!r} of {d.get('course')!r}. Filter on "
                        f"both keyword fields: filter_dict={{'course': ..., 'section': ...}}.")
        if id(documents) not in _SECTION_INDEX:  # built once per session: fitting takes about a second
            _SECTION_INDEX.clear()
            _SECTION_INDEX[id(documents)] = Index(text_fields=TEXT_FIELDS,
                                                  keyword_fields=["course", "section"]).fit(documents)
        expected = _SECTION_INDEX[id(documents)].search(query, filter_dict={"course": DEFAULT_COURSE, "section": section},
                                    boost_dict=ZOOMCAMP_BOOST, num_results=5)
        if len(got) != len(expected):
            raise _Fail(f"search_section({query!r}, {section!r}) returned {len(got)} results; return the top "
                        f"5 (num_results=5), or all of them if the section has fewer matches.")
        if [d["id"] for d in got] != [d["id"] for d in expected]:
            raise _Fail("the right section, but a different ranking. Search the same text fields as lesson 01 "
                        "(question, section, answer) with its boosts: question 3, section 0.5.")
    return "filtered on course and section, ranked with the course's boosts."


@_check("01-search-and-rag", "1.4")
def check_build_prompt(build_prompt):
    """Check `build_prompt(question, results) -> str`: the question plus every result's question and answer.

    Example: check_build_prompt(build_prompt, documents) -> [PASS] Task 1.4 · Build a RAG prompt
    """
    from helpers.search import search

    question = "How do I run Ollama locally?"
    results = search("Ollama", num_results=3)
    prompt = _run(build_prompt, question, results)
    if not isinstance(prompt, str):
        raise _Fail(f"build_prompt returned a {type(prompt).__name__}; return one string the model can read.")
    if question not in prompt:
        raise _Fail("the prompt doesn't contain the student's question word for word; put it in.")
    for i, doc in enumerate(results, 1):
        if doc["question"] not in prompt:
            raise _Fail(f"result {i}'s FAQ question is missing from the prompt; include each entry's "
                        f"'question' so the model knows what the answer is about.")
        if doc["answer"].strip() not in prompt:
            raise _Fail(f"result {i}'s answer is missing (or changed) in the prompt; include each entry's "
                        f"'answer' text in full.")
    no_results = _run(build_prompt, question, [], what="build_prompt(question, [])")
    if not isinstance(no_results, str) or question not in no_results:
        raise _Fail("with no search results, build_prompt should still return a prompt containing the question.")
    return "question and every result are in the prompt."


@_check("01-search-and-rag", "1.5")
def check_rag(rag, client, model):
    """Check `rag(client, model, question) -> str`: search, build a prompt, make exactly one model call.

    Example: check_rag(rag, client, model) -> [PASS] Task 1.5 · One-call RAG
    """
    from helpers.search import search

    question = "How do I install Ollama?"
    spy = SpyClient(client)
    answer = _run(rag, spy, model, question)
    if not spy.calls:
        raise _Fail("rag() made no model call through the client it was given; use "
                    "client.responses.create(model=model, input=...) with the `client` argument.")
    if len(spy.calls) > 1:
        raise _Fail(f"rag() made {len(spy.calls)} model calls; a fixed RAG pipeline makes exactly one.")
    if not isinstance(answer, str) or not answer.strip():
        raise _Fail("rag() must return the answer text (response.output_text), not the response object.")
    sent = _request_text(spy.calls[0][0])
    top = search(question)[0]
    if question not in sent:
        raise _Fail("the request doesn't contain the question; build the prompt from it.")
    if top["answer"].strip()[:60] not in sent:
        raise _Fail("the request doesn't contain the best search result for the question: search with the "
                    "question first, then put the results into the prompt.")
    return "one call, with the question and the search results in it."


# ---------------------------------------------------------------------------------------------------------
# Homework 02 · The loop


def _outputs_for(items, call_ids) -> dict:
    found = {}
    for item in items:
        if _get(item, "type") == "function_call_output":
            found[_get(item, "call_id")] = _get(item, "output")
    return {cid: found.get(cid) for cid in call_ids}


@_check("02-the-loop", "2.1")
def check_run_function_calls(run_function_calls):
    """Check `run_function_calls(response, tools) -> list[dict]`: one function_call_output per function call.

    Example: check_run_function_calls(run_function_calls) -> [PASS] Task 2.1 · Run every function call
    """
    seen = []

    def lookup(query: str) -> list:
        seen.append(query)
        return [{"query": query}]

    tools = {"search": lookup}
    response = scripted_response(("search", {"query": "docker"}), ("search", {"query": "certificate"}),
                                 text="Let me look that up.")
    outputs = _run(run_function_calls, response, tools)
    if not isinstance(outputs, list):
        raise _Fail(f"return a list of function_call_output items, not a {type(outputs).__name__}.")
    if len(outputs) < 2:
        raise _Fail(f"the response had 2 function calls; you returned {len(outputs)} output(s). Loop over "
                    f"every item of response.output whose type is 'function_call'.")
    if len(outputs) > 2:
        raise _Fail(f"the response had 2 function calls but you returned {len(outputs)} items; skip output "
                    f"items that are not function calls (e.g. a message).")
    if len(seen) != 2:
        raise _Fail(f"the tool ran {len(seen)} time(s) for 2 function calls; run each call's tool once.")
    for item in outputs:
        if _get(item, "type") != "function_call_output":
            raise _Fail("each item needs \"type\": \"function_call_output\".")
        if not isinstance(_get(item, "output"), str):
            raise _Fail("an item's 'output' must be a string (serialize the tool result with json.dumps).")
    got = _outputs_for(outputs, ["call_1_0", "call_1_1"])
    if any(v is None for v in got.values()):
        raise _Fail("an output's call_id doesn't match its function call; copy call.call_id into each output.")
    if "docker" not in got["call_1_0"] or "certificate" not in got["call_1_1"]:
        raise _Fail("the outputs are paired with the wrong calls: each output must carry the call_id of the "
                    "call whose arguments produced it.")
    empty = _run(run_function_calls, scripted_response(text="Done.", n=2), tools, allow_none=True)
    if empty not in ([], None) and list(empty) != []:
        raise _Fail("for a response without function calls, return an empty list.")
    return "both calls ran, each output carries its call_id."


@_check("02-the-loop", "2.2")
def check_get_entry(get_entry, get_entry_tool, documents):
    """Check the second tool `get_entry(entry_id) -> dict` and its schema `GET_ENTRY_TOOL`.

    Example: check_get_entry(get_entry, GET_ENTRY_TOOL, documents) -> [PASS] Task 2.2 · A second tool
    """
    doc = next(d for d in documents if d["course"] == "llm-zoomcamp")
    got = _run(get_entry, doc["id"])
    if not isinstance(got, dict):
        raise _Fail(f"get_entry returned a {type(got).__name__}; return the FAQ entry (a dict).")
    if got.get("id") != doc["id"] or got.get("answer") != doc["answer"]:
        raise _Fail("get_entry(an existing id) returned a different entry; look it up by its 'id' field.")
    try:
        missing = _run(get_entry, "no-such-id", what="get_entry('no-such-id')", allow_none=True)
    except _Fail as e:
        raise _Fail(f"{e} For an unknown id, return a dict with an 'error' key instead of raising.") from None
    if not isinstance(missing, dict) or "error" not in missing:
        raise _Fail("for an unknown id, return a dict with an 'error' key (saying what to do) instead of "
                    "None or an exception: the model reads it and can try again.")
    schema = get_entry_tool
    if schema is None:
        raise _Todo("fill in GET_ENTRY_TOOL, the tool's JSON schema.")
    if not isinstance(schema, dict) or schema.get("type") != "function":
        raise _Fail("GET_ENTRY_TOOL must be a dict with \"type\": \"function\" (look at SEARCH_TOOL).")
    if schema.get("name") != "get_entry":
        raise _Fail(f"GET_ENTRY_TOOL's name is {schema.get('name')!r}; it must match the key in your tools "
                    f"dict, 'get_entry'.")
    if len(str(schema.get("description") or "")) < 15:
        raise _Fail("give GET_ENTRY_TOOL a description that says when to use it: the model decides from it.")
    params = schema.get("parameters") or {}
    props = params.get("properties") or {}
    if params.get("type") != "object" or "entry_id" not in props:
        raise _Fail("GET_ENTRY_TOOL's parameters must be {\"type\": \"object\", \"properties\": {\"entry_id\": "
                    "...}} so the arguments match get_entry(entry_id).")
    if props["entry_id"].get("type") != "string":
        raise _Fail("the entry_id parameter must have \"type\": \"string\".")
    if params.get("required") != ["entry_id"]:
        raise _Fail("list entry_id under \"required\", so the model always sends it.")
    return "the tool works, and its schema matches its signature."


@_check("02-the-loop", "2.3")
def check_ask(ask, client, model, documents):
    """Check `ask(client, model, question) -> LoopResult`: the agent gets search and get_entry.

    Example: check_ask(ask, client, model, documents) -> [PASS] Task 2.3 · Give the agent both tools
    """
    entry = next(d for d in documents if d["course"] == "llm-zoomcamp" and "Ollama" in d["question"])
    question = f'Show me the full FAQ entry with the id "{entry["id"]}".'
    spy = SpyClient(client)
    result = _run(ask, spy, model, question)
    if not hasattr(result, "stop_reason") or not hasattr(result, "messages"):
        raise _Fail("return what agent_loop returns (a LoopResult), not only the answer text.")
    offered = [_get(t, "name") for kwargs, _ in spy.calls[:1] for t in kwargs.get("tools") or []]
    if "get_entry" not in offered:
        raise _Fail(f"the model was offered {offered or 'no tools'}; pass both tools (and both schemas) to "
                    f"agent_loop.")
    if "search" not in offered:
        raise _Fail("the model was offered get_entry but not search any more: keep both tools.")
    calls = [c for c in spy.function_calls() if _get(c, "name") == "get_entry"]
    if not calls:
        raise _Fail("the model never called get_entry for a question naming an entry id. Make the "
                    "description say it fetches one full FAQ entry by its id.")
    if result.stop_reason != "answered":
        raise _Fail(f"the run stopped with {result.stop_reason!r} instead of answering: {result.error or ''}")
    outputs = [m for m in result.messages if _get(m, "type") == "function_call_output"
               and _get(m, "call_id") in {_get(c, "call_id") for c in calls}]
    if not outputs or all('"error"' in str(_get(m, "output")) for m in outputs):
        raise _Fail("get_entry was called but only returned errors: is the tools dict key 'get_entry' bound "
                    "to your function, and does it accept the argument name the schema declares?")
    return "the model fetched the entry with your tool and answered."


@_check("02-the-loop", "2.4")
def check_my_agent_loop(my_agent_loop, client, model):
    """Check `my_agent_loop(client, model, question, tools, schemas) -> (answer, iterations)`.

    Example: check_my_agent_loop(my_agent_loop, client, model) -> [PASS] Task 2.4 · Your own agent loop
    """
    from helpers.search import SEARCH_TOOL, search

    # 1. A scripted model that asks for two searches in one response, then answers.
    ran = []

    def fake_search(query: str) -> list:
        ran.append(query)
        return [{"question": f"about {query}", "answer": "..."}]

    script = [scripted_response(("search", {"query": "docker"}), ("search", {"query": "install"}), n=1),
              scripted_response(text="Install Docker Desktop.", n=2)]
    scripted = ScriptedClient(script)
    got = _run(my_agent_loop, scripted, "scripted", "How do I install Docker?", {"search": fake_search},
               [SEARCH_TOOL])
    if not isinstance(got, tuple) or len(got) != 2:
        raise _Fail("return a pair: (answer text, number of iterations).")
    answer, iterations = got
    if len(scripted.calls) == 1:
        raise _Fail(f"your loop stopped after 1 iteration; the model asked for 2 tool calls in that response "
                    f"(ran {len(ran)}). Keep calling the model until a response has no function call.")
    if len(ran) < 2:
        raise _Fail(f"your loop stopped after {len(scripted.calls)} iteration(s) but the tool ran {len(ran)} "
                    f"time(s); the model asked for 2 tool calls in one response — did you run all of them?")
    second = _request_items(scripted.calls[1][0])
    outs = _outputs_for(second, ["call_1_0", "call_1_1"])
    if any(v is None for v in outs.values()):
        raise _Fail("the second request lacks a function_call_output for each call (matching call_id); "
                    "append one per call to the message list before calling the model again.")
    if not any(_get(i, "type") == "function_call" for i in second):
        raise _Fail("the second request has tool outputs but not the function calls they answer; append "
                    "response.output to the messages first (the model is stateless).")
    if answer != "Install Docker Desktop.":
        raise _Fail("the answer you returned is not the text of the last response; return response.output_text.")
    if iterations != 2:
        raise _Fail(f"you reported {iterations} iteration(s) for a run with 2 model calls; count one "
                    f"iteration per model call.")

    # 2. The real thing: the model the student uses, on the typo question of lesson 04.
    spy = SpyClient(client)
    answer, iterations = _run(my_agent_loop, spy, model, "How do I run Olama locally?", {"search": search},
                              [SEARCH_TOOL])
    if iterations != len(spy.calls):
        raise _Fail(f"you reported {iterations} iteration(s) but the model was called {len(spy.calls)} "
                    f"time(s); count model calls.")
    last = spy.calls[-1][1] if spy.calls else None
    if last is None or any(_get(i, "type") == "function_call" for i in last.output):
        raise _Fail("your loop returned while the model still wanted a tool; stop only on a response "
                    "without function calls.")
    if not isinstance(answer, str) or not answer.strip():
        raise _Fail("the answer is empty; return the last response's output_text.")
    return f"ran every call, and answered the Olama question in {iterations} iteration(s)."


@_check("02-the-loop", "2.5")
def check_count_iterations(count_iterations, client, model):
    """Check `count_iterations(messages) -> int` against the loop's own count, on several questions.

    Example: check_count_iterations(count_iterations, client, model) -> [PASS] Task 2.5 · Count the iterations
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
    got = _run(count_iterations, messages)
    if not isinstance(got, int):
        raise _Fail(f"return a whole number, not a {type(got).__name__}.")
    if got != 2:
        raise _Fail(f"you counted {got} for a run with 2 iterations (one response with two function calls, "
                    f"then the answer): count model responses, not function calls or messages.")
    for question in ["Can I still join the course?", "How do I run Olama locally?"]:
        result = agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)
        got = _run(count_iterations, result.messages)
        if got != result.iterations:
            raise _Fail(f"for {question!r} you counted {got}, but the loop made a different number of model "
                        f"calls. A new iteration starts with each model output that follows a user message "
                        f"or a tool output.")
    return "matches the loop's own count."


# ---------------------------------------------------------------------------------------------------------
# Homework 03 · Prompts and guardrails


@_check("03-prompts-and-guardrails", "3.1")
def check_multi_search_instructions(instructions, client, model):
    """Check that `instructions` make the agent search at least twice before answering (2 of 3 questions).

    Example: check_multi_search_instructions(INSTRUCTIONS, client, model) -> [PASS] Task 3.1 · ...
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    if instructions is None or (isinstance(instructions, str) and not instructions.strip()):
        raise _Todo("write your instructions in the string above.")
    if not isinstance(instructions, str):
        raise _Fail("the instructions must be a string.")
    questions = [q for q, on_topic in LABELLED_QUESTIONS if on_topic][:3]
    searches = []
    for question in questions:
        result = agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL],
                            instructions=instructions, verbose=False)
        if result.stop_reason != "answered":
            raise _Fail(f"the run for {question!r} stopped with {result.stop_reason!r}; the instructions "
                        f"should lead to an answer, not endless searching.")
        searches.append(sum(1 for c in result.tool_calls if c["name"] == "search"))
    several = sum(n >= 2 for n in searches)
    if several < 2:
        raise _Fail(f"only {several} of {len(questions)} runs searched more than once (searches per run: "
                    f"{searches}). Ask for it plainly, e.g. how many searches and with what kind of keywords.")
    return f"searches per question: {searches}."


def _guard_verdict(is_on_topic, client, model, question) -> bool:
    verdict = _run(is_on_topic, client, model, question, what=f"is_on_topic(..., {question!r})")
    if not isinstance(verdict, bool):
        raise _Fail(f"is_on_topic returned {type(verdict).__name__}; return True (allow) or False (block). "
                    f"Turn the model's reply into a bool yourself.")
    return verdict


@_check("03-prompts-and-guardrails", "3.2")
def check_is_on_topic(is_on_topic, client, model):
    """Check the guardrail `is_on_topic(client, model, question) -> bool` on the labelled set.

    It must let through at least 5 of 6 on-topic questions, block at least 5 of 6 off-topic ones, and
    cost at most one model call per question, with no tools.
    Example: check_is_on_topic(is_on_topic, client, model) -> [PASS] Task 3.2 · An input guardrail
    """
    wrong_on, wrong_off = [], []
    for question, on_topic in LABELLED_QUESTIONS:
        spy = SpyClient(client)
        verdict = _guard_verdict(is_on_topic, spy, model, question)
        if len(spy.calls) > 1:
            raise _Fail(f"the guardrail made {len(spy.calls)} model calls for one question; a guardrail should "
                        f"be one cheap call (or none).")
        if spy.calls and spy.calls[0][0].get("tools"):
            raise _Fail("the guardrail call offers tools; a classifier needs none, and each tool schema costs "
                        "input tokens.")
        if verdict != on_topic:
            (wrong_on if on_topic else wrong_off).append(question)
    if len(wrong_on) > 1:
        raise _Fail(f"it blocked {len(wrong_on)} of 6 on-topic questions, e.g. {wrong_on[0]!r}. Check how you "
                    f"read the model's reply (strip spaces, compare case-insensitively).")
    if len(wrong_off) > 1:
        raise _Fail(f"it let through {len(wrong_off)} of 6 off-topic questions, e.g. {wrong_off[0]!r}. Say "
                    f"what the course covers and ask for exactly one word as the reply.")
    return f"{6 - len(wrong_on)}/6 on-topic allowed, {6 - len(wrong_off)}/6 off-topic blocked."


@_check("03-prompts-and-guardrails", "3.3")
def check_measure_guardrail(measure_guardrail):
    """Check `measure_guardrail(guard, labelled) -> {"on_topic_allowed": n, "off_topic_blocked": m}`.

    Uses a deliberately simple keyword guard, so the numbers don't depend on any model.
    Example: check_measure_guardrail(measure_guardrail) -> [PASS] Task 3.3 · Measure the guardrail
    """
    def keyword_guard(question: str) -> bool:
        return any(w in question.lower() for w in ("course", "docker", "movie"))

    labelled = LABELLED_QUESTIONS
    got = _run(measure_guardrail, keyword_guard, labelled)
    if not isinstance(got, dict) or set(got) != {"on_topic_allowed", "off_topic_blocked"}:
        raise _Fail("return a dict with exactly two keys: 'on_topic_allowed' and 'off_topic_blocked'.")
    allowed = sum(keyword_guard(q) for q, on in labelled if on)
    blocked = sum(not keyword_guard(q) for q, on in labelled if not on)
    if got["on_topic_allowed"] != allowed:
        raise _Fail("on_topic_allowed is off for a simple keyword guard. Count the questions labelled True "
                    "for which guard(question) is True.")
    if got["off_topic_blocked"] != blocked:
        raise _Fail("off_topic_blocked is off for a simple keyword guard. Count the questions labelled False "
                    "for which guard(question) is False.")
    return "counts match for a test guard."


@_check("03-prompts-and-guardrails", "3.4")
def check_guarded_answer(guarded_answer, client, model):
    """Check `guarded_answer(client, model, question) -> str`: guardrail first, the agent loop only if allowed.

    Example: check_guarded_answer(guarded_answer, client, model) -> [PASS] Task 3.4 · Guard the agent
    """
    off = "How do I win with the queen's gambit?"
    spy = SpyClient(client)
    answer = _run(guarded_answer, spy, model, off)
    if not isinstance(answer, str) or not answer.strip():
        raise _Fail("for a blocked question, return a short polite refusal (a non-empty string).")
    if spy.function_calls():
        raise _Fail(f"for {off!r} the agent still searched the FAQ; run the guardrail first and return before "
                    f"the loop when it says no.")
    if len(spy.calls) > 1:
        raise _Fail(f"a blocked question cost {len(spy.calls)} model calls; it should cost only the guardrail's.")
    on = "Can I still join the course after it has started?"
    spy = SpyClient(client)
    answer = _run(guarded_answer, spy, model, on)
    if not spy.function_calls():
        raise _Fail(f"for the on-topic question {on!r} the agent never searched: when the guardrail allows it, "
                    f"run agent_loop with the search tool.")
    if not isinstance(answer, str) or not answer.strip():
        raise _Fail("for an allowed question, return the loop's answer text (result.answer).")
    return "blocked before the loop, answered with the loop."


# ---------------------------------------------------------------------------------------------------------
# Homework 04 · Cost and safety


def _price(i, c, o, p):
    return ((i - c) * p["input"] + c * p["cached_input"] + o * p["output"]) / 1_000_000


@_check("04-cost-and-safety", "4.1")
def check_price_call(price_call):
    """Check `price_call(input_tokens, cached_input_tokens, output_tokens, prices) -> float` (USD).

    Example: check_price_call(price_call) -> [PASS] Task 4.1 · Price one call
    """
    prices = {"input": 0.75, "cached_input": 0.075, "output": 4.5}
    cases = [(1_000_000, 0, 0), (0, 0, 1_000_000), (2_000, 0, 300), (10_000, 8_000, 500)]
    for i, c, o in cases:
        got = _run(price_call, i, c, o, prices)
        if not isinstance(got, (int, float)):
            raise _Fail(f"price_call returned a {type(got).__name__}; return dollars as a float.")
        want = _price(i, c, o, prices)
        if abs(got - want) <= 1e-9 + 1e-6 * want:
            continue
        label = f"price_call({i}, {c}, {o}, prices)"
        if want and abs(got - want * 1_000_000) <= 1e-6 * want * 1_000_000:
            raise _Fail(f"{label} is a million times too big: prices are per million tokens.")
        if c and abs(got - _price(i, 0, o, prices)) < 1e-12:
            raise _Fail(f"{label} charges the cached tokens at the full input price; they are part of "
                        f"input_tokens and cost the cached rate.")
        if c and abs(got - (_price(i, 0, o, prices) + c * prices["cached_input"] / 1e6)) < 1e-12:
            raise _Fail(f"{label} charges the cached tokens twice: input_tokens already includes them.")
        if o and abs(got - _price(i + o, c, 0, prices)) < 1e-12:
            raise _Fail(f"{label} charges output tokens at the input price; output has its own, higher price.")
        raise _Fail(f"{label} is off. Cost = (uncached input × input price + cached × cached price + output × "
                    f"output price) / 1,000,000.")
    return "right for plain, output-only, mixed and cached calls."


@_check("04-cost-and-safety", "4.2")
def check_price_run(price_run, client, model):
    """Check `price_run(result, prices) -> float`: the cost of every call of a loop run.

    Example: check_price_run(price_run, client, model) -> [PASS] Task 4.2 · Price a whole run
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    prices = {"input": 0.75, "cached_input": 0.075, "output": 4.5}
    result = agent_loop(client, model, "How do I run Olama locally?", {"search": search}, schemas=[SEARCH_TOOL],
                        verbose=False)
    got = _run(price_run, result, prices)
    if not isinstance(got, (int, float)):
        raise _Fail(f"price_run returned a {type(got).__name__}; return dollars as a float.")
    costs = [_price(c.input_tokens, c.cached_input_tokens, c.output_tokens, prices) for c in result.calls]
    want = sum(costs)
    if abs(got - want) <= 1e-12 + 1e-9 * want:
        return f"right for a run of {len(result.calls)} calls."
    if len(costs) > 1 and any(abs(got - c) < 1e-12 for c in costs):
        raise _Fail(f"your total equals the cost of one call, but this run made {len(costs)}; add up every "
                    f"record in result.calls.")
    if abs(got - _price(result.total_tokens, 0, 0, prices)) < 1e-12:
        raise _Fail("you priced all tokens at the input price; input and output tokens have different prices.")
    raise _Fail("the total is off. Price each record in result.calls with its input_tokens, "
                "cached_input_tokens and output_tokens, then sum.")


@_check("04-cost-and-safety", "4.3")
def check_run_with_budget(run_with_budget, client, model):
    """Check `run_with_budget(client, model, question, max_tokens) -> (answer, stop_reason, tokens_used)`.

    Uses the offline model with the "never_stop" fault, a model that always asks for another search.
    Example: check_run_with_budget(run_with_budget, client, model) -> [PASS] Task 4.3 · A token budget
    """
    from helpers.offline import OFFLINE_MODEL

    budget = 3_000
    spy = SpyClient(offline_client("never_stop"))  # a string: the fault applies to every request
    got = _run(run_with_budget, spy, OFFLINE_MODEL, "How do I run Olama locally?", budget)
    if not isinstance(got, tuple) or len(got) != 3:
        raise _Fail("return three things: (answer, stop_reason, tokens_used).")
    answer, reason, used = got
    calls = [r for _, r in spy.calls]
    spent = [_get(_get(r, "usage"), "total_tokens", 0) or 0 for r in calls]
    if len(calls) > 50:
        raise _Fail("with a model that never stops, your run went on past 50 calls; check the budget before "
                    "every model call.")
    if reason != "token_budget":
        raise _Fail(f"with a model that never stops and a {budget:,}-token budget the run should stop with "
                    f"stop_reason 'token_budget', not {reason!r}.")
    if used != sum(spent):
        raise _Fail(f"tokens_used says {used}, but the model calls used a different total; add up every "
                    f"call's usage.total_tokens (AgentRun keeps them in run.calls).")
    if sum(spent) < budget:
        raise _Fail(f"the run stopped after {sum(spent):,} tokens, before reaching the {budget:,} budget; stop "
                    f"only once the budget is used up.")
    if sum(spent[:-1]) >= budget:
        raise _Fail("the run made another call after the budget was already used up; check the total before "
                    "each call, not after the loop.")
    if not isinstance(answer, str):
        raise _Fail("return the text gathered so far as the answer (a string, maybe empty).")
    spy = SpyClient(client)
    got = _run(run_with_budget, spy, model, "Can I still join the course?", 1_000_000)
    if got[1] != "answered":
        raise _Fail(f"with a huge budget and a normal question the run should end 'answered', not {got[1]!r}.")
    return f"stopped after {len(calls)} calls with a model that never stops."


@_check("04-cost-and-safety", "4.4")
def check_safe_make_call(safe_make_call):
    """Check `safe_make_call(call, tools) -> dict` never raises and returns errors the model can read.

    Example: check_safe_make_call(safe_make_call) -> [PASS] Task 4.4 · A tool call that never crashes
    """
    def lookup(query: str) -> list:
        if query == "boom":
            raise RuntimeError("the index is not loaded")
        return [{"answer": f"about {query}"}]

    tools = {"search": lookup}
    cases = [
        ("a working call", "search", '{"query": "docker"}', False),
        ("an unknown tool", "serch", '{"query": "docker"}', True),
        ("malformed JSON arguments", "search", '{"query": "docker"', True),
        ("wrong argument names", "search", '{"q": "docker"}', True),
        ("a tool that raises", "search", '{"query": "boom"}', True),
    ]
    for n, (label, name, arguments, is_error) in enumerate(cases):
        call = {"type": "function_call", "call_id": f"call_{n}", "name": name, "arguments": arguments}
        out = _run(safe_make_call, call, tools, what=f"safe_make_call with {label}")
        if _get(out, "type") != "function_call_output" or _get(out, "call_id") != f"call_{n}":
            raise _Fail(f"for {label}, return a function_call_output item with the call's own call_id, so the "
                        f"model can pair the result with its call.")
        text = _get(out, "output")
        if not isinstance(text, str):
            raise _Fail(f"for {label}, 'output' must be a string.")
        if is_error and "error" not in text.lower():
            raise _Fail(f"for {label}, the output should say 'error' and what went wrong, so the model can fix "
                        f"its next call.")
        if not is_error and ("error" in text.lower() or "docker" not in text):
            raise _Fail("a working call should return the tool's result, serialized as JSON.")
    return "every failure became an error output the model can read."


# ---------------------------------------------------------------------------------------------------------
# Homework 05 · Chat Completions and tools


def _chat_messages(kwargs: dict) -> list:
    return [_plain(m) for m in kwargs.get("messages") or []]


@_check("05-chat-and-tools", "5.1")
def check_my_chat_loop(my_chat_loop, client, model):
    """Check `my_chat_loop(client, model, question, functions, schemas) -> (answer, iterations)`.

    Example: check_my_chat_loop(my_chat_loop, client, model) -> [PASS] Task 5.1 · A Chat Completions loop
    """
    from helpers.search import SEARCH_TOOL, search

    schemas = [{"type": "function", "function": {"name": "search", "description": "Search the course FAQ.",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                               "required": ["query"]}}}]
    ran = []

    def fake_search(query: str) -> list:
        ran.append(query)
        return [{"question": f"about {query}", "answer": "..."}]

    script = [scripted_chat_completion(("search", {"query": "docker"}), ("search", {"query": "install"}), n=1),
              scripted_chat_completion(text="Install Docker Desktop.", n=2)]
    scripted = ScriptedClient(script)
    got = _run(my_chat_loop, scripted, "scripted", "How do I install Docker?", {"search": fake_search}, schemas)
    if not isinstance(got, tuple) or len(got) != 2:
        raise _Fail("return a pair: (answer text, number of iterations).")
    answer, iterations = got
    if len(scripted.calls) == 1:
        raise _Fail(f"your loop stopped after 1 iteration; the model asked for 2 tool calls in that message "
                    f"(ran {len(ran)}). Keep calling the model until a message has no tool_calls.")
    if len(ran) < 2:
        raise _Fail(f"the tool ran {len(ran)} time(s), but the model asked for 2 tool calls in one message — "
                    f"did you run all of them?")
    second = _chat_messages(scripted.calls[1][0])
    tool_ids = [m.get("tool_call_id") for m in second if m.get("role") == "tool"]
    if sorted(tool_ids) != ["call_1_0", "call_1_1"]:
        raise _Fail("the second request needs one {\"role\": \"tool\"} message per tool call, each with that "
                    "call's id as tool_call_id.")
    first_tool = next(i for i, m in enumerate(second) if m.get("role") == "tool")
    if not any(m.get("role") == "assistant" and m.get("tool_calls") for m in second[:first_tool]):
        raise _Fail("the tool messages don't follow the assistant message that asked for them (the trap of "
                    "lesson 08): append the model's message, with its tool_calls, before the tool results.")
    if answer != "Install Docker Desktop.":
        raise _Fail("the answer you returned is not the last message's content.")
    if iterations != 2:
        raise _Fail(f"you reported {iterations} iteration(s) for a run with 2 model calls; count model calls.")

    spy = SpyClient(client)
    # Chat Completions nests the same fields under "function".
    chat_search = {"type": "function", "function": {k: v for k, v in SEARCH_TOOL.items() if k != "type"}}
    answer, iterations = _run(my_chat_loop, spy, model, "How do I run Olama locally?", {"search": search},
                              [chat_search])
    if iterations != len(spy.calls):
        raise _Fail(f"you reported {iterations} iteration(s) but the model was called {len(spy.calls)} time(s).")
    last = spy.calls[-1][1] if spy.calls else None
    if last is None or last.choices[0].message.tool_calls:
        raise _Fail("your loop returned while the model still wanted a tool; stop only on a message without "
                    "tool_calls.")
    if not isinstance(answer, str) or not answer.strip():
        raise _Fail("the answer is empty; return the last message's content.")
    return f"ran every call, and answered the Olama question in {iterations} iteration(s)."


@_check("05-chat-and-tools", "5.2")
def check_count_tool(count_tool, documents):
    """Check `count_tool`, a `@tool` with parameters course (required) and section (optional), documented.

    Example: check_count_tool(count_faq_entries, documents) -> [PASS] Task 5.2 · A tool from a typed function
    """
    from helpers.tools import Tool, Tools

    if count_tool is None:
        raise _Todo("define the function in the cell above, then run this cell again.")
    counts = Counter(d["course"] for d in documents)
    sections = Counter((d["course"], d["section"]) for d in documents)
    got = _run(count_tool, course="llm-zoomcamp")
    if got != counts["llm-zoomcamp"]:
        raise _Fail("count_faq_entries(course='llm-zoomcamp') gives a wrong count; count that course's entries.")
    got = _run(count_tool, course="llm-zoomcamp", section="Workshops: Agents")
    if got != sections[("llm-zoomcamp", "Workshops: Agents")]:
        raise _Fail("with a section, count only that section's entries of the course.")
    if not isinstance(count_tool, Tool):
        raise _Fail("the counts are right; now decorate the function with @tool (from helpers.tools), so it "
                    "carries its schema.")
    schema = count_tool.responses_schema()
    if len(schema.get("description") or "") < 15:
        raise _Fail("the tool has no real description: write a docstring whose first line says what it does.")
    props, required = schema["parameters"].get("properties", {}), schema["parameters"].get("required", [])
    if set(props) != {"course", "section"}:
        raise _Fail(f"the schema's parameters are {sorted(props)}; the function should take course and section.")
    if required != ["course"]:
        raise _Fail(f"required is {required}: course must be required and section optional (give it a default "
                    f"of None).")
    undocumented = [name for name, spec in props.items() if not spec.get("description")]
    if undocumented:
        raise _Fail(f"parameter {undocumented[0]!r} has no description; describe each one in an Args: section of "
                    f"the docstring, with an example value.")
    reply = Tools(count_tool).call(count_tool.name, '{"course": 5}')
    if "error" not in reply:
        raise _Fail("a call with course=5 was accepted; annotate course as str so the registry rejects it.")
    return "a documented tool whose schema the registry builds and checks."


@_check("05-chat-and-tools", "5.3")
def check_follow_up(follow_up, client, model):
    """Check `follow_up(client, model, result, question) -> LoopResult`: the second turn sees the first.

    Example: check_follow_up(follow_up, client, model) -> [PASS] Task 5.3 · Continue the conversation
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    lacking = _without_responses_api(client)
    if lacking:
        # Not the student's mistake, so not a hint about their code: say which API is missing and what to do.
        raise _Fail(f"this task continues a Responses API conversation, and {lacking} has no Responses API. Run "
                    f"this notebook with LLM_PROVIDER=offline (or another provider with the Responses API) in .env, "
                    f"then restart the kernel.")
    first = "Can I still join the course after it has started?"
    result = agent_loop(client, model, first, {"search": search}, schemas=[SEARCH_TOOL], verbose=False)
    kept = len(result.messages)
    spy = SpyClient(client)
    second = _run(follow_up, spy, model, result, "And will I get a certificate?")
    if not hasattr(second, "messages") or not hasattr(second, "stop_reason"):
        raise _Fail("return the LoopResult of the second run, not only its answer.")
    if not spy.calls:
        raise _Fail("follow_up made no model call with the client it was given.")
    sent = _request_text(spy.calls[0][0])
    if first not in sent:
        raise _Fail("the model never saw the first question in the second turn: pass the first run's messages "
                    "to agent_loop (messages=result.messages).")
    if "certificate" not in sent:
        raise _Fail("the follow-up question is missing from the request.")
    if len(second.messages) <= kept:
        raise _Fail("the second run's messages are not longer than the first's; it should add to the history.")
    if second.stop_reason != "answered":
        raise _Fail(f"the second turn stopped with {second.stop_reason!r} instead of answering.")
    return "the second turn carried the whole first conversation."


# ---------------------------------------------------------------------------------------------------------
# The runner: `python -m helpers.homework`


def run_notebook(path: Path, timeout: int = 120) -> list[CheckResult]:
    """Execute one homework notebook headlessly and return the results of its checks, one per task.

    Example: run_notebook(Path("notebooks/homework/01-search-and-rag.ipynb")) -> [CheckResult(...), ...]
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as tmp:
        results_file = Path(tmp) / "results.jsonl"
        results_file.touch()
        previous = os.environ.get("HOMEWORK_RESULTS")
        os.environ["HOMEWORK_RESULTS"] = str(results_file)  # the kernel inherits this environment
        crashed = None
        try:
            # allow_errors: a broken cell must not hide the checks of later tasks.
            # The kernel's own stderr (start-up warnings) would clutter the table; cell errors are in outputs.
            NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                           resources={"metadata": {"path": str(path.parent)}}).execute(stderr=subprocess.DEVNULL)
        except Exception as e:  # noqa: BLE001 -- a dead kernel or a timeout still gets a score table
            crashed = f"{type(e).__name__}: {preview(str(e), 120)}"
        finally:
            if previous is None:
                os.environ.pop("HOMEWORK_RESULTS", None)
            else:
                os.environ["HOMEWORK_RESULTS"] = previous
        found = {}
        for line in results_file.read_text(encoding="utf-8").splitlines():
            r = CheckResult(**json.loads(line))
            found[r.task] = r  # a check run twice: the last run counts
    name = path.stem
    why = (f"the notebook stopped ({crashed})" if crashed else "its check didn't run: look for an error in the "
           "cells above it, or a deleted check cell")
    expected = TASKS.get(name, [(task, r.title) for task, r in sorted(found.items())])
    return [found.get(task) or CheckResult(name, task, title, "not run", why) for task, title in expected]


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def format_table(results: list[CheckResult]) -> str:
    """The score table `make homework` prints.

    Example: format_table([CheckResult("01-search-and-rag", "1.1", "Count", "pass")]) -> "notebook  task ..."
    """
    rows = [("notebook", "task", "status", "hint")]
    rows += [(r.notebook, f"{r.task} {r.title}", STATUS_MARK.get(r.status, r.status), preview(r.hint, 90))
             for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True)) + "  " + row[3] for row in rows]
    lines.insert(1, "-" * min(max(len(line) for line in lines), 120))
    score = sum(r.passed for r in results)
    lines.append(f"\n{score}/{len(results)} tasks pass.")
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str]) -> int:
    targets = [Path(a) for a in argv] or [HOMEWORK_DIR]
    paths = []
    for target in targets:
        if target.is_dir():
            paths += sorted(p for p in target.glob("*.ipynb"))
        elif target.suffix == ".ipynb" and target.is_file():
            paths.append(target)
        else:
            print(f"{target}: not a notebook or a folder of notebooks. Pass e.g. notebooks/homework/.",
                  file=sys.stderr)
            return 2
    if not paths:
        print(f"No homework notebooks found in {', '.join(map(str, targets))}.", file=sys.stderr)
        return 2
    results = []
    for path in paths:
        print(f"running {_relative(path)} ...", flush=True)
        results += run_notebook(path)
    print()
    print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
