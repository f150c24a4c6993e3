"""Several agents in the course's own loop: handoffs, agents as tools, and one report of who did what.

What it does:
- `Agent`: a record of what makes an agent (a name, instructions, tools, a description of what it does, the
  agents it may hand the conversation to, the agents it may ask as tools);
- a handoff is a tool call: `Agent.schemas()` offers a `transfer_to_<name>` tool for each agent it can hand
  over to, described by that agent's description; `hand_over` answers the transfer call and swaps the
  instructions and tools, keeping the history (the step lesson 17's exercise writes);
- an agent as a tool: `ask_tool` turns an agent into a function of one string (`input`) that runs that agent
  on it, in a loop of its own, and returns its answer: the caller stays in charge;
- `run_agents`: lesson 07's `AgentRun`, stepped one model call at a time, with the handoff applied between
  steps; `Ledger` records each model call under the agent that made it, and each handoff and question between
  agents, and `Ledger.report()` prints who called whom with tokens and dollars per agent (helpers.cost).

What it leaves out on purpose: handing back to the first agent automatically, guardrails, parallel agents,
filtering the history a specialist sees (the Agents SDK's `input_filter`), and streaming. A handoff here is
one swap between two model calls, so the loop you wrote in lesson 04 stays visible.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pandas as pd

from helpers.apis.adapter import flavour_of, role_of
from helpers.cost import CallRecord, format_usd
from helpers.loop import AgentRun, LoopResult, grouped
from helpers.tools import Tools


def snake(name: str) -> str:
    """A name as a tool name: lower case, words joined by "_" (as the Agents SDK writes it).

    Example:
        >>> snake("Deadlines agent")
        'deadlines_agent'
    """
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass
class Agent:
    """An agent: `name`, `instructions`, `tools` (a helpers.tools.Tools registry, lesson 09), `description` (what
    it does, for the agents that route to it), `handoffs` (agents it can hand the conversation to) and
    `asks` (agents it can ask as tools).

    Example:
        >>> Agent("FAQ agent", "Answer from the FAQ.", description="Answers questions about the course.").tool_names()
        []
    """

    name: str
    instructions: str
    tools: Tools = field(default_factory=Tools)
    description: str = ""
    handoffs: list[Agent] = field(default_factory=list)
    asks: list[Agent] = field(default_factory=list)

    def transfer_name(self) -> str:
        """The name of the tool that hands the conversation to this agent.

        Example:
            >>> Agent("Deadlines agent", "...").transfer_name()
            'transfer_to_deadlines_agent'
        """
        return f"transfer_to_{snake(self.name)}"

    def ask_name(self) -> str:
        """The name of the tool that asks this agent a question.

        Example:
            >>> Agent("Deadlines", "...").ask_name()
            'ask_deadlines_agent'
        """
        name = snake(self.name)
        return f"ask_{name}" if name.endswith("agent") else f"ask_{name}_agent"

    def tool_names(self) -> list[str]:
        """Every tool this agent offers: its own, a transfer per handoff, an ask per agent it asks.

        Example:
            >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
            >>> Agent("Triage", "Route.", handoffs=[faq]).tool_names()
            ['transfer_to_faq_agent']
        """
        return list(self.tools) + [a.transfer_name() for a in self.handoffs] + [a.ask_name() for a in self.asks]

    def schemas(self, api: str = "responses") -> list[dict]:
        """The tool schemas of one request of this agent, in the API flavour `api`.

        Example:
            >>> faq = Agent("FAQ agent", "...", description="Answers questions about the course.")
            >>> Agent("Triage", "Route.", handoffs=[faq]).schemas()[0]["description"]
            'Hand the conversation over to the FAQ agent. Answers questions about the course.'
        """
        flavour = flavour_of(api)
        own = flavour.schemas(self.tools) if len(self.tools) else []
        made = [_schema(a.transfer_name(), f"Hand the conversation over to the {a.name}. {a.description}".strip(),
                        {}) for a in self.handoffs]
        made += [_schema(a.ask_name(), f"Ask the {a.name} a question; it answers in text. {a.description}".strip(),
                         {"input": {"type": "string", "description": "The question for the agent"}})
                 for a in self.asks]
        return own + [flavour.function_tool(s) for s in made]


def _schema(name: str, description: str, properties: dict) -> dict:
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "properties": properties, "required": list(properties),
                           "additionalProperties": False}}


def transfer_output(agent: Agent) -> str:
    """The output a transfer call gets: which agent now has the conversation (the Agents SDK's wording).

    Example:
        >>> transfer_output(Agent("FAQ agent", "..."))
        '{"assistant": "FAQ agent"}'
    """
    return json.dumps({"assistant": agent.name})


def hand_over(messages: list, call_id: str, current: Agent, target: Agent, api: str = "responses"):
    """The course's handoff (lesson 17's exercise): answer the transfer call, keep the whole history, and
    return (messages, instructions, schemas) for `target`'s first request. `current` is the agent handing over.

    Example:
        >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
        >>> msgs, instructions, schemas = hand_over([{"role": "user", "content": "Hi"}], "c1", Agent("Triage",
        ...     "Route.", handoffs=[faq]), faq)
        >>> len(msgs), instructions, schemas
        (2, 'Answer from the FAQ.', [])
    """
    messages = [*messages, flavour_of(api).tool_output(call_id, transfer_output(target))]
    return _swapped(messages, target, api), target.instructions, target.schemas(api)


@dataclass
class Ledger:
    """What happened in a multi-agent run: each model call under the agent that made it (`calls`: (agent,
    CallRecord)), and each handoff and question between agents (`events`: (from, kind, to)).

    Example:
        >>> ledger = Ledger()
        >>> ledger.event("Triage", "hands over to", "FAQ agent")
        >>> ledger.who_called_whom()
        ['Triage hands over to FAQ agent']
    """

    calls: list[tuple[str, CallRecord]] = field(default_factory=list)
    events: list[tuple[str, str, str]] = field(default_factory=list)

    def event(self, source: str, kind: str, target: str) -> None:
        """Record a handoff or a question from one agent to another. Example:
        >>> Ledger().event("Triage", "asks", "FAQ agent")
        """
        self.events.append((source, kind, target))

    def who_called_whom(self) -> list[str]:
        """The handoffs and questions, in order, one line each. Example:
        >>> Ledger(events=[("A", "asks", "B")]).who_called_whom()
        ['A asks B']
        """
        return [" ".join(e) for e in self.events]

    def table(self) -> pd.DataFrame:
        """Model calls, tokens and dollars per agent, and a total row. An agent that asked others is listed
        after them: its call is recorded once the tools it asked for have run.

        Example:
            >>> record = CallRecord(model="m", provider="offline", api="responses", input_tokens=90,
            ...                     output_tokens=10, total_tokens=100, cost_usd=0.001)
            >>> int(Ledger(calls=[("A", record), ("B", record), ("A", record)]).table().loc["A", "tokens"])
            200
        """
        rows: dict[str, dict] = {}
        for agent, record in self.calls:
            row = rows.setdefault(agent, {"model calls": 0, "input tokens": 0, "output tokens": 0, "tokens": 0,
                                          "cost": 0.0})
            row["model calls"] += 1
            row["input tokens"] += record.input_tokens
            row["output tokens"] += record.output_tokens
            row["tokens"] += record.total_tokens
            row["cost"] = None if row["cost"] is None or record.cost_usd is None else row["cost"] + record.cost_usd
        table = pd.DataFrame.from_dict(rows, orient="index")
        if not rows:
            return table
        total = table.drop(columns="cost").sum().to_dict()
        costs = list(table["cost"])
        total["cost"] = None if any(c is None for c in costs) else sum(costs)
        table.loc["total"] = total
        return table.astype({c: int for c in table.columns if c != "cost"})

    def report(self) -> str:
        """Who called whom, then the table with dollars written out (helpers.cost.format_usd).

        Example:
            >>> record = CallRecord(model="m", provider="offline", api="responses", total_tokens=100, cost_usd=0.001)
            >>> print(Ledger(calls=[("A", record)], events=[("A", "asks", "B")]).report())
            A asks B
            <BLANKLINE>
                   model calls  input tokens  output tokens  tokens   cost
            A                1             0              0     100  $0.001
            total            1             0              0     100  $0.001
        """
        table = self.table()
        if "cost" in table:
            table["cost"] = [format_usd(c) for c in table["cost"]]
        lines = self.who_called_whom() or ["(no handoffs, no agent asked another)"]
        return "\n".join(lines) + "\n\n" + table.to_string()


@dataclass
class MultiResult:
    """A multi-agent run: the loop's result (answer, messages, stop reason), the agent that answered, the ledger.

    Example:
        >>> MultiResult(LoopResult("Hi", [], "answered", 1), Agent("A", "..."), Ledger()).answer
        'Hi'
    """

    result: LoopResult
    last_agent: Agent
    ledger: Ledger

    @property
    def answer(self) -> str:
        return self.result.answer


def run_agents(client, model: str, question: str, agent: Agent, *, api: str = "responses",
               ledger: Ledger | None = None, **options) -> MultiResult:
    """Run `agent` on `question` in lesson 07's loop, handing the conversation over whenever the model calls a
    transfer tool. `options` are agent_loop's (max_iterations, verbose, trace, price_as, ...).

    Example:
        >>> from helpers.offline import neutral_client
        >>> def notes(query: str) -> list:
        ...     "Search the loans desk's notes."
        ...     return [{"id": "n1", "title": "Renewing a book loan", "answer": "Renew twice online."}]
        >>> loans = Agent("Loans agent", "Answer from your notes.", Tools(notes), "Renews book loans.")
        >>> triage = Agent("Triage", "Hand the conversation to the right agent.", handoffs=[loans])
        >>> run = run_agents(neutral_client(), "offline-rules-v1", "Can I renew my book loan?", triage, verbose=False)
        >>> run.last_agent.name, run.ledger.who_called_whom()
        ('Loans agent', ['Triage hands over to Loans agent'])
    """
    ledger = ledger if ledger is not None else Ledger()
    options = grouped({"verbose": False, **options})
    run = AgentRun(client, model, question, _callables(agent, client, model, api, ledger, options), api=api,
                   instructions=agent.instructions, schemas=agent.schemas(api), **options)
    current = agent
    while True:
        made, seen = len(run.calls), len(run.tool_calls)
        stopped = run.step()  # lesson 07's step, unchanged: one model call and the tools it asked for
        ledger.calls += [(current.name, record) for record in run.calls[made:]]
        if stopped:
            break
        current = take_over(run, current, seen, functions=lambda a: _callables(a, client, model, api, ledger,
                                                                               options), ledger=ledger)
    assert run.result is not None
    return MultiResult(run.result, current, ledger)


def handed_to(current: Agent, tool_calls: list[dict]) -> Agent | None:
    """The agent a transfer among `tool_calls` (AgentRun.tool_calls records) hands the conversation to, if any.

    Example:
        >>> faq = Agent("FAQ agent", "...")
        >>> handed_to(Agent("Triage", "...", handoffs=[faq]), [{"name": "transfer_to_faq_agent"}]).name
        'FAQ agent'
    """
    return next((a for call in tool_calls for a in current.handoffs if call["name"] == a.transfer_name()), None)


def take_over(run: AgentRun, current: Agent, seen: int, *, functions, ledger: Ledger | None = None) -> Agent:
    """After a step of `run`: when a tool call since the `seen`-th was a transfer (its output is in already),
    swap the run's instructions, schemas and tools (`functions(agent)` makes its tools' functions) for the new
    agent's, keeping the history. Returns the agent that now has the conversation.

    Example:
        >>> from helpers.offline import neutral_client
        >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
        >>> run = AgentRun(neutral_client(), "m", "Hi", {}, instructions="Route.")
        >>> run.tool_calls.append({"name": "transfer_to_faq_agent"})
        >>> take_over(run, Agent("Triage", "Route.", handoffs=[faq]), 0, functions=lambda a: {}).name, run.instructions
        ('FAQ agent', 'Answer from the FAQ.')
    """
    target = handed_to(current, run.tool_calls[seen:])
    if target is None:
        return current
    if ledger is not None:
        ledger.event(current.name, "hands over to", target.name)
    run.messages[:] = _swapped(run.messages, target, run.api)
    run.instructions, run.schemas, run.tools = target.instructions, target.schemas(run.api), functions(target)
    return target


def _swapped(messages: list, target: Agent, api: str) -> list:
    """For Chat Completions, the system message becomes the new agent's instructions."""
    if flavour_of(api).sends_instructions:
        return messages
    return [{"role": "system", "content": target.instructions} if role_of(m) == "system" else m for m in messages]


