"""agent_loop through the offline model: every stop reason and every failure path, in both API flavours."""

import json

import httpx
import pytest
from openai import OpenAI

from helpers import offline  # an ImportError here must fail the suite, never skip it
from helpers.cost import CostMeter
from helpers.llm import offline_client
from helpers.loop import STOP_REASONS, AgentRun, Hooks, Limits, Pricing, agent_loop
from helpers.search import SEARCH_TOOL, search
from helpers.trace import Trace, load_trace

MODEL = offline.OFFLINE_MODEL
OLAMA = "How do I run Olama locally?"
TOOLS = {"search": search}
CHAT_SCHEMAS = [{"type": "function", "function": {k: v for k, v in SEARCH_TOOL.items() if k != "type"}}]


def client(faults=None, max_retries=2) -> OpenAI:
    """An offline client; `faults` is one mode for every request, or a list consumed one per request."""
    return offline_client(faults, max_retries=max_retries)


def run(question=OLAMA, tools=TOOLS, faults=None, max_retries=2, api="responses", **options):
    schemas = [SEARCH_TOOL] if api == "responses" else CHAT_SCHEMAS
    options.setdefault("verbose", False)
    return agent_loop(client(faults, max_retries), MODEL, question, tools, schemas=schemas, api=api, **options)


def outputs(result) -> list[str]:
    """The text of every tool output in the history, in either API flavour."""
    return [m.get("output", m.get("content")) for m in result.messages
            if isinstance(m, dict) and (m.get("type") == "function_call_output" or m.get("role") == "tool")]


def assert_history_is_complete(result):
    """Every tool call in the history has an output with its id: the history can be sent again."""
    called, answered = [], []
    for m in result.messages:
        if m.get("type") == "function_call":
            called.append(m["call_id"])
        for call in m.get("tool_calls") or []:
            called.append(call["id"])
        if m.get("type") == "function_call_output":
            answered.append(m["call_id"])
        if m.get("role") == "tool":
            answered.append(m["tool_call_id"])
    assert sorted(called) == sorted(answered)


# --- answered ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_answers_and_keeps_the_whole_conversation(api):
    result = run(api=api)
    assert result.stop_reason == "answered" and result.error is None
    assert result.answer
    assert result.iterations >= 2  # at least one search, then the answer
    assert len(result.calls) == result.iterations
    assert result.messages[0] == {"role": "user", "content": OLAMA}
    assert [c["name"] for c in result.tool_calls] and all(c["name"] == "search" for c in result.tool_calls)
    assert_history_is_complete(result)


def test_history_resending_makes_each_call_bigger():
    result = run()
    inputs = [c.input_tokens for c in result.calls]
    assert inputs == sorted(inputs) and inputs[0] < inputs[-1]


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_continuing_a_conversation_keeps_the_earlier_messages(api):
    first = run(api=api)
    second = run("Can I still join the course?", api=api, messages=first.messages)
    assert second.stop_reason == "answered"
    assert second.messages[: len(first.messages)] == first.messages
    assert sum(1 for m in second.messages if m.get("role") == "user") == 2
    # The follow-up's first call re-sends the first conversation, so it is bigger than the first one's.
    assert second.calls[0].input_tokens > first.calls[0].input_tokens


def test_chat_api_puts_instructions_in_one_system_message():
    first = run(api="chat", instructions="You answer course questions.")
    second = run("Can I still join?", api="chat", instructions="You answer course questions.",
                 messages=first.messages)
    assert first.messages[0] == {"role": "system", "content": "You answer course questions."}
    assert sum(1 for m in second.messages if m.get("role") == "system") == 1


def test_step_runs_one_iteration_at_a_time():
    agent = AgentRun(client(), MODEL, OLAMA, TOOLS, schemas=[SEARCH_TOOL], hooks=Hooks(verbose=False))
    assert agent.step() is False and agent.iterations == 1 and agent.result is None
    while not agent.step():
        pass
    assert agent.result.stop_reason == "answered"
    assert agent.step() is True  # a finished run stays finished


def test_calls_are_counted_on_a_meter_and_priced_as_if():
    meter = CostMeter()
    result = run(meter=meter, price_as="gpt-5.4-mini")
    assert meter.records == result.calls
    assert result.cost_usd > 0
    assert all(c.estimated and c.price_note == "as if gpt-5.4-mini" for c in result.calls)


