"""helpers.agents beyond the exercise: handoff input filters, the error payloads a failing handoff or agent tool
gives the model (never an exception into the loop), and `measure`. Domains no lesson uses (a library's loans and
events desks), so the offline model's behaviour comes from the request, not from the course."""

import json

import openai
import pytest

from helpers.agents import (
    Agent,
    Handoff,
    Ledger,
    ask_tool,
    hand_over,
    handed_to,
    handoff,
    measure,
    only_the_question,
    remove_all_tools,
    run_agents,
)
from helpers.checks.doubles import ScriptedClient, scripted_chat_completion, scripted_response
from helpers.offline import OFFLINE_MODEL, neutral_client
from helpers.tools import Tools

LOAN_NOTE = {"id": "n1", "title": "Renewing a book loan", "answer": "A loan can be renewed twice online."}
EVENT_NOTE = {"id": "e1", "title": "When the book club meets", "answer": "The book club meets on Mondays."}


def loan_notes(query: str) -> list:
    """Search the loans desk's notes: renewing and returning books."""
    return [LOAN_NOTE]


def event_notes(query: str) -> list:
    """Search the events desk's notes: the book club and readings."""
    return [EVENT_NOTE]


def desks(*, loans_filter=None, events_filter=None):
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes), "Renews and returns book loans.")
    events = Agent("Events agent", "Answer from your notes.", Tools(event_notes), "Knows the book club and readings.")
    wrap = lambda agent, f: agent if f is None else handoff(agent, input_filter=f)  # noqa: E731
    return Agent("Desk", "Hand the conversation over to the agent that can answer it.",
                 handoffs=[wrap(loans, loans_filter), wrap(events, events_filter)])


def earlier_conversation() -> list:
    """A conversation with a long tool output in it, as a history the next question continues."""
    output = json.dumps([{"id": f"x{i}", "title": "Opening hours", "answer": "Open from nine to five. " * 20}
                         for i in range(5)])
    return [{"role": "user", "content": "When is the library open?"},
            {"type": "function_call", "call_id": "old1", "name": "hours", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "old1", "output": output},
            {"role": "assistant", "content": "It is open from nine to five."}]


def requests_of(spy_calls) -> list:
    return [request for request, _ in spy_calls]


class Spy:
    """The offline model, with every request it got kept."""

    def __init__(self):
        self._client, self.requests = neutral_client(), []
        self.responses = self

    def create(self, **kwargs):
        self.requests.append({**kwargs, "input": list(kwargs.get("input", []))})
        return self._client.responses.create(**kwargs)

    def with_options(self, **options):
        return self


# --- input filters ---------------------------------------------------------------------------------------------

def test_remove_all_tools_keeps_what_was_said_in_both_flavours():
    responses = earlier_conversation()
    assert [m.get("role") for m in remove_all_tools(responses)] == ["user", "assistant"]
    chat = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]},
            {"role": "tool", "tool_call_id": "c1", "content": "[]"},
            {"role": "assistant", "content": "Found it.", "tool_calls": [{"id": "c2"}]}]
    assert remove_all_tools(chat) == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
                                      {"role": "assistant", "content": "Found it."}]


def test_only_the_question_keeps_the_latest_user_message():
    history = [*earlier_conversation(), {"role": "user", "content": "Can I renew my loan?"}]
    assert only_the_question(history) == [{"role": "user", "content": "Can I renew my loan?"}]


def test_a_filtered_handoff_gives_the_specialist_a_shorter_history_and_the_same_answer():
    plain_spy, filtered_spy = Spy(), Spy()
    question = "Can I renew my book loan?"
    plain = run_agents(plain_spy, OFFLINE_MODEL, question, desks(), messages=earlier_conversation())
    filtered = run_agents(filtered_spy, OFFLINE_MODEL, question, desks(loans_filter=remove_all_tools),
                          messages=earlier_conversation())
    assert plain.last_agent.name == filtered.last_agent.name == "Loans agent"
    assert "[n1]" in plain.answer and "[n1]" in filtered.answer
    after = filtered_spy.requests[1]  # the Loans agent's first request
    assert not any(item.get("call_id") == "old1" for item in after["input"])
    assert not any(item.get("name", "").startswith("transfer_to_") for item in after["input"])
    assert [m["content"] for m in after["input"] if m.get("role") == "user"] == ["When is the library open?",
                                                                                 question]
    spent = lambda run: run.ledger.table().loc["Loans agent", "input tokens"]  # noqa: E731
    assert spent(filtered) < spent(plain) / 2
    assert filtered.ledger.who_called_whom() == ["Desk hands over to Loans agent"]


def test_only_the_filtered_handoff_filters():
    spy = Spy()
    run = run_agents(spy, OFFLINE_MODEL, "When does the book club meet?", desks(loans_filter=only_the_question),
                     messages=earlier_conversation())
    assert run.last_agent.name == "Events agent" and "[e1]" in run.answer
    assert any(item.get("call_id") == "old1" for item in spy.requests[1]["input"])


