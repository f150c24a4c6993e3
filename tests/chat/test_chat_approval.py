"""helpers.chat.approval: the chat session pauses on a call that needs approval, and the widget's Approve and
Reject buttons decide it (the browser side is tests/ui/test_lesson13_browser.py)."""

import pytest

from helpers.chat.approval import ApprovalChatWidget, demo_approval_session
from helpers.chat.ui import ChatSession

QUESTION = 'Delete the file "notes.txt"'


def test_a_question_stops_at_the_call_and_nothing_runs():
    chat = demo_approval_session()
    chat.send(QUESTION)
    assert [e.kind for e in chat.transcript] == ["user"] and chat.busy
    assert chat.pending[0].name == "delete_file" and "Approve or Reject" in chat.status
    with pytest.raises(RuntimeError, match="still running"):
        chat.send("another question")


def test_approve_button_runs_the_tool_and_the_agent_answers():
    widget = ApprovalChatWidget(demo_approval_session())
    widget.text.value = QUESTION
    widget.submit()
    assert len(widget.approve_buttons) == 1 and widget.send_button.disabled
    widget.approve_buttons[0].click()
    kinds = [e.kind for e in widget.session.transcript]
    assert kinds == ["user", "tool", "assistant"] and widget.session.transcript[1].output == '{"deleted":"notes.txt"}'
    assert widget.approve_buttons == [] and not widget.send_button.disabled


def test_reject_button_sends_the_reason_and_the_answer_quotes_it():
    widget = ApprovalChatWidget(demo_approval_session())
    widget.text.value = QUESTION
    widget.submit()
    widget.reasons[0].value = "it is my only copy"
    widget.reject_buttons[0].click()
    tool, answer = widget.session.transcript[1:]
    assert "it is my only copy" in tool.output and '"it is my only copy"' in answer.text
    assert widget.session.messages[-2]["type"] == "function_call_output"


def test_step_mode_waits_for_step_after_a_decision():
    chat = demo_approval_session()
    chat.step_mode = True
    chat.send(QUESTION)
    chat.step()
    chat.approve(chat.pending[0].call_id)
    assert [e.kind for e in chat.transcript] == ["user", "tool"]
    assert chat.step() is True and chat.transcript[-1].kind == "assistant"


def test_the_widget_needs_an_approval_session():
    with pytest.raises(TypeError, match="ApprovalChatSession"):
        ApprovalChatWidget(ChatSession.__new__(ChatSession))


def test_the_approve_button_is_bound_to_the_arguments_on_screen():
    widget = ApprovalChatWidget(demo_approval_session())
    widget.text.value = QUESTION
    widget.submit()
    widget.session.pending[0].arguments = '{"path": "/"}'  # changed after the bar was drawn
    widget.approve_buttons[0].click()
    assert [e.kind for e in widget.session.transcript] == ["user"], "nothing ran"
    assert len(widget.session.pending) == 1, "the call still waits for a decision"
