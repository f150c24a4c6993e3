"""Homework 06's checks (helpers.checks.homework.hw06_frameworks_and_evaluation): the right solution passes, in either
framework where there is a choice; the stub is NOT DONE YET; and the mistakes a student really makes fail, with a
hint that doesn't give the expected answer away. Everything runs on the offline model."""

import hints
import pytest
from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents import OpenAIResponsesModel as SdkResponsesModel
from agents.exceptions import MaxTurnsExceeded
from hints import assert_todo, stub
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.usage import UsageLimits

from helpers import checks as hw
from helpers.evaluate import FieldScores, answerable, load_ground_truth, scores, split_by_entry
from helpers.ingest import load_faq_data
from helpers.search import ZOOMCAMP_BOOST, default_index, search

set_tracing_disabled(True)  # the SDK would try to upload traces of the checks' runs
INSTRUCTIONS = "Answer questions about the course from its FAQ. Search it first, and cite the entry's id."
TUNED = {"boost": {"question": 3.0, "section": 0.0, "answer": 4.0}, "num_results": 5}


async def async_stub(*args, **kwargs):
    raise NotImplementedError


def assert_fails(result, *secrets):
    """The check failed, says something useful, and none of `secrets` (expected answers) appear in it."""
    hints.assert_fails(result, leaks=secrets)


def search_faq(query: str) -> list[dict]:
    """Search the course FAQ for entries that match a query."""
    return search(query, index=default_index())


def pydantic_agent(client, model, tools=(search_faq,)):
    return PydanticAgent(OpenAIResponsesModel(model, provider=OpenAIProvider(openai_client=client)),
                         instructions=INSTRUCTIONS, tools=list(tools))


def sdk_agent(client, model, tools=None):
    tools = [function_tool(search_faq)] if tools is None else tools
    return Agent(name="FAQ assistant", instructions=INSTRUCTIONS, tools=tools, model=SdkResponsesModel(model, client))


# --- 6.1 · The FAQ agent in a framework ----------------------------------------------------------------


@pytest.mark.parametrize("make_agent", [pydantic_agent, sdk_agent], ids=["pydantic_ai", "agents_sdk"])
def test_faq_agent_passes_in_either_framework(make_agent):
    assert hw.check_faq_agent(make_agent).passed
    assert_todo(hw.check_faq_agent(stub))
    assert_todo(hw.check_faq_agent(None))


def test_faq_agent_fails_without_the_search_tool():
    result = hw.check_faq_agent(lambda client, model: pydantic_agent(client, model, tools=()))
    assert_fails(result, "74eb249bbf")
    assert "without calling a tool" in result.hint


def test_faq_agent_fails_when_the_tool_drops_the_ids():
    def search_text(query: str) -> list[dict]:
        """Search the course FAQ for entries that match a query."""
        return [{"question": d["question"], "answer": d["answer"]} for d in search(query, index=default_index())]

    result = hw.check_faq_agent(lambda client, model: pydantic_agent(client, model, tools=(search_text,)))
    assert_fails(result, "74eb249bbf", "1d0b969028")
    assert "cites no entry id" in result.hint


def test_faq_agent_fails_when_the_tool_searches_another_course():
    def search_mlops(query: str) -> list[dict]:
        """Search the FAQ for entries that match a query."""
        return search(query, index=default_index(), course="mlops-zoomcamp")

    result = hw.check_faq_agent(lambda client, model: sdk_agent(client, model, tools=[function_tool(search_mlops)]))
    assert_fails(result, "74eb249bbf", "1d0b969028")


def test_faq_agent_fails_when_it_returns_a_run_instead_of_the_agent():
    def its_answer(client, model):
        return pydantic_agent(client, model).run_sync("Can I still join?").output

    result = hw.check_faq_agent(its_answer)
    assert_fails(result)
    assert "return the agent itself" in result.hint


