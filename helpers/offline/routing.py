"""Routing between agents: which agent a question goes to, and what the agent it went to answers.

Two kinds of tool lead to another agent:
- a *transfer* (a handoff): the conversation goes over to the other agent, which answers the user from then
  on. Frameworks name it `transfer_to_<agent>` and describe it ("Handoff to the X agent to handle the
  request. <what X does>"); any tool whose description says it hands the conversation over to, transfers
  it to or delegates it to an agent counts too;
- an *agent tool*: one string input, the tool named or described as an agent (an assistant, a specialist).
  The caller keeps the conversation and gets the other agent's answer back as the tool's output.

The rules:
1. `route`: among the routing tools offered, the one whose name and description share most words with the
   question (the topic word-matching of instructions/topic.py, rare words weighing most) is called, from
   NAMED_SHARE of the question's weight on. When none reaches it, or one of the agent's own tools fits the
   question better, there is no routing: the agent uses its own tools or answers.
   - A transfer is called with no arguments (or those the question fills, arguments.py).
   - An agent tool gets the user's question, whole. When the question has several parts and different
     agent tools fit different parts, each gets its part, all in one response.
2. After an agent tool answered, its answer is the answer (relayed as it is).
3. `after_handoff`: once a transfer has been made and its tool is no longer offered, the conversation
   belongs to the agent it went to. The transfer call and its output ("{'assistant': 'X'}", "Transferred to
   X") are no result to answer from: they are taken out of the turn, and the new agent answers the user's
   question with its own instructions and tools (search with the question's keywords, and so on).
4. A transfer made while its tool is still offered means the conversation was not handed over (the same
   agent is still running with the same tools): the model routes again, the same way, every turn, the way
   a router loops until a turn cap when the handoff never happens.

What it leaves out on purpose: judgement. A real model routes by meaning ("my parcel never came" goes to
shipping though it shares no word with "Tracks deliveries"); these rules need a shared word. A tool whose
description merely mentions an agent ("Search the travel agent directory") is taken for an agent tool. A
real model may also ask the user which desk they mean; these rules never ask.
"""

from __future__ import annotations

import re
from dataclasses import replace

from helpers.offline.arguments import entities_for, fill_arguments, required_string_params
from helpers.offline.conversation import Call, Conversation, Decision, Tool, read_output, to_json
from helpers.offline.instructions.topic import NAMED_SHARE, Topic, share
from helpers.offline.knowledge import Vocabulary
from helpers.offline.text import content_words, word_list

# Words about routing itself, not about what an agent does: they never make a question fit an agent.
ROUTING_WORDS = frozenset(word_list("""
transfer transfers transferred transferring handoff handoffs hand hands handed handing off over delegate
delegates delegated delegating route routes routing agent agents subagent specialist specialists assistant
handle handles handling conversation desk team call calls tool ask asks consult consults
"""))
_TRANSFER_NAME = re.compile(r"^(?:transfer|handoff|hand_off|handover|hand_over|delegate|route|switch)_to_", re.I)
_TRANSFER_TEXT = re.compile(r"\b(?:hand(?:s|ing|ed)?\b[^.]{0,40}?\b(?:off|over)|handoff|transfer(?:s|red|ring)?|"
                            r"delegat(?:e|es|ed|ing)|pass(?:es)?\s+the\s+conversation)\b[^.]*?"
                            r"\b(?:agent|assistant|specialist|desk|team)\b", re.I)
_AGENT_WORDS = re.compile(r"\b(?:agent|sub-?agent|specialist|assistant)s?\b", re.I)
# A transfer's output as frameworks word it: the Agents SDK's {"assistant": "X"}, "Transferred to X".
_TRANSFER_OUTPUT = re.compile(r"^\s*(?:transferred|handed (?:off|over)|handoff|handing (?:off|over))\b.{0,120}\bto\b",
                              re.I | re.S)
