"""The clients the checks use instead of trusting a model to behave a certain way.

`SpyClient` wraps the student's client and records every request and response, so a check can ask "did the
prompt contain the results?" on any provider. `ScriptedClient` returns prepared responses in order, for the
exact situations a real model can't be relied on to produce (two function calls in one response, a model that
never stops). `wire_double` is a real openai client on the offline model's wire whose answers come from a
function of the request (`always_says` for one that replies the same text every time), so the double gets real
ids, usage, `parse` and streaming for free. `offline_double` gives the offline model with injected faults; `note_tool` a made-up writing
tool that records what it saved. `judge_client()` is the model a check's verdict comes from when the student's
work is a prompt (the offline model: deterministic, and it follows instructions by general rules), and
`on_your_model(...)` reports, beside a PASS, what the student's own model did with the same code: never a
FAIL, since a right solution on a model that misjudges is still right. The checks read what a recorded
request sent with `request_items`, `request_text` and `plain_data`, and `without_responses_api` names a
provider that a Responses API check can't run on. `no_waiting()` turns `input()` and `getpass()` into a trap
(`Blocked`), for the checks of a loop that must pause instead of waiting for a person. Left out on purpose: streaming (no homework task streams).
"""

from __future__ import annotations

import builtins
import contextlib
import getpass
import io
import json
from typing import Any
from unittest import mock

from helpers.checks.core import CheckFailed, NotDoneYet, read_field, run_student_code
from helpers.tools import preview


class Blocked(BaseException):
    """Raised by `no_waiting`'s trap: the student's code waited for a person. A BaseException, so neither
    run_student_code nor a student's `except Exception` swallows it."""