def test_faq_agent_fails_on_a_sync_client():
    from helpers.llm import offline_client

    result = hw.check_faq_agent(lambda client, model: sdk_agent(offline_client(), model))
    assert_fails(result, "74eb249bbf")


# --- 6.2 · A turn limit, caught ------------------------------------------------------------------------

STOPPED = "I stopped: the search went on too long without an answer."


async def capped_pydantic(agent, question, max_calls):
    try:
        return (await agent.run(question, usage_limits=UsageLimits(request_limit=max_calls))).output
    except UsageLimitExceeded:
        return STOPPED


async def capped_sdk(agent, question, max_calls):
    try:
        return (await Runner.run(agent, question, max_turns=max_calls)).final_output
    except MaxTurnsExceeded:
        return STOPPED


@pytest.mark.parametrize(("capped", "make_agent"), [(capped_pydantic, pydantic_agent), (capped_sdk, sdk_agent)],
                         ids=["pydantic_ai", "agents_sdk"])
def test_turn_limit_passes_in_either_framework(capped, make_agent):
    assert hw.check_turn_limit(capped, make_agent).passed
    assert_todo(hw.check_turn_limit(async_stub, make_agent))
    before_task_1 = hw.check_turn_limit(capped, stub)
    assert_todo(before_task_1)
    assert "finish make_faq_agent first" in before_task_1.hint
    assert_todo(hw.check_turn_limit(capped, None))
    assert_todo(hw.check_turn_limit(None, make_agent))


def test_turn_limit_passes_with_the_sdk_last_call_inside_the_limit():
    from agents import ModelSettings

    async def with_last_call(agent, question, max_calls):
        async def answer_without_tools(data):
            closing = agent.clone(model_settings=ModelSettings(tool_choice="none"))
            return (await Runner.run(closing, data.run_data.history, max_turns=1)).final_output

        result = await Runner.run(agent, question, max_turns=max_calls - 1,
                                  error_handlers={"max_turns": answer_without_tools})
        return result.final_output

    assert hw.check_turn_limit(with_last_call, sdk_agent).passed


async def unlimited(agent, question, max_calls):
    try:
        return (await Runner.run(agent, question)).final_output
    except MaxTurnsExceeded:
        return STOPPED


async def uncaught(agent, question, max_calls):
    return (await agent.run(question, usage_limits=UsageLimits(request_limit=max_calls))).output


async def wrong_exception(agent, question, max_calls):
    try:
        return (await Runner.run(agent, question, max_turns=max_calls)).final_output
    except UsageLimitExceeded:
        return STOPPED


async def fixed(agent, question, max_calls):
    return await capped_sdk(agent, question, 3)


async def one_more(agent, question, max_calls):
    return await capped_pydantic(agent, question, max_calls + 1)


async def one_fewer(agent, question, max_calls):
    return await capped_sdk(agent, question, max_calls - 1)


async def always_stopped(agent, question, max_calls):
    await capped_sdk(agent, question, max_calls)
    return STOPPED


async def the_run(agent, question, max_calls):
    try:
        return await agent.run(question, usage_limits=UsageLimits(request_limit=max_calls))
    except UsageLimitExceeded:
        return STOPPED


async def silent(agent, question, max_calls):
    try:
        return (await Runner.run(agent, question, max_turns=max_calls)).final_output
    except MaxTurnsExceeded:
        return ""