def test_verbose_prints_each_tool_call(capsys):
    run(verbose=True)
    printed = capsys.readouterr().out
    assert "iteration 1: search(" in printed


def test_bad_options_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="api must be"):
        run(api="completions")
    with pytest.raises(ValueError, match="max_iterations"):
        run(max_iterations=0)
    with pytest.raises(ValueError, match="schemas"):
        agent_loop(client(), MODEL, OLAMA, TOOLS)
    with pytest.raises(TypeError, match="not both"):
        run(limits=Limits(max_iterations=2), max_tokens=100)
    with pytest.raises(TypeError, match="extra_headers"):
        run(extra_headers={"X-Offline-Fault": "rate_limit"})  # headers belong on the client (with_options)


def test_agent_loop_options_are_the_fields_of_agent_runs_records():
    result = run(max_iterations=1, price_as="gpt-5.4-mini")
    direct = AgentRun(client(), MODEL, OLAMA, TOOLS, schemas=[SEARCH_TOOL], limits=Limits(max_iterations=1),
                      hooks=Hooks(verbose=False), pricing=Pricing(price_as="gpt-5.4-mini")).run()
    assert (direct.stop_reason, direct.answer, direct.iterations) == (result.stop_reason, result.answer, 1)
    assert direct.calls[0].price_note == result.calls[0].price_note == "as if gpt-5.4-mini"


# --- tool failures go back to the model -----------------------------------------------------------------


def _error_of(text: str) -> str:
    payload = json.loads(text)
    assert "error" in payload, text
    return payload["error"]


def test_a_tool_that_raises_becomes_an_error_output():
    def broken_search(query: str) -> list[dict]:
        raise RuntimeError("the index is not loaded")

    result = run(tools={"search": broken_search})
    assert result.stop_reason == "answered"
    assert "the index is not loaded" in _error_of(outputs(result)[0])


def test_an_unknown_tool_becomes_an_error_output():
    result = run(faults=["unknown_tool"])  # only the first model call is broken
    assert "unknown tool" in _error_of(outputs(result)[0])
    assert result.stop_reason == "answered"
    assert any(c["name"] == "search" for c in result.tool_calls)  # it recovered and searched


def test_malformed_arguments_become_an_error_output():
    result = run(faults=["bad_arguments"])
    assert "not valid JSON" in _error_of(outputs(result)[0])
    assert result.stop_reason == "answered"


def test_arguments_that_dont_fit_become_an_error_output():
    def search_by_topic(topic: str) -> list[dict]:  # the schema says "query"; the function wants "topic"
        return search(topic)

    result = run(tools={"search": search_by_topic}, max_iterations=2)
    assert "don't fit" in _error_of(outputs(result)[0])
    assert result.stop_reason in STOP_REASONS


# --- limits ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_never_stopping_model_hits_the_iteration_limit_and_still_answers(api, tmp_path):
    trace = Trace(tmp_path / "run.jsonl")
    result = run(faults="never_stop", api=api, max_iterations=3, trace=trace)
    assert result.stop_reason == "iteration_limit"
    assert result.iterations == 3
    assert len(result.calls) == 4  # three rounds, then one final call with tools disabled
    assert result.answer
    assert_history_is_complete(result)
    requests = [e["body"] for e in load_trace(trace) if e["kind"] == "request"]
    assert [r.get("tool_choice") for r in requests] == [None, None, None, "none"]


def test_token_budget_stops_the_run():
    result = run(max_tokens=1)
    assert result.stop_reason == "token_budget"
    assert result.iterations == 1  # checked between calls: the first call always happens
    assert "budget" in result.error
    assert_history_is_complete(result)


def test_cost_budget_stops_the_run_when_priced_as_a_real_model():
    result = run(max_cost=1e-9, price_as="gpt-5.4-mini")
    assert result.stop_reason == "cost_budget"
    assert result.iterations == 1
    assert "$" in result.error


def test_cost_budget_is_not_hit_by_a_free_local_model():
    assert run(max_cost=1e-9).stop_reason == "answered"  # the offline model costs $0


def test_cost_budget_with_an_unknown_price_is_an_error_not_a_free_pass():
    with pytest.warns(UserWarning, match="No price known"):
        result = run(max_cost=1.0, price_as="no-such-model-xyz")
    assert result.stop_reason == "error"
    assert "register_price" in result.error


