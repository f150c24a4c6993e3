"""The request's own words: what a model handed no vocabulary knows, and what a request vouches for.

- `request_texts`: the texts a request brings besides its question (instructions, tool descriptions,
  documents in tool outputs and pasted material);
- `request_vocabulary`: a `Vocabulary` of those texts, used when the caller handed in none;
- `request_words`: in how many of them each word stands (typo candidates, and words never "repaired").

What it leaves out on purpose: earlier user messages, which may hold the same typo as the question.
Kept apart from knowledge.py because it reads the instructions (pasted material), and the instructions'
topic rules read knowledge.py's Vocabulary.
"""

from __future__ import annotations

from collections import Counter

from helpers.offline.conversation import Conversation
from helpers.offline.instructions import split_context
from helpers.offline.knowledge import Vocabulary
from helpers.offline.text import words


def request_texts(conv: Conversation, documents: list[dict]) -> list[str]:
    """The texts a request brings besides its question: instructions, tool names and descriptions, the
    `documents` of its tool outputs (conversation.all_documents) and those of material pasted into the
    prompt. Earlier user messages are left out: they may hold the same typo as the question.

    Example:
        >>> request_texts(Conversation(instructions="Answer from the catalogue."), [])
        ['Answer from the catalogue.']
    """
    texts = [conv.instructions] if conv.instructions.strip() else []
    texts += [f"{t.name.replace('_', ' ')} {t.description}" for t in conv.tools]
    texts += [d["text"] for d in documents]
    pasted = split_context(conv.question)
    if pasted is not None:
        texts += [" ".join(str(v) for v in d.values()) for d in pasted[1]]
    return texts


def request_vocabulary(texts: list[str]) -> Vocabulary:
    """The vocabulary of the request's own texts (`request_texts`), for a model handed no vocabulary.

    Example:
        >>> request_vocabulary(["Only answer questions about rye bread."]).knows("rye")
        True
    """
    vocab = Vocabulary(texts, seen_enough=1)
    vocab.from_request = True
    return vocab


def request_words(texts: list[str]) -> Counter:
    """How many of the request's own texts (`request_texts`) hold each word: typo candidates, and words
    the request vouches for (never "repaired").

    Example:
        >>> request_words(["Rye bread. Rye flour."])["rye"]
        1
    """
    counts: Counter = Counter()
    for text in texts:
        counts.update(set(words(text)))
    return counts
