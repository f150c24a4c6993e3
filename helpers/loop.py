"""The agent loop: call the model, run the tools it asks for, send the results back, stop when it answers.

This is the loop lessons 04 to 10 use, the same one lesson 04 writes by hand, plus the safety nets
of lesson 07:
- limits on iterations, total tokens, dollars and wall-clock time; each run says why it stopped;
- on the iteration limit, one last call with tools disabled, so you still get an answer;
- tool failures go back to the model as error outputs (that is `run_tool`'s job, in helpers.tools);
- API failures: the SDK retries 429 and 5xx with backoff (max_retries on the client); what still fails
  ends the run with a message that says what happened and what to do;
- Ctrl-C (KeyboardInterrupt) ends the run but keeps the messages and the trace gathered so far.

Budgets (tokens, dollars, seconds) are checked between model calls: nobody knows a call's size before it
returns, so a run can go over a budget by one call. A hanging call is cut short by the client's timeout,
which is lowered to the time left when `max_seconds` is set.

It speaks both API flavours, the Responses API (default) and Chat Completions (`api="chat"`, lesson 08),
through helpers.apis.adapter, which holds all that differs between them. `AgentRun.step()` runs one iteration at a
time (the chat widget's Step button); `agent_loop()` runs to the end. AgentRun takes its options as three
records, `Limits`, `Hooks` and `Pricing`; `agent_loop()` takes their fields as plain keyword arguments.

Streaming is one optional hook: `on_text=callable` gets each piece of the answer's text as it arrives (the
chat widget of lesson 10 draws it). The call is then streamed (helpers.apis.streaming), and the stream is put back
together into the same response object the plain call returns, so the history, usage, cost and trace don't
change. Without the hook nothing is streamed. `on_tool=callable` hears of each tool call as soon as it has run.

Left out on purpose: streaming tool-call arguments, parallel tool execution, and memory beyond the message
list. Each would hide the loop this course wants you to see.

Why one module of about 490 lines: it reads top to bottom as one idea. `AgentRun.step()` is lesson 04's loop
body, each safety net is a short named method below it, and `explain_api_error` holds the words the last net
says, long because each message says what to do. Split up, a reader of the loop would have to open a second
file to see what its `except` branch tells the student.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

import openai

from helpers.apis.adapter import flavour_of, role_of
from helpers.cost import CallRecord, CostMeter, record_call
from helpers.tools import preview, run_tool
from helpers.trace import Trace

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


@dataclass(frozen=True)
class Limits:
    """When a run stops early: after max_iterations model calls that asked for tools (then one last call
    without tools), or once max_tokens, max_cost dollars or max_seconds are used up (None: no limit). Example:
    >>> Limits(max_iterations=3).max_tokens is None
    True
    """

    max_iterations: int = 10
    max_tokens: int | None = None
    max_cost: float | None = None
    max_seconds: float | None = None

    def __post_init__(self):
        if self.max_iterations < 1:
            raise ValueError(f"max_iterations must be at least 1, got {self.max_iterations}")


@dataclass(frozen=True)
class Hooks:
    """Who hears of a run as it goes: `verbose` prints each tool call, `trace` (helpers.trace.Trace) logs each
    request and response, `meter` (helpers.cost.CostMeter) counts each call, `on_text(delta)` gets the answer's
    text as it arrives (the calls are then streamed), `on_tool(record)` each tool call as soon as it has run.
    Example:
    >>> Hooks(verbose=False).on_text is None
    True
    """

    verbose: bool = True
    trace: Trace | None = None
    meter: CostMeter | None = None
    on_text: Callable[[str], object] | None = None
    on_tool: Callable[[dict], object] | None = None


@dataclass(frozen=True)
class Pricing:
    """How calls are priced: `provider` who answered (default: the client's provider), `price_as` a model to
    price them as instead (an offline run priced as a real model). Example:
    >>> Pricing(price_as="gpt-5.4-mini").provider is None
    True
    """

    provider: str | None = None
    price_as: str | None = None


class AgentRun:
    """One run of the agent loop, which you can advance one iteration at a time.

    At its core is lesson 04's loop: call the model, append its output to the messages, run the tools it
    asked for, and stop when it asks for none (`step()` is one turn of that `while` loop). Around it, each
    safety net of lesson 07 is a small method of its own, under "safety nets" below:
    `_stop_if_over_budget` (tokens, dollars, seconds), `_final_answer_without_tools` (the iteration cap),
    `_stop_on_api_error` (the try/except around the API call) and `_stop_on_interrupt` (Ctrl-C). The
    try/except around each tool is `run_tool`'s, in helpers.tools.

    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.search import SEARCH_TOOL
        >>> search = lambda query: [{"id": "a1", "question": "Can I join late?", "answer": "Yes, until May."}]
        >>> run = AgentRun(neutral_client(), "offline-rules-v1", "Can I join late?", {"search": search},
        ...                schemas=[SEARCH_TOOL], limits=Limits(max_iterations=3), hooks=Hooks(verbose=False))
        >>> while not run.step():
        ...     pass
        >>> run.result.answer
        'According to "Can I join late?" [a1]: Yes, until May.'
    """

    def __init__(self, client, model: str, question: str, tools, *, schemas: list[dict] | None = None,
                 instructions: str | None = None, messages: list | None = None, api: str = "responses",
                 limits: Limits | None = None, hooks: Hooks | None = None, pricing: Pricing | None = None):
        self.client, self.model, self.api, self.flavour = client, model, api, flavour_of(api)
        self.tools = tools if tools is not None else {}
        self.schemas = schemas if schemas is not None else _schemas_of(self.tools, self.flavour)
        self.instructions = instructions
        self.limits, self.hooks, self.pricing = limits or Limits(), hooks or Hooks(), pricing or Pricing()
        self.max_iterations = self.limits.max_iterations  # step() reads it (lesson 07 prints step())
        self.provider = self.pricing.provider or _provider_name(client)
        self.messages = self.flavour.start(messages or [], instructions, question)
        self.iterations = 0
        self.calls: list[CallRecord] = []
        self.tool_calls: list[dict] = []
        self.result: LoopResult | None = None
        self._started = time.monotonic()

    # --- the loop of lesson 04 ------------------------------------------------------------------------

    def run(self) -> LoopResult:
        """Advance until the run stops; return its result.

        Example:
            >>> from helpers.offline import neutral_client
            >>> from helpers.search import SEARCH_TOOL
            >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?",
            ...     "answer": "Yes, until the end."}]}
            >>> AgentRun(neutral_client(), "offline-rules-v1", "Can I join late?", tools, schemas=[SEARCH_TOOL],
            ...          hooks=Hooks(verbose=False)).run().stop_reason
            'answered'
        """
        while not self.step():
            pass
        assert self.result is not None, "step() returns True only once the result is set"
        return self.result

    def step(self) -> bool:
        """One iteration: a model call plus the tool calls it asks for. Returns True once the run has stopped.

        Example:
            >>> from helpers.offline import neutral_client
            >>> run = AgentRun(neutral_client(), "offline-rules-v1", "Hello!", {}, hooks=Hooks(verbose=False))
            >>> run.step()  # no tools offered, so the model answers at once and the run stops
            True
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
        # With tools off, they stay listed (the history refers to them) but tool_choice forbids calling them.
        kwargs = self.flavour.request(self.model, self.messages, instructions=self.instructions, tools=self.schemas,
                                      tool_choice=None if tools_enabled else "none")
        if self.hooks.trace is not None:
            self.hooks.trace.log_request(self.iterations, kwargs)
        client, ours = self._client_for_time_left()
        started = time.monotonic()
        try:
            # The SDK retries 429s, 5xx and timeouts itself (max_retries on the client, with backoff);
            # an exception here means those retries were used up, or the error is not worth retrying.
            # With on_text the call is streamed (helpers.apis.streaming) and comes back as the same object.
            response = self.flavour.create(client, kwargs, on_text=self.hooks.on_text)
        except openai.OpenAIError as exc:
            self._stop_on_api_error(exc, timed_out_by_us=ours)
            return None
        self._record(response, latency=time.monotonic() - started)
        return response

    def _record(self, response, latency: float) -> None:
        """Write the response to the trace and count its tokens and cost (what the budgets check)."""
        if self.hooks.trace is not None:
            self.hooks.trace.log_response(self.iterations, response, latency)
        record = record_call(response, provider=self.provider, latency_s=latency, price_as=self.pricing.price_as)
        self.calls.append(record)
        if self.hooks.meter is not None:
            self.hooks.meter.add(record)

    def _append_output(self, response) -> list:
        """Append the model's output to the history and return its function calls (helpers.apis.adapter.Call)."""
        items = self.flavour.output_items(response)
        self.messages.extend(items)
        return self.flavour.calls_in(items)

    def _run_tool(self, call) -> None:
        """Run one tool call and append its output. A failing tool becomes an error output (run_tool)."""
        self._keep_output(call, run_tool(call.name, call.arguments, self.tools))

    def _keep_output(self, call, text: str, *, label: str | None = None, **extra) -> None:
        """Append a call's output to the history and record it in tool_calls (with `extra` fields), for the
        on_tool hook and the verbose line (`label`, default "iteration N"). ApprovalRun records a refusal so."""
        self.messages.append(self.flavour.tool_output(call.id, text))
        self.tool_calls.append({"iteration": self.iterations, "name": call.name, "arguments": call.arguments,
                                "output": text, **extra})
        if self.hooks.on_tool is not None:  # a chat view shows each call at once, not when the whole turn is done
            self.hooks.on_tool(self.tool_calls[-1])
        if self.hooks.verbose:
            print(f"{label or f'iteration {self.iterations}'}: {call.name}({preview(call.arguments, 80)}) -> "
                  f"{preview(text, 90)}")

    # --- safety nets (lesson 07) ----------------------------------------------------------------------

    def _stop_if_over_budget(self) -> bool:
        """Budgets: stop once the tokens, dollars or seconds used reach their limit. Checked between
        calls, since nobody knows a call's size before it returns."""
        reason = self._over_budget()
        if reason is None:
            return False
        return self._finish(self._last_text(), *reason)

    def _over_budget(self) -> tuple[str, str] | None:
        limits, tokens = self.limits, sum(c.total_tokens for c in self.calls)
        if limits.max_tokens is not None and tokens >= limits.max_tokens:
            return "token_budget", f"Used {tokens:,} tokens; the budget is {limits.max_tokens:,}."
        if limits.max_cost is not None:
            costs = [c.cost_usd for c in self.calls]
            if None in costs:
                # A budget we cannot measure must not pass silently as "$0 spent".
                return "error", (f"max_cost is set but the price of {self.calls[-1].model!r} is unknown. "
                                 "Register it with helpers.cost.register_price(...) or pass price_as=...")
            spent = sum(cost for cost in costs if cost is not None)  # all are; the filter tells ty so
            if spent >= limits.max_cost:
                return "cost_budget", f"Spent ${spent:.4f}; the budget is ${limits.max_cost:.4f}."
        elapsed = time.monotonic() - self._started
        if limits.max_seconds is not None and elapsed >= limits.max_seconds:
            return "time_limit", f"Ran {elapsed:.1f} s; the limit is {limits.max_seconds} s."
        return None

    def _final_answer_without_tools(self) -> bool:
        """The iteration cap: one last call with tools disabled, so the run still ends with an answer."""
        if self.hooks.verbose:
            print(f"iteration limit ({self.max_iterations}) reached: one last call with tools disabled")
        response = self._call_model(tools_enabled=False)
        if response is None:
            return True
        if self._append_output(response):
            # tool_choice="none" forbids tool calls, but not every provider obeys; answer them unrun.
            self._answer_pending_calls("not run: the iteration limit was reached")
        answer = self.flavour.text(response)
        note = None if answer else "The model gave no text on its final call; result.messages has the searches."
        return self._finish(answer or self._last_text(), "iteration_limit", note)

    def _stop_on_api_error(self, exc: openai.OpenAIError, timed_out_by_us: bool) -> None:
        """The try/except around the API call: stop with a message that says what failed and what to do."""
        if self.hooks.trace is not None:
            self.hooks.trace.log_error(self.iterations, exc)
        if isinstance(exc, openai.APITimeoutError) and timed_out_by_us:  # our max_seconds, not the client's timeout
            self._finish(self._last_text(), "time_limit",
                         f"A model call did not finish within the time left of max_seconds="
                         f"{self.limits.max_seconds}. Raise max_seconds, or try again when the provider is faster.")
        else:  # (explain_api_error needs the preset only for a 404, never for a timeout)
            self._finish(self._last_text(), "error", explain_api_error(exc, _preset_of(self.client)))

    def _client_for_time_left(self):
        """The client to call with, and whether its timeout is our time limit (not the client's own)."""
        if self.limits.max_seconds is None:
            return self.client, False
        remaining = max(self.limits.max_seconds - (time.monotonic() - self._started), 0.001)
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
        answered = {output[0] for output in map(self.flavour.item_output, self.messages) if output} - {None}
        for call in self.flavour.calls_in(list(self.messages)):
            if call.id not in answered:
                text = json.dumps({"error": f"tool {call.name!r} {why}"}, ensure_ascii=False)
                self.messages.append(self.flavour.tool_output(call.id, text))

    # --- ending the run -------------------------------------------------------------------------------

    def _finish(self, answer: str, reason: str, error: str | None = None) -> bool:
        self.result = LoopResult(answer=answer, messages=self.messages, stop_reason=reason,
                                 iterations=self.iterations, calls=self.calls, tool_calls=self.tool_calls,
                                 error=error)
        if self.hooks.trace is not None:
            self.hooks.trace.log("stop", self.iterations, {"stop_reason": reason, "error": error})
        if self.hooks.verbose and reason != "answered":
            print(f"stopped: {reason}" + (f" ({error})" if error else ""))
        return True

    def _last_text(self) -> str:
        """The latest assistant text in the history, for runs that stop before a final answer."""
        for message in reversed(self.messages):
            if role_of(message) == "assistant":
                text = _message_text(message)
                if text:
                    return text
        return ""


