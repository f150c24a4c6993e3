"""The offline model's decision table (helpers/offline/engine.py): one signature per rule, the order written once
in code and quoted by the module's docstring and the offline README, and the place of routing after refusals and
failures (a denied handoff, a failed handoff, a failed agent-as-tool call), in a harbour's ferry and tide desks,
a domain no lesson uses."""

import inspect
import re
from pathlib import Path

import pytest

from helpers.offline import neutral_client
from helpers.offline.conversation import Call, Conversation, Decision, Tool
from helpers.offline.engine import FINISH, RULES, decide, read_request, run, table
from helpers.offline.reading import Reading

README = Path(__file__).resolve().parents[2] / "helpers" / "offline" / "README.md"
NO_ARGS = {"type": "object", "properties": {}, "required": []}
INPUT = {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}
FERRY = Tool("transfer_to_ferry_desk", "Handoff to the Ferry desk agent to handle the request. Knows sailings and "
             "crossings to the islands.", NO_ARGS)
TIDE = Tool("transfer_to_tide_desk", "Handoff to the Tide desk agent to handle the request. Knows tide tables and "
            "high water.", NO_ARGS)
SAILINGS_AGENT = Tool("sailings_agent", "A specialist agent for ferry sailings and crossings.", INPUT)
QUESTION = "When is the next sailing to the islands?"


def quoted(text: str, block: str) -> str:
    found = re.search(rf"<!-- {block}: start -->\n(.*?)\n<!-- {block}: end -->", text, re.S)
    assert found, f"no <!-- {block}: start --> ... <!-- {block}: end --> block"
    return "\n".join(line.strip() for line in found.group(1).strip().splitlines())


@pytest.mark.parametrize("where", ["docstring", "README"])
def test_the_docstring_and_the_readme_quote_the_table_in_the_codes_order(where):
    import helpers.offline.engine as engine

    text = str(engine.__doc__) if where == "docstring" else README.read_text(encoding="utf-8")
    assert quoted(text, "rules") == table(RULES)
    assert quoted(text, "finish") == table(FINISH, "finishing step")


def test_a_stale_quote_is_caught():
    moved = table(RULES[1:2] + RULES[:1] + RULES[2:])
    assert moved != table(RULES)
    assert quoted(f"<!-- rules: start -->\n{moved}\n<!-- rules: end -->", "rules") != table(RULES)


def test_every_rule_has_one_signature_and_names_a_real_module():
    offline = README.parent
    for row in RULES:
        assert list(inspect.signature(row.rule).parameters) == ["reading"], row.name
        assert (offline / row.module).is_file(), row.module
    for row in FINISH:
        assert len(inspect.signature(row.rule).parameters) == 2, row.name
    assert len({row.name for row in RULES}) == len(RULES)


def test_the_last_rule_always_decides():
    assert isinstance(RULES[-1].rule(read_request(Conversation(question="Anything?"))), Decision)


def test_routing_stands_after_refusals_and_failures():
    names = [row.name for row in RULES]
    assert names.index("denied calls") < names.index("routing")
    assert names.index("failed calls") < names.index("routing")


def test_a_handoff_still_routes_without_a_refusal_or_a_failure():
    row, decision = run(read_request(Conversation(question=QUESTION, tools=[FERRY, TIDE])))
    assert row.name == "routing" and decision.calls == [(FERRY.name, "{}")]


def said(conv: Conversation) -> str:
    """The text the model decides on (a test fails if it makes calls instead)."""
    decision = decide(conv)
    assert not decision.calls and decision.text is not None, decision
    return decision.text


def test_a_denied_handoff_is_reported_not_retried():
    conv = Conversation(question=QUESTION, tools=[FERRY, TIDE], calls=[
        Call(FERRY.name, "{}", "c1", 0, "Handoff was not approved. Reason: the ferry desk is closed today.")])
    text = said(conv)  # a refused handoff is not made again
    assert text.startswith("I did not run transfer_to_ferry_desk") and "closed today" in text


