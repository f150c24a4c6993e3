"""Lesson 10's chat widget, with Approve and Reject buttons on a tool call that waits for a person (lesson 13).

- `ApprovalChatSession` is a `ChatSession` whose questions run as `helpers.approval.ApprovalRun`: a call to a
  tool in `needs_approval` stops the question (`pending`), and `approve(call_id)`, `reject(call_id, reason)` or
  `edit(call_id, arguments)` decide it; the question then goes on (in step mode, it waits for Step).
- `ApprovalChatWidget` is the `ChatWidget` plus a bar under the log: for each pending call, what it would do,
  an Approve button, a box for the reason and a Reject button.

Everything else (streaming, tool cards, the footer, Reset) is lesson 10's, unchanged.
Left out on purpose: editing arguments from the widget (use `session.edit(...)` in a cell), saving a paused
chat (ApprovalRun.to_json does that for a run), and approving several calls with one click.
"""

from __future__ import annotations

import html

from helpers.approval import ApprovalRun
from helpers.chat.ui import ChatSession, ChatWidget
from helpers.tools import preview


class ApprovalChatSession(ChatSession):
    """A chat whose calls to the tools in `needs_approval` (names, or a predicate `(name, arguments) -> bool`)
    wait for a person's decision. Other arguments are ChatSession's.

    Example:
        >>> chat = demo_approval_session()
        >>> chat.send('Delete the file "notes.txt"').kind, [p.name for p in chat.pending]
        ('user', ['delete_file'])
        >>> chat.reject(chat.pending[0].call_id, "not now")
        >>> chat.transcript[-1].text
        'I did not run delete_file (path: "notes.txt"): it was not approved. The reason given: "not now".'
    """

    run_class = ApprovalRun

    def __init__(self, client, model: str, tools, *, needs_approval, **options):
        super().__init__(client, model, tools, needs_approval=needs_approval, **options)

    @property
    def pending(self) -> list:
        """The calls of the current question that wait for a decision. Example:
        >>> demo_approval_session().pending
        []
        """
        run = self.run
        return list(run.pending) if isinstance(run, ApprovalRun) else []

    def finish(self):
        """Step until the question is answered or a call waits for a decision; the last entry.

        Example:
            >>> chat = demo_approval_session()
            >>> chat.step_mode = True
            >>> chat.send('Delete the file "notes.txt"')
            >>> chat.finish().kind, len(chat.pending)
            ('user', 1)
        """
        self._running = True
        try:
            while self.run is not None and not self.pending and not self.step():
                pass
        finally:
            self._running = False
        return self.transcript[-1] if self.transcript else None

    def approve(self, call_id: str, *, digest: str | None = None) -> None:
        """Run the waiting call, then go on (unless in step mode). `digest`: the `PendingCall.digest` of the call
        as the person saw it (the widget passes it), so an approval never runs other arguments. Example:
        >>> chat = demo_approval_session()
        >>> _ = chat.send('Delete the file "notes.txt"')
        >>> chat.approve(chat.pending[0].call_id)
        >>> [e.kind for e in chat.transcript]
        ['user', 'tool', 'assistant']
        """
        self._decide("approve", call_id, digest=digest)

    def reject(self, call_id: str, reason: str = "") -> None:
        """Don't run the call: the reason goes to the model as its output; then go on. Example:
        >>> chat = demo_approval_session()
        >>> _ = chat.send('Delete the file "notes.txt"')
        >>> chat.reject(chat.pending[0].call_id, "")
        >>> chat.transcript[1].output
        'The call was not approved by the user, so it did not run. Reason: none given'
        """
        self._decide("reject", call_id, reason)

    def edit(self, call_id: str, arguments) -> None:
        """Run the call with other arguments, then go on. Example:
        >>> chat = demo_approval_session()
        >>> _ = chat.send('Delete the file "notes.txt"')
        >>> chat.edit(chat.pending[0].call_id, {"path": "notes.bak"})
        >>> chat.transcript[1].output
        '{"deleted":"notes.bak"}'
        """
        self._decide("edit", call_id, arguments)

    def _decide(self, how: str, call_id: str, *args, **options) -> None:
        run = self.run
        if not isinstance(run, ApprovalRun) or not run.pending:
            raise RuntimeError("No tool call is waiting for a decision.")
        getattr(run, how)(call_id, *args, **options)
        self._updated()
        if not run.pending and not self.step_mode:
            self.finish()

    @property
    def status(self) -> str:
        """Lesson 10's status line, or what waits for a decision. Example:
        >>> chat = demo_approval_session()
        >>> _ = chat.send('Delete the file "notes.txt"')
        >>> chat.status
        'Waiting for your decision on delete_file({"path": "notes.txt"}): Approve or Reject it.'
        """
        if self.pending:
            return f"Waiting for your decision on {self.pending[0].describe()}: Approve or Reject it."
        return super().status


