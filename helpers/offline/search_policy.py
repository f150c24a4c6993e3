"""The search policy: which queries to send, how to judge what came back, when to search again.

- `keywords`: the question's content words (reading.py's `Reading.terms` adds what a follow-up borrows).
- `keyword_query` / `varied_queries`: queries from those keywords, with close word forms and synonyms.
- `has_key_word`: whether the results hold the question's subject word at all (how much of the question
  the best result contains is reading.py's `Reading.best`).
- `next_searches`: the policy itself. The first batch, then a typo repair ("sourdugh" -> "sourdough") or other
  keywords while results are poor, at most MAX_RETRY_SEARCHES more times.

What it leaves out on purpose: understanding the results. A result is good when it shares the
question's rare words, whatever it says; writing the answer from it is answers.py's job.
"""

from __future__ import annotations

import re
from collections import Counter

from helpers.offline.arguments import required_string_params
from helpers.offline.conversation import Call, Tool, parse_json, to_json
from helpers.offline.knowledge import Vocabulary
from helpers.offline.reading import Reading
from helpers.offline.text import (
    STOP_WORDS,
    SYNONYMS,
    close_words,
    content_words,
    spelling_variants,
    stem,
    stems,
    words,
)

MAX_RETRY_SEARCHES = 2  # extra searches after the first batch, for typo repair or more variety
RELEVANT = 0.5  # share of the question's (rarity-weighted) words a result must contain to stop searching
KEY_WORD_MIN_DOCS = 5  # a subject word (a product's name) recurs across documents; a rare plain word doesn't
MAX_ADDED_WORDS = 3  # close words added to a query: enough to catch other word forms, few enough to stay on topic
FORCED_QUERY_WORDS = 5  # a forced search of a question with no keywords uses its first words



def keywords(question: str) -> list[str]:
    """The question's content words: stop words dropped, order kept.

    Example:
        >>> keywords("How do I bake sourdugh at home?")
        ['bake', 'sourdugh', 'home']
    """
    return content_words(question)


def keyword_query(terms: list[str], extra: bool = True) -> str:
    """A search query from keywords, with one or two close words added (other forms, synonyms).

    Example:
        >>> keyword_query(["bake", "rye", "locally"])
        'bake rye locally local'
    """
    out = list(terms)
    if extra:
        added = 0
        for term in terms:
            for close in close_words(term)[:1]:
                if close not in out and added < MAX_ADDED_WORDS:
                    out.append(close)
                    added += 1
    return " ".join(out)


def varied_queries(terms: list[str], n: int, vocab: Vocabulary) -> list[str]:
    """Up to `n` different queries for the same question, made only of its keywords and their close
    words: all keywords with close words, the rarest keywords, synonyms in place of the words, then
    single keywords. Fewer than `n` when the question holds fewer different queries.

    Example:
        >>> varied_queries(["join", "club", "late"], 2, Vocabulary(["Joining the book club late"]))
        ['join club late joining', 'join club']
    """
    by_rarity = sorted(terms, key=lambda t: -vocab.idf(t))
    candidates = [
        keyword_query(terms),
        " ".join(by_rarity[:2]) if len(terms) > 2 else " ".join(terms + [c for t in terms for c in close_words(t)]),
        " ".join(SYNONYMS.get(t, [t])[0] if t in SYNONYMS else t for t in terms),
        " ".join(by_rarity[:1] + [c for t in by_rarity[:1] for c in close_words(t)]),
        " ".join(terms),
    ]
    # Then each keyword alone, rarest first. A short question has few different queries in it; padding
    # them with words it doesn't contain ("help", "error") would search for something nobody asked.
    candidates += by_rarity[1:]
    queries: list[str] = []
    for q in candidates:
        if q and q not in queries:
            queries.append(q)
    return queries[:n]


# --- the policy: search, judge, search again or stop -----------------------------------------------

