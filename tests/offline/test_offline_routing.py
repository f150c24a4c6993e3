"""The offline model's routing rule (helpers/offline/routing.py), on three desks no lesson uses: a shop's billing
and shipping, a library's loans and events, a clinic's appointments and prescriptions. Each is run through the
rules, a hand-written loop on the wire, the Agents SDK (handoffs, `as_tool`) and PydanticAI (delegation)."""

import asyncio
import json

import pytest

from helpers.offline import OFFLINE_MODEL, async_neutral_client, neutral_client
from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide
from helpers.offline.routing import after_handoff, is_agent_tool, is_transfer_call, is_transfer_tool

QUERY = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}

# Each domain: two desks (name, what it does, its search's records) and a question for each.
DOMAINS = {
    "shop": [
        ("Billing", "Answers questions about invoices, refunds and payment cards.",
         [{"id": "b1", "title": "Refunds for a returned order", "answer": "Refunds reach your card within 5 days."}],
         "When will my refund reach my card?"),
        ("Shipping", "Tracks parcels and delivery times.",
         [{"id": "s1", "title": "How long parcel delivery takes", "answer": "Parcels arrive in 2 to 4 working days."}],
         "How long does parcel delivery take?"),
    ],
    "library": [
        ("Loans", "Renews and extends book loans, and explains late fees.",
         [{"id": "l1", "title": "Renewing a loan", "answer": "Renew a loan twice online, three weeks each."}],
         "Can I renew my book loan online?"),
        ("Events", "Knows the readings, workshops and book clubs.",
         [{"id": "e1", "title": "When workshops and readings take place", "answer": "Workshops are on Mondays."}],
         "When do the workshops and readings take place?"),
    ],
    "clinic": [
        ("Appointments", "Books, moves and cancels appointments with a doctor.",
         [{"id": "a1", "title": "Cancelling an appointment", "answer": "Cancel up to 24 hours before."}],
         "How do I cancel my appointment?"),
        ("Prescriptions", "Handles repeat prescriptions and pharmacy pick-ups.",
         [{"id": "p1", "title": "Repeat prescriptions", "answer": "Order a repeat prescription 3 days ahead."}],
         "How do I order a repeat prescription?"),
    ],
}
CASES = [(domain, i) for domain in DOMAINS for i in range(2)]


def snake(name: str) -> str:
    return name.lower().replace(" ", "_")


def transfer(name: str, does: str) -> Tool:
    """A handoff as the Agents SDK words it."""
    return Tool(f"transfer_to_{snake(name)}_desk", f"Handoff to the {name} desk agent to handle the request. {does}",
                {"type": "object", "properties": {}, "required": []})


def search_tool(name: str) -> Tool:
    return Tool(f"search_{snake(name)}_notes", f"Search the {name} desk's notes.", QUERY)


# --- the rules ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_a_router_transfers_to_the_desk_its_description_names(domain, i):
    desks = DOMAINS[domain]
    tools = [transfer(name, does) for name, does, _, _ in desks]
    conv = Conversation(instructions="Send the customer to the right desk.", question=desks[i][3], tools=tools)
    assert decide(conv).calls == [(tools[i].name, "{}")]


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_the_desk_answers_the_users_question_not_the_transfer_message(domain, i):
    name, _, records, question = DOMAINS[domain][i]
    handed = Call(f"transfer_to_{snake(name)}_desk", "{}", "c1", 1, json.dumps({"assistant": f"{name} desk"}))
    search = search_tool(name)
    first = decide(Conversation(instructions="Answer from the desk's notes.", question=question,
                                tools=[search], calls=[handed]))
    assert first.calls and first.calls[0][0] == search.name
    query = json.loads(first.calls[0][1])["query"]
    assert query and query != question and "assistant" not in query  # keywords of the user's question
    calls, answer = [handed], first
    while answer.calls and len(calls) < 5:  # the search policy may search again with other words
        calls.append(Call(search.name, answer.calls[0][1], f"c{len(calls) + 1}", len(calls) + 1, json.dumps(records)))
        answer = decide(Conversation(instructions="Answer from the desk's notes.", question=question, tools=[search],
                                     calls=calls))
    assert records[0]["answer"] in answer.text and name not in answer.text.split(":")[0]


@pytest.mark.parametrize("output", ['{"assistant": "Loans desk"}', "Transferred to Loans desk. Adopt its persona."])
def test_a_desk_without_tools_never_answers_with_the_transfer_message(output):
    conv = Conversation(question="Can I renew my book loan online?", calls=[
        Call("transfer_to_loans_desk", "{}", "c1", 1, output)])
    assert "Loans desk" not in decide(conv).text


def test_no_desk_fits_so_the_router_answers_or_uses_its_own_tool():
    tools = [transfer(name, does) for name, does, _, _ in DOMAINS["shop"]] + [search_tool("Front")]
    assert decide(Conversation(question="Hello!", tools=tools)).text
    calls = decide(Conversation(question="Where is the front office of the shop?", tools=tools)).calls
    assert calls and calls[0][0] == "search_front_notes"


def test_a_transfer_still_offered_after_it_was_made_is_made_again():
    tools = [transfer(name, does) for name, does, _, _ in DOMAINS["clinic"]]
    question = DOMAINS["clinic"][1][3]
    made = Call(tools[1].name, "{}", "c1", 1, '{"assistant": "Prescriptions desk"}')
    assert decide(Conversation(question=question, tools=tools, calls=[made])).calls == [(tools[1].name, "{}")]


