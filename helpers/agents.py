"""Several agents in the course's own loop: handoffs, agents as tools, and one report of who did what.

What it does:
- `Agent`: a record of what makes an agent (a name, instructions, tools, a description of what it does, the
  agents it may hand the conversation to, the agents it may ask as tools);
- a handoff is a tool call: `Agent.schemas()` offers a `transfer_to_<name>` tool for each agent it can hand
  over to, described by that agent's description; `hand_over` answers the transfer call and swaps the
  instructions and tools, keeping the history (the step lesson 17's exercise writes);
- a handoff may carry an input filter: `handoff(agent, input_filter=...)` wraps an agent so that the history the
  specialist receives is first passed through a function of the messages (the course's equivalent of the
  Agents SDK's `handoff(input_filter=...)`); `remove_all_tools` and `only_the_question` are two such filters;
- an agent as a tool: `ask_tool` turns an agent into a function of one string (`input`) that runs that agent
  on it, in a loop of its own, and returns its answer: the caller stays in charge. That is context isolation:
  the sub-agent sees only its input, the caller sees only its answer;
- errors are tool outputs, never exceptions into the loop: a second transfer in one response is denied, a
  handoff whose filter fails leaves the conversation where it was, and an agent asked as a tool that cannot
  answer returns an error payload (`{"error": ..., "hint": ...}`, as helpers.tools does) the model can read;
- `measure`: one row of right answers, model calls, tokens and dollars for an agent over a fixed question set,
  so one agent and several can be compared on the same questions;
- `run_agents`: lesson 07's `AgentRun`, stepped one model call at a time, with the handoff applied between
  steps; `Ledger` records each model call under the agent that made it, and each handoff and question between
  agents, and `Ledger.report()` prints who called whom with tokens and dollars per agent (helpers.cost).

What it leaves out on purpose: handing back to the first agent automatically, guardrails, parallel agents,
pricing each agent's calls as another model (price_as is the run's, for all agents), and streaming. A
handoff here is one swap between two model calls, so the loop you wrote in lesson 04 stays visible.

Why it is over 400 lines: handoffs, their filters, agents as tools and the ledger are one mechanism (the
filter and the error payloads are applied in the same swap `take_over` makes), and lesson 17 reads them as one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from helpers.apis.adapter import CHAT, RESPONSES, flavour_of, role_of
from helpers.cost import CallRecord, format_usd
from helpers.loop import AgentRun, LoopResult, grouped
from helpers.tools import ToolError, Tools


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
    it does, for the agents that route to it), `handoffs` (agents it can hand the conversation to, each an
    Agent or a `handoff(agent, input_filter=...)`), `asks` (agents it can ask as tools) and `model` (the model
    its requests name, when it is not the run's: a cheaper one for a narrow specialist, say).

    Example:
        >>> Agent("FAQ agent", "Answer from the FAQ.", description="Answers questions about the course.").tool_names()
        []
    """

    name: str
    instructions: str
    tools: Tools = field(default_factory=Tools)
    description: str = ""
    handoffs: list[Agent | Handoff] = field(default_factory=list)
    asks: list[Agent] = field(default_factory=list)
    model: str | None = None  # the model this agent's requests name; None: the run's model

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
        return list(self.tools) + [a.transfer_name() for a in self.targets()] + [a.ask_name() for a in self.asks]

    def targets(self) -> list[Agent]:
        """The agents this one can hand the conversation to (a `handoff(...)` unwrapped to its agent).

        Example:
            >>> faq = Agent("FAQ agent", "...")
            >>> [a.name for a in Agent("Triage", "Route.", handoffs=[handoff(faq, input_filter=remove_all_tools)]).targets()]
            ['FAQ agent']
        """
        return [h.agent if isinstance(h, Handoff) else h for h in self.handoffs]

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
                        {}) for a in self.targets()]
        made += [_schema(a.ask_name(), f"Ask the {a.name} a question; it answers in text. {a.description}".strip(),
                         {"input": {"type": "string", "description": "The question for the agent"}})
                 for a in self.asks]
        return own + [flavour.function_tool(s) for s in made]


@dataclass
class Handoff:
    """A handoff to `agent` whose specialist receives `input_filter(messages)` instead of the whole history.
    Make one with `handoff(...)`; put it in an Agent's `handoffs` where an Agent would go.

    Example:
        >>> Handoff(Agent("FAQ agent", "..."), remove_all_tools).agent.name
        'FAQ agent'
    """

    agent: Agent
    input_filter: Callable[[list], list] | None = None