def agent_functions(agent: Agent, client, model: str, api: str = "responses", ledger: Ledger | None = None,
                    **options) -> dict:
    """The functions behind an agent's tools: its own, a transfer per handoff, an ask per agent it asks.

    Example:
        >>> sorted(agent_functions(Agent("Triage", "...", handoffs=[Agent("FAQ agent", "...")]), None, "m"))
        ['transfer_to_faq_agent']
    """
    return _callables(agent, client, model, api, ledger if ledger is not None else Ledger(), grouped(options))


def _callables(agent: Agent, client, model: str, api: str, ledger: Ledger, options: dict) -> dict:
    """The functions behind an agent's tools: its own, its transfers, its asks."""
    functions: dict = {name: agent.tools[name] for name in agent.tools}
    for other in agent.handoffs:
        functions[other.transfer_name()] = _transfer_function(other)
    for other in agent.asks:
        functions[other.ask_name()] = ask_tool(other, client, model, api=api, ledger=ledger, caller=agent.name,
                                               **{k: v for k, v in options.items() if k != "hooks"})
    return functions


def _transfer_function(target: Agent):
    def transfer() -> str:
        return transfer_output(target)
    return transfer


def ask_tool(agent: Agent, client, model: str, *, api: str = "responses", ledger: Ledger | None = None,
             caller: str = "user", **options):
    """`agent` as a function of one string: it runs the agent on `input` in a loop of its own and returns its
    answer (the tool output the caller reads). Its model calls go into `ledger` under its own name.

    Example:
        >>> from helpers.offline import neutral_client
        >>> def notes(query: str) -> list:
        ...     "Search the events desk's notes."
        ...     return [{"id": "e1", "title": "When the book club meets", "answer": "On Mondays."}]
        >>> events = Agent("Events agent", "Answer from your notes.", Tools(notes))
        >>> ask_tool(events, neutral_client(), "offline-rules-v1")(input="When does the book club meet?")
        'According to "When the book club meets" [e1]: On Mondays.'
    """
    ledger = ledger if ledger is not None else Ledger()

    def ask(input: str) -> str:  # noqa: A002 - "input" is the parameter name the Agents SDK's as_tool uses
        ledger.event(caller, "asks", agent.name)
        run = run_agents(client, model, input, agent, api=api, ledger=ledger, **options)
        return run.answer
    return ask
