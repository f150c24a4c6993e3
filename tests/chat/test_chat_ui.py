"""The chat of lesson 10: ChatSession's logic, and ChatWidget driven by simulated typing and clicks.

Everything runs against the offline model, with a tiny fake FAQ search so the tests don't need the FAQ data.
"""

import pytest

from helpers import offline  # an ImportError here must fail the suite, never skip it
from helpers.chat.ui import ChatSession, ChatWidget, Entry, usage_line
from helpers.llm import offline_client
from helpers.tools import Tools, tool

INSTRUCTIONS = "You are a course assistant. Use the search tool to answer from the course FAQ."
OLLAMA = "How do I run Ollama locally?"
ENTRIES = [
    {"id": "o1", "course": "llm-zoomcamp", "section": "Module 1", "question": "How do I run Ollama locally?",
     "answer": "Install Ollama, then run `ollama run llama3` in a terminal."},
    {"id": "j1", "course": "llm-zoomcamp", "section": "General", "question": "Can I join the course late?",
     "answer": "Yes, you can join late, but submit the project in time for a certificate."},
]


@tool
def search(query: str) -> list[dict]:
    """Search the course FAQ for entries that answer a student's question.

    Args:
        query: Keywords to search the FAQ for.
    """
    words = set(query.lower().split())
    return [e for e in ENTRIES if words & set(e["question"].lower().replace("?", "").split())]


def session(**options) -> ChatSession:
    client = options.pop("client", None) or offline_client()
    return ChatSession(client, offline.OFFLINE_MODEL, Tools(search), instructions=INSTRUCTIONS, **options)


def kinds(chat: ChatSession) -> list[str]:
    return [e.kind for e in chat.transcript]


# --- ChatSession --------------------------------------------------------------------------------------


def test_send_runs_the_loop_and_records_question_tool_calls_and_answer():
    chat = session()
    last = chat.send(OLLAMA)
    assert kinds(chat)[0] == "user" and chat.transcript[0].text == OLLAMA
    assert "tool" in kinds(chat)
    assert last is chat.transcript[-1] and last.kind == "assistant" and last.stop_reason == "answered"
    assert "ollama" in last.text.lower()
    card = next(e for e in chat.transcript if e.kind == "tool")
    assert card.name == "search" and "query" in card.arguments and "o1" in card.output
    assert card.iteration == 1 and card.call == 1 and card.tokens > 0
    assert card.cost_usd == 0  # the offline model is local: $0, not unknown
    assert card.latency_s is not None
    assert len(chat.meter) == last.iteration  # one model call per iteration
    assert chat.footer().startswith("Session: ") and "tokens" in chat.footer()
    assert not chat.busy


def test_a_follow_up_continues_the_previous_messages():
    chat = session()
    chat.send(OLLAMA)
    first_history = list(chat.messages)
    chat.send("How do I run a different model?")
    # The second run started from the first run's messages: they are a prefix of the new history.
    assert chat.messages[: len(first_history)] == first_history
    users = [m["content"] for m in chat.messages if isinstance(m, dict) and m.get("role") == "user"]
    assert users == [OLLAMA, "How do I run a different model?"]
    assert kinds(chat).count("user") == 2 and kinds(chat)[-1] == "assistant"


def test_step_mode_runs_one_iteration_per_step():
    chat = session()
    chat.step_mode = True
    assert chat.send(OLLAMA) is None
    assert kinds(chat) == ["user"] and chat.busy and len(chat.meter) == 0
    assert "Step" in chat.status
    assert chat.step() is False  # iteration 1: the model asked for a search
    assert kinds(chat) == ["user", "tool"] and len(chat.meter) == 1
    steps = 1
    while not chat.step():
        steps += 1
        assert steps < 10
    assert kinds(chat)[-1] == "assistant" and not chat.busy
    assert len(chat.meter) == chat.transcript[-1].iteration
    assert chat.status.startswith("Ready")


def test_finish_runs_a_stepped_question_to_its_answer():
    chat = session()
    chat.step_mode = True
    chat.send(OLLAMA)
    assert chat.finish().kind == "assistant"
    assert not chat.busy