# Where one question holds several requests: sentences, or "..., and when ...".
_PARTS = re.compile(r"(?<=[.?!;])\s+|,?\s+\band\s+(?=(?:what|when|where|who|how|why|which|can|could|is|are|do|"
                    r"does|did|will|would|should|may|i|my)\b)", re.I)


def is_transfer_tool(tool: Tool) -> bool:
    """True for a tool that hands the conversation to another agent (a handoff).

    Example:
        >>> is_transfer_tool(Tool("transfer_to_billing_desk", "Handoff to the Billing agent to handle the request."))
        True
        >>> is_transfer_tool(Tool("transfer_funds", "Move money between two accounts."))
        False
    """
    return bool(_TRANSFER_NAME.match(tool.name) or _TRANSFER_TEXT.search(tool.description or ""))


def is_agent_tool(tool: Tool) -> bool:
    """True for another agent offered as a tool: one string input, the tool named or described as an agent.

    Example:
        >>> is_agent_tool(Tool("loans_agent", "Answers questions about book loans.",
        ...               {"properties": {"input": {"type": "string"}}, "required": ["input"]}))
        True
    """
    if is_transfer_tool(tool):
        return False
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or list(props)
    if len(required_string_params(tool)) != 1 or len(required) != 1:
        return False
    return bool(_AGENT_WORDS.search(tool.name.replace("_", " ")) or _AGENT_WORDS.search(tool.description or ""))


def is_routing_tool(tool: Tool) -> bool:
    """A transfer or an agent tool.

    Example:
        >>> is_routing_tool(Tool("transfer_to_events", "Handoff to the Events agent."))
        True
    """
    return is_transfer_tool(tool) or is_agent_tool(tool)


def is_transfer_call(call: Call, offered: list[Tool]) -> bool:
    """True for a call that handed the conversation over: a transfer tool's call, or a call whose output reads
    like a transfer's (`{"assistant": "X"}`, "Transferred to X") when its tool is no longer offered.

    Example:
        >>> is_transfer_call(Call("transfer_to_events", "{}", "c1", 1, '{"assistant": "Events"}'), [])
        True
    """
    tool = next((t for t in offered if t.name == call.name), None)
    if tool is not None:
        return is_transfer_tool(tool)
    if _TRANSFER_NAME.match(call.name):
        return True
    data = read_output(call.output or "")
    if isinstance(data, dict) and set(data) == {"assistant"}:
        return True
    return isinstance(data, str) and bool(_TRANSFER_OUTPUT.match(data))


def after_handoff(conv: Conversation) -> Conversation:
    """The conversation as the agent it was handed to reads it: the transfers of this turn whose tools are no
    longer offered are taken out (rule 3). Unchanged when there was no handoff.

    Example:
        >>> conv = Conversation(question="When does the book club meet?", calls=[
        ...     Call("transfer_to_events", "{}", "c1", 1, '{"assistant": "Events"}')])
        >>> after_handoff(conv).calls
        []
    """
    offered = {t.name for t in conv.tools}
    kept = [c for c in conv.calls if c.name in offered or not is_transfer_call(c, conv.tools)]
    if len(kept) == len(conv.calls):
        return conv
    return replace(conv, calls=kept)


def _topic(tool: Tool) -> Topic:
    """What a routing tool is about: the words of its name and description, without the routing words."""
    text = f"{tool.name.replace('_', ' ')}. {tool.description or ''}"
    found = [w for w in content_words(text) if w not in ROUTING_WORDS]
    return Topic(tool.name, tuple(dict.fromkeys(found)), ())


def fit(question: str, tool: Tool, vocab: Vocabulary | None = None) -> float:
    """How much of the question a tool's name and description cover (instructions/topic.share).

    Example:
        >>> fit("How do I renew a loan?", Tool("transfer_to_loans", "Handoff to the Loans agent. Renews loans."))
        0.6666666666666666
    """
    return share(question, _topic(tool), vocab)


