"""The agent loop: call the model, run the tools it asks for, send the results back, stop when it answers.

This is the loop lessons 04 to 10 use, the same one lesson 04 writes by hand, plus the safety nets
of lesson 07:
- limits on iterations, total tokens, dollars and wall-clock time; each run says why it stopped;
- on the iteration limit, one last call with tools disabled, so you still get an answer;
- tool failures go back to the model as error outputs (that is `make_call`'s job, in helpers.tools);
- API failures: the SDK retries 429 and 5xx with backoff (max_retries on the client); what still fails
  ends the run with a message that says what happened and what to do;
- Ctrl-C (KeyboardInterrupt) ends the run but keeps the messages and the trace gathered so far.

Budgets (tokens, dollars, seconds) are checked between model calls: nobody knows a call's size before it
returns, so a run can go over a budget by one call. A hanging call is cut short by the client's timeout,
which is lowered to the time left when `max_seconds` is set.

It speaks both API flavours: the Responses API (default) and Chat Completions (`api="chat"`, lesson 08).
`AgentRun.step()` runs one iteration at a time (the chat widget's Step button); `agent_loop()` runs to the end.

Streaming is one optional hook: `on_text=callable` gets each piece of the answer's text as it arrives (the
chat widget of lesson 10 draws it). The call is then streamed (helpers.streaming), and the stream is put back
together into the same response object the plain call returns, so the history, usage, cost and trace don't
change. Without the hook nothing is streamed. `on_tool=callable` hears of each tool call as soon as it has run.

Left out on purpose: streaming tool-call arguments, parallel tool execution, and memory beyond the message
list. Each would hide the loop this course wants you to see.

Why one module of about 480 lines: it reads top to bottom as one idea. `AgentRun.step()` is lesson 04's loop
body, each safety net is a short named method below it, and `explain_api_error` holds the words the last net
says, long because each message says what to do. Split up, a reader of the loop would have to open a second
file to see what its `except` branch tells the student.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import openai

from helpers.cost import CallRecord, record_call
from helpers.streaming import create_streamed
from helpers.tools import make_call, make_chat_call, preview

STOP_REASONS = ("answered", "iteration_limit", "token_budget", "cost_budget", "time_limit", "error", "interrupted")


@dataclass
class LoopResult:
    """What a run produced: the answer, the full message list (to continue the conversation) and why it stopped."""

    answer: str
    messages: list
    stop_reason: str
    iterations: int
    calls: list[CallRecord] = field(default_factory=list)
    tool_calls: list[dict] = field(default_factory=list)
    error: str | None = None

    @property
    def total_tokens(self) -> int:
        return sum(c.total_tokens for c in self.calls)

    @property
    def cost_usd(self) -> float | None:
        costs = [c.cost_usd for c in self.calls]
        return None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)

    def __str__(self) -> str:
        return f"stopped: {self.stop_reason} after {self.iterations} iteration(s)\n{self.answer}"


class AgentRun:
    """One run of the agent loop, which you can advance one iteration at a time.

    At its core is lesson 04's loop: call the model, append its output to the messages, run the tools it
    asked for, and stop when it asks for none (`step()` is one turn of that `while` loop). Around it, each
    safety net of lesson 07 is a small method of its own, under "safety nets" below:
    `_stop_if_over_budget` (tokens, dollars, seconds), `_final_answer_without_tools` (the iteration cap),
    `_stop_on_api_error` (the try/except around the API call) and `_stop_on_interrupt` (Ctrl-C). The
    try/except around each tool is `make_call`'s, in helpers.tools.

    Example:
        >>> from helpers.offline import offline_client
        >>> from helpers.search import SEARCH_TOOL
        >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?",
        ...     "answer": "Yes, until the end."}]}
        >>> run = AgentRun(offline_client(), "offline-rules-v1", "Can I join late?", tools, schemas=[SEARCH_TOOL],
        ...                verbose=False)
        >>> while not run.step():
        ...     pass
        >>> run.result.answer, run.result.iterations
        ('According to the FAQ entry "Can I join late?" [a1]: Yes, until the end.', 2)
    """

    def __init__(self, client, model: str, question: str, tools, *, schemas: list[dict] | None = None,
                 instructions: str | None = None, messages: list | None = None, api: str = "responses",
                 max_iterations: int = 10, max_tokens: int | None = None, max_cost: float | None = None,
                 max_seconds: float | None = None, verbose: bool = True, trace=None, meter=None,
                 provider: str | None = None, price_as: str | None = None, extra_headers: dict | None = None,
                 on_text=None, on_tool=None):
        if api not in ("responses", "chat"):
            raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")
        self.client, self.model, self.api, self.tools = client, model, api, tools if tools is not None else {}
        self.schemas = schemas if schemas is not None else _schemas_of(self.tools, api)
        self.instructions = instructions
        self.max_iterations, self.max_tokens, self.max_cost, self.max_seconds = (
            max_iterations, max_tokens, max_cost, max_seconds)
        self.verbose, self.trace, self.meter, self.price_as = verbose, trace, meter, price_as
        self.extra_headers = extra_headers
        self.on_text = on_text  # when set, calls are streamed and each text delta goes to on_text(delta)
        self.on_tool = on_tool  # when set, on_tool(record) hears of each tool call as soon as it has run
        self.provider = provider or _provider_name(client)
        self.messages = list(messages or [])
        if api == "chat" and instructions and not any(_role(m) == "system" for m in self.messages):
            self.messages.insert(0, {"role": "system", "content": instructions})
        self.messages.append({"role": "user", "content": question})
        self.iterations = 0
        self.calls: list[CallRecord] = []
        self.tool_calls: list[dict] = []
        self.result: LoopResult | None = None
        self._started = time.monotonic()

    # --- the loop of lesson 04 ------------------------------------------------------------------------

    def run(self) -> LoopResult:
        """Advance until the run stops; return its result.

        Example:
            >>> from helpers.offline import offline_client
            >>> from helpers.search import SEARCH_TOOL
            >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?",
            ...     "answer": "Yes, until the end."}]}
            >>> AgentRun(offline_client(), "offline-rules-v1", "Can I join late?", tools, schemas=[SEARCH_TOOL],
            ...          verbose=False).run().stop_reason
            'answered'
        """
        while not self.step():
            pass
        assert self.result is not None, "step() returns True only once the result is set"
        return self.result

    def step(self) -> bool:
        """One iteration: a model call plus the tool calls it asks for. Returns True once the run has stopped.

        Example: (the first step searched; the second answered)
            >>> from helpers.offline import offline_client
            >>> from helpers.search import SEARCH_TOOL
            >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?",
            ...     "answer": "Yes, until the end."}]}
            >>> run = AgentRun(offline_client(), "offline-rules-v1", "Can I join late?", tools, schemas=[SEARCH_TOOL],
            ...                verbose=False)
            >>> run.step(), run.step()
            (False, True)
        """
        if self.result is not None:
            return True
        try:
            if self._stop_if_over_budget():  # safety net: tokens, dollars, seconds
                return True
            if self.iterations >= self.max_iterations:  # safety net: the iteration cap
                return self._final_answer_without_tools()

            # Lesson 04's loop body, one turn of its `while True:`
            self.iterations += 1
            response = self._call_model(tools_enabled=True)  # client.responses.create(...)
            if response is None:  # safety net: the call failed, and the run has stopped saying why
                return True
            calls = self._append_output(response)  # messages.extend(response.output)
            if not calls:  # no tool calls: the model answered
                return self._finish(_text_of(response, self.api), "answered")
            for call in calls:
                self._run_tool(call)  # messages.append(make_call(call, tools))
            return False
        except KeyboardInterrupt:  # safety net: Ctrl-C keeps what the run has gathered
            return self._stop_on_interrupt()

    # --- lesson 04's pieces: call the model, keep its output, run the tools ----------------------------

    def _call_model(self, *, tools_enabled: bool):
        """The model call, traced and priced; None when it failed (the run has then stopped)."""
        kwargs = self._request(tools_enabled)
        if self.trace is not None:
            self.trace.log_request(self.iterations, kwargs)
        client, ours = self._client_for_time_left()
        started = time.monotonic()
        try:
            # The SDK retries 429s, 5xx and timeouts itself (max_retries on the client, with backoff);
            # an exception here means those retries were used up, or the error is not worth retrying.
            if self.on_text is not None:
                response = create_streamed(client, self.api, kwargs, self.on_text)
            elif self.api == "responses":
                response = client.responses.create(**kwargs)
            else:
                response = client.chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            self._stop_on_api_error(exc, timed_out_by_us=ours)
            return None
        self._record(response, latency=time.monotonic() - started)
        return response

    def _request(self, tools_enabled: bool) -> dict:
        kwargs: dict = {"model": self.model}
        if self.api == "responses":
            kwargs["input"] = self.messages
            if self.instructions:
                kwargs["instructions"] = self.instructions
        else:
            kwargs["messages"] = self.messages
        if self.schemas:
            kwargs["tools"] = self.schemas
            if not tools_enabled:
                # Keep the tools listed (the history refers to them) but forbid calling them.
                kwargs["tool_choice"] = "none"
        if self.extra_headers:
            kwargs["extra_headers"] = self.extra_headers
        return kwargs

    def _record(self, response, latency: float) -> None:
        """Write the response to the trace and count its tokens and cost (what the budgets check)."""
        if self.trace is not None:
            self.trace.log_response(self.iterations, response, latency)
        record = record_call(response, provider=self.provider, latency_s=latency, price_as=self.price_as)
        self.calls.append(record)
        if self.meter is not None:
            self.meter.add(record)

    def _append_output(self, response) -> list:
        """Append the model's output to the history and return its tool calls."""
        if self.api == "responses":
            items = [_as_input_item(item) for item in response.output]
            self.messages.extend(items)
            return [item for item in items if item.get("type") == "function_call"]
        message = response.choices[0].message
        # The assistant message goes back with its tool_calls intact: each tool result must answer one.
        kept = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            kept["tool_calls"] = [call.model_dump(mode="json", exclude_none=True) for call in message.tool_calls]
        # So do the fields a provider adds beyond the standard message (the SDK keeps them as extras):
        # DeepSeek's thinking mode answers 400 when a tool-calling message comes back without its
        # reasoning_content. Providers that don't want a field back ignore it.
        extras = getattr(message, "model_extra", None) or {}
        kept.update({key: value for key, value in extras.items() if value is not None})
        self.messages.append(kept)
        return list(message.tool_calls or [])

    def _run_tool(self, call) -> None:
        """Run one tool call and append its output. A failing tool becomes an error output (make_call)."""
        if self.api == "responses":
            output = make_call(call, self.tools)
            name, arguments, text = call["name"], call["arguments"], output["output"]
        else:
            output = make_chat_call(call, self.tools)
            name, arguments, text = call.function.name, call.function.arguments, output["content"]
        self.messages.append(output)
        self.tool_calls.append({"iteration": self.iterations, "name": name, "arguments": arguments,
                                "output": text})
        if self.on_tool is not None:  # a chat view shows each call at once, not when the whole turn is done
            self.on_tool(self.tool_calls[-1])
        if self.verbose:
            print(f"iteration {self.iterations}: {name}({preview(arguments, 80)}) -> {preview(text, 90)}")

    # --- safety nets (lesson 07) ----------------------------------------------------------------------

    def _stop_if_over_budget(self) -> bool:
        """Budgets: stop once the tokens, dollars or seconds used reach their limit. Checked between
        calls, since nobody knows a call's size before it returns."""
        reason = self._over_budget()
        if reason is None:
            return False
        return self._finish(self._last_text(), *reason)

    def _over_budget(self) -> tuple[str, str] | None:
        tokens = sum(c.total_tokens for c in self.calls)
        if self.max_tokens is not None and tokens >= self.max_tokens:
            return "token_budget", f"Used {tokens:,} tokens; the budget is {self.max_tokens:,}."
        if self.max_cost is not None:
            if any(c.cost_usd is None for c in self.calls):
                # A budget we cannot measure must not pass silently as "$0 spent".
                return "error", (f"max_cost is set but the price of {self.calls[-1].model!r} is unknown. "
                                 "Register it with helpers.cost.register_price(...) or pass price_as=...")
            spent = sum(c.cost_usd or 0.0 for c in self.calls)  # none is None: checked just above
            if spent >= self.max_cost:
                return "cost_budget", f"Spent ${spent:.4f}; the budget is ${self.max_cost:.4f}."
        elapsed = time.monotonic() - self._started
        if self.max_seconds is not None and elapsed >= self.max_seconds:
            return "time_limit", f"Ran {elapsed:.1f} s; the limit is {self.max_seconds} s."
        return None

    def _final_answer_without_tools(self) -> bool:
        """The iteration cap: one last call with tools disabled, so the run still ends with an answer."""
        if self.verbose:
            print(f"iteration limit ({self.max_iterations}) reached: one last call with tools disabled")
        response = self._call_model(tools_enabled=False)
        if response is None:
            return True
        if self._append_output(response):
            # tool_choice="none" forbids tool calls, but not every provider obeys; answer them unrun.
            self._answer_pending_calls("not run: the iteration limit was reached")
        answer = _text_of(response, self.api)
        note = None if answer else "The model gave no text on its final call; result.messages has the searches."
        return self._finish(answer or self._last_text(), "iteration_limit", note)

    def _stop_on_api_error(self, exc: openai.OpenAIError, timed_out_by_us: bool) -> None:
        """The try/except around the API call: stop with a message that says what failed and what to do."""
        self._log_error(exc)
        if isinstance(exc, openai.APITimeoutError):
            if timed_out_by_us:  # cut short by our max_seconds, not by the client's own timeout
                self._finish(self._last_text(), "time_limit",
                             f"A model call did not finish within the time left of max_seconds="
                             f"{self.max_seconds}. Raise max_seconds, or try again when the provider is faster.")
            else:
                self._finish(self._last_text(), "error", explain_api_error(exc))
            return
        self._finish(self._last_text(), "error", explain_api_error(exc, _preset_of(self.client)))

    def _client_for_time_left(self):
        """The client to call with, and whether its timeout is our time limit (not the client's own)."""
        if self.max_seconds is None:
            return self.client, False
        remaining = max(self.max_seconds - (time.monotonic() - self._started), 0.001)
        own = self.client.timeout
        own = getattr(own, "read", own)  # a float, or an httpx Timeout whose read timeout is what matters
        if isinstance(own, (int, float)) and own <= remaining:
            return self.client, False
        # with_options makes a copy that shares the connection pool; the timeout applies per attempt.
        return self.client.with_options(timeout=remaining), True

    def _stop_on_interrupt(self) -> bool:
        """Ctrl-C: stop, keeping the messages and the trace gathered so far."""
        # Ctrl-C lands wherever Python happens to be: in the HTTP call, in a tool, between the two.
        # Whatever we have is kept; tool calls left without an output get one, so that the history
        # stays valid and you can continue it (the API rejects a function call nobody answered).
        self._answer_pending_calls("not run: the user interrupted the run")
        return self._finish(self._last_text(), "interrupted",
                            "You interrupted the run (KeyboardInterrupt). The conversation so far is in "
                            "result.messages (and in the trace, if any); pass it as messages=... to go on.")

    def _answer_pending_calls(self, why: str) -> None:
        """Give every tool call that has no output yet an error output saying why it was not run."""
        answered = {_call_id_of_output(m) for m in self.messages} - {None}
        for message in list(self.messages):
            for call_id, name in _calls_in(message):
                if call_id not in answered:
                    text = json.dumps({"error": f"tool {name!r} {why}"}, ensure_ascii=False)
                    if self.api == "responses":
                        self.messages.append({"type": "function_call_output", "call_id": call_id, "output": text})
                    else:
                        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})

    # --- ending the run -------------------------------------------------------------------------------

    def _finish(self, answer: str, reason: str, error: str | None = None) -> bool:
        self.result = LoopResult(answer=answer, messages=self.messages, stop_reason=reason,
                                 iterations=self.iterations, calls=self.calls, tool_calls=self.tool_calls,
                                 error=error)
        if self.trace is not None:
            self.trace.log("stop", self.iterations, {"stop_reason": reason, "error": error})
        if self.verbose and reason != "answered":
            print(f"stopped: {reason}" + (f" ({error})" if error else ""))
        return True

    def _last_text(self) -> str:
        """The latest assistant text in the history, for runs that stop before a final answer."""
        for message in reversed(self.messages):
            if _role(message) == "assistant":
                text = _message_text(message)
                if text:
                    return text
        return ""

    def _log_error(self, exc: Exception) -> None:
        if self.trace is not None:
            self.trace.log_error(self.iterations, exc)