def test_misuse_is_refused_with_a_message_that_says_what_to_do():
    chat = session()
    with pytest.raises(ValueError, match="empty"):
        chat.send("   ")
    with pytest.raises(RuntimeError, match="send a question first"):
        chat.step()
    chat.step_mode = True
    chat.send(OLLAMA)
    with pytest.raises(RuntimeError, match="Step .* or Reset"):
        chat.send("Another question")
    with pytest.raises(TypeError, match="messages"):
        session(messages=[])
    with pytest.raises(ValueError, match="schemas"):
        ChatSession(offline_client(), offline.OFFLINE_MODEL, {"search": search})


def test_a_dict_of_tools_works_with_its_schemas():
    from helpers.search import SEARCH_TOOL

    chat = ChatSession(offline_client(), offline.OFFLINE_MODEL, {"search": search.fn},
                       schemas=[SEARCH_TOOL], instructions=INSTRUCTIONS)
    assert chat.send(OLLAMA).kind == "assistant" and "tool" in kinds(chat)


def test_reset_forgets_transcript_messages_costs_and_a_pending_run():
    chat = session()
    chat.send(OLLAMA)
    chat.step_mode = True
    chat.send("Can I join late?")
    chat.reset()
    assert chat.transcript == [] and chat.messages == [] and len(chat.meter) == 0 and not chat.busy
    chat.step_mode = False
    assert chat.send(OLLAMA).kind == "assistant"


def test_chat_completions_flavour_works_the_same():
    chat = session(api="chat")
    chat.send(OLLAMA)
    chat.send("Can I join the course late?")
    assert kinds(chat)[0] == "user" and kinds(chat)[-1] == "assistant"
    assert chat.messages[0] == {"role": "system", "content": INSTRUCTIONS}
    assert sum(1 for m in chat.messages if isinstance(m, dict) and m.get("role") == "system") == 1


def test_the_api_flavour_follows_the_provider():
    from openai import OpenAI

    assert session().api == "responses"
    from helpers.llm import PROVIDERS

    chat_only = next(p for p in PROVIDERS.values() if not p.responses_api)  # Google Gemini
    client = OpenAI(api_key="unused", base_url=chat_only.base_url)  # never called here
    assert session(client=client).api == "chat"


def test_a_run_that_hits_the_iteration_limit_says_so():
    chat = session(max_iterations=1)
    last = chat.send(OLLAMA)
    assert last.kind == "assistant" and last.stop_reason == "iteration_limit"
    assert "stopped: iteration_limit" in chat.as_text()


def test_an_api_failure_becomes_an_error_entry_not_an_exception():
    client = offline_client(faults="insufficient_quota", max_retries=0)
    chat = session(client=client)
    last = chat.send(OLLAMA)
    assert last.kind == "error" and "quota" in last.text
    assert not chat.busy  # the next question can be asked
    assert "error: " in chat.as_text()


def test_as_text_hides_latency_unless_asked():
    chat = session()
    chat.send(OLLAMA)
    assert " ms" not in chat.as_text()
    assert " ms" in chat.as_text(latency=True) or " s\n" in chat.as_text(latency=True)


def test_usage_line_formats_tokens_cost_and_latency():
    entry = Entry("tool", call=2, tokens=1234, cost_usd=0.0031, latency_s=0.25)
    assert usage_line(entry) == "model call 2: 1,234 tokens · $0.0031 · 250 ms"
    assert usage_line(Entry("tool", call=1, latency_s=2.5)) == "model call 1: 0 tokens · $? · 2.5 s"
    assert usage_line(entry, latency=False) == "model call 2: 1,234 tokens · $0.0031"


# --- ChatWidget, driven like a student would ----------------------------------------------------------


def type_and_send(chat: ChatWidget, text: str) -> None:
    chat.text.value = text
    chat.send_button.click()


def test_typing_and_clicking_send_fills_the_transcript_and_the_footer():
    chat = ChatWidget(session())
    type_and_send(chat, OLLAMA)
    assert chat.text.value == ""  # the box is cleared for the next question
    assert kinds(chat.session)[0] == "user" and kinds(chat.session)[-1] == "assistant"
    assert len(chat.log.children) == len(chat.session.transcript)
    assert "tokens" in chat.footer.value and "call" in chat.footer.value
    assert not chat.send_button.disabled and chat.step_button.disabled


