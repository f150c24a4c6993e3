"""Talk to the agent inside a notebook: a chat session (the logic) and an ipywidgets view of it (lesson 10).

Two layers, kept apart on purpose:

- `ChatSession` is plain Python. `send(text)` asks a question, `step()` advances the agent loop one
  iteration, `reset()` forgets everything. The transcript is a list of `Entry` records (user question, each
  tool call, the answer), so tests and notebook cells can drive a conversation and check it without a browser.
  Every question continues the previous messages, so a follow-up can refer to an earlier answer.
  With `stream=True` the answer's text arrives piece by piece in `partial` (AgentRun's `on_text` hook), each
  tool call enters the transcript as soon as it has run (its `on_tool` hook), and `on_update()`, if set, is
  called whenever the transcript or `partial` changes, so a view can redraw mid-run.
- `ChatWidget` only draws a session and turns clicks into calls: a text box (Enter sends) with Send, Step and
  Reset buttons, a "step mode" switch, each tool call as a collapsible card, and a running token/cost footer.
  It streams: the question, each tool card and the answer's text show up as they happen, in a log that keeps
  its newest entry in view.

The loop itself is `helpers.loop.AgentRun`, with all its limits; this module adds no loop logic of its own.
Left out on purpose: running the loop in a background thread (a click blocks the kernel until the model
answers; the view still updates while it waits), a card for a tool call before its tool has finished (a slow
tool shows its card when it returns), markdown rendering, and saving conversations.

Why one module of about 590 lines, both layers together: lesson 10 teaches them as one thing, a session and
the view of it, and imports both from here; the view reads the session's fields directly (transcript,
partial, run, meter), so a reader changing one wants the other on the same page. Part 2 adds to it from
outside: approval (helpers.chat.approval), speakers and tool labels (helpers.chat.speakers), agents with
handoffs (helpers.chat.agents), each in its own module. If the view grows, it is the part to move out (into
helpers.chat.widget).
"""

from __future__ import annotations

import html
import json
import time
import warnings
from dataclasses import asdict, dataclass

from helpers.chat.speakers import speaker, tool_label
from helpers.cost import CostMeter, format_usd
from helpers.loop import AgentRun, grouped
from helpers.tools import preview as one_line  # `preview` is also as_text()'s length argument

PREVIEW_CHARS = 300  # how much of a tool's output a card shows; the model still gets all of it
REDRAW_EVERY_S = 0.1  # a streamed answer is redrawn at most this often: every token would flood the browser


@dataclass
class Entry:
    """One line of the transcript: a question, a tool call, an answer, or an error.

    kind is "user", "tool", "assistant" or "error". Tool entries also say which model call asked for them
    (`call`, counted over the whole session) and what that call used: tokens, cost in USD and latency.
    Example:
        >>> entry = Entry("tool", name="search", arguments='{"query": "ollama"}', output="[]", iteration=1)
        >>> entry.kind, entry.name, entry.cost_usd
        ('tool', 'search', None)
    """

    kind: str
    text: str = ""
    name: str = ""
    arguments: str = ""
    output: str = ""
    iteration: int = 0
    call: int = 0
    tokens: int = 0
    cost_usd: float | None = None
    latency_s: float | None = None
    stop_reason: str = ""

    def to_dict(self) -> dict:
        """The entry as a plain dict.

        Example:
            >>> Entry("user", text="hi").to_dict()
            {'kind': 'user', 'text': 'hi', 'name': '', 'arguments': '', 'output': '', 'iteration': 0, 'call':
            0, 'tokens': 0, 'cost_usd': None, 'latency_s': None, 'stop_reason': ''}
        """
        return asdict(self)


