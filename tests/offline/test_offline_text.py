"""The small text rules under the offline model: words, stems, typos, instruction reading, entities."""

import pytest

from helpers.offline.arguments import entities
from helpers.offline.instructions import has_guardrail, label_choice, wanted_searches, wants_follow_up
from helpers.offline.knowledge import Vocabulary
from helpers.offline.text import content_words, edit_distance, stem


def test_content_words_drop_stop_words_and_keep_order():
    assert content_words("How do I run Olama locally?") == ["run", "olama", "locally"]
    assert content_words("my OPENAI_API_KEY isn't found") == ["openai_api_key", "found"]


def test_word_forms_share_a_stem():
    assert stem("installing") == stem("installed") == stem("install")
    assert stem("certificates") == stem("certificate")
    assert stem("running") == stem("run")


@pytest.mark.parametrize("a,b,d", [("olama", "ollama", 1), ("teh", "the", 1), ("ollama", "llama", 1),
                                   ("docker", "docker", 0), ("abcdef", "uvwxyz", 3)])
def test_edit_distance(a, b, d):
    assert edit_distance(a, b, limit=2) == min(d, 3)


def test_typo_repair_prefers_same_first_letter_then_frequency():
    vocab = Vocabulary(["ollama install", "ollama run", "llama model", "llama weights", "llama size"])
    assert vocab.correct("olama") == "ollama"  # "llama" is as close and more frequent, but starts differently
    assert vocab.correct("zzzzzz") is None and vocab.correct("llama") is None


@pytest.mark.parametrize("text,n", [("Search more than once.", 3), ("Use multiple search queries.", 3),
                                    ("Do at least 2 searches.", 2), ("Make at least four different queries", 4),
                                    ("Answer the question.", 1)])
def test_wanted_searches(text, n):
    assert wanted_searches(text) == n


def test_reading_instructions():
    assert has_guardrail("If the question is off-topic, politely decline.")
    assert not has_guardrail("You are a helpful assistant.")
    assert wants_follow_up("Finish with a follow-up question for the student.")
    assert label_choice("Reply with exactly one word: ALLOW or BLOCK") == ("ALLOW", "BLOCK")
    assert label_choice("Respond only with OFF_TOPIC or ON_TOPIC.") == ("ON_TOPIC", "OFF_TOPIC")
    assert label_choice("Answer yes or no: is this about the course?") == ("yes", "no")
    assert label_choice("Answer the student's question.") is None


@pytest.mark.parametrize("question,expected", [
    ("Compare the weather in Berlin and Madrid", ["Berlin", "Madrid"]),
    ("What's the weather like in New York?", ["New York"]),
    ('Find the user "ada_l"', ["ada_l"]),
    ("weather in paris and rome", ["Paris", "Rome"]),
])
def test_entities(question, expected):
    assert entities(question) == expected