def test_a_filtered_handoff_on_chat_completions_keeps_a_system_message_with_the_new_instructions():
    script = [scripted_chat_completion(("transfer_to_loans_agent", {}), n=1),
              scripted_chat_completion(text="Renew it twice online.", n=2)]
    client = ScriptedClient(script)
    run = run_agents(client, "m", "Can I renew my book loan?", desks(loans_filter=only_the_question), api="chat")
    second = client.calls[1][0]["messages"]
    assert second[0] == {"role": "system", "content": "Answer from your notes."}
    assert [m["role"] for m in second] == ["system", "user"]
    assert run.answer == "Renew it twice online."


def test_hand_over_takes_an_input_filter():
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes))
    messages = [*earlier_conversation(), {"role": "user", "content": "Renew?"},
                {"type": "function_call", "call_id": "t1", "name": "transfer_to_loans_agent", "arguments": "{}"}]
    kept, instructions, schemas = hand_over(messages, "t1", desks(), loans, input_filter=remove_all_tools)
    assert [m.get("role") for m in kept] == ["user", "assistant", "user"]
    assert instructions == loans.instructions and [s["name"] for s in schemas] == ["loan_notes"]
    with pytest.raises(ValueError, match="not a list of messages"):
        hand_over(messages, "t1", desks(), loans, input_filter=lambda m: None)


def test_a_handoff_record_routes_like_the_agent_it_wraps():
    triage = desks(loans_filter=remove_all_tools)
    assert isinstance(triage.handoffs[0], Handoff)
    assert triage.tool_names() == ["transfer_to_loans_agent", "transfer_to_events_agent"]
    target = handed_to(triage, [{"name": "transfer_to_loans_agent"}])
    assert target is not None and target.name == "Loans agent"
    assert [s["function"]["name"] for s in triage.schemas("chat")] == triage.tool_names()


# --- errors are outputs, never exceptions ------------------------------------------------------------------

def broken_filter(messages):
    raise KeyError("summary")


@pytest.mark.parametrize("bad_filter", [broken_filter, lambda messages: "not a list"], ids=["raises", "not-a-list"])
def test_a_failed_handoff_is_an_error_output_and_the_conversation_stays(bad_filter):
    loans = desks().handoffs[0]
    desk = Agent("Desk", "Hand the conversation over to the agent that can answer it.",
                 handoffs=[handoff(loans, input_filter=bad_filter)])
    spy = Spy()
    run = run_agents(spy, OFFLINE_MODEL, "Can I renew my book loan?", desk)
    assert run.last_agent.name == "Desk"
    output = json.loads(run.result.tool_calls[0]["output"])
    assert output["error"].startswith("handoff to Loans agent failed:")
    assert "stays with Desk" in output["hint"]
    sent = [m for m in run.result.messages if m.get("type") == "function_call_output"]
    assert json.loads(sent[0]["output"]) == output  # the model read the error, not {"assistant": ...}
    assert run.ledger.who_called_whom() == ["Desk could not hand over to Loans agent"]
    assert run.result.stop_reason == "answered" and len(spy.requests) == 2  # no retry loop to the cap
    assert "tools" not in spy.requests[1]  # the broken transfer is not offered again


def test_a_second_transfer_in_one_response_is_denied():
    script = [scripted_response(("transfer_to_loans_agent", {}), ("transfer_to_events_agent", {}), n=1),
              scripted_response(text="Renew it twice online.", n=2)]
    client = ScriptedClient(script)
    run = run_agents(client, "m", "Renew my loan and tell me about the book club.", desks())
    assert run.last_agent.name == "Loans agent"
    first, second = (json.loads(c["output"]) for c in run.result.tool_calls[:2])
    assert first == {"assistant": "Loans agent"}
    assert second["error"] == ("handoff to Events agent denied: this response already handed the conversation "
                               "to Loans agent")
    outputs = {m["call_id"]: json.loads(m["output"]) for m in client.calls[1][0]["input"]
               if m.get("type") == "function_call_output"}
    assert outputs == {"call_1_0": first, "call_1_1": second}  # what the Loans agent's request carried
    assert run.ledger.who_called_whom() == ["Desk hands over to Loans agent"]


class DownClient:
    def __getattr__(self, name):
        raise ConnectionError("the provider is down")


def test_an_agent_tool_whose_client_raises_returns_an_error_payload():
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes))
    output = json.loads(ask_tool(loans, DownClient(), "m")(input="Can I renew?"))
    assert output["error"] == "the Loans agent could not answer: ConnectionError: the provider is down"
    assert output["hint"]


class RefusingResponses:
    def create(self, **kwargs):
        raise openai.APIConnectionError(request=None)  # as tests/test_doctor.py raises it


class RefusingClient:
    responses, timeout = RefusingResponses(), 30.0

    def with_options(self, **options):
        return self