def demo_approval_session(**options) -> ApprovalChatSession:
    """The session the examples use: the offline model and a `delete_file(path)` tool that needs approval.

    Example:
        >>> demo_approval_session().send("Hello!").text
        "Hello! Ask me a question and I'll look it up."
    """
    from helpers.offline import neutral_client  # here: only the examples need the offline model
    from helpers.tools import Tools

    def delete_file(path: str) -> dict:
        """Delete a file."""
        return {"deleted": path}

    return ApprovalChatSession(neutral_client(), "offline-rules-v1", Tools(delete_file),
                               needs_approval={"delete_file"}, **options)


class ApprovalChatWidget(ChatWidget):
    """Lesson 10's chat widget with an approval bar: Approve / Reject (with a reason) for each waiting call.

    The bar's controls are attributes, as the rest of the widget's: `approve_buttons`, `reject_buttons` and
    `reasons`, one per pending call, in order.
    Example:
        >>> chat = ApprovalChatWidget(demo_approval_session())
        >>> chat.text.value = 'Delete the file "notes.txt"'
        >>> chat.submit()
        >>> chat.reasons[0].value = "I still need it"
        >>> chat.reject_buttons[0].click()
        >>> chat.session.transcript[-1].text
        'I did not run delete_file (path: "notes.txt"): it was not approved. The reason given: "I still need it".'
    """

    def __init__(self, session: ApprovalChatSession):
        if not isinstance(session, ApprovalChatSession):
            raise TypeError("ApprovalChatWidget draws an ApprovalChatSession (it has the pending calls).")
        self.approve_buttons: list = []
        self.reject_buttons: list = []
        self.reasons: list = []
        self._shown: tuple = ()  # the call ids the bar shows now
        self.approval_session = session  # the same object as self.session, typed as the approval kind
        super().__init__(session)
        w = self._w
        self.approvals = w.VBox()
        self.approvals.add_class("course-chat-approvals")  # a handle for the browser test and your own CSS
        children = list(self.box.children)
        children.insert(1, self.approvals)  # under the log, above the text box
        self.box.children = tuple(children)
        self.refresh()

    def refresh(self, problem: str | None = None) -> None:
        """Lesson 10's redraw, plus the approval bar; Send, Step and Run wait while a call waits.

        Example:
            >>> chat = ApprovalChatWidget(demo_approval_session())
            >>> chat.text.value = 'Delete the file "notes.txt"'
            >>> chat.submit()
            >>> len(chat.approve_buttons), chat.step_button.disabled
            (1, True)
        """
        super().refresh(problem)
        if not hasattr(self, "approvals"):
            return  # ChatWidget.__init__ refreshes before the bar exists
        pending = self.approval_session.pending
        if pending:
            self.send_button.disabled = self.step_button.disabled = self.finish_button.disabled = True
        ids = tuple(p.call_id for p in pending)
        if ids != self._shown:
            self._shown = ids
            self._draw_bar(pending)

    def _draw_bar(self, pending) -> None:
        w = self._w
        self.approve_buttons, self.reject_buttons, self.reasons, rows = [], [], [], []
        for call in pending:
            title = w.HTML(f"<b>Approve this call?</b> <code>{html.escape(call.name)}"
                           f"({html.escape(preview(call.arguments, 200))})</code>")
            approve = w.Button(description="Approve", button_style="success", tooltip="Run the tool as asked")
            reason = w.Text(placeholder="Reason for rejecting (the model reads it)", layout=w.Layout(flex="1"))
            reject = w.Button(description="Reject", button_style="danger",
                              tooltip="Don't run it; the reason goes to the model as the call's output")
            approve.on_click(lambda _, cid=call.call_id, shown=call.digest:  # bound to the arguments on screen
                             self._act(lambda: self.approval_session.approve(cid, digest=shown)))
            reject.on_click(lambda _, cid=call.call_id, box=reason:
                            self._act(lambda: self.approval_session.reject(cid, box.value)))
            self.approve_buttons.append(approve)
            self.reject_buttons.append(reject)
            self.reasons.append(reason)
            rows.append(w.VBox([title, w.HBox([approve, reason, reject])]))
        self.approvals.children = tuple(rows)