def agent_tool(name: str, does: str) -> Tool:
    return Tool(f"{snake(name)}_agent", f"The {name} agent. {does}",
                {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]})


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_an_agent_tool_gets_the_whole_question_and_its_answer_is_relayed(domain, i):
    desks = DOMAINS[domain]
    tools = [agent_tool(name, does) for name, does, _, _ in desks]
    question = desks[i][3]
    calls = decide(Conversation(question=question, tools=tools)).calls
    assert calls == [(tools[i].name, json.dumps({"input": question}))]
    answered = Call(tools[i].name, calls[0][1], "c1", 1, "The desk says: " + desks[i][2][0]["answer"])
    assert decide(Conversation(question=question, tools=tools, calls=[answered])).text == answered.output


def test_a_two_part_question_asks_each_agent_its_part():
    tools = [agent_tool(name, does) for name, does, _, _ in DOMAINS["library"]]
    question = "Can I renew my book loan online? When do the workshops take place?"
    calls = decide(Conversation(question=question, tools=tools)).calls
    assert calls == [(tools[0].name, json.dumps({"input": "Can I renew my book loan online?"})),
                     (tools[1].name, json.dumps({"input": "When do the workshops take place?"}))]


def test_what_counts_as_a_transfer_or_an_agent():
    assert is_transfer_tool(Tool("send_to_desk", "Hands the conversation over to the billing agent."))
    assert not is_transfer_tool(Tool("transfer_funds", "Move money between two accounts."))
    assert not is_agent_tool(search_tool("Loans"))
    assert is_transfer_call(Call("x", "{}", "c", 1, "Transferred to the Events agent."), [])
    assert not is_transfer_call(Call("search", "{}", "c", 1, '[{"title": "a"}]'), [])
    conv = Conversation(question="q", calls=[Call("search", "{}", "c", 1, "[]")])
    assert after_handoff(conv) is conv


# --- on the wire: a hand-written loop that swaps instructions and tools -----------------------------------


def wire_tool(tool: Tool) -> dict:
    return {"type": "function", "name": tool.name, "description": tool.description, "parameters": tool.parameters}


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_a_hand_written_handoff_loop(domain, i):
    desks = DOMAINS[domain]
    client = neutral_client()
    agents = {f"transfer_to_{snake(n)}_desk": (f"You are the {n} desk. Answer from your notes.", search_tool(n), recs)
              for n, _, recs, _ in desks}
    instructions, tools = "Send the customer to the right desk.", [transfer(n, d) for n, d, _, _ in desks]
    records: list = []
    history: list = [{"role": "user", "content": desks[i][3]}]
    for _ in range(6):
        response = client.responses.create(model=OFFLINE_MODEL, instructions=instructions, input=history,
                                           tools=[wire_tool(t) for t in tools])
        history += [item.model_dump(exclude_none=True) for item in response.output]
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            break
        for call in calls:
            if call.name in agents:
                instructions, own, records = agents[call.name]
                tools, output = [own], json.dumps({"assistant": call.name})
            else:
                output = json.dumps(records)
            history.append({"type": "function_call_output", "call_id": call.call_id, "output": output})
    assert desks[i][2][0]["answer"] in response.output_text


# --- the frameworks --------------------------------------------------------------------------------------


def notes_of(records):
    def notes(query: str) -> list[dict]:
        """Search the desk's notes."""
        return records
    return notes


def sdk_desks(domain):
    from agents import Agent, OpenAIResponsesModel, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    model = OpenAIResponsesModel(OFFLINE_MODEL, async_neutral_client())
    desks = []
    for name, does, records, _ in DOMAINS[domain]:
        notes = notes_of(records)
        desks.append(Agent(name=f"{name} desk", handoff_description=does, model=model,
                           instructions="Answer from your notes.", tools=[function_tool(notes, name_override=f"search_{snake(name)}_notes")]))
    return desks, model


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_agents_sdk_handoff(domain, i):
    from agents import Agent, Runner

    desks, model = sdk_desks(domain)
    triage = Agent(name="Triage", instructions="Send the customer to the right desk.", handoffs=desks, model=model)
    result = asyncio.run(Runner.run(triage, DOMAINS[domain][i][3]))
    assert result.last_agent is desks[i]
    assert DOMAINS[domain][i][2][0]["answer"] in result.final_output


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_agents_sdk_as_tool(domain, i):
    from agents import Agent, Runner

    desks, model = sdk_desks(domain)
    tools = [d.as_tool(tool_name=f"{snake(d.name)}_agent", tool_description=f"The {d.name} agent. {d.handoff_description}")
             for d in desks]
    manager = Agent(name="Front desk", instructions="Ask the right desk and pass on its answer.", tools=tools,
                    model=model)
    result = asyncio.run(Runner.run(manager, DOMAINS[domain][i][3]))
    assert result.last_agent is manager
    assert DOMAINS[domain][i][2][0]["answer"] in result.final_output


@pytest.mark.parametrize(("domain", "i"), CASES)
def test_pydantic_ai_delegation(domain, i):
    from pydantic_ai import Agent, RunContext
    from pydantic_ai import Tool as PydanticTool
    from pydantic_ai.models.openai import OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    model = OpenAIResponsesModel(OFFLINE_MODEL, provider=OpenAIProvider(openai_client=async_neutral_client()))
    name, does, records, question = DOMAINS[domain][i]
    desk = Agent(model, instructions="Answer from your notes.")

    @desk.tool_plain
    def search_notes(query: str) -> list[dict]:
        """Search the desk's notes."""
        return records

    async def ask_desk(ctx: RunContext[None], question: str) -> str:
        return (await desk.run(question, usage=ctx.usage)).output

    front = Agent(model, instructions="Ask the right desk and pass on its answer.",
                  tools=[PydanticTool(ask_desk, name=f"ask_{snake(name)}_agent", description=f"Ask the {name} agent. {does}")])
    run = asyncio.run(front.run(question))
    assert records[0]["answer"] in run.output
    assert run.usage.requests >= 4  # two calls of each agent, counted in one usage