def test_each_tool_call_is_a_collapsed_card_with_arguments_result_and_usage():
    import ipywidgets as w

    chat = ChatWidget(session())
    type_and_send(chat, OLLAMA)
    cards = [v for v, e in zip(chat.log.children, chat.session.transcript, strict=True) if e.kind == "tool"]
    assert cards and all(isinstance(c, w.Accordion) for c in cards)
    card = cards[0]
    assert card.selected_index is None  # collapsed until opened
    assert card.titles[0].startswith("🔧 search(")
    body = card.children[0].value
    assert "arguments" in body and "result" in body and "tokens" in body and "$0" in body and " ms" in body


def test_step_mode_through_the_checkbox_and_the_step_button():
    chat = ChatWidget(session())
    chat.step_mode.value = True
    assert chat.session.step_mode
    type_and_send(chat, OLLAMA)
    assert kinds(chat.session) == ["user"]
    assert chat.send_button.disabled and not chat.step_button.disabled
    chat.step_button.click()
    assert kinds(chat.session) == ["user", "tool"]
    assert "Press Step" in chat.status.value
    chat.finish_button.click()
    assert kinds(chat.session)[-1] == "assistant"
    assert chat.step_button.disabled and not chat.send_button.disabled
    assert len(chat.log.children) == len(chat.session.transcript)


def test_reset_button_clears_the_view_and_the_session():
    chat = ChatWidget(session())
    type_and_send(chat, OLLAMA)
    chat.reset_button.click()
    assert chat.session.transcript == [] and chat.log.children == ()
    assert "0 calls" in chat.footer.value
    type_and_send(chat, "Can I join the course late?")
    assert len(chat.log.children) == len(chat.session.transcript) > 0


def test_a_follow_up_through_the_widget_keeps_the_conversation():
    chat = ChatWidget(session())
    type_and_send(chat, OLLAMA)
    type_and_send(chat, "How do I run a different model?")
    assert kinds(chat.session).count("user") == 2
    assert chat.session.messages[0]["content"] == OLLAMA


def test_bad_clicks_show_a_message_instead_of_raising():
    chat = ChatWidget(session())
    type_and_send(chat, "  ")
    assert "empty" in chat.status.value and chat.session.transcript == []
    chat.step_mode.value = True
    type_and_send(chat, OLLAMA)
    type_and_send(chat, "second question while the first is running")
    assert "still running" in chat.status.value
    assert kinds(chat.session) == ["user"]


def test_the_plain_text_fallback_is_deterministic():
    chat = ChatWidget(session())
    type_and_send(chat, OLLAMA)
    bundle = chat._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    text = bundle["text/plain"]
    assert text.startswith(f"ChatWidget ({len(chat.session.transcript)} entries; Session: ")
    assert "model_id" not in text and "ms" not in text
    assert ChatWidget(session())._repr_mimebundle_()["text/plain"] == ChatWidget(
        session())._repr_mimebundle_()["text/plain"]


def test_the_widget_redraws_a_session_changed_from_code():
    chat = ChatWidget(session())
    chat.session.send(OLLAMA)
    chat.refresh()
    assert len(chat.log.children) == len(chat.session.transcript)
    chat.session.reset()
    chat.refresh()
    assert chat.log.children == ()


# --- streaming and Enter --------------------------------------------------------------------------------


def watched_session(**options):
    """A streaming session that records what a view would see at each update: entry kinds and partial text."""
    seen = []
    chat = session(stream=True, **options)
    chat.on_update = lambda: seen.append((kinds(chat), chat.partial))
    return chat, seen


def test_a_streaming_session_shows_the_question_then_tool_calls_then_the_answer_as_it_arrives():
    chat, seen = watched_session()
    chat.send(OLLAMA)
    assert seen[0] == (["user"], "")  # the question, before any model call
    first_tool = next(i for i, (k, _) in enumerate(seen) if "tool" in k)
    first_text = next(i for i, (_, partial) in enumerate(seen) if partial)
    assert first_tool < first_text  # the search card is drawn before the answer starts
    partials = [partial for k, partial in seen if partial]
    assert len(partials) > 1 and all(b.startswith(a) for a, b in zip(partials, partials[1:], strict=False))
    assert "assistant" not in seen[first_text][0]  # text arrives while the answer isn't in the transcript yet
    assert seen[-1] == (kinds(chat), "") and kinds(chat)[-1] == "assistant"
    assert partials[-1] == chat.transcript[-1].text  # the streamed text is the answer


