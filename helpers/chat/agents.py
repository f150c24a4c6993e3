"""A chat session with several agents: lesson 10's ChatSession running a helpers.agents.Agent (lesson 17).

`AgentChatSession` offers the agent's tools (its own, a transfer per handoff, an ask per agent it asks) and
applies a handoff between two steps, as `helpers.agents.run_agents` does; a follow-up question goes on with the
agent that answered last. Show it in `ChatWidget(session, labels=...)`: the widget names the agent that speaks
(helpers.chat.speakers).

What it leaves out on purpose: a per-agent ledger (the session's meter counts every call), handing back to
the first agent on its own (give the specialist a handoff to it), and the first agent's own `model` (the
session starts on the model it is given; a specialist with a `model` of its own gets it after a handoff).
"""

from __future__ import annotations

from helpers.agents import Agent, agent_functions, take_over
from helpers.chat.ui import ChatSession


class AgentChatSession(ChatSession):
    """A chat session with a helpers.agents.Agent: its instructions and tools, and its handoffs applied between
    steps; a follow-up question goes on with the agent that answered last. `agent_name` is who speaks first.

    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.tools import Tools
        >>> def notes(query: str) -> list:
        ...     "Search the events desk's notes."
        ...     return [{"id": "e1", "title": "When the book club meets", "answer": "On Mondays."}]
        >>> events = Agent("Events agent", "Answer from your notes.", Tools(notes), "Knows the book club.")
        >>> chat = AgentChatSession(neutral_client(), "offline-rules-v1", Agent("Triage", "Route.", handoffs=[events]))
        >>> chat.send("When does the book club meet?").text, chat.agent.name
        ('According to "When the book club meets" [e1]: On Mondays.', 'Events agent')
    """

    def __init__(self, client, model: str, agent: Agent, *, api: str = "responses", **options):
        self.first, self.agent = agent, agent
        self._functions = lambda a: agent_functions(a, client, model, api)
        super().__init__(client, model, self._functions(agent), schemas=agent.schemas(api),
                         instructions=agent.instructions, api=api, **options)

    @property
    def agent_name(self) -> str:
        """The name of the agent who speaks first in this conversation."""
        return self.first.name

    def reset(self) -> None:
        """Forget the conversation; the first agent has it again."""
        super().reset()
        self._use(self.first)

    def step(self) -> bool:
        """One step of ChatSession's loop, then the handoff, if the model called a transfer tool."""
        run, seen = self.run, len(self.run.tool_calls) if self.run is not None else 0
        done = super().step()
        if run is not None:
            self._use(take_over(run, self.agent, seen, functions=self._functions))
        return done

    def _use(self, agent: Agent) -> None:
        # The next question starts with this agent's instructions and tools (the history stays).
        self.agent = agent
        if hasattr(self, "_functions"):
            self.tools, self.instructions = self._functions(agent), agent.instructions
            self.schemas = agent.schemas(self.api)
            if self.messages and isinstance(self.messages[0], dict) and self.messages[0].get("role") == "system":
                self.messages[0] = {"role": "system", "content": agent.instructions}  # Chat Completions
