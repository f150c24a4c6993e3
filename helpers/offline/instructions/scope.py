"""A scope: instructions that limit the assistant to a topic, in the instructions' own words.

The grammar: "Only answer questions about X", "You only help with X", "Only discuss X", "Stick to the
topic of X", "Limit yourself to X",
"Help with topics related to X; decline anything else", "The question has to be about X", and the cues that make any instruction a scope
("politely decline", "refuse anything off-topic", "not related to").

- `has_guardrail(text)`: whether the instructions limit the scope at all.
- `scope_of(text)`: the phrase naming the topic ("the Riverside Bakery's products"), or None.
- `read_scope(text)` -> `Scope` (phrase and Topic), or None; `Scope.covers(question, vocab, given)` says
  whether a question is inside it, by topic.py's rule (the scope's words, pointed-back words, the tools'
  descriptions and documents given, and a vocabulary about the topic).

What it leaves out on purpose: scopes by meaning. "Only answer questions about the Riverside Bakery's
products" covers "Do you sell croissants?" only if something given in the request (a tool's
description, a document, a vocabulary) has the word "croissants"; a real model knows croissants are a
bakery's product. A scope with no phrase ("Politely refuse anything off-topic") has no words to match,
so only a vocabulary handed to the client can put a question inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.instructions.clauses import near, unwrap
from helpers.offline.instructions.labels import vocab_topic
from helpers.offline.instructions.topic import Topic, about
from helpers.offline.knowledge import Vocabulary

_GUARDRAIL = re.compile(
    r"\bonly\s+(?:answer|respond|reply|help|discuss|talk|assist|cover|handle)|\b(?:answer|respond|reply)\s+only"
    r"|\bonly\s+(?:use|from|based on|with)\b.{0,40}\b(?:facts?|results?|context|documents?|sources?|material"
    r"|entries|knowledge base|tools?)"
    r"|\b(?:stick|keep|stay)\s+(?:strictly\s+)?(?:to|on|with)\s+the\s+(?:topic|subject)s?\s+of\b"
    r"|\b(?:limit|restrict)\s+(?:yourself|your answers|your replies)\s+to\b"
    r"|\boff[- ]?topic\b|\bunrelated\b|\bout of scope\b|\boutside (?:the |of )?(?:scope|topic|subject)"
    r"|\b(?:politely )?(?:decline|refuse)\b|\bnot (?:related|about)\b",
    re.IGNORECASE)
_UNTIL = r"(?=\s*[.;:,!?\n(]|\s+(?:using|with|from|based|and only|and politely|and decline|and refuse)\b|$)"
# "Only answer questions about the bakery's cakes, using ..." -> "the bakery's cakes": the scope is whatever the
# instructions name after these words, up to the end of that clause. Any topic.
_SCOPE = re.compile(
    rf"\b(?:questions?|topics?|requests?|things|matters|messages?)\s+(?:about|on|related to|regarding|concerning)"
    rf"\s+(?P<a>.{{2,80}}?){_UNTIL}"
    rf"|\bonly\s+(?:help|assist)\s+(?:people\s+|users\s+|customers\s+)?(?:with|on)\s+(?P<b>.{{2,80}}?){_UNTIL}"
    rf"|\bonly\s+(?:discuss|talk about|cover|handle)\s+(?P<c>.{{2,80}}?){_UNTIL}"
    rf"|\b(?:stick|keep|stay)\s+(?:strictly\s+)?(?:to|on|with)\s+the\s+(?:topic|subject)s?\s+of\s+(?P<d>.{{2,80}}?){_UNTIL}"
    rf"|\b(?:limit|restrict)\s+(?:yourself|your answers|your replies)\s+to\s+(?P<e>.{{2,80}}?){_UNTIL}"
    # "The question has to be about X", "Messages must be about X", "it should relate to X"
    rf"|\b(?:has\s+to|have\s+to|must|should|needs?\s+to)\s+(?:be\s+(?:about|on|related\s+to|regarding|concerning)"
    rf"|relate\s+to|concern)\s+(?P<f>.{{2,80}}?){_UNTIL}",
    re.IGNORECASE)


_CUE = ("only", "decline", "refuse", "topic", "unrelated", "scope", "stick", "keep", "stay", "limit", "restrict",
        "not related", "not about")


def has_guardrail(instructions: str) -> bool:
    """True when the instructions limit the assistant to a topic or to the facts it is given.

    Example:
        >>> has_guardrail("Only answer questions about the library's opening hours.")
        True
    """
    return bool(_GUARDRAIL.search(near(instructions or "", _CUE)))


def scope_of(instructions: str) -> str | None:
    """The topic that scope instructions limit the model to, in their own words; None if they name none.

    Example:
        >>> scope_of("Only answer questions about our bakery's products.")
        "our bakery's products"
    """
    match = _SCOPE.search(near(unwrap(instructions or ""), _CUE))
    if match is None:
        return None
    return next(g for g in match.groups() if g).strip()


@dataclass(frozen=True)
class Scope:
    """The topic the assistant is limited to: its phrase (None when unnamed) and its words.

    Example:
        >>> read_scope("Only answer questions about train times.").topic.words
        ('train', 'times')
    """

    phrase: str | None
    topic: Topic

    def covers(self, question: str, vocab: Vocabulary | None = None, given: str = "") -> bool:
        """True when the question is inside the scope (see the module for the rule).

        Example:
            >>> read_scope("Only answer questions about train times.").covers("When is the last train?")
            True
        """
        topic = self.topic.with_words(given) if given else self.topic
        if not topic.words:
            return vocab is not None and vocab.n_docs > 0 and vocab_topic(question, vocab)
        return about(question, topic, vocab)


def read_scope(instructions: str) -> Scope | None:
    """The scope the instructions set, or None when they set none.

    Example:
        >>> read_scope("You only answer questions about the Riverside Bakery's products.").phrase
        "the Riverside Bakery's products"
    """
    if not has_guardrail(instructions):
        return None
    phrase = scope_of(instructions)
    if phrase is None:
        return Scope(None, Topic("", ()))
    sentence = next((s for s in re.split(r"(?<=[.!?])\s+|\n+", instructions) if phrase in s), "")
    return Scope(phrase, Topic.named(phrase, instructions, sentence))
