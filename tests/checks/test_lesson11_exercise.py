"""Lesson 11's exercise, `answer_without_tools(data)` for the Agents SDK's "max_turns" error handler: the right
handler passes, the stub is not done yet, and the handlers students really write wrong fail with a hint that does
not hand over the answer. Runs on the offline model with the "never_stop" fault, no kernel."""

import hints
from agents import ModelSettings, Runner

from helpers.checks.lessons.lesson11 import check_answer_without_tools

ANSWER_PARTS = ('tool_choice="none"', "tool_choice='none'", "ModelSettings(", "Runner.run(")


def assert_fails_without_the_answer(result, *words):
    hints.assert_fails(result, leaks=ANSWER_PARTS, says=words)


async def right(data):
    closing = data.run_data.last_agent.clone(model_settings=ModelSettings(tool_choice="none"))
    last = await Runner.run(closing, data.run_data.history, max_turns=1)
    return last.final_output


def test_the_right_handler_passes():
    result = check_answer_without_tools(right)
    assert result.status == "pass", result
    assert "3 model calls" in result.hint and "5e1c0a7b3d" in result.hint  # the model's own answer, cited


def test_a_handler_with_no_tools_at_all_passes_too():
    async def no_tools(data):
        closing = data.run_data.last_agent.clone(tools=[])
        return (await Runner.run(closing, data.run_data.history, max_turns=1)).final_output

    assert check_answer_without_tools(no_tools).status == "pass"


def test_the_stub_is_not_done_yet():
    async def stub(data):
        raise NotImplementedError

    assert check_answer_without_tools(stub).status == "todo"
    assert check_answer_without_tools(None).status == "todo"


def test_a_handler_that_returns_none_fails():
    async def returns_none(data):
        return None

    assert_fails_without_the_answer(check_answer_without_tools(returns_none), "returned None")


def test_a_handler_that_makes_the_call_but_forgets_return_fails():
    async def no_return(data):
        closing = data.run_data.last_agent.clone(model_settings=ModelSettings(tool_choice="none"))
        await Runner.run(closing, data.run_data.history, max_turns=1)

    assert_fails_without_the_answer(check_answer_without_tools(no_return), "forget `return`")


def test_a_handler_that_reraises_fails():
    async def reraise(data):
        raise data.error

    assert_fails_without_the_answer(check_answer_without_tools(reraise), "raised the MaxTurnsExceeded error again")


def test_a_last_call_with_tools_still_on_fails():
    async def tools_still_on(data):
        last = await Runner.run(data.run_data.last_agent, data.run_data.history, max_turns=1)
        return last.final_output

    assert_fails_without_the_answer(check_answer_without_tools(tools_still_on), "ran out of turns too")


def test_a_fixed_string_instead_of_the_models_answer_fails():
    async def fixed(data):
        return "Sorry, I ran out of turns. Please ask again."

    assert_fails_without_the_answer(check_answer_without_tools(fixed), "no model call wrote")


def test_returning_the_run_result_instead_of_its_text_fails():
    async def whole_result(data):
        closing = data.run_data.last_agent.clone(model_settings=ModelSettings(tool_choice="none"))
        return await Runner.run(closing, data.run_data.history, max_turns=1)

    assert_fails_without_the_answer(check_answer_without_tools(whole_result), "RunResult")


def test_a_crashing_handler_fails_with_its_error():
    def crashes(data):
        return data.run_data.missing_field

    assert_fails_without_the_answer(check_answer_without_tools(crashes), "AttributeError")