class ChatSession:
    """A conversation with the agent: ask, step through the loop, and keep the history between questions.

    `tools` is a helpers.tools.Tools registry (or a dict plus `schemas=[...]`). `api` is "responses" or
    "chat"; by default it is "responses" when the provider offers it and "chat" otherwise. Other keyword
    arguments (max_iterations, max_tokens, max_cost, price_as, ...) go to every AgentRun.
    `stream=True` streams each model call: its text collects in `partial` until the answer is in the
    transcript. `on_update`, a function of no arguments, is called after every change a view should show.
    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.search import SEARCH_TOOL
        >>> tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?", "answer": "Yes."}]}
        >>> chat = ChatSession(neutral_client(), "offline-rules-v1", tools, schemas=[SEARCH_TOOL])
        >>> chat.send("Can I join late?").text
        'According to "Can I join late?" [a1]: Yes.'
        >>> [entry.kind for entry in chat.transcript]
        ['user', 'tool', 'assistant']
    """

    run_class = AgentRun  # the loop each question runs; helpers.chat.approval swaps in ApprovalRun (lesson 13)

    def __init__(self, client, model: str, tools, *, schemas: list[dict] | None = None,
                 instructions: str | None = None, api: str | None = None, stream: bool = False,
                 on_update=None, **loop_options):
        if {"messages", "verbose", "meter", "on_text", "on_tool", "hooks"} & set(loop_options):
            raise TypeError("ChatSession keeps the messages and a meter itself, never prints, and streams with "
                            "stream=True; drop messages=, verbose=, meter=, on_text=, on_tool= and hooks=.")
        if schemas is None and tools and not hasattr(tools, "responses_schemas"):
            raise ValueError("A dict of tools needs schemas=[...] (their JSON schemas); or pass a "
                             "helpers.tools.Tools registry, which makes them for you.")
        self.client, self.model, self.tools = client, model, tools
        self.schemas, self.instructions = schemas, instructions
        self.api = api or _default_api(client)
        self.loop_options = loop_options
        self.stream, self.on_update = stream, on_update
        self.step_mode = False  # when True, send() only queues the question; step() does the work
        self._running = False  # True while finish() steps on its own (not one click of Step)
        self.reset()

    def reset(self) -> None:
        """Forget the conversation, its transcript and its costs.

        Example:
            >>> chat = demo_session()
            >>> _ = chat.send("Can I join late?")
            >>> chat.reset()
            >>> chat.transcript, chat.footer()
            ([], 'Session: 0 calls · 0 tokens · $0')
        """
        self.transcript: list[Entry] = []
        self.messages: list = []  # the history the next question continues
        self.meter = CostMeter()  # every model call of the session, for the footer
        self.run: AgentRun | None = None  # the loop of the question in progress, if any
        self.partial = ""  # the text streamed so far by the model call in progress (stream=True only)

    @property
    def busy(self) -> bool:
        """True while a question is waiting for more steps (step mode).

        Example:
            >>> chat = demo_session()
            >>> chat.step_mode = True
            >>> chat.busy, chat.send("Can I join late?"), chat.busy
            (False, None, True)
        """
        return self.run is not None

    def send(self, text: str) -> Entry | None:
        """Ask a question. Runs the loop to its answer and returns the last entry; in step mode returns None
        and leaves the loop to step().

        Example:
            >>> chat = demo_session()
            >>> entry = chat.send("Can I join late?")
            >>> entry.kind, entry.text, entry.stop_reason
            ('assistant', 'According to "Can I join late?" [a1]: Yes.', 'answered')
        """
        text = (text or "").strip()
        if not text:
            raise ValueError("The question is empty: type something before sending.")
        if self.busy:
            raise RuntimeError("The previous question is still running: press Step (or Run to end) until it "
                               "answers, or Reset to drop it.")
        self.transcript.append(Entry("user", text=text))
        hooks = {"verbose": False, "meter": self.meter, "on_text": self._on_text if self.stream else None,
                 "on_tool": self._on_tool}
        self.run = self.run_class(self.client, self.model, text, self.tools, schemas=self.schemas,
                            instructions=self.instructions, messages=self.messages, api=self.api,
                            **grouped({**self.loop_options, **hooks}))
        self._updated()  # the question shows before the model has answered
        if self.step_mode:
            return None
        return self.finish()

    def step(self) -> bool:
        """Advance the current question by one iteration (one model call and the tools it asks for).
        Returns True when the question is answered (or the run stopped).

        Example: (the first step searched; the second answered)
            >>> chat = demo_session()
            >>> chat.step_mode = True
            >>> chat.send("Can I join late?")
            >>> chat.step(), chat.step()
            (False, True)
        """
        if self.run is None:
            raise RuntimeError("Nothing to step: send a question first.")
        run = self.run
        calls_before = len(run.calls)
        self.partial = ""  # a new model call: whatever the last one streamed is in the transcript or dropped
        done = run.step()
        self.partial = ""
        # The tool calls of this step are in the transcript already (_on_tool); the answer, if any, comes now.
        if done:
            self._finish_question(run.calls[-1] if len(run.calls) > calls_before else None)
        self._updated()
        return done

    def finish(self) -> Entry | None:
        """Step until the current question is answered; return the last transcript entry.

        Example:
            >>> chat = demo_session()
            >>> chat.step_mode = True
            >>> chat.send("Can I join late?")
            >>> entry = chat.finish()
            >>> entry.kind, entry.stop_reason
            ('assistant', 'answered')
        """
        self._running = True
        try:
            while self.run is not None and not self.step():
                pass
        finally:
            self._running = False
        return self.transcript[-1] if self.transcript else None

    def _on_tool(self, tool_call: dict) -> None:
        # Called by the loop as each tool call finishes, so its card shows before the next one runs. The
        # model call that asked for it is the last one recorded.
        record = self.run.calls[-1] if self.run is not None and self.run.calls else None
        self.transcript.append(Entry(
            "tool", name=tool_call["name"], arguments=_as_text(tool_call["arguments"]), output=tool_call["output"],
            iteration=tool_call["iteration"], call=len(self.meter) if record is not None else 0, **_usage(record)))
        self._updated()

    def _on_text(self, delta: str) -> None:
        self.partial += delta
        self._updated()

    def _updated(self) -> None:
        if self.on_update is not None:
            self.on_update()

    def _finish_question(self, record) -> None:
        result = self.run.result if self.run is not None else None
        assert result is not None, "called only once step() has finished the run"
        self.run = None
        self.messages = result.messages  # the next question continues this conversation
        kind = "error" if result.stop_reason == "error" else "assistant"
        text = result.answer if kind == "assistant" else (result.error or "The run failed.")
        if kind == "assistant" and not text:
            text = f"(no answer: the run stopped with {result.stop_reason})"
        self.transcript.append(Entry(
            kind, text=text, iteration=result.iterations, stop_reason=result.stop_reason,
            call=len(self.meter) if record is not None else 0, **_usage(record)))

    # --- reading the state --------------------------------------------------------------------------

    @property
    def status(self) -> str:
        """One line saying what the session is doing.

        Example:
            >>> chat = demo_session()
            >>> chat.status
            'Ready.'
            >>> chat.step_mode = True
            >>> chat.send("Can I join late?")
            >>> chat.status
            'Step mode: 0 of at most 10 iterations done. Press Step for the next one.'
        """
        if self.run is None:
            return "Ready." if not self.step_mode else "Ready (step mode: Send queues the question)."
        done = self.run.iterations
        if self._running:
            return f"Working: {done} of at most {self.run.max_iterations} iterations done…"
        return (f"Step mode: {done} of at most {self.run.max_iterations} iterations done. "
                "Press Step for the next one.")

    def footer(self) -> str:
        """The running total of the session.

        Example:
            >>> chat = demo_session()
            >>> _ = chat.send("Can I join late?")
            >>> chat.footer()
            'Session: 2 calls · 252 tokens · $0 (local, estimated)'
        """
        return f"Session: {self.meter}"

    def as_text(self, preview: int = 120, latency: bool = False, labels: dict | None = None) -> str:
        """The transcript as plain text, one block per entry (no latency unless asked: it varies run to run).
        Each answer is said by its agent and each tool call carries its label, as in ChatWidget (`labels`:
        helpers.chat.speakers); a session with one agent says "agent".

        Example:
            >>> chat = demo_session()
            >>> _ = chat.send("Can I join late?")
            >>> print(chat.as_text())
            you: Can I join late?
              [1] search({"query": "join late joining"}) ->
                [{"id":"a1","question":"Can I join late?","answer":"Yes."}]
                  model call 1: 105 tokens · $0
            agent: According to "Can I join late?" [a1]: Yes.
            Session: 2 calls · 252 tokens · $0 (local, estimated)
        """
        lines = []
        for e in self.transcript:
            if e.kind == "user":
                lines.append(f"you: {e.text}")
            elif e.kind == "tool":
                label = tool_label(e.name, labels)
                lines.append(f"  [{e.iteration}] {e.name}({one_line(e.arguments, 80)}){label} -> {one_line(e.output, preview)}")
                lines.append(f"      {usage_line(e, latency=latency)}")
            elif e.kind == "assistant":
                note = "" if e.stop_reason == "answered" else f" [stopped: {e.stop_reason}]"
                who = speaker(self.transcript, e, getattr(self, "agent_name", "agent"), labels)
                lines.append(f"{who}{note}: {e.text}")
            else:
                lines.append(f"error: {e.text}")
        lines.append(self.footer())
        return "\n".join(lines)