# (a wrong ask_capped, the agent it runs, what its hint must not show, words the hint must contain)
TURN_LIMIT_MISTAKES = [
    pytest.param(unlimited, sdk_agent, ["max_turns=max_calls"], ["was called 10 times"], id="without a limit"),
    pytest.param(uncaught, pydantic_agent, ["except UsageLimitExceeded"], ["UsageLimitExceeded", "catch"],
                 id="the exception escapes"),
    pytest.param(wrong_exception, sdk_agent, ["except MaxTurnsExceeded"], ["MaxTurnsExceeded"],
                 id="it catches the other framework's exception"),
    pytest.param(fixed, sdk_agent, ["max_turns=max_calls"], [], id="a limit written into the code"),
    pytest.param(one_more, pydantic_agent, ["request_limit=max_calls"], ["was called 3 times"],
                 id="one call over the limit"),
    pytest.param(one_fewer, sdk_agent, ["max_turns=max_calls"], ["the limit allows more"],
                 id="one call under the limit"),
    pytest.param(always_stopped, sdk_agent, ["74eb249bbf"], ["did not return the agent's answer"],
                 id="it never returns the answer"),
    pytest.param(the_run, pydantic_agent, [], ["as text"], id="it returns the run, not its text"),
    pytest.param(silent, sdk_agent, [], [], id="the message is empty"),
]


@pytest.mark.parametrize(("ask_capped", "make_agent", "secrets", "says"), TURN_LIMIT_MISTAKES)
def test_turn_limit_fails(ask_capped, make_agent, secrets, says):
    hints.assert_fails(hw.check_turn_limit(ask_capped, make_agent), leaks=secrets, says=says)


# --- 6.3 · Hit rate and MRR ----------------------------------------------------------------------------


def ranks_by_search(rows, boost, num_results):
    ranks = []
    for row in rows:
        ids = [d["id"] for d in search(row["question"], index=default_index(), course=row["course"],
                                       num_results=num_results, boost=boost)]
        ranks.append(ids.index(row["document"]) + 1 if row["document"] in ids else None)
    return ranks


def hit_rate_and_mrr(rows, boost=ZOOMCAMP_BOOST, num_results=5):
    ranks = ranks_by_search(rows, boost, num_results)
    return sum(r is not None for r in ranks) / len(ranks), sum(1 / r for r in ranks if r) / len(ranks)


@pytest.fixture(scope="module")
def expected_figures():
    """The figures the check expects, rounded as a hint would show them: none may appear in a hint."""
    rows = answerable(load_ground_truth(progress=False), load_faq_data())[::8]
    fs = FieldScores(default_index(), rows)
    figures = [*scores(fs.ranks(ZOOMCAMP_BOOST, 5)), *scores(fs.ranks({"question": 1.0, "section": 1.0,
                                                                          "answer": 0.5}, 3))]
    return [f"{x:.3f}" for x in figures]


def test_hit_rate_and_mrr_passes():
    assert hw.check_hit_rate_and_mrr(hit_rate_and_mrr).passed
    assert_todo(hw.check_hit_rate_and_mrr(stub))
    assert_todo(hw.check_hit_rate_and_mrr(None))


def test_hit_rate_and_mrr_fails_when_mrr_averages_over_hits_only(expected_figures):
    def over_hits(rows, boost, num_results):
        found = [r for r in ranks_by_search(rows, boost, num_results) if r]
        return len(found) / len(rows), sum(1 / r for r in found) / len(found)

    result = hw.check_hit_rate_and_mrr(over_hits)
    assert_fails(result, *expected_figures)
    assert "hit rate is right but your MRR is not" in result.hint


def test_hit_rate_and_mrr_fails_when_ranks_start_at_zero(expected_figures):
    def from_zero(rows, boost, num_results):
        ranks = [r - 1 if r else None for r in ranks_by_search(rows, boost, num_results)]
        return sum(r is not None for r in ranks) / len(ranks), sum(1 / r for r in ranks if r) / len(ranks)

    assert_fails(hw.check_hit_rate_and_mrr(from_zero), *expected_figures)


def test_hit_rate_and_mrr_fails_when_it_ignores_num_results(expected_figures):
    result = hw.check_hit_rate_and_mrr(lambda rows, boost, num_results: hit_rate_and_mrr(rows, boost, 5))
    assert_fails(result, *expected_figures)
    assert "num_results=3" in result.hint  # the setting it was given, so the student sees which one differs