@contextlib.contextmanager
def no_waiting():
    """Inside the block, input() and getpass.getpass() raise Blocked instead of waiting for a keyboard.

    Example:
        >>> with no_waiting():
        ...     try:
        ...         input("Approve? ")
        ...     except Blocked:
        ...         print("it would have waited")
        it would have waited
    """
    def trap(*args, **kwargs):
        raise Blocked

    with mock.patch.object(builtins, "input", trap), mock.patch.object(getpass, "getpass", trap):
        yield


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

    Example:
        >>> from helpers.loop import agent_loop
        >>> from helpers.search import SEARCH_TOOL
        >>> spy = SpyClient(offline_double())
        >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?", "answer": "Yes."}]}
        >>> agent_loop(spy, "offline-rules-v1", "Can I join late?", tools, schemas=[SEARCH_TOOL],
        ...     verbose=False).answer
        'According to "Can I join late?" [a1]: Yes.'
        >>> len(spy.calls), [call.name for call in spy.function_calls()]
        (2, ['search'])
    """

    def __init__(self, client, calls: list | None = None):
        self._client = client
        # (request, response): the response is what the client returned (a Response, a ChatCompletion, ...).
        self.calls: list[tuple[dict, Any]] = calls if calls is not None else []
        self.responses = _Recorder(client.responses, self.calls)
        # Chat Completions (lesson 08) goes through client.chat.completions; record those calls too.
        self.chat = _Namespace(completions=_Recorder(client.chat.completions, self.calls))

    def with_options(self, **options):
        return SpyClient(self._client.with_options(**options), self.calls)

    def __getattr__(self, name):
        return getattr(self._client, name)

    def function_calls(self) -> list:
        """Every function_call item the model produced, across all recorded Responses API results."""
        return [item for _, r in self.calls for item in (read_field(r, "output") or []) if read_field(item, "type") ==
                "function_call"]


def scripted_response(*items, text: str | None = None, n: int = 1, reasoning: bool = False):
    """A Responses API result holding the given function calls (name, arguments) and/or a text message; with
    `reasoning`, a reasoning item first, as reasoning models send it.

    Example:
        >>> response = scripted_response(("search", {"query": "docker"}), ("search", {"query": "join"}))
        >>> [(item.name, item.arguments, item.call_id) for item in response.output]
        [('search', '{"query": "docker"}', 'call_1_0'), ('search', '{"query": "join"}', 'call_1_1')]
        >>> [item.type for item in scripted_response(("search", {}), text="On it.", reasoning=True).output]
        ['reasoning', 'function_call', 'message']
    """
    from openai.types.responses import Response

    output = [{"type": "reasoning", "id": f"rs_{n}", "summary": []}] if reasoning else []
    output += [{"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}", "name": name,
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

    Example:
        >>> choice = scripted_chat_completion(("search", {"query": "docker"})).choices[0]
        >>> choice.finish_reason, choice.message.tool_calls[0].id, choice.message.tool_calls[0].function.arguments
        ('tool_calls', 'call_1_0', '{"query": "docker"}')
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
            raise CheckFailed("your loop called the model again after it had already answered in plain text; stop "
                        "when a response has no function_call items.")
        response = self._script.pop(0)
        self._log.append((_snapshot(kwargs), response))
        return response


class ScriptedClient:
    """A fake client that returns prepared responses in order and records each request.

    Example:
        >>> client = ScriptedClient([scripted_response(text="Hi")])
        >>> client.responses.create(model="m", input="Hello").output_text, client.calls[0][0]["input"]
        ('Hi', 'Hello')
    """

    def __init__(self, script: list):
        self.calls: list[tuple[dict, Any]] = []
        self.responses = _ScriptedResponses(script, self.calls)
        self.chat = _Namespace(completions=self.responses)  # the script decides which flavour it speaks

    def with_options(self, **options):
        return self


SCRIPTED_ANSWER = "Install Docker Desktop."


def two_searches_then_answer(loop, scripted, schemas: list[dict]):
    """Run a student's loop `loop(client, model, question, tools, schemas) -> (answer, iterations)` on a scripted
    model that asks for two searches in one reply, then answers SCRIPTED_ANSWER. `scripted` makes one reply of
    its API (scripted_response or scripted_chat_completion). Returns (client, queries searched, answer,
    iterations) for the API-specific checks; a result that is not a pair fails here.

    Example:
        >>> from helpers.loop import agent_loop
        >>> from helpers.search import SEARCH_TOOL
        >>> def my_loop(client, model, question, tools, schemas):
        ...     result = agent_loop(client, model, question, tools, schemas=schemas, verbose=False, price_as="gpt-5.4-mini")
        ...     return result.answer, result.iterations
        >>> two_searches_then_answer(my_loop, scripted_response, [SEARCH_TOOL])[1:]
        (['docker', 'install'], 'Install Docker Desktop.', 2)
    """
    ran = []

    def fake_search(query: str) -> list:
        ran.append(query)
        return [{"question": f"about {query}", "answer": "..."}]

    client = ScriptedClient([scripted(("search", {"query": "docker"}), ("search", {"query": "install"}), n=1),
                             scripted(text=SCRIPTED_ANSWER, n=2)])
    got = run_student_code(loop, client, "scripted", "How do I install Docker?", {"search": fake_search}, schemas)
    if not isinstance(got, tuple) or len(got) != 2:
        raise CheckFailed("return a pair: (answer text, number of iterations).")
    return client, ran, *got


def note_tool(name: str = "write_note"):
    """A made-up writing tool for the approval checks: (function, its Responses schema, the texts it saved).
    The function saves a short note and records it, so a check can tell whether a gated write ran.

    Example:
        >>> save, schema, saved = note_tool("add_note")
        >>> save("buy bread"), schema["name"], saved
        ({'saved': 'buy bread'}, 'add_note', ['buy bread'])
    """
    saved: list[str] = []

    def save(text: str) -> dict:
        saved.append(text)
        return {"saved": text}

    schema = {"type": "function", "name": name, "description": "Save a short note for later.",
              "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                             "additionalProperties": False}}
    return save, schema, saved


def wire_double(decide):
    """A real openai client on the offline model's wire (shape checks, ids, usage, streaming), whose answers come
    from `decide(conversation) -> helpers.offline.Decision` instead of the offline model's rules. No retries.

    Example:
        >>> client = wire_double(always_says("Not JSON at all."))
        >>> client.responses.create(model="scripted", input="Judge this.").output_text
        'Not JSON at all.'
    """
    from helpers.offline import neutral_client

    return neutral_client(decide=decide, max_retries=0)


def always_says(text: str):
    """A `decide` for wire_double that replies `text` to every request, whatever it asks.

    Example:
        >>> always_says("PASS maybe")(None).text
        'PASS maybe'
    """
    from helpers.offline.conversation import Decision

    return lambda conversation: Decision(text=text)


def offline_double(faults: str | list | None = None):
    """A client on the offline model, optionally with injected faults (used for the safety-net checks).

    Example:
        >>> from helpers.search import SEARCH_TOOL
        >>> client = offline_double("never_stop")
        >>> [item.type for item in client.responses.create(model="offline-rules-v1", input="Hi",
        ...     tools=[SEARCH_TOOL]).output]
        ['function_call']
    """
    from helpers.llm import offline_client as make_offline

    # No retries: a check wants to see each call the student's code makes, not the SDK's repeats.
    return make_offline(faults, max_retries=0)


def judge_client():
    """The client a check's verdict comes from when no script can stand in for a model (a prompt is judged by
    what a model does with it): the offline model, whatever model the student uses, so the same code gets the
    same verdict on every provider. Its model name is helpers.offline.OFFLINE_MODEL.

    Example:
        >>> judge_client().models.list().data[0].id
        'offline-rules-v1'
    """
    return offline_double()


def is_offline_model(client) -> bool:
    """Whether a client talks to the offline model itself (then a check's verdict already is what it did).

    Example:
        >>> is_offline_model(offline_double()), is_offline_model(ScriptedClient([]))
        (True, False)
    """
    from helpers.llm import provider_of

    try:
        return provider_of(client).name == "offline"
    except AttributeError:  # a test double without a base URL
        return False


def on_your_model(client, model, run) -> str:
    """What the student's own model did with code a check has already passed: " On your model (MODEL): ..."
    with the sentence `run(client, model)` returns, or "" when the client is the offline model (the verdict
    already came from it) or a test double. Never raises: the model's own misjudgement or its provider's error is
    reported as what happened on that model, not as a failure of the student's code.

    Example:
        >>> on_your_model(offline_double(), "offline-rules-v1", lambda client, model: "it searched twice.")
        ''
    """
    from helpers.llm import provider_of

    try:
        provider_of(client)
    except AttributeError:
        return ""
    if is_offline_model(client):
        return ""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            seen = run(client, model)
    except (CheckFailed, NotDoneYet) as e:
        seen = str(e)
    except Exception as e:  # noqa: BLE001 -- the provider's error is what happened on that model, not a FAIL
        lacking = without_responses_api(client)
        if lacking and getattr(e, "status_code", None) in (400, 404):
            # A provider without the Responses API answers a Responses call with 404 (or 400): say what it
            # lacks, not an error code the student has to decode.
            seen = f"{lacking} has no Responses API, so this run could not be tried there."
        else:
            seen = f"the call failed ({type(e).__name__}: {preview(str(e), 160)})."
    return f" On your model ({model}): {seen}"


def without_responses_api(client) -> str | None:
    """The provider's name when it has no Responses API (Google Gemini), else None (also for test doubles).

    Example:
        >>> import openai
        >>> from helpers.llm import PROVIDERS
        >>> without_responses_api(openai.OpenAI(base_url=PROVIDERS["gemini"].base_url, api_key="x"))
        'Google Gemini'
    """
    from helpers.llm import PRETTY_NAMES, provider_of

    try:
        preset = provider_of(client)
    except AttributeError:  # a client without a base URL: a test double, which speaks whatever it is given
        return None
    return None if preset.responses_api else PRETTY_NAMES.get(preset.name, preset.name)


def request_items(kwargs: dict) -> list:
    """A Responses API request's `input` as a list of items (a plain string is one item).

    Example:
        >>> request_items({"input": "Can I join?"})
        ['Can I join?']
    """
    items = kwargs.get("input")
    return items if isinstance(items, list) else ([] if items is None else [items])


def request_text(kwargs: dict) -> str:
    """Everything a request sends as text (instructions and input), for "did the prompt contain X" checks.

    Example:
        >>> print(request_text({"instructions": "Be brief.", "input": "Hi"}))
        Be brief.
        Hi
    """
    parts = [str(kwargs.get("instructions") or "")]
    for item in request_items(kwargs):
        parts.append(item if isinstance(item, str) else json.dumps(plain_data(item), ensure_ascii=False))
    return "\n".join(parts)


def plain_data(item):
    """SDK objects, dicts and lists turned into plain JSON-ready data (None fields dropped from SDK objects).

    Example:
        >>> from openai.types.responses import ResponseFunctionToolCall
        >>> plain_data([ResponseFunctionToolCall(type="function_call", call_id="c1", name="search", arguments="{}")])
        [{'arguments': '{}', 'call_id': 'c1', 'name': 'search', 'type': 'function_call'}]
    """
    if hasattr(item, "model_dump"):
        return item.model_dump(mode="json", exclude_none=True)
    if isinstance(item, dict):
        return {k: plain_data(v) for k, v in item.items()}
    if isinstance(item, list):
        return [plain_data(v) for v in item]
    return item