def handoff(agent: Agent, *, input_filter: Callable[[list], list] | None = None) -> Handoff:
    """A handoff to `agent` with an input filter: a function that takes the history (the messages so far, the
    transfer call and its output included) and returns the history the specialist reads. Named as the Agents
    SDK's `handoff(agent, input_filter=...)`, whose filter takes a HandoffInputData instead of a list.

    Example:
        >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
        >>> triage = Agent("Triage", "Route.", handoffs=[handoff(faq, input_filter=only_the_question)])
        >>> triage.tool_names()
        ['transfer_to_faq_agent']
    """
    return Handoff(agent, input_filter)


def remove_all_tools(messages: list) -> list:
    """An input filter: the history without tool traffic (every call, output and reasoning item; in Chat
    Completions the tool messages and the assistant turns that only called tools). The course's equivalent of
    the Agents SDK's `handoff_filters.remove_all_tools`. The specialist keeps what was said, not what was looked up.

    Example:
        >>> history = [{"role": "user", "content": "Hi"},
        ...            {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
        ...            {"type": "function_call_output", "call_id": "c1", "output": "[...]"},
        ...            {"role": "assistant", "content": "Found it."}]
        >>> [m.get("role") for m in remove_all_tools(history)]
        ['user', 'assistant']
    """
    kept = []
    for message in messages:
        if not isinstance(message, dict):  # the loop keeps dicts; anything else is passed on untouched
            kept.append(message)
            continue
        item = RESPONSES.without_tools(message)
        item = CHAT.without_tools(item) if item is not None else None
        if item is not None:
            kept.append(item)
    return kept


def only_the_question(messages: list) -> list:
    """An input filter: the latest user message alone (and a Chat Completions system message, which the handoff
    then replaces). The specialist starts fresh, as an agent asked as a tool does.

    Example:
        >>> only_the_question([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."},
        ...                    {"role": "user", "content": "When is homework 3 due?"}])
        [{'role': 'user', 'content': 'When is homework 3 due?'}]
    """
    system = [m for m in messages if role_of(m) == "system"][:1]
    users = [m for m in messages if role_of(m) == "user"]
    return system + users[-1:]


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


def hand_over(messages: list, call_id: str, current: Agent, target: Agent, api: str = "responses", *,
              input_filter: Callable[[list], list] | None = None):
    """The course's handoff (lesson 17's exercise): answer the transfer call, keep the whole history (or what
    `input_filter` keeps of it), and return (messages, instructions, schemas) for `target`'s first request.
    `current` is the agent handing over. A filter that fails raises here: `run_agents` turns that into an
    error output instead.

    Example:
        >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
        >>> msgs, instructions, schemas = hand_over([{"role": "user", "content": "Hi"}], "c1", Agent("Triage",
        ...     "Route.", handoffs=[faq]), faq)
        >>> len(msgs), instructions, schemas
        (2, 'Answer from the FAQ.', [])
        >>> hand_over([{"role": "user", "content": "Hi"}], "c1", Agent("Triage", "Route."), faq,
        ...           input_filter=remove_all_tools)[0]
        [{'role': 'user', 'content': 'Hi'}]
    """
    messages = [*messages, flavour_of(api).tool_output(call_id, transfer_output(target))]
    if input_filter is not None:
        messages = _filtered(input_filter, messages, target)
    return _swapped(messages, target, api), target.instructions, target.schemas(api)


def _filtered(input_filter, messages: list, target: Agent) -> list:
    """The filter's history, checked: a list of messages, or a ValueError saying what came back."""
    kept = input_filter(list(messages))
    if not isinstance(kept, list) or not all(isinstance(m, dict) for m in kept):
        raise ValueError(f"the input filter of the handoff to {target.name} returned {type(kept).__name__}, "
                         "not a list of messages")
    return kept


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
    run = AgentRun(client, agent.model or model, question, _callables(agent, client, model, api, ledger, options),
                   api=api,
                   instructions=agent.instructions, schemas=agent.schemas(api), **options)
    current = agent
    while True:
        made, seen = len(run.calls), len(run.tool_calls)
        stopped = run.step()  # lesson 07's step, unchanged: one model call and the tools it asked for
        ledger.calls += [(current.name, record) for record in run.calls[made:]]
        if stopped:
            break
        current = take_over(run, current, seen, functions=lambda a: _callables(a, client, model, api, ledger,
                                                                               options), ledger=ledger, model=model)
    assert run.result is not None
    return MultiResult(run.result, current, ledger)