def test_an_agent_tool_whose_run_stops_on_an_api_error_says_why():
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes))
    output = json.loads(ask_tool(loans, RefusingClient(), "m")(input="Can I renew?"))
    assert output["error"].startswith("the Loans agent could not answer: Could not reach the provider")


def test_an_agent_tool_that_never_answers_says_so_and_the_caller_goes_on():
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes))
    desk = Agent("Desk", "Ask the agent that knows.", asks=[loans])
    script = [scripted_response(("ask_loans_agent", {"input": "Can I renew?"}), n=1),  # the desk asks
              scripted_response(("loan_notes", {"query": "renew"}), n=2),  # the loans agent searches...
              scripted_response(text="", n=3),  # ...and says nothing
              scripted_response(text="The loans desk could not answer.", n=4)]  # the desk answers anyway
    run = run_agents(ScriptedClient(script), "m", "Can I renew my loan?", desk)
    output = json.loads(run.result.tool_calls[0]["output"])
    assert output["error"] == "the Loans agent could not answer: its run stopped (answered) with no answer"
    assert run.answer == "The loans desk could not answer." and run.result.stop_reason == "answered"


def test_an_agent_tool_passes_only_its_input_and_returns_only_the_answer():
    spy = Spy()
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes), "Renews and returns book loans.")
    desk = Agent("Desk", "Ask the agents that know, then answer with what they said.", asks=[loans])
    run = run_agents(spy, OFFLINE_MODEL, "Can I renew my book loan?", desk, messages=earlier_conversation())
    inner = [r for r in spy.requests if r.get("instructions") == loans.instructions]
    assert inner and all(not any(m.get("call_id") == "old1" for m in r["input"]) for r in inner)
    desk_last = [r for r in spy.requests if r.get("instructions") == desk.instructions][-1]
    assert not any(m.get("name") == "loan_notes" for m in desk_last["input"])  # the searches stay inside
    assert "[n1]" in run.answer


# --- measure ---------------------------------------------------------------------------------------------------

def test_measure_counts_right_answers_calls_tokens_and_dollars():
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes))
    row = measure(neutral_client(), OFFLINE_MODEL, loans, [("Can I renew my book loan?", "[n1]"),
                                                           ("Can I renew my book loan?", "[zz]")],
                  price_as="gpt-5.4-mini")
    assert row["right answers"] == "1/2" and row["model calls"] == 4
    assert row["tokens"] > row["input tokens"] > 0 and row["cost"].startswith("$0.")
    scripted = ScriptedClient([scripted_response(text="Renew it twice online [n1].")])
    unpriced = measure(scripted, "scripted", loans, [("Can I renew my book loan?", "[n1]")])
    assert unpriced["cost"] == "$?" and unpriced["right answers"] == "1/1"  # unknown, never "free"


def test_a_ledger_of_a_failed_handoff_still_prints():
    ledger = Ledger(events=[("Desk", "could not hand over to", "Loans agent")])
    assert ledger.report().startswith("Desk could not hand over to Loans agent")


def test_a_transfer_the_agent_does_not_own_gets_an_unknown_tool_error_naming_what_it_can_call():
    script = [scripted_response(("transfer_to_loans_agent", {}), n=1),
              scripted_response(("transfer_to_events_agent", {}), n=2),  # a transfer the Loans agent lacks
              scripted_response(text="Renew it twice online.", n=3)]
    run = run_agents(ScriptedClient(script), "m", "Can I renew my book loan?", desks())
    output = json.loads(run.result.tool_calls[1]["output"])
    assert output["error"] == "unknown tool 'transfer_to_events_agent'"
    assert "loan_notes" in output["hint"]
    assert run.last_agent.name == "Loans agent" and run.answer == "Renew it twice online."


def test_an_agent_with_a_model_of_its_own_gets_it_and_one_without_gets_the_runs():
    script = [scripted_response(("transfer_to_loans_agent", {}), n=1),
              scripted_response(text="Renew it twice online.", n=2),
              scripted_response(("transfer_to_events_agent", {}), n=3),
              scripted_response(text="On Mondays.", n=4)]
    client = ScriptedClient(script)
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes), model="small-model")
    events = Agent("Events agent", "Answer from your notes.", Tools(event_notes))
    desk = Agent("Desk", "Route.", handoffs=[loans, events], model="router-model")
    run_agents(client, "run-model", "Can I renew my book loan?", desk)
    run_agents(client, "run-model", "When does the book club meet?", Agent("Desk", "Route.", handoffs=[events]))
    assert [request["model"] for request, _ in client.calls] == ["router-model", "small-model", "run-model",
                                                               "run-model"]


def test_an_asked_agent_runs_on_its_own_model():
    client = ScriptedClient([scripted_response(text="Renew it twice online.")])
    loans = Agent("Loans agent", "Answer from your notes.", Tools(loan_notes), model="small-model")
    assert ask_tool(loans, client, "run-model")(input="Can I renew?") == "Renew it twice online."
    assert client.calls[0][0]["model"] == "small-model"
