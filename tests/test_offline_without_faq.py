"""The offline model without its FAQ vocabulary still answers, and says once, clearly, why it is weaker."""

import pytest

from helpers.offline import engine, offline_client
from helpers.offline.knowledge import Vocabulary
from helpers.search import SEARCH_TOOL


@pytest.fixture
def without_faq(monkeypatch):
    """The offline model as it runs when the FAQ could not be loaded: an empty vocabulary, not yet warned."""
    monkeypatch.setattr(engine, "faq_vocabulary", lambda: Vocabulary([]))
    monkeypatch.setattr(engine, "_warned_without_faq", False)


def ask(question="How do I run Olama locally?"):
    client = offline_client()
    return client.responses.create(model="offline-rules-v1", input=question, tools=[SEARCH_TOOL])


def test_it_warns_once_and_says_how_to_fix_it(without_faq, capsys):
    first = ask()
    ask("Can I join the course late?")
    err = capsys.readouterr().err
    assert err.count("offline model:") == 1  # once per process, not once per call
    assert "misspelled" in err and "FAQ_ARCHIVE" in err and "internet" in err and "restart the kernel" in err
    assert first.output[0].type == "function_call"  # weaker, but still working


def test_no_warning_with_the_faq(monkeypatch, capsys):
    monkeypatch.setattr(engine, "_warned_without_faq", False)
    ask()
    assert "offline model:" not in capsys.readouterr().err


def test_an_explicit_vocabulary_is_the_callers_choice(monkeypatch, capsys):
    monkeypatch.setattr(engine, "_warned_without_faq", False)
    engine.decide(engine.Conversation(question="Can I join late?"), Vocabulary([]))
    assert capsys.readouterr().err == ""
