"""Who is speaking in the chat widget, and where each tool comes from (lessons 16 and 17).

Lesson 10's widget shows "Agent:" for every answer and a tool card per call. With several agents and tools served
by MCP servers, a reader wants to know which agent answered and which server a tool lives on. This module works
that out from what the chat session already holds, plus an optional mapping of labels passed to the widget:
- `speaker`: the agent that says an answer: the last agent a transfer tool handed the conversation to before it
  (read from the transfer's output, `{"assistant": "<name>"}`, the Agents SDK's and helpers.agents' wording),
  else the session's first agent (`session.agent_name`, when it has one), else "Agent";
- `tool_label`: the label given for a tool's name (an MCP server's name, say), shown on its card.

helpers.chat.agents's `AgentChatSession` runs a helpers.agents.Agent in the widget, handoffs included.

What it leaves out on purpose: talking to MCP servers (helpers.mcp_tools does that; here a tool's server is only a
label passed in), agents as tools inside the widget (their inner runs happen inside one tool card), and colours
per agent.
No import of helpers.chat.ui: the widget imports this module, and entries are read by their fields.
"""

from __future__ import annotations

import json


def transfer_target(output: str) -> str | None:
    """The agent a transfer's output names, or None for any other tool output.

    Example:
        >>> transfer_target('{"assistant": "Schedule agent"}'), transfer_target('[{"id": "a1"}]')
        ('Schedule agent', None)
    """
    try:
        data = json.loads(output or "")
    except ValueError:
        return None
    if isinstance(data, dict) and set(data) == {"assistant"} and isinstance(data["assistant"], str):
        return data["assistant"]
    return None


def speaker(transcript: list, entry, first: str = "Agent", labels: dict | None = None) -> str:
    """Who says `entry`: the last agent handed the conversation before it, else `first`; shown by its label.

    Example:
        >>> from helpers.chat.ui import Entry
        >>> t = [Entry("user", text="Hi"), Entry("tool", name="transfer_to_faq", output='{"assistant": "FAQ agent"}'),
        ...      Entry("assistant", text="Hello")]
        >>> speaker(t, t[2], "Triage"), speaker(t, t[2], labels={"FAQ agent": "FAQ"})
        ('FAQ agent', 'FAQ')
    """
    name = first
    for e in transcript:
        if e is entry:
            break
        if e.kind == "tool" and (target := transfer_target(e.output)):
            name = target
    return (labels or {}).get(name, name)


def tool_label(name: str, labels: dict | None = None) -> str:
    """The label shown after a tool's name on its card ("" when none was given).

    Example:
        >>> tool_label("search_faq", {"search_faq": "course-faq server"}), tool_label("other", {})
        (' · course-faq server', '')
    """
    label = (labels or {}).get(name)
    return f" · {label}" if label else ""