def next_searches(reading: Reading, tool: Tool) -> list[tuple[str, str]]:
    """The next search calls: the first batch (several varied queries when the instructions ask for
    several), then at most MAX_RETRY_SEARCHES more while the results are poor (typo repair first, then
    other keywords) or more searches were asked for. An empty list: searching is done, time to answer.

    Example:
        >>> from helpers.offline.conversation import Conversation
        >>> s = Tool("search", "Search the recipes.", {"type": "object", "properties": {"query": {"type": "string"}}})
        >>> next_searches(Reading(Conversation(question="How do I bake rye locally?", tools=[s])), s)
        [('search', '{"query": "bake rye locally local"}')]
    """
    conv, vocab = reading.conv, reading.vocab
    param = required_string_params(tool)[0]
    # A forced search of a question with no keywords still needs a query.
    terms = reading.terms or words(conv.question)[:FORCED_QUERY_WORDS] or [conv.question.strip() or "?"]
    mine = [c for c in conv.calls if c.name == tool.name]
    plan = reading.instructions.searches
    n_wanted = plan.count

    if not mine:
        # Research in rounds searches once per response: the next query needs this one's results.
        n = 1 if plan.sequential or not conv.parallel_tool_calls else n_wanted
        return [(tool.name, to_json({param: q})) for q in varied_queries(terms, n, vocab)]

    sent = [_query_of(c, param) for c in mine]
    batches = len({c.batch for c in mine})
    if reading.lookup_answer is not None and not plan.sequential and len(sent) >= n_wanted:
        return []  # the tool gave one answer to the call made for this question: no other keywords to try
    if plan.limit is not None and len(sent) >= plan.limit:
        return []  # an exact count, or "at most N", is reached: no retry past it
    fixed_terms, corrections = reading.corrected(terms)
    # Results are judged against what was asked: a correction counts once a query has used it.
    asked = {w for q in sent for w in words(q)}
    judged = [fixed if fixed in asked else term for term, fixed in zip(terms, fixed_terms, strict=True)]
    _, score = reading.best(judged)
    # A question word that no result and nothing else in the request holds: check its spelling first,
    # however much of the rest the results cover ("run ... locally" is found, a mistyped name never is).
    probe = spelling_probe(reading, terms, sent) if not corrections else None
    if plan.sequential and batches < n_wanted:
        query = probe or _from_results(reading, terms, sent)
        if query:
            return [(tool.name, to_json({param: query}))]
    if batches <= MAX_RETRY_SEARCHES:
        next_query = None
        if score < RELEVANT and corrections:
            next_query = keyword_query(fixed_terms)  # typo repair: "sourdugh" -> "sourdough"
        elif probe and score < 1:
            next_query = probe
        if (next_query is None or next_query in sent) and (
                len(sent) < n_wanted or (score < RELEVANT and batches == 1)):
            # Asked for more searches, or the first results were poor: try other keywords once.
            options = varied_queries(fixed_terms, len(sent) + 2, vocab)
            next_query = next((q for q in options if q not in sent), None)
        if next_query and next_query not in sent:
            return [(tool.name, to_json({param: next_query}))]
    return []


def spelling_probe(reading: Reading, terms: list[str], sent: list[str]) -> str | None:
    """A query of the other spellings of a name in the question (a word written with a capital inside a
    sentence: "Gerit") that nothing in the request holds
    (text.spelling_variants: "gerit" -> "gerrit geriit ..."), so that the search engine, which knows its
    documents' words, brings back the documents that hold the intended word, and the typo repair then
    finds it among the request's own words. Only when no vocabulary was handed in (one that knew the
    word's corpus would have repaired it already) and only once per word.

    Example:
        >>> from helpers.offline.conversation import Conversation
        >>> conv = Conversation(question="How do I review with Gerit?",
        ...                     calls=[Call("search", '{"query": "review gerit"}', "c1", 0, output="[]")])
        >>> spelling_probe(Reading(conv), ["review", "gerit"], ["review gerit"])
        'ggerit geerit gerrit geriit geritt egrit greit geirt gerti'
    """
    if reading.handed is not None and reading.handed.n_docs > 0:
        return None
    own = {stem(w) for w in reading.own_words}
    names = question_names(reading.conv.question)
    unknown = [t for t in terms if t in names and spelling_variants(t) and stem(t) not in own
               and not reading.vocab.knows(t)]
    if not unknown:
        return None
    word = max(unknown, key=len)  # the longest: the likeliest to be mistyped
    variants = spelling_variants(word)
    if any(v in words(q) for q in sent for v in variants):
        return None  # probed already
    return " ".join(variants)