def demo_session(**options) -> ChatSession:
    """The session the examples in this module talk to: the offline model and a search tool that knows one
    FAQ entry ("Can I join late?" [a1], answer "Yes."). `options` go to ChatSession.

    Example:
        >>> demo_session().send("Can I join late?").text
        'According to "Can I join late?" [a1]: Yes.'
    """
    from helpers.offline import neutral_client  # here: only the examples need the offline model
    from helpers.search import SEARCH_TOOL

    tools = {"search": lambda query: [{"id": "a1", "question": "Can I join late?", "answer": "Yes."}]}
    return ChatSession(neutral_client(), "offline-rules-v1", tools, schemas=[SEARCH_TOOL], **options)


def usage_line(entry: Entry, latency: bool = True) -> str:
    """What the model call behind an entry used.

    Example:
        >>> usage_line(Entry("tool", call=2, tokens=512, cost_usd=0.0, latency_s=0.003))
        'model call 2: 512 tokens · $0 · 3 ms'
    """
    parts = [f"model call {entry.call}: {entry.tokens:,} tokens", format_usd(entry.cost_usd)]
    if latency and entry.latency_s is not None:
        # Milliseconds under a second, seconds above: the lessons' nbval rules mask both forms.
        parts.append(f"{entry.latency_s * 1000:.0f} ms" if entry.latency_s < 1 else f"{entry.latency_s:.1f} s")
    return " · ".join(parts)


