"""A topic as the instructions word it, and whether a question is about it.

The words of a topic are the content words of the phrase that names it ("about baking bread" ->
baking, bread), never a built-in list. A phrase that points back ("these branches", "their loans", "the
above") also takes in the content words of the instructions' other sentences, where the things it
points at are named, and so does every other sentence that uses one of the phrase's own words ("the
branches" takes in "The branches lend books, maps and films"). What else counts as the topic's words, from the request itself:
- the descriptions of the tools offered and the documents pasted into the prompt;
- a vocabulary handed to the client (`vocab`), but only when that vocabulary is about the topic: every
  word of the phrase that names the topic (or of one of the things it lists: "the library's loans, or
  chess") is one of the vocabulary's words, and at least half of them are its title words (its
  documents' questions or sections, not words they only use in passing). A client built with a library's
  vocabulary then reads "these branches" with all the library's words; a prompt about baking bread sent
  through the same client is read with the prompt's words alone.

`share(question, topic, vocab)`: how much of the question (its content words, rare words weighing
most: the vocabulary's rarity when it has one, else every word alike) the topic's words cover; a word
counts in any form ("baked" for "baking") and with a typo (three quarters). `about(...)` is True from
NAMED_SHARE on, or when the vocabulary that joins the topic scores the question from TOPIC_THRESHOLD on.

What it leaves out on purpose: meaning. "How long should dough rise?" shares no word with "baking
bread", so it is not about it for these rules, though a real model would know it is. Words about the
conversation itself (question, message, user, reply, ...) are never topic words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.knowledge import TOPIC_PRIOR, TOPIC_THRESHOLD, Vocabulary
from helpers.offline.text import content_words, edit_distance, stem, typo_limit, word_list

# From this share of the question's weight on the topic's words, the question is about the topic: one
# topic word among a question of up to five content words (1 / (5 + TOPIC_PRIOR) ~ 0.17).
NAMED_SHARE = 0.15
TYPO_CREDIT = 0.75  # a misspelt topic word still counts, a little less than the word itself

# Words that talk about the conversation, not about a topic: "if the *question* is *about* X".
META_WORDS = frozenset(word_list("""
question questions message messages user users request requests input inputs text texts query queries prompt
topic topics subject subjects reply replies answer answers respond responds response word words label labels
assistant assistants ask asks asked asking say says classify classifies screen screens decide decides
related relates relating regarding concerning concern concerns otherwise else whether everything anything
nothing none always never exactly one single unrelated irrelevant relevant off-topic on-topic
scope politely refuse decline
help helps helping discuss discusses talk talks deal deals matter matters thing things stuff kind kinds
"""))
# Words that point back at what the instructions name elsewhere: "these branches", "their loans".
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
# What separates the things a phrase lists: "X, Y or Z", "X and Y", "X/Y", "X (Y)".
_ALTERNATIVES = re.compile(r"[,;/()]|\b(?:or|and|as well as|plus)\b", re.IGNORECASE)
_POINTING = re.compile(r"\b(?:these|those|this|that|such|their|its|the above|the following|the said|"
                       r"the mentioned|the listed)\s+(?!question|message|request|user|input|text)\w", re.IGNORECASE)


@dataclass(frozen=True)
class Topic:
    """The words that make a topic, with the phrase the instructions name it by.

    Example:
        >>> Topic.named("baking bread").words
        ('baking', 'bread')
    """

    phrase: str
    words: tuple[str, ...]
    own: tuple[str, ...] = ()  # the phrase's own words, without what other sentences added

    @classmethod
    def named(cls, phrase: str, instructions: str = "", exclude: str = "") -> Topic:
        """The topic a phrase names. What the instructions say elsewhere (outside `exclude`, the sentence
        the phrase stands in) about it joins it: every other sentence that uses one of the phrase's words,
        and, when the phrase points back ("these branches"), every other sentence.

        Example:
            >>> Topic.named("these branches", "Branches on maps and films.").words
            ('branches', 'maps', 'films')
        """
        found = _topic_words(phrase)
        own = {stem(w) for w in found}
        pointing = bool(_POINTING.search(phrase))
        for sentence in _SENTENCE.split(instructions or ""):
            if not sentence.strip() or (exclude and sentence.strip() in exclude):
                continue
            more = _topic_words(sentence)
            if pointing or own & {stem(w) for w in more}:
                found += more
        return cls(phrase.strip(), tuple(dict.fromkeys(found)), tuple(dict.fromkeys(_topic_words(phrase))))

    def with_words(self, text: str) -> Topic:
        """The same topic with the content words of `text` (tool descriptions, pasted documents) added.

        Example:
            >>> Topic.named("cakes").with_words("Search the cake catalogue").words
            ('cakes', 'search', 'cake', 'catalogue')
        """
        more = _topic_words(text)
        return Topic(self.phrase, tuple(dict.fromkeys(self.words + tuple(more))), self.own)


def _topic_words(text: str) -> list[str]:
    return [w for w in content_words(text) if w not in META_WORDS and not w.isdigit()]


def covers(vocab: Vocabulary | None, topic: Topic) -> bool:
    """True when a vocabulary is about the topic, or about one of the things its phrase lists ("these
    courses, or films and recipes"): every word of that part is one of the vocabulary's words, and at
    least half of them are its title words (what its documents are about, not a word they use in passing).

    Example:
        >>> covers(Vocabulary(["bread dough oven", "bread flour"]), Topic.named("bread or films"))
        True
    """
    # The request's own words (reading.Reading.vocab) are no documents about anything: they rate
    # words, they never join a topic (else every prompt's topic would "cover" itself).
    if not (vocab is not None and vocab.n_docs and not vocab.from_request and (topic.own or topic.words)):
        return False
    # A part, not the whole phrase: adding "or films" to a guard must widen it, not cut the documents' words
    # out of it. Half the words titled, not all: a part naming several things ("the Acme courses, their
    # homework") often has a name the documents only mention in passing ("Acme"); a word they never use at all
    # still means the part names something else ("cooking" for a course's documents).
    parts = [_topic_words(part) for part in _ALTERNATIVES.split(topic.phrase)] if topic.own else [list(topic.words)]
    for own in (p for p in parts if p):
        titled = sum(not vocab.in_passing(w) for w in own if vocab.knows(w))
        if all(vocab.knows(w) for w in own) and 2 * titled >= len(own):
            return True
    return False


def share(question: str, topic: Topic, vocab: Vocabulary | None = None) -> float:
    """The share of the question's weight that the topic's words cover, from 0 to 1 (see the module).

    Example:
        >>> share("Can I bake bread without yeast?", Topic.named("baking bread"))
        0.4
    """
    own = {stem(w) for w in topic.words}
    spelled = [w for w in topic.words if typo_limit(w)]
    # Rarity comes from documents about something (a handed-in vocabulary). The request's own texts always
    # hold the topic's words (the instructions name them), so their counts would make the topic's own words
    # the commonest, and weigh them least: every word weighs alike then.
    rated = vocab is not None and vocab.n_docs > 0 and not vocab.from_request
    total, earned = TOPIC_PRIOR, 0.0
    for word in content_words(question):
        if word in META_WORDS or word.isdigit():
            continue
        weight = vocab.idf(word) if rated else 1.0
        total += weight
        if stem(word) in own:
            earned += weight
        elif typo_limit(word) and any(edit_distance(word, t, typo_limit(word)) <= typo_limit(word) for t in spelled
                                      if abs(len(t) - len(word)) <= typo_limit(word)):
            earned += weight * TYPO_CREDIT
    return earned / total


def about(question: str, topic: Topic, vocab: Vocabulary | None = None) -> bool:
    """True when the question is about the topic: its words, or a vocabulary about the topic (module).

    Example:
        >>> about("Can I bake bread without yeast?", Topic.named("baking bread"))
        True
    """
    if share(question, topic, vocab) >= NAMED_SHARE:
        return True
    return vocab is not None and covers(vocab, topic) and vocab.topic_score(question) >= TOPIC_THRESHOLD