def agent_loop(client, model: str, question: str, tools, **options) -> LoopResult:
    """Run the agent loop to the end. `tools` is a helpers.tools.Tools registry, or {name: function} plus
    `schemas=[...]`. Options: instructions, messages (to continue a conversation), api, max_iterations,
    max_tokens, max_cost, max_seconds, verbose, trace, meter, price_as, on_text (stream the answer's text),
    on_tool (hear of each tool call as it runs).

    Example:
        >>> from helpers.offline import offline_client
        >>> from helpers.search import SEARCH_TOOL
        >>> def search(query):
        ...     return [{"id": "b2", "question": "Ollama: How to run Ollama locally?", "answer": "Run `ollama serve`."}]
        >>> agent_loop(offline_client(), "offline-rules-v1", "How do I run Olama locally?", {"search": search},
        ...            schemas=[SEARCH_TOOL], verbose=False).answer
        'According to the FAQ entry "Ollama: How to run Ollama locally?" [b2]: Run `ollama serve`.'
    """
    return AgentRun(client, model, question, tools, **options).run()


def explain_api_error(exc: Exception, provider=None) -> str:
    """Say what an API failure means and what to do about it. `provider` (a helpers.llm.Provider, optional)
    lets a 404 say which API the provider lacks instead of blaming the model.

    Example:
        >>> import httpx
        >>> request = httpx.Request("POST", "https://api.openai.com/v1/responses")
        >>> explain_api_error(openai.RateLimitError("slow down", response=httpx.Response(429,
        ...     request=request), body=None))
        "The provider's rate limit (429) was still hit after the SDK's retries. Wait a minute and run again, or lower how
        often you call it."
    """
    if isinstance(exc, openai.APITimeoutError):
        return ("The request took longer than allowed and was cut off. Raise max_seconds (or the client's timeout), "
                "or try again when the provider is less busy.")
    if isinstance(exc, openai.APIConnectionError):
        return (f"Could not reach the provider ({exc.__class__.__name__}). Check your internet connection and "
                f"OPENAI_BASE_URL, or run `python -m helpers doctor`. LLM_PROVIDER=offline needs no network.")
    if isinstance(exc, openai.RateLimitError):
        if "insufficient_quota" in str(exc):
            return ("The provider says your account has no quota left (429 insufficient_quota). Add credit to the "
                    "account, or switch to a free option: LLM_PROVIDER=offline (or groq/github) in .env.")
        return ("The provider's rate limit (429) was still hit after the SDK's retries. Wait a minute and run again, "
                "or lower how often you call it.")
    if isinstance(exc, openai.AuthenticationError):
        return "The provider rejected your key (401). Check the key in .env and run `python -m helpers doctor`."
    if isinstance(exc, openai.NotFoundError):
        if _request_path(exc).endswith("/responses"):
            if provider is not None and not provider.responses_api:
                from helpers.llm import PRETTY_NAMES

                name = PRETTY_NAMES.get(provider.name, provider.name)
                return (f"{name} has no Responses API (404 on /responses): it offers Chat Completions only, "
                        "whatever the model. Run this with api='chat' (lesson 08), or set LLM_PROVIDER to a provider "
                        "with the Responses API in .env and restart the kernel.")
            return ("The provider answered 404 to /responses: either it has no Responses API (then use api='chat', "
                    "lesson 08) or it does not know this model (then check LLM_MODEL in .env; `python -m helpers "
                    "doctor` lists the models it offers).")
        return ("The provider does not know this model or route (404). Check LLM_MODEL in .env and run "
                "`python -m helpers doctor` to list the models it offers.")
    if isinstance(exc, openai.InternalServerError):
        return f"The provider failed ({exc.status_code}) even after retries. Try again later."
    if isinstance(exc, openai.APIStatusError):
        return f"The provider refused the request ({exc.status_code}): {preview(str(exc), 300)}"
    return f"{exc.__class__.__name__}: {exc}"