def handed_to(current: Agent, tool_calls: list[dict]) -> Agent | None:
    """The agent a transfer among `tool_calls` (AgentRun.tool_calls records) hands the conversation to, if any.

    Example:
        >>> faq = Agent("FAQ agent", "...")
        >>> handed_to(Agent("Triage", "...", handoffs=[faq]), [{"name": "transfer_to_faq_agent"}]).name
        'FAQ agent'
    """
    return next((a for call in tool_calls for a in current.targets() if call["name"] == a.transfer_name()), None)


def _edge(current: Agent, name: str) -> tuple[Agent, Callable | None] | None:
    """The target and input filter of `current`'s handoff whose transfer tool is `name`, if it has one."""
    for h in current.handoffs:
        agent, input_filter = (h.agent, h.input_filter) if isinstance(h, Handoff) else (h, None)
        if agent.transfer_name() == name:
            return agent, input_filter
    return None


def take_over(run: AgentRun, current: Agent, seen: int, *, functions, ledger: Ledger | None = None,
              model: str | None = None) -> Agent:
    """After a step of `run`: when a tool call since the `seen`-th was a transfer (its output is in already),
    swap the run's instructions, schemas and tools (`functions(agent)` makes its tools' functions) for the new
    agent's, keeping the history (or what the handoff's input filter keeps), and the model for the new agent's
    (its `model`, else `model`, the run's, else the one in use). Returns the agent that now has the conversation.

    The model reads an error output, and nothing raises into the loop, when a transfer cannot be made: a
    second transfer in one response is denied (the first one wins, as in the Agents SDK), and a handoff whose
    input filter fails is not made (the conversation stays with `current`, and that transfer is not offered
    again in this run).

    Example:
        >>> from helpers.offline import neutral_client
        >>> faq = Agent("FAQ agent", "Answer from the FAQ.")
        >>> run = AgentRun(neutral_client(), "m", "Hi", {}, instructions="Route.")
        >>> run.tool_calls.append({"name": "transfer_to_faq_agent"})
        >>> take_over(run, Agent("Triage", "Route.", handoffs=[faq]), 0, functions=lambda a: {}).name, run.instructions
        ('FAQ agent', 'Answer from the FAQ.')
    """
    made = [(i, _edge(current, call["name"])) for i, call in enumerate(run.tool_calls) if i >= seen]
    transfers = [(i, edge) for i, edge in made if edge is not None]
    if not transfers:
        return current
    (first, (target, input_filter)), denied = transfers[0], transfers[1:]
    for i, (other, _) in denied:
        _answer_again(run, seen, i, ToolError(
            f"handoff to {other.name} denied: this response already handed the conversation to {target.name}",
            f"Only one handoff per response. {target.name} now has the conversation.").payload())
    history = list(run.messages)
    if input_filter is not None:
        try:
            history = _filtered(input_filter, history, target)
        except Exception as e:  # noqa: BLE001 - a broken filter is news for the model, not a reason to stop the loop
            _answer_again(run, seen, first, ToolError(
                f"handoff to {target.name} failed: {type(e).__name__}: {e}",
                f"The conversation stays with {current.name}. Answer the user yourself, or try another agent.",
            ).payload())
            if ledger is not None:
                ledger.event(current.name, "could not hand over to", target.name)
            # Not offered again in this run: a model that retried a broken handoff would loop to the cap.
            run.schemas = [s for s in run.schemas if _tool_name(s) != target.transfer_name()]
            run.tools = {name: f for name, f in run.tools.items() if name != target.transfer_name()}
            return current
    if ledger is not None:
        ledger.event(current.name, "hands over to", target.name)
    run.messages[:] = _swapped(history, target, run.api)
    run.instructions, run.schemas, run.tools = target.instructions, target.schemas(run.api), functions(target)
    run.model = target.model or model or run.model  # an agent with no model of its own gets the run's
    return target


def _tool_name(schema: dict) -> str:
    return schema.get("name") or (schema.get("function") or {}).get("name") or ""