def _default_api(client) -> str:
    try:
        from helpers.llm import provider_of

        return "responses" if provider_of(client).responses_api else "chat"
    except Exception:  # noqa: BLE001 -- a client helpers.llm can't place: use the course default
        return "responses"


def _as_text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)




# ---------------------------------------------------------------------------------------------------------
# The view: ipywidgets drawing a ChatSession. Imported lazily so the logic above works without ipywidgets.


class ChatWidget:
    """An ipywidgets chat box for a ChatSession. Display it as the last expression of a cell.

    The controls are attributes, so code can use them as a student would: set `chat.text.value` and call
    `chat.send_button.click()` (or `chat.submit()`, what Enter in the text box does). The widget turns on
    the session's streaming and redraws while the loop runs: the question at once, each tool card as its
    tool returns, the answer's text as it arrives.
    Example: (in a notebook, `chat` as a cell's last line shows it; then type and press Enter)
        >>> chat = ChatWidget(demo_session())  # any ChatSession
        >>> chat.text.value = "Can I join late?"
        >>> chat.send_button.click()
        >>> chat, chat.status.value
        (ChatWidget(3 entries), '<span style="color:#555">Ready.</span>')
    """

    def __init__(self, session: ChatSession, labels: dict | None = None):
        import ipywidgets as w

        self._w = w
        self.session = session
        self.labels = labels or {}  # optional labels by tool or agent name: an MCP server, an agent's title
        session.stream, session.on_update = True, self._redraw_while_running
        self.text = w.Text(placeholder="Ask about the course, then press Enter…", layout=w.Layout(flex="1"))
        # Enter: the text box's submit event. ipywidgets 8 marks on_submit deprecated in favour of observing
        # `value` with continuous_update=False, but that also fires when the box merely loses focus (clicking
        # Send would then send twice); jupyter-widgets/ipywidgets#2446 is the open issue, on_submit still works.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.text.on_submit(lambda _: self.submit())
        self.send_button = w.Button(description="Send", button_style="primary")
        self.step_mode = w.Checkbox(value=session.step_mode, description="Step mode", indent=False,
                                    layout=w.Layout(width="auto"))
        self.step_button = w.Button(description="Step", tooltip="Run one iteration of the loop")
        self.finish_button = w.Button(description="Run to end", tooltip="Step until the agent answers")
        self.reset_button = w.Button(description="Reset", button_style="warning",
                                     tooltip="Forget the conversation and its costs")
        self.log = w.VBox(layout=w.Layout(flex="0 0 auto"))  # the entries, oldest first
        self.partial = w.HTML()  # the answer being streamed, shown under the entries until it is complete
        # The log scrolls inside a box of fixed height whose flex direction is reversed: a scrolling box
        # of that kind stays pinned to its bottom as content grows, so the newest entry is always in view,
        # with no JavaScript (an ipywidgets HTML can't run any). The single child keeps the entries in order.
        self.scroller = w.Box([self.log], layout=w.Layout(flex_flow="column-reverse", max_height="420px",
                                                          overflow="auto"))
        self.scroller.add_class("course-chat-log")  # a handle for the browser test and your own CSS
        self.status = w.HTML()
        self.footer = w.HTML()
        self.box = w.VBox([
            self.scroller,
            w.HBox([self.text, self.send_button]),
            w.HBox([self.step_mode, self.step_button, self.finish_button, self.reset_button]),
            self.status,
            self.footer,
        ])
        self._drawn = 0  # how many transcript entries have a view already (views are kept, not rebuilt)
        self._drawn_at = 0.0  # when a streamed answer was last redrawn (time.monotonic)
        self.send_button.on_click(lambda _: self.submit())
        self.step_button.on_click(lambda _: self._act(self.session.step))
        self.finish_button.on_click(lambda _: self._act(self.session.finish))
        self.reset_button.on_click(lambda _: self._act(self._reset))
        self.step_mode.observe(self._toggle_step_mode, names="value")
        self.refresh()

    def submit(self) -> None:
        """Send what is in the text box and clear it: what Send and Enter do.

        Example:
            >>> session = demo_session()
            >>> chat = ChatWidget(session)
            >>> chat.text.value = "Can I join late?"
            >>> chat.submit()
            >>> chat.text.value, len(chat.session.transcript)
            ('', 3)
        """
        self._act(self._send)

    def _send(self):
        text, self.text.value = self.text.value, ""
        self.session.send(text)

    def _reset(self):
        self.session.reset()
        self.log.children = ()
        self._drawn = 0

    def _toggle_step_mode(self, change):
        self.session.step_mode = bool(change["new"])
        self.refresh()

    def _act(self, action):
        # A click must never leave a traceback in the widget's output: show what went wrong instead.
        for button in (self.send_button, self.step_button, self.finish_button):
            button.disabled = True
        problem = None
        try:
            action()
        except (ValueError, RuntimeError) as e:
            problem = str(e)
        self.refresh(problem)

    def _redraw_while_running(self) -> None:
        """The session changed mid-click: draw new entries at once, a streamed answer at most every
        REDRAW_EVERY_S. Each redraw is a message to the browser, which shows it while the kernel works on."""
        entries_changed = len(self.session.transcript) != self._drawn
        if not entries_changed and self.session.partial:
            now = time.monotonic()
            if now - self._drawn_at < REDRAW_EVERY_S:
                return
            self._drawn_at = now
        self._draw_log()
        self._draw_lines()

    def _draw_log(self) -> None:
        entries = self.session.transcript
        if len(entries) < self._drawn:  # the session was reset behind our back
            self.log.children, self._drawn = (), 0
        new = [self._view(e) for e in entries[self._drawn:]]
        children = [c for c in self.log.children if c is not self.partial] + new
        self._drawn = len(entries)
        if self.session.partial:
            self.partial.value = _bubble("Agent", "#1b5e20", html.escape(self.session.partial) + " …")
            children.append(self.partial)
        if tuple(children) != self.log.children:
            self.log.children = tuple(children)

    def refresh(self, problem: str | None = None) -> None:
        """Redraw new transcript entries, the buttons, the status line and the footer.

        Example:
            >>> session = demo_session()
            >>> chat = ChatWidget(session)
            >>> _ = chat.session.send("Can I join late?")
            >>> chat.refresh()
            >>> chat.footer.value
            '<small>Session: 2 calls · 252 tokens · $0 (local, estimated)</small>'
        """
        self._draw_log()
        busy = self.session.busy
        self.send_button.disabled = busy
        self.step_button.disabled = self.finish_button.disabled = not busy
        self._draw_lines(problem)

    def _draw_lines(self, problem: str | None = None) -> None:
        """The status line (a problem in red instead, if there is one) and the token/cost footer."""
        status = html.escape(problem or self.session.status)
        color = "#b00020" if problem else "#555"
        self.status.value = f'<span style="color:{color}">{status}</span>'
        self.footer.value = f"<small>{html.escape(self.session.footer())}</small>"

    def _view(self, e: Entry):
        w = self._w
        if e.kind == "tool":
            body = w.HTML(
                f"<b>arguments</b><pre>{html.escape(_pretty(e.arguments))}</pre>"
                f"<b>result</b> ({len(e.output):,} characters)<pre style='white-space:pre-wrap'>"
                f"{html.escape(one_line(e.output, PREVIEW_CHARS))}</pre>"
                f"<small>{html.escape(usage_line(e))}</small>"
            )
            card = w.Accordion(children=[body], titles=(
                f"🔧 {e.name}({one_line(e.arguments, 60)}){tool_label(e.name, self.labels)}",))
            card.selected_index = None  # collapsed: open it to look inside
            return card
        who, color = {"user": ("You", "#1a4d8f"), "assistant": ("Agent", "#1b5e20"),
                      "error": ("Error", "#b00020")}[e.kind]
        if e.kind == "assistant":  # which agent speaks (helpers.chat.speakers, lesson 17)
            who = html.escape(speaker(self.session.transcript, e, getattr(self.session, "agent_name", who),
                                      self.labels))
        note = ""
        if e.kind == "assistant":
            note = f" <small>({html.escape(usage_line(e))})</small>"
            if e.stop_reason != "answered":
                note += f" <small>[stopped: {html.escape(e.stop_reason)}]</small>"
        return w.HTML(_bubble(who, color, html.escape(e.text) + note))

    def as_text(self, preview: int = 120) -> str:
        """The conversation as plain text, as the widget shows it: who speaks each answer, each tool card's
        label (an MCP server's name, say). Print it where a stored notebook can't keep the widget's view.

        Example:
            >>> chat = ChatWidget(demo_session(), labels={"search": "faq-server"})
            >>> _ = chat.session.send("Can I join late?")
            >>> print(chat.as_text(preview=40))
            you: Can I join late?
              [1] search({"query": "join late joining"}) · faq-server -> [{"id":"a1","question":"Can I join late…
                  model call 1: 105 tokens · $0
            agent: According to "Can I join late?" [a1]: Yes.
            Session: 2 calls · 252 tokens · $0 (local, estimated)
        """
        return self.session.as_text(preview, labels=self.labels)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs)
        # The plain-text fallback (what GitHub and nbval see) must not depend on widget ids or timings.
        bundle["text/plain"] = f"ChatWidget ({len(self.session.transcript)} entries; {self.session.footer()})"
        return bundle

    def __repr__(self) -> str:
        return f"ChatWidget({len(self.session.transcript)} entries)"


def _usage(record) -> dict:
    """The Entry fields of the model call behind an entry (a helpers.cost CallRecord, or None)."""
    if record is None:
        return {"tokens": 0, "cost_usd": None, "latency_s": None}
    return {"tokens": record.total_tokens, "cost_usd": record.cost_usd, "latency_s": record.latency_s}


def _bubble(who: str, color: str, body_html: str) -> str:
    """One chat line as HTML.

    Example:
        >>> _bubble("You", "#1a4d8f", "Can I join late?")
        '<div style="white-space:pre-wrap;line-height:1.4;margin:4px 0"><b style="color:#1a4d8f">You:</b> Can
        I join late?</div>'
    """
    # line-height: an ipywidgets HTML inherits the height of one row of controls, far too loose for prose.
    return (f'<div style="white-space:pre-wrap;line-height:1.4;margin:4px 0"><b style="color:{color}">{who}:</b> '
            f"{body_html}</div>")


def _pretty(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), indent=2, ensure_ascii=False)
    except (json.JSONDecodeError, TypeError):
        return arguments  # broken JSON is worth seeing exactly as the model sent it