def test_hit_rate_and_mrr_fails_when_it_ignores_the_boost(expected_figures):
    result = hw.check_hit_rate_and_mrr(lambda rows, boost, num_results: hit_rate_and_mrr(rows, None, num_results))
    assert_fails(result, *expected_figures)


def test_hit_rate_and_mrr_fails_when_the_pair_is_swapped(expected_figures):
    result = hw.check_hit_rate_and_mrr(lambda *args: hit_rate_and_mrr(*args)[::-1])
    assert_fails(result, *expected_figures)
    assert "wrong order" in result.hint


def test_hit_rate_and_mrr_fails_when_it_returns_one_number():
    assert_fails(hw.check_hit_rate_and_mrr(lambda *args: hit_rate_and_mrr(*args)[1]))


# --- 6.4 · A tuned setting, checked once ---------------------------------------------------------------


@pytest.fixture(scope="module")
def halves():
    rows = answerable(load_ground_truth(progress=False), load_faq_data())
    validation, held_back = split_by_entry(rows)
    fs = {name: FieldScores(default_index(), part) for name, part in [("validation", validation),
                                                                      ("held_back", held_back), ("all", rows)]}
    return {name: (lambda setting, f=f: scores(f.ranks(setting["boost"], setting["num_results"])))
            for name, f in fs.items()}


def test_tuned_setting_passes(halves):
    assert hw.check_tuned_setting(TUNED, halves["held_back"](TUNED)).passed
    rounded = tuple(round(x, 4) for x in halves["held_back"](TUNED))  # a student may report what they printed
    assert hw.check_tuned_setting(TUNED, rounded).passed
    assert_todo(hw.check_tuned_setting({"boost": ZOOMCAMP_BOOST, "num_results": 5}, None))


def secrets_of(halves):
    return [f"{x:.3f}" for x in halves["held_back"](TUNED)]


def test_tuned_setting_fails_with_the_validation_figures(halves):
    result = hw.check_tuned_setting(TUNED, halves["validation"](TUNED))
    assert_fails(result, *secrets_of(halves))
    assert "validation half" in result.hint


def test_tuned_setting_fails_with_the_figures_of_every_row(halves):
    result = hw.check_tuned_setting(TUNED, halves["all"](TUNED))
    assert_fails(result, *secrets_of(halves))
    assert "all the answerable rows" in result.hint


def test_tuned_setting_fails_with_the_default_settings_figures(halves):
    default = {"boost": ZOOMCAMP_BOOST, "num_results": 5}
    result = hw.check_tuned_setting(TUNED, halves["held_back"](default))
    assert_fails(result, *secrets_of(halves))
    assert "default setting's figures" in result.hint


def test_tuned_setting_fails_when_the_pair_is_swapped(halves):
    result = hw.check_tuned_setting(TUNED, halves["held_back"](TUNED)[::-1])
    assert_fails(result, *secrets_of(halves))
    assert "wrong order" in result.hint


def test_tuned_setting_fails_with_the_default_setting(halves):
    default = {"boost": dict(ZOOMCAMP_BOOST), "num_results": 5}
    assert_fails(hw.check_tuned_setting(default, halves["held_back"](default)), *secrets_of(halves))


def test_tuned_setting_fails_with_a_setting_worse_than_the_default(halves):
    fewer = {"boost": ZOOMCAMP_BOOST, "num_results": 2}  # cheaper, honestly measured, but it finds less
    result = hw.check_tuned_setting(fewer, halves["held_back"](fewer))
    assert_fails(result, *secrets_of(halves))
    assert "worse than the default" in result.hint


def test_tuned_setting_fails_with_a_setting_of_the_wrong_shape(halves):
    assert_fails(hw.check_tuned_setting(TUNED["boost"], halves["held_back"](TUNED)), *secrets_of(halves))
    assert_fails(hw.check_tuned_setting({"boost": {"title": 2.0}, "num_results": 5}, (0.9, 0.8)))