def _answer_again(run: AgentRun, seen: int, index: int, text: str) -> None:
    """Replace the output of the run's `index`-th tool call (one of this step's, from `seen` on) with `text`."""
    # The step appended one output per call, in order, at the end of the history.
    outputs = [(i, found[0]) for i, m in enumerate(run.messages) if (found := run.flavour.item_output(m))]
    position, call_id = outputs[len(outputs) - (len(run.tool_calls) - index)]
    run.messages[position] = run.flavour.tool_output(call_id, text)
    run.tool_calls[index] = {**run.tool_calls[index], "output": text}


def _swapped(messages: list, target: Agent, api: str) -> list:
    """For Chat Completions, the system message becomes the new agent's instructions (one is put first if an
    input filter dropped it)."""
    if flavour_of(api).sends_instructions:
        return messages
    system = {"role": "system", "content": target.instructions}
    if not any(role_of(m) == "system" for m in messages):
        return [system, *messages]
    return [system if role_of(m) == "system" else m for m in messages]


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
    for other in agent.targets():
        functions[other.transfer_name()] = _transfer_function(other)
    for other in agent.asks:
        # The asked agent starts from its input alone: the caller's hooks and history stay with the caller.
        functions[other.ask_name()] = ask_tool(other, client, model, api=api, ledger=ledger, caller=agent.name,
                                               **{k: v for k, v in options.items() if k not in ("hooks", "messages")})
    return functions


def _transfer_function(target: Agent):
    def transfer() -> str:
        return transfer_output(target)
    return transfer


def ask_tool(agent: Agent, client, model: str, *, api: str = "responses", ledger: Ledger | None = None,
             caller: str = "user", **options):
    """`agent` as a function of one string: it runs the agent on `input` in a loop of its own and returns its
    answer (the tool output the caller reads). Its model calls go into `ledger` under its own name.

    Context isolation both ways: the agent reads only `input` (not the caller's history), and the caller reads
    only the answer (not the agent's searches). When the agent cannot answer (its run stopped on an API error,
    a budget or the iteration cap with no text, or raised), the output is an error payload saying so.

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
        try:
            run = run_agents(client, model, input, agent, api=api, ledger=ledger, **options)
        except Exception as e:  # noqa: BLE001 - the caller's model reads what went wrong; its loop goes on
            return _could_not_answer(agent, f"{type(e).__name__}: {e}")
        if run.result.stop_reason == "error" or not run.answer.strip():
            return _could_not_answer(agent, run.result.error or f"its run stopped ({run.result.stop_reason}) "
                                     "with no answer")
        return run.answer
    return ask


def _could_not_answer(agent: Agent, why: str) -> str:
    return ToolError(f"the {agent.name} could not answer: {why}",
                     "Answer from what you have, ask another agent, or tell the user this part is unanswered."
                     ).payload()


def measure(client, model: str, agent: Agent, cases: list[tuple[str, str]], *, api: str = "responses",
            **options) -> dict:
    """Run `agent` on each (question, expected) of `cases` and count: right answers (those containing the
    `expected` text, e.g. the id of the entry that answers it), model calls, input tokens (and how many of
    them the provider reported as cached, billed cheaper), tokens and dollars
    (helpers.cost; pass price_as=... for a model without a price). `options` are run_agents' (messages=...
    continues an earlier conversation). One row of a comparison: run it for each design on the same cases.

    Example:
        >>> from helpers.offline import neutral_client
        >>> def notes(query: str) -> list:
        ...     "Search the events desk's notes."
        ...     return [{"id": "e1", "title": "When the book club meets", "answer": "On Mondays."}]
        >>> events = Agent("Events agent", "Answer from your notes.", Tools(notes))
        >>> row = measure(neutral_client(), "offline-rules-v1", events, [("When does the book club meet?", "[e1]")])
        >>> row["right answers"], row["model calls"]
        ('1/1', 2)
    """
    ledger, right = Ledger(), 0
    for question, expected in cases:
        run = run_agents(client, model, question, agent, api=api, ledger=ledger, **options)
        right += expected in run.answer
    records = [record for _, record in ledger.calls]
    costs = [r.cost_usd for r in records]
    return {"right answers": f"{right}/{len(cases)}", "model calls": len(records),
            "input tokens": sum(r.input_tokens for r in records),
            "cached input": sum(r.cached_input_tokens for r in records), "tokens": sum(r.total_tokens for r in records),
            "cost": format_usd(None if None in costs else sum(c for c in costs if c is not None))}
