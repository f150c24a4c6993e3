"""Talking to the agent in a notebook: lesson 10's chat session and widget, and what Part 2 adds to them.

- ui: `ChatSession` (the logic) and `ChatWidget` (its ipywidgets view) (lesson 10);
- approval: `ApprovalChatSession` and `ApprovalChatWidget`, Approve and Reject on a pending call (lesson 13);
- agents: `AgentChatSession`, a chat with several agents and their handoffs (lesson 17);
- speakers: who is speaking in the widget, and which server or agent each tool comes from (lessons 16, 17).

Lessons import from the module they need (`from helpers.chat.ui import ChatWidget`), so lesson 10 never loads
Part 2's approval or agents.
"""
