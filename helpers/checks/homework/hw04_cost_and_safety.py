"""Homework 04 · Cost and safety: the checks of tasks 4.1-4.4 (lessons 06 and 07).

Pricing one call and a whole run from usage, a token budget added to the homework-02 loop, and a tool call that
never crashes. The budget check runs the student's own loop on the offline model with the "never_stop" fault,
a model that always asks for another search, and stops a loop that goes on two calls past the budget (it can
only fail by then, and a loop with no budget would otherwise make its 50 calls, each resending every search).
Left out on purpose: live price lists (the prices are passed in).
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import SpyClient, offline_double, on_your_model


class _PastTheBudget(BaseException):
    """Raised by `_stop_past_the_budget`: a BaseException, so a student's `except Exception` can't swallow it."""


def _stop_past_the_budget(spy: SpyClient, budget: int) -> None:
    """Make `spy.responses.create` raise _PastTheBudget once the calls before the latest had already used the
    budget: a loop that checks one call late (task 4.3's other hint) makes one call past it, never two.
    Why: a loop with no budget runs to its max_iterations (50), and each call resends the whole growing
    conversation, so that one wrong answer cost more than every other check of the homework together."""
    create = spy.responses.create

    def guarded(**kwargs):
        spent = [read_field(read_field(r, "usage"), "total_tokens", 0) or 0 for _, r in spy.calls]
        if sum(spent[:-1]) >= budget:
            raise _PastTheBudget
        return create(**kwargs)

    spy.responses.create = guarded


def _price(i, c, o, p):
    return ((i - c) * p["input"] + c * p["cached_input"] + o * p["output"]) / 1_000_000


@task_check("04-cost-and-safety", "4.1")
def check_price_call(price_call):
    """Check `price_call(input_tokens, cached_input_tokens, output_tokens, prices) -> float` (USD).

    Example:
        >>> check_price_call(lambda i, cached, o, p: ((i - cached) * p['input'] + cached * p['cached_input']
        ...     + o * p['output']) / 1e6)
        [PASS] Task 4.1 · Price one call: right for plain, output-only, mixed and cached calls.
    """
    prices = {"input": 0.75, "cached_input": 0.075, "output": 4.5}
    cases = [(1_000_000, 0, 0), (0, 0, 1_000_000), (2_000, 0, 300), (10_000, 8_000, 500)]
    for i, c, o in cases:
        got = run_student_code(price_call, i, c, o, prices)
        fail_if(not isinstance(got, (int, float)), f"price_call returned a {type(got).__name__}; return "
                "dollars as a float.")
        want = _price(i, c, o, prices)
        if abs(got - want) <= 1e-9 + 1e-6 * want:
            continue
        label = f"price_call({i}, {c}, {o}, prices)"
        fail_if(want and abs(got - want * 1_000_000) <= 1e-6 * want * 1_000_000,
                f"{label} is a million times too big: prices are per million tokens.")
        fail_if(c and abs(got - _price(i, 0, o, prices)) < 1e-12, f"{label} charges the cached tokens at "
                "the full input price; they are part of input_tokens and cost the cached rate.")
        fail_if(c and abs(got - (_price(i, 0, o, prices) + c * prices["cached_input"] / 1e6)) < 1e-12,
                f"{label} charges the cached tokens twice: input_tokens already includes them.")
        fail_if(o and abs(got - _price(i + o, c, 0, prices)) < 1e-12, f"{label} charges output tokens at "
                "the input price; output has its own, higher price.")
        raise CheckFailed(f"{label} is off. Cost = (uncached input × input price + cached × cached price + output × "
                    f"output price) / 1,000,000.")
    return "right for plain, output-only, mixed and cached calls."


@task_check("04-cost-and-safety", "4.2")
def check_price_run(price_run, client, model):
    """Check `price_run(result, prices) -> float`: the cost of every call of a loop run.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_price_run(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 4.2 · Price a whole run: define the function in the cell above, then run this
        cell again.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    prices = {"input": 0.75, "cached_input": 0.075, "output": 4.5}
    result = agent_loop(client, model, "How do I run Olama locally?", {"search": search}, schemas=[SEARCH_TOOL],
                        verbose=False)
    got = run_student_code(price_run, result, prices)
    fail_if(not isinstance(got, (int, float)), f"price_run returned a {type(got).__name__}; return dollars "
            "as a float.")
    costs = [_price(c.input_tokens, c.cached_input_tokens, c.output_tokens, prices) for c in result.calls]
    want = sum(costs)
    if abs(got - want) <= 1e-12 + 1e-9 * want:
        return f"right for a run of {len(result.calls)} calls."
    fail_if(len(costs) > 1 and any(abs(got - c) < 1e-12 for c in costs), "your total equals the cost of "
            f"one call, but this run made {len(costs)}; add up every record in result.calls.")
    fail_if(abs(got - _price(result.total_tokens, 0, 0, prices)) < 1e-12, "you priced all tokens at the "
            "input price; input and output tokens have different prices.")
    raise CheckFailed("the total is off. Price each record in result.calls with its input_tokens, "
                "cached_input_tokens and output_tokens, then sum.")


@task_check("04-cost-and-safety", "4.3")
def check_run_with_budget(run_with_budget, client, model):
    """Check `run_with_budget(client, model, question, tools, schemas, max_tokens)`, the homework-02 loop with a
    token budget, which returns `(answer, stop_reason, tokens_used)`.

    Runs it on the offline model with the "never_stop" fault, a model that always asks for another search, then
    on a normal question with a budget too big to reach.
    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_run_with_budget(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 4.3 · A token budget: define the function in the cell above, then run this cell
        again.
    """
    from helpers.offline import OFFLINE_MODEL
    from helpers.search import SEARCH_TOOL, search

    budget = 3_000
    tools, schemas = {"search": search}, [SEARCH_TOOL]
    spy = SpyClient(offline_double("never_stop"))  # a string: the fault applies to every request
    _stop_past_the_budget(spy, budget)
    try:
        got = run_student_code(run_with_budget, spy, OFFLINE_MODEL, "How do I run Olama locally?", tools, schemas,
                               budget)
    except _PastTheBudget:
        raise CheckFailed(f"with a model that never stops and a {budget:,}-token budget the run should stop with "
                          "stop_reason 'token_budget', but yours kept calling the model after its calls had used "
                          "the budget: add each response's tokens to a running total, and stop once it reaches "
                          "max_tokens.") from None
    fail_if(not isinstance(got, tuple) or len(got) != 3, "return three things: (answer, stop_reason, "
            "tokens_used).")
    answer, reason, used = got
    calls = [r for _, r in spy.calls]
    spent = [read_field(read_field(r, "usage"), "total_tokens", 0) or 0 for r in calls]
    fail_if(not calls, "your function made no model call; keep the loop's client.responses.create(...).")
    if reason != "token_budget":
        fail_if(len(calls) >= 50 or reason in ("iteration_limit", "answered"), "with a model that never "
                f"stops and a {budget:,}-token budget the run should stop with stop_reason 'token_budget', "
                f"not {reason!r}: add each response's tokens to a running total, and stop once it reaches "
                "max_tokens.")
        raise CheckFailed(f"a run stopped by the budget should say so with stop_reason 'token_budget', not {reason!r}.")
    fail_if(not isinstance(used, int) or used != sum(spent), "tokens_used is not what the model calls "
            "used: add up response.usage.total_tokens of every call (input and output tokens both count).")
    fail_if(sum(spent) < budget, f"the run stopped before its calls had used the {budget:,}-token budget; "
            "stop only once the total has reached max_tokens.")
    fail_if(sum(spent[:-1]) >= budget, "the run made another call after the budget was already used up; "
            "compare the total with max_tokens before each call.")
    fail_if(not isinstance(answer, str), "return the text gathered so far as the answer (a string, maybe "
            "empty).")
    # The answering run is on the offline model too: a student's model that never answers in time would fail
    # right code. What their own model did is reported beside the PASS.
    question = "Can I still join the course?"
    got = run_student_code(run_with_budget, SpyClient(offline_double()), OFFLINE_MODEL, question, tools, schemas,
                           1_000_000)
    fail_if(not isinstance(got, tuple) or len(got) != 3, "return three things: (answer, stop_reason, "
            "tokens_used), also when the model answers.")
    fail_if(got[1] != "answered" or not got[0], "with a huge budget and a normal question the run should "
            f"end 'answered' with the model's text, not {got[1]!r}.")

    def what_your_model_did(client, model) -> str:
        _, seen_reason, seen_used = run_student_code(run_with_budget, client, model, question, tools, schemas,
                                                     1_000_000)
        return f"the run ended {seen_reason!r} after {seen_used} tokens."

    return (f"stopped after {len(calls)} calls with a model that never stops, and answered a normal question."
            + on_your_model(client, model, what_your_model_did))


@task_check("04-cost-and-safety", "4.4")
def check_safe_make_call(safe_make_call):
    """Check `safe_make_call(call, tools) -> dict` never raises and returns errors the model can read.

    Example:
        >>> check_safe_make_call(lambda call, tools: {'error': 'not yet'})
        [FAIL] Task 4.4 · A tool call that never crashes: for a working call, return a function_call_output
        item with the call's own call_id, so the model can pair the result with its call.
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
        out = run_student_code(safe_make_call, call, tools, what=f"safe_make_call with {label}")
        fail_if(read_field(out, "type") != "function_call_output" or read_field(out, "call_id") != f"call_{n}",
                f"for {label}, return a function_call_output item with the call's own call_id, so the model "
                "can pair the result with its call.")
        text = read_field(out, "output")
        fail_if(not isinstance(text, str), f"for {label}, 'output' must be a string.")
        fail_if(is_error and "error" not in text.lower(), f"for {label}, the output should say 'error' and "
                "what went wrong, so the model can fix its next call.")
        fail_if(not is_error and ("error" in text.lower() or "docker" not in text),
                "a working call should return the tool's result, serialized as JSON.")
    return "every failure became an error output the model can read."