def _schemas_of(tools, api: str) -> list[dict]:
    if hasattr(tools, "responses_schemas"):
        return tools.responses_schemas() if api == "responses" else tools.chat_schemas()
    if tools:
        raise ValueError("Pass schemas=[...] with a dict of tools (the functions' JSON schemas), "
                         "or use a helpers.tools.Tools registry, which makes them for you.")
    return []


def _request_path(exc: Exception) -> str:
    """The URL path of the request an API error answered ("" when the error carries no request)."""
    request = getattr(exc, "request", None)
    return str(request.url.path) if request is not None else ""


def _preset_of(client):
    """The helpers.llm preset of a client, or None for a test double without a base URL."""
    try:
        from helpers.llm import provider_of

        return provider_of(client)
    except (ImportError, AttributeError):
        return None


def _provider_name(client) -> str:
    try:
        from helpers.llm import provider_of

        return provider_of(client).name
    except (ImportError, AttributeError):  # not a normal client (a test double): cost accounting cannot name it
        return "unknown"


def _as_input_item(item) -> dict:
    """An SDK output item as a plain dict that can be sent back as input (and written to a trace)."""
    return item.model_dump(mode="json", exclude_none=True) if hasattr(item, "model_dump") else dict(item)


def _calls_in(message) -> list[tuple[str | None, str | None]]:
    """(call_id, name) of the tool calls in one history item, in either API flavour."""
    if not isinstance(message, dict):
        return []
    if message.get("type") == "function_call":
        return [(message.get("call_id"), message.get("name"))]
    return [(c.get("id"), (c.get("function") or {}).get("name")) for c in message.get("tool_calls") or []]


def _call_id_of_output(message) -> str | None:
    if not isinstance(message, dict):
        return None
    return message.get("call_id") if message.get("type") == "function_call_output" else message.get("tool_call_id")


def _role(message) -> str | None:
    return message.get("role") if isinstance(message, dict) else getattr(message, "role", None)


def _message_text(message) -> str:
    content = message.get("content") if isinstance(message, dict) else getattr(message, "content", None)
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") for p in content or [] if isinstance(p, dict)]
    return "".join(parts)


def _text_of(response, api: str) -> str:
    if api == "responses":
        return response.output_text or ""
    return response.choices[0].message.content or ""
