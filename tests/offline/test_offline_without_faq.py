"""The course's offline client without the FAQ's vocabulary still answers, and says once, clearly, why it is
weaker. The note is the course's (helpers.faq.vocabulary): the offline model itself knows no FAQ."""

import pytest

import helpers.ingest
from helpers.faq.vocabulary import faq_vocabulary
from helpers.llm import make_client
from helpers.offline import engine, neutral_client
from helpers.offline.knowledge import Vocabulary
from helpers.search import SEARCH_TOOL


@pytest.fixture
def without_faq(monkeypatch):
    """The FAQ cannot be loaded (no archive, no cache, no network), and the vocabulary is not built yet."""
    def unavailable(**_):
        raise RuntimeError("no FAQ archive, no cache and no network")

    monkeypatch.setattr(helpers.ingest, "load_faq_data", unavailable)
    faq_vocabulary.cache_clear()
    yield
    faq_vocabulary.cache_clear()  # the next test builds the real one again


def ask(client, question="How do I run Olama locally?"):
    return client.responses.create(model="offline-rules-v1", input=question, tools=[SEARCH_TOOL])


def test_it_warns_once_and_says_how_to_fix_it(without_faq, capsys):
    client, _ = make_client("offline", verbose=False)
    first = ask(client)
    ask(make_client("offline", verbose=False)[0], "Can I join the course late?")
    err = capsys.readouterr().err
    assert err.count("offline model:") == 1  # once per process, not once per client or call
    assert "misspelled" in err and "FAQ_ARCHIVE" in err and "internet" in err and "restart the kernel" in err
    assert "no FAQ archive" in err  # the reason
    assert first.output[0].type == "function_call"  # weaker, but still working
    assert faq_vocabulary().n_docs == 0


def test_no_warning_with_the_faq(capsys):
    ask(make_client("offline", verbose=False)[0])
    assert "offline model:" not in capsys.readouterr().err


def test_the_offline_model_alone_needs_no_vocabulary_and_prints_nothing(capsys):
    ask(neutral_client())
    engine.decide(engine.Conversation(question="Can I join late?"), Vocabulary([]))
    assert capsys.readouterr().err == ""