def test_time_limit_cuts_a_hanging_call(tmp_path):
    trace = Trace(tmp_path / "run.jsonl")
    result = run(faults="timeout", max_retries=0, max_seconds=60, trace=trace)
    assert result.stop_reason == "time_limit"
    assert "max_seconds" in result.error
    kinds = [e["kind"] for e in load_trace(trace)]
    assert kinds == ["request", "error", "stop"]


def test_time_limit_already_spent_stops_before_calling():
    result = run(max_seconds=0)
    assert result.stop_reason == "time_limit"
    assert result.calls == []


def test_a_timeout_without_a_time_limit_is_an_error():
    result = run(faults="timeout", max_retries=0)
    assert result.stop_reason == "error"
    assert "longer than allowed" in result.error


# --- API failures ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["rate_limit", "server_error"])
def test_one_429_or_500_is_retried_by_the_sdk(fault):
    result = run(faults=[fault])
    assert result.stop_reason == "answered" and result.error is None


def test_persistent_429_ends_with_a_clear_message(tmp_path):
    trace = Trace(tmp_path / "run.jsonl")
    result = run(faults="rate_limit", max_retries=1, trace=trace)
    assert result.stop_reason == "error"
    assert "429" in result.error and "Wait" in result.error
    assert load_trace(trace)[-2]["body"]["status_code"] == 429


def test_429_after_some_progress_keeps_the_conversation():
    result = run(faults=[None, "rate_limit", "rate_limit"], max_retries=1)
    assert result.stop_reason == "error"
    assert result.iterations == 2 and len(result.calls) == 1
    assert result.tool_calls  # the first search is kept
    assert_history_is_complete(result)


def test_no_quota_says_to_add_credit():
    result = run(faults="insufficient_quota", max_retries=2)
    assert result.stop_reason == "error"
    assert "quota" in result.error


def test_persistent_500_ends_with_a_clear_message():
    result = run(faults="server_error", max_retries=0)
    assert result.stop_reason == "error"
    assert "500" in result.error and "later" in result.error


def test_explain_api_error_for_an_unreachable_server():
    def refuse(request):
        raise httpx.ConnectError("connection refused", request=request)

    unreachable = OpenAI(api_key="x", base_url="http://nowhere.invalid/v1", max_retries=0,
                         http_client=httpx.Client(transport=httpx.MockTransport(refuse)))
    result = agent_loop(unreachable, "m", "hi", {}, verbose=False)
    assert result.stop_reason == "error"
    assert "Could not reach" in result.error and "doctor" in result.error


# --- Ctrl-C ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_keyboard_interrupt_keeps_messages_and_trace(api, tmp_path):
    def interrupted_search(query: str) -> list[dict]:
        raise KeyboardInterrupt  # what Ctrl-C does while a tool runs

    trace = Trace(tmp_path / "run.jsonl")
    result = run(tools={"search": interrupted_search}, trace=trace, api=api)
    assert result.stop_reason == "interrupted"
    assert "messages" in result.error
    assert result.messages[0] == {"role": "user", "content": OLAMA}
    assert_history_is_complete(result)  # the interrupted call got an output saying it was not run
    assert "interrupted" in _error_of(outputs(result)[-1])
    events = load_trace(trace)
    assert [e["kind"] for e in events] == ["request", "response", "stop"]
    assert events[-1]["body"]["stop_reason"] == "interrupted"

    # ... and the conversation goes on from where it stopped.
    again = run("Can I still join the course?", messages=result.messages, api=api)
    assert again.stop_reason == "answered"


def test_keyboard_interrupt_during_a_step_finishes_the_run():
    def interrupted_search(query: str) -> list[dict]:
        raise KeyboardInterrupt

    agent = AgentRun(client(), MODEL, OLAMA, {"search": interrupted_search}, schemas=[SEARCH_TOOL],
                     hooks=Hooks(verbose=False))
    assert agent.step() is True
    assert agent.result.stop_reason == "interrupted"


def test_every_stop_reason_is_listed():
    assert set(STOP_REASONS) == {"answered", "iteration_limit", "token_budget", "cost_budget", "time_limit",
                                 "error", "interrupted"}


# --- provider fields and provider APIs ---------------------------------------------------------------------