def route(conv: Conversation, tools: list[Tool], vocab: Vocabulary | None = None) -> Decision | None:
    """The routing step (rules 1, 2 and 4), or None when the question goes to no other agent.

    Example:
        >>> loans = Tool("transfer_to_loans_desk", "Handoff to the Loans desk agent. Renews and extends book loans.")
        >>> events = Tool("transfer_to_events_desk", "Handoff to the Events desk agent. Knows readings and clubs.")
        >>> route(Conversation(question="Can I renew my book loan?", tools=[loans, events]), [loans, events]).calls
        [('transfer_to_loans_desk', '{}')]
    """
    routers = [t for t in tools if is_routing_tool(t)]
    if not routers:
        return None
    names = {t.name: t for t in routers}
    mine = [c for c in conv.calls if c.name in names]
    transfers = [c for c in mine if is_transfer_tool(names[c.name])]
    if transfers:  # rule 4: the handoff never happened, so the router routes again
        last = transfers[-1]
        return Decision(calls=[(last.name, last.arguments)])
    question = conv.question
    scored = sorted(((fit(question, t, vocab), t) for t in routers), key=lambda pair: -pair[0])  # stable: ties
    best_score, best = scored[0]  # keep the caller's order
    fitting = [t for s, t in scored if s >= NAMED_SHARE]
    if mine:  # rule 2: the agents asked have answered; ask the ones still planned, then relay the answers
        more = _agent_calls(question, fitting, vocab, mine, conv.parallel_tool_calls)
        return Decision(calls=more) if more else Decision(text=_relayed(mine))
    own = [t for t in tools if t not in routers]
    own_best = max((share(question, Topic(t.name, tuple(content_words(f"{t.name.replace('_', ' ')} {t.description}"))),
                          vocab) for t in own), default=0.0)
    if best_score < NAMED_SHARE or own_best > best_score:
        return None
    if is_transfer_tool(best):
        return Decision(calls=[(best.name, to_json(_transfer_args(best, question)))])
    return Decision(calls=_agent_calls(question, fitting, vocab, mine, conv.parallel_tool_calls))


def own_tools(tools: list[Tool]) -> list[Tool]:
    """The tools that lead to no other agent: what the agent uses when the question goes to none.

    Example:
        >>> [t.name for t in own_tools([Tool("transfer_to_x", "Handoff to the X agent."), Tool("search")])]
        ['search']
    """
    return [t for t in tools if not is_routing_tool(t)]


def _transfer_args(tool: Tool, question: str) -> dict:
    if not (tool.parameters or {}).get("properties"):
        return {}
    found = entities_for(tool, question)
    return fill_arguments(tool, question, found[0] if found else None, found[1:])


def _agent_calls(question: str, fitting: list[Tool], vocab: Vocabulary | None, made: list[Call],
                 parallel: bool) -> list[tuple[str, str]]:
    """One call per agent tool that a part of the question fits best; a single agent gets the whole question."""
    parts = [p.strip() for p in _PARTS.split(question) if p and p.strip()]
    plan: dict[str, list[str]] = {}
    for part in parts if len(parts) > 1 else []:
        scored = [(fit(part, t, vocab), t) for t in fitting]
        score, tool = max(scored, key=lambda pair: pair[0])
        if score >= NAMED_SHARE:
            plan.setdefault(tool.name, []).append(part)
    if len(plan) <= 1:
        plan = {fitting[0].name: [question]} if fitting else {}
    done = {c.name for c in made}
    calls = []
    for tool in fitting:
        if tool.name in plan and tool.name not in done:
            param = required_string_params(tool)[0]
            calls.append((tool.name, to_json({param: " ".join(plan[tool.name])})))
    return calls if parallel else calls[:1]


def _relayed(calls: list[Call]) -> str:
    """The agents' answers as the answer: each one's text, in the order they were asked."""
    texts = []
    for call in calls:
        data = read_output(call.output or "")
        texts.append(data if isinstance(data, str) else to_json(data))
    return "\n\n".join(t.strip() for t in texts if t and t.strip())

