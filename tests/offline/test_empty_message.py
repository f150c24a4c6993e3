"""The rule "empty message" (helpers/offline/answers.py's `empty_message`, one row of engine.RULES): a user message
with no word in it is asked what it wants, and no tool is called; in domains no lesson uses (a harbour's tides,
a choir's rehearsals, a potter's glazes)."""

import pytest

from helpers.offline import OFFLINE_MODEL, neutral_client
from helpers.offline.answers import EMPTY_MESSAGE
from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide

QUERY = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
TIDES = Tool("get_tides", "Tide times for a harbour.",
             {"type": "object", "properties": {"harbour": {"type": "string"}}, "required": ["harbour"]})
REHEARSALS = Tool("search_rehearsal_notes", "Search the choir's rehearsal notes.", QUERY)
GLAZES = Tool("search_glaze_recipes", "Search the pottery studio's glaze recipes.", QUERY)
EMPTY = ["", "   ", "\n\t", "?", "...", "?!", "¿?", "？", "— …", "()"]


@pytest.mark.parametrize("message", EMPTY)
@pytest.mark.parametrize("tools", [[], [TIDES], [REHEARSALS], [GLAZES, TIDES]], ids=["none", "tides", "choir", "both"])
def test_an_empty_message_is_asked_what_it_wants_and_calls_no_tool(message, tools):
    decision = decide(Conversation(question=message, tools=tools))
    assert decision.calls == [] and decision.text == EMPTY_MESSAGE and decision.found is False


@pytest.mark.parametrize("message", ["Tides?", "潮汐？", "42", "Rehearsal on Friday?", "Ω"])
def test_a_message_with_any_word_is_not_empty(message):
    assert decide(Conversation(question=message, tools=[TIDES, REHEARSALS])).text != EMPTY_MESSAGE


def test_a_word_still_gets_its_search():
    calls = decide(Conversation(question="Glazes?", tools=[GLAZES])).calls
    assert [name for name, _ in calls] == ["search_glaze_recipes"] and "glazes" in calls[0][1]


def test_after_tool_calls_the_results_are_answered_not_the_empty_message():
    found = '[{"id": "g1", "title": "Celadon glaze", "answer": "Celadon fires at cone 10."}]'
    conv = Conversation(question="?", tools=[GLAZES],
                        calls=[Call("search_glaze_recipes", '{"query": "celadon"}', "c1", 0, found)])
    assert decide(conv).text != EMPTY_MESSAGE


def test_a_forced_call_is_still_made():
    decision = decide(Conversation(question="", tools=[TIDES], tool_choice="required"))
    assert [name for name, _ in decision.calls] == ["get_tides"]


def test_labels_still_get_a_label():
    conv = Conversation(instructions="Reply HARBOUR if the message is about tides or boats, OTHER otherwise.",
                        question="...")
    assert decide(conv).text == "OTHER"


def test_a_summary_asked_for_still_summarises():
    conv = Conversation(instructions="Summarise the conversation so far.", question="", earlier=[
        "The choir rehearses on Fridays at 7 pm in the chapel."], transcript=[
        ("user", "The choir rehearses on Fridays at 7 pm in the chapel."), ("assistant", "Noted."), ("user", "")])
    assert decide(conv).text != EMPTY_MESSAGE


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_over_the_wire(api):
    client = neutral_client()
    tools = [{"type": "function", "name": TIDES.name, "description": TIDES.description, "parameters": TIDES.parameters}]
    if api == "responses":
        reply = client.responses.create(model=OFFLINE_MODEL, input="  ?  ", tools=tools)
        assert reply.output_text == EMPTY_MESSAGE
    else:
        chat_tools = [{"type": "function", "function": {k: v for k, v in tools[0].items() if k != "type"}}]
        reply = client.chat.completions.create(model=OFFLINE_MODEL, tools=chat_tools,
                                               messages=[{"role": "user", "content": "  ?  "}])
        assert reply.choices[0].message.content == EMPTY_MESSAGE and not reply.choices[0].message.tool_calls