def test_each_tool_card_shows_as_soon_as_its_tool_has_run():
    """Several searches in one model response: the view hears of each one before the next tool runs."""
    ran, seen = [], []

    def search_logged(query: str) -> list[dict]:
        """Search the course FAQ."""
        ran.append(query)
        seen_tools = [e for e in chat.transcript if e.kind == "tool"]
        assert len(seen_tools) == len(ran) - 1  # every earlier call of this turn is drawn already
        return search(query)

    client = offline_client()
    chat = ChatSession(client, offline.OFFLINE_MODEL, Tools(search_logged), on_update=lambda: seen.append(kinds(chat)),
                       instructions=INSTRUCTIONS + " Perform several searches at once, then more searches.")
    chat.send(OLLAMA)
    assert len(ran) > 1
    tool_counts = [k.count("tool") for k in seen]
    assert tool_counts[: len(ran) + 1] == list(range(len(ran) + 1))  # one redraw per card, in order


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_streaming_gives_the_same_conversation_as_not_streaming(api):
    plain, (streamed, _) = session(api=api), watched_session(api=api)
    for chat in (plain, streamed):
        chat.send(OLLAMA)
        chat.send("How do I run a different model?")
    assert streamed.as_text() == plain.as_text()
    assert [e.to_dict() | {"latency_s": None} for e in streamed.transcript] == [
        e.to_dict() | {"latency_s": None} for e in plain.transcript]


def test_step_mode_streams_each_step():
    chat, seen = watched_session()
    chat.step_mode = True
    chat.send(OLLAMA)
    while not chat.step():
        pass
    assert any(partial for _, partial in seen) and chat.partial == ""
    assert "Step mode" in chat.status or chat.status.startswith("Ready")


def test_on_text_is_the_sessions_own_business():
    with pytest.raises(TypeError, match="stream=True"):
        session(on_text=print)


def press_enter(chat: ChatWidget, text: str) -> None:
    """What the browser does on Enter: the value is already synced (continuous_update), then a submit event."""
    chat.text.value = text
    chat.text._handle_custom_msg({"event": "submit"}, [])


def test_enter_in_the_text_box_sends_and_clears_it():
    chat = ChatWidget(session())
    press_enter(chat, OLLAMA)
    assert chat.text.value == ""
    assert kinds(chat.session)[0] == "user" and kinds(chat.session)[-1] == "assistant"
    press_enter(chat, "How do I run a different model?")
    assert kinds(chat.session).count("user") == 2
    press_enter(chat, "   ")
    assert "empty" in chat.status.value


def test_the_widget_draws_while_the_loop_runs():
    chat = ChatWidget(session())
    assert chat.session.stream  # the widget turns streaming on
    drawn = []
    redraw = chat.session.on_update

    def watch():
        redraw()
        drawn.append([c.value if c is chat.partial else type(c).__name__ for c in chat.log.children])

    chat.session.on_update = watch
    type_and_send(chat, OLLAMA)
    assert drawn[0] == ["HTML"]  # the question is on screen before the model answers
    assert any("Accordion" in d and len(d) < len(chat.session.transcript) for d in drawn)  # a card, mid-run
    streamed = [d[-1] for d in drawn if isinstance(d[-1], str) and "Agent:" in d[-1]]
    assert streamed and streamed[0].endswith(" …</div>")  # a partial answer drawn under the entries
    assert chat.partial not in chat.log.children  # ... and replaced by the answer at the end
    assert len(chat.log.children) == len(chat.session.transcript)


def test_the_log_keeps_its_newest_entry_in_view():
    chat = ChatWidget(session())
    # A scrolling box with a reversed flex direction stays pinned to its bottom (checked in a real browser by
    # tests/ui/); here, that the log is inside one, in transcript order.
    assert chat.scroller.layout.flex_flow == "column-reverse" and chat.scroller.layout.overflow == "auto"
    assert chat.scroller.children == (chat.log,) and chat.scroller.layout.max_height
    type_and_send(chat, OLLAMA)
    assert "You:" in chat.log.children[0].value and "Agent:" in chat.log.children[-1].value