class ThinkingProvider(httpx.BaseTransport):
    """DeepSeek's thinking mode, simulated in front of the offline model.

    Each reply's message gets a `reasoning_content`, and a request whose tool-calling assistant message comes
    back without it is refused with 400, as DeepSeek documents
    (https://api-docs.deepseek.com/guides/thinking_mode). Everything else goes to the offline model unchanged,
    reasoning_content included, so the offline model must accept and ignore the field.
    """

    def __init__(self):
        self.inner = offline.OfflineTransport()
        self.bodies = []

    def handle_request(self, request):
        body = json.loads(request.read())
        self.bodies.append(body)
        for message in body.get("messages", []):
            if message.get("role") == "assistant" and message.get("tool_calls") and not message.get(
                    "reasoning_content"):
                return httpx.Response(400, request=request, json={"error": {
                    "message": "The reasoning_content in the thinking mode must be passed back to the API.",
                    "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}})
        reply = self.inner.handle_request(request)
        data = json.loads(reply.read())
        for choice in data.get("choices", []):
            choice["message"]["reasoning_content"] = f"(thoughts before reply {len(self.bodies)})"
        return httpx.Response(reply.status_code, request=request, json=data)


def thinking_client(transport):
    return OpenAI(api_key="unused", base_url=offline.OFFLINE_BASE_URL, max_retries=0,
                  http_client=httpx.Client(transport=transport))


def test_reasoning_content_goes_back_with_the_assistant_message():
    transport = ThinkingProvider()
    result = agent_loop(thinking_client(transport), MODEL, OLAMA, TOOLS, schemas=CHAT_SCHEMAS, api="chat",
                        verbose=False)
    assert result.stop_reason == "answered", result.error
    assert result.iterations >= 2  # at least one tool call, so the simulated provider checked the history
    sent = [m for m in transport.bodies[-1]["messages"] if m.get("role") == "assistant"]
    assert sent and all(m["reasoning_content"].startswith("(thoughts before reply") for m in sent)
    assert_history_is_complete(result)


def test_the_simulated_provider_refuses_a_history_without_reasoning_content():
    # The control: without the field, the second call fails, which is what the test above guards against.
    transport = ThinkingProvider()
    first = thinking_client(transport).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": OLAMA}], tools=CHAT_SCHEMAS)
    call = first.choices[0].message.tool_calls[0]
    history = [{"role": "user", "content": OLAMA},
               {"role": "assistant", "content": None, "tool_calls": [call.model_dump(exclude_none=True)]},
               {"role": "tool", "tool_call_id": call.id, "content": "[]"}]
    from openai import BadRequestError

    with pytest.raises(BadRequestError, match="reasoning_content"):
        thinking_client(transport).chat.completions.create(model=MODEL, messages=history, tools=CHAT_SCHEMAS)


def test_the_offline_model_accepts_and_ignores_reasoning_content():
    first = client().chat.completions.create(model=MODEL, messages=[{"role": "user", "content": OLAMA}],
                                             tools=CHAT_SCHEMAS)
    call = first.choices[0].message.tool_calls[0]
    plain = {"role": "assistant", "content": None, "tool_calls": [call.model_dump(exclude_none=True)]}
    history = [{"role": "user", "content": OLAMA}, plain, {"role": "tool", "tool_call_id": call.id, "content": "[]"}]
    with_thoughts = [history[0], {**plain, "reasoning_content": "the user means Ollama"}, history[2]]
    a = client().chat.completions.create(model=MODEL, messages=history, tools=CHAT_SCHEMAS).choices[0].message
    b = client().chat.completions.create(model=MODEL, messages=with_thoughts, tools=CHAT_SCHEMAS).choices[0].message
    assert (a.content, [c.function.arguments for c in a.tool_calls or []]) == (
        b.content, [c.function.arguments for c in b.tool_calls or []])


def chat_only_provider(request):
    """Google Gemini, simulated: Chat Completions answered by the offline model, /responses a 404."""
    if request.url.path.endswith("/responses"):
        return httpx.Response(404, request=request, json={"error": {"code": "not_found", "message": "Not found"}})
    path = request.url.path.removeprefix("/v1beta/openai")  # Gemini's route, mapped onto the offline model's /v1
    inner = httpx.Request(request.method, offline.OFFLINE_BASE_URL + path, headers=request.headers,
                          content=request.read())
    return offline.OfflineTransport().handle_request(inner)


def test_a_404_from_a_chat_only_provider_names_the_api_not_the_model():
    from helpers.llm import PROVIDERS

    gemini = OpenAI(api_key="unused", base_url=PROVIDERS["gemini"].base_url, max_retries=0,
                    http_client=httpx.Client(transport=httpx.MockTransport(chat_only_provider)))
    result = agent_loop(gemini, MODEL, OLAMA, TOOLS, schemas=[SEARCH_TOOL], verbose=False)
    assert result.stop_reason == "error"
    assert "Google Gemini has no Responses API" in result.error and "api='chat'" in result.error
    assert "LLM_MODEL" not in result.error
    # The same provider runs the loop on Chat Completions.
    chat = agent_loop(gemini, MODEL, OLAMA, TOOLS, schemas=CHAT_SCHEMAS, api="chat", verbose=False,
                      provider="offline")  # priced as what really answers, so no unknown-price warning
    assert chat.stop_reason == "answered"


def test_a_404_on_responses_from_an_unknown_server_names_both_causes():
    from openai import NotFoundError

    from helpers.loop import explain_api_error

    request = httpx.Request("POST", "http://localhost:9999/v1/responses")
    error = NotFoundError("Not found", response=httpx.Response(404, request=request), body=None)
    message = explain_api_error(error)
    assert "Responses API" in message and "LLM_MODEL" in message


# --- streaming: the on_text hook (lesson 10's chat widget) ---------------------------------------------


def _without_ids(value):
    """A history or trace body with the ids blanked: the offline model derives them from the request,
    and a streamed request differs from a plain one by its `stream` field. An empty `annotations` list is
    None: a Chat Completions stream doesn't send the empty list a plain reply carries (and the history
    doesn't keep it)."""
    if isinstance(value, dict):
        return {k: "<id>" if k in ("id", "call_id", "tool_call_id") else
                None if k == "annotations" and not v else _without_ids(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_on_text_streams_the_answer_and_changes_nothing_else(api, tmp_path):
    plain_trace, streamed_trace = Trace(tmp_path / "plain.jsonl"), Trace(tmp_path / "streamed.jsonl")
    plain = run(api=api, trace=plain_trace)
    deltas = []
    streamed = run(api=api, trace=streamed_trace, on_text=deltas.append)
    assert len(deltas) > 1 and "".join(deltas) == streamed.answer == plain.answer  # piece by piece
    assert streamed.stop_reason == plain.stop_reason == "answered"
    assert _without_ids(streamed.messages) == _without_ids(plain.messages)
    assert [(c.input_tokens, c.output_tokens, c.cost_usd) for c in streamed.calls] == [
        (c.input_tokens, c.output_tokens, c.cost_usd) for c in plain.calls]
    # The trace holds the same requests and responses (the SDK object a plain call returns, not a stream).
    def bodies(trace):
        return [(e["kind"], _without_ids(e["body"])) for e in load_trace(trace)]
    assert bodies(streamed_trace) == bodies(plain_trace)


def test_on_text_streams_the_last_call_without_tools_too():
    deltas = []
    result = run(max_iterations=1, on_text=deltas.append)
    assert result.stop_reason == "iteration_limit"
    assert "".join(deltas).endswith(result.answer) and result.answer


def _sse(*events: dict) -> bytes:
    return b"".join(f"data: {json.dumps(event)}\n\n".encode() for event in events)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_a_stream_that_ends_early_stops_the_run_with_an_error(api):
    if api == "responses":
        body = _sse({"type": "response.output_text.delta", "delta": "Half an ans", "item_id": "m", "output_index": 0,
                     "content_index": 0, "sequence_number": 1, "logprobs": []})
    else:
        body = _sse({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                     "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Half an ans"}}]})

    def cut_off(request):
        assert json.loads(request.content)["stream"] is True
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    flaky = OpenAI(api_key="x", base_url="http://provider.invalid/v1", max_retries=0,
                   http_client=httpx.Client(transport=httpx.MockTransport(cut_off)))
    deltas = []
    result = agent_loop(flaky, "m", "hi", {}, api=api, verbose=False, on_text=deltas.append)
    assert deltas == ["Half an ans"]
    assert result.stop_reason == "error" and "ended before it was complete" in result.error
