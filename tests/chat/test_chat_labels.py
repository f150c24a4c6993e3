"""The chat widget names the agent that speaks and each tool's label (an MCP server), and a chat session can run
several agents with handoffs (helpers.chat.speakers, helpers.chat.agents)."""

from helpers.agents import Agent
from helpers.chat.agents import AgentChatSession
from helpers.chat.speakers import speaker, tool_label, transfer_target
from helpers.chat.ui import ChatWidget, Entry
from helpers.offline import neutral_client
from helpers.tools import Tools


def desks():
    def loans_notes(query: str) -> list:
        """Search the loans desk's notes."""
        return [{"id": "l1", "title": "Renewing a book loan", "answer": "Renew twice online."}]

    def events_notes(query: str) -> list:
        """Search the events desk's notes."""
        return [{"id": "e1", "title": "When the book club meets", "answer": "On Mondays."}]

    loans = Agent("Loans agent", "Answer from your notes.", Tools(loans_notes), "Renews book loans.")
    events = Agent("Events agent", "Answer from your notes.", Tools(events_notes), "Knows the book club.")
    return Agent("Triage", "Hand the conversation to the right agent.", handoffs=[loans, events])


def test_transfer_target_reads_only_transfer_outputs():
    assert transfer_target('{"assistant": "Loans agent"}') == "Loans agent"
    assert transfer_target('{"assistant": "x", "other": 1}') is None
    assert transfer_target("not json") is None


def test_speaker_follows_the_last_handoff_before_the_entry():
    first = Entry("assistant", text="Hello")
    handed = Entry("tool", name="transfer_to_events_agent", output='{"assistant": "Events agent"}')
    later = Entry("assistant", text="On Mondays.")
    transcript = [Entry("user", text="Hi"), first, handed, later]
    assert speaker(transcript, first, "Triage") == "Triage"
    assert speaker(transcript, later, "Triage") == "Events agent"
    assert speaker(transcript, later, labels={"Events agent": "Events desk"}) == "Events desk"


def test_tool_label_is_empty_without_a_label():
    assert tool_label("search", None) == ""
    assert tool_label("search", {"search": "faq-server"}) == " · faq-server"


def test_a_session_hands_over_and_keeps_the_specialist_for_the_follow_up():
    chat = AgentChatSession(neutral_client(), "offline-rules-v1", desks())
    assert "Mondays" in chat.send("When does the book club meet?").text
    assert chat.agent.name == "Events agent" and chat.instructions == "Answer from your notes."
    assert [s["name"] for s in chat.schemas] == ["events_notes"]
    chat.reset()
    assert chat.agent.name == "Triage" and chat.tools.keys() == {"transfer_to_loans_agent", "transfer_to_events_agent"}


def test_a_chat_completions_session_swaps_the_system_message():
    chat = AgentChatSession(neutral_client(), "offline-rules-v1", desks(), api="chat")
    chat.send("Can I renew my book loan?")
    assert chat.messages[0] == {"role": "system", "content": "Answer from your notes."}
    assert chat.agent.name == "Loans agent"


def test_the_widget_shows_the_speaker_and_the_tool_labels():
    widget = ChatWidget(AgentChatSession(neutral_client(), "offline-rules-v1", desks()),
                        labels={"events_notes": "events-server (MCP)", "Events agent": "Events desk"})
    widget.text.value = "When does the book club meet?"
    widget.submit()
    shown = [getattr(child, "value", "") for child in widget.log.children]
    titles = [child.titles[0] for child in widget.log.children if hasattr(child, "titles")]
    assert any("Events desk:" in text for text in shown)
    assert any("events_notes" in t and "events-server (MCP)" in t for t in titles)
    assert any(t.startswith("🔧 transfer_to_events_agent") for t in titles)


def test_a_plain_session_still_says_agent():
    from helpers.chat.ui import demo_session

    widget = ChatWidget(demo_session())
    widget.text.value = "Can I join late?"
    widget.submit()
    assert any("Agent:" in getattr(child, "value", "") for child in widget.log.children)


def test_the_text_transcript_names_the_agents_and_the_tool_labels():
    widget = ChatWidget(AgentChatSession(neutral_client(), "offline-rules-v1", desks()),
                        labels={"events_notes": "events-server", "Events agent": "Events desk"})
    widget.session.send("When does the book club meet?")
    lines = widget.as_text().splitlines()
    assert any(line.startswith("Events desk: ") and "Mondays" in line for line in lines)
    assert any("events_notes(" in line and " · events-server -> " in line for line in lines)
    assert not any(line.startswith(("agent:", "Triage:")) for line in lines)  # the triage agent only handed over
    # the session alone, without labels: the agents' own names, no tool labels
    plain = widget.session.as_text()
    assert "\nEvents agent: " in plain and " · events-server" not in plain


def test_the_first_agent_speaks_until_a_handoff():
    chat = AgentChatSession(neutral_client(), "offline-rules-v1", desks())
    chat.send("Hello there")  # matches no desk's description: the triage agent answers itself
    assert chat.as_text().splitlines()[1].startswith("Triage: ")


def test_a_plain_session_text_still_says_agent():
    from helpers.chat.ui import demo_session

    chat = demo_session()
    chat.send("Can I join late?")
    assert "\nagent: " in chat.as_text() and " · " not in chat.as_text().splitlines()[1]