def agent_loop(client, model: str, question: str, tools, **options) -> LoopResult:
    """Run the agent loop to the end. `tools` is a helpers.tools.Tools registry, or {name: function} plus
    `schemas=[...]`. Options: instructions, messages (to continue a conversation), api, and the fields of
    Limits (max_iterations, max_tokens, max_cost, max_seconds), Hooks (verbose, trace, meter, on_text to
    stream the answer's text, on_tool to hear of each tool call as it runs) and Pricing (provider, price_as).

    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.search import SEARCH_TOOL
        >>> s = lambda query: [{"id": "o1", "question": "How to install Ollama?", "answer": "Run the installer."}]
        >>> agent_loop(neutral_client(), "offline-rules-v1", "How do I run Olama locally?", {"search": s},
        ...            schemas=[SEARCH_TOOL], verbose=False).answer
        'According to "How to install Ollama?" [o1]: Run the installer.'
    """
    return AgentRun(client, model, question, tools, **grouped(options)).run()


def grouped(options: dict) -> dict:
    """Keyword options with the fields of Limits, Hooks and Pricing gathered into those records. Example:
    >>> grouped({"api": "chat", "max_iterations": 3, "verbose": False})["limits"]
    Limits(max_iterations=3, max_tokens=None, max_cost=None, max_seconds=None)
    """
    options = dict(options)
    for key, record in (("limits", Limits), ("hooks", Hooks), ("pricing", Pricing)):
        picked = {f.name: options.pop(f.name) for f in fields(record) if f.name in options}
        if picked and key in options:
            raise TypeError(f"Pass {key}={record.__name__}(...) or its fields ({', '.join(picked)}), not both.")
        if picked:
            options[key] = record(**picked)
    return options


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


def _schemas_of(tools, flavour) -> list[dict]:
    if hasattr(tools, "responses_schemas"):
        return flavour.schemas(tools)
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
    preset = _preset_of(client)  # None for a test double: cost accounting cannot name it
    return preset.name if preset is not None else "unknown"


def _message_text(message) -> str:
    content = message.get("content") if isinstance(message, dict) else getattr(message, "content", None)
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") for p in content or [] if isinstance(p, dict)]
    return "".join(parts)


def _text_of(response, api: str) -> str:
    # self.flavour.text(response) would do; step() calls this because lesson 07 prints step()'s source.
    return flavour_of(api).text(response)