def test_a_failed_handoff_is_reported_not_retried():
    conv = Conversation(question=QUESTION, tools=[FERRY, TIDE], calls=[
        Call(FERRY.name, "{}", "c1", 0, '{"error": "the ferry desk is unreachable"}')])
    text = said(conv)
    assert "transfer_to_ferry_desk failed" in text and "unreachable" in text


def test_a_failed_agent_tool_call_is_a_failure_not_the_agents_answer():
    conv = Conversation(question=QUESTION, tools=[SAILINGS_AGENT], calls=[
        Call(SAILINGS_AGENT.name, f'{{"input": "{QUESTION}"}}', "c1", 0, "ConnectionError: the agent timed out")])
    assert said(conv).startswith("I couldn't get an answer: the tool sailings_agent failed")
    assert decide(conv).found is False


def test_an_agent_tools_answer_is_still_relayed():
    conv = Conversation(question=QUESTION, tools=[SAILINGS_AGENT], calls=[
        Call(SAILINGS_AGENT.name, f'{{"input": "{QUESTION}"}}', "c1", 0, "The next sailing leaves at 14:10.")])
    assert decide(conv).text == "The next sailing leaves at 14:10."


def test_a_denied_handoff_over_the_wire():
    # The same rule through the openai SDK and the Responses API, as an approval loop sends the refusal back.
    client = neutral_client()
    tools = [{"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters}
             for t in (FERRY, TIDE)]
    first = client.responses.create(model="offline-rules-v1", input=QUESTION, tools=tools)
    call = next(item for item in first.output if item.type == "function_call")
    assert call.name == FERRY.name
    second = client.responses.create(model="offline-rules-v1", tools=tools, input=[
        {"role": "user", "content": QUESTION}, call.model_dump(exclude_none=True),
        {"type": "function_call_output", "call_id": call.call_id, "output": "The tool call was denied."}])
    assert not [item for item in second.output if item.type == "function_call"]
    assert second.output_text.startswith("I did not run transfer_to_ferry_desk")


def test_each_tool_output_is_read_once(monkeypatch):
    import helpers.offline.reading as reading_module

    seen: list[str] = []
    real = reading_module.parse_documents
    monkeypatch.setattr(reading_module, "parse_documents", lambda text: seen.append(text) or real(text))
    found = '[{"id": "f1", "title": "Winter sailings", "answer": "Two sailings a day leave at 9:00 and 14:10."}]'
    search = Tool("search_harbour_notes", "Search the harbour's notes.",
                  {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})
    conv = Conversation(question=QUESTION, tools=[search],
                        calls=[Call(search.name, '{"query": "sailing islands"}', "c1", 0, found)])
    reading = read_request(conv)
    assert isinstance(reading, Reading)
    run(reading)
    assert seen.count(found) == 1


def test_other_tools_results_are_read_once_for_the_answer(monkeypatch):
    import helpers.offline.conversation as conversation_module
    import helpers.offline.injection as injection_module
    import helpers.offline.reading as reading_module
    import helpers.offline.results as results_module

    def not_again(*_):
        raise AssertionError("a tool output read again outside the Reading")

    seen: list[str] = []
    real = reading_module.read_output
    monkeypatch.setattr(reading_module, "read_output", lambda text: seen.append(text) or real(text))
    monkeypatch.setattr(results_module, "read_output", not_again)
    monkeypatch.setattr(results_module, "tool_error", not_again)
    monkeypatch.setattr(conversation_module, "tool_error", not_again)
    monkeypatch.setattr(injection_module, "tool_error", not_again)
    tides = Tool("get_tides", "Tide times for a harbour.",
                 {"type": "object", "properties": {"harbour": {"type": "string"}}, "required": ["harbour"]})
    out = '{"high_water": "14:10", "low_water": "20:25"}'
    conv = Conversation(question="When is high water at Oban?", tools=[tides],
                        calls=[Call("get_tides", '{"harbour": "Oban"}', "c1", 0, out)])
    assert "14:10" in (decide(conv).text or "")
    assert seen.count(out) == 1