def question_names(question: str) -> set[str]:
    """The words a question writes with a capital letter inside a sentence, lower-cased: its names.
    An ordinary word the documents lack ("alive") is left alone; a name is what people mistype and
    what the documents would hold.

    Example:
        >>> sorted(question_names("How do I review with Gerit? Is Zephyr needed?"))
        ['gerit', 'zephyr']
    """
    found = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", question):
        for word in re.findall(r"[A-Za-z][\w-]*", sentence)[1:]:
            if word[0].isupper() and not word.isupper():
                found.add(word.lower())
    return found


RESULT_WORDS = 2  # new words a next round takes from the results: enough to steer, few enough to stay on topic


def _from_results(reading: Reading, terms: list[str], sent: list[str]) -> str | None:
    """The next round's query in research by rounds: the question's rarest word plus new words taken
    from the best result (its title first, then the words that recur most across the results), none
    already searched for. None when the results hold no new word.

    Example:
        >>> from helpers.offline.conversation import Conversation
        >>> found = '[{"id": "s1", "question": "Sourdough starter", "answer": "Feed the levain daily."}]'
        >>> conv = Conversation(question="How do I keep a sourdough starter?",
        ...                     calls=[Call("search", '{"query": "sourdough starter"}', "c1", 0, output=found)])
        >>> _from_results(Reading(conv, Vocabulary([])), ["sourdough", "starter"], ["sourdough starter"])
        'sourdough feed levain'
    """
    vocab = reading.vocab
    best, _ = reading.best(terms)
    if best is None:
        return None
    used = {stem(w) for q in sent for w in words(q)} | {stem(t) for t in terms}
    recurring = reading.own_words  # the words the request's documents hold, and in how many
    own = Counter(content_words_all(best["answer"] or best["text"]))
    title = content_words(best["title"])
    body = sorted(own, key=lambda w: (-own[w], -recurring[w], -vocab.idf(w)))
    new: list[str] = []
    for word in dict.fromkeys(title + body):
        if stem(word) not in used and not word.isdigit() and len(word) > 2:
            used.add(stem(word))
            new.append(word)
    if not new:
        return None
    # The question's rarest word that the result also has keeps the new query on the question's subject.
    have = stems(best["text"])
    anchor = [t for t in sorted(terms, key=lambda t: -vocab.idf(t)) if stem(t) in have][:1]
    return " ".join(anchor + new[:RESULT_WORDS])


def content_words_all(text: str) -> list[str]:
    """The content words of a text with their repeats, in order (how often a result says a word counts).

    Example:
        >>> content_words_all("Feed the levain; the levain rises.")
        ['feed', 'levain', 'levain', 'rises']
    """
    return [w for w in words(text) if w not in STOP_WORDS and len(w) > 1]


def _query_of(call: Call, param: str) -> str:
    args = parse_json(call.arguments)
    return str(args.get(param, "")) if isinstance(args, dict) else ""


def has_key_word(reading: Reading, terms: list[str]) -> bool:
    """False when the question's subject (its rarest word that still recurs across the documents, like a
    product's name) is in none of the results: weak matches on common words are then not about the question.

    Example:
        >>> from helpers.offline.conversation import Conversation
        >>> found = '[{"id": "w1", "question": "Wheat bread", "answer": "Wheat bread keeps for three days."}]'
        >>> conv = Conversation(question="How long does rye bread keep?",
        ...                     calls=[Call("search", '{"query": "rye bread"}', "c1", 0, output=found)])
        >>> has_key_word(Reading(conv, Vocabulary(["Rye bread"] * 5 + ["Wheat bread", "Spelt flour"])), ["rye", "bread"])
        False
    """
    vocab = reading.vocab
    subjects = [t for t in terms if vocab.stem_freq.get(stem(t), 0) >= KEY_WORD_MIN_DOCS]
    if not subjects:
        return True
    key = stem(max(subjects, key=vocab.idf))
    return any(key in stems(doc["text"]) for doc in reading.documents)
