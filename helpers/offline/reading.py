"""One reading of a request: what the rules work on, made once per request by engine.decide.

Two parts, both built once per request:
- the constraints (`constraints`): the tools that may be called (`tool_choice` "none", `allowed_tools`, a
  named function and an instruction not to use tools applied), whether a call is forced on every turn, the
  tools that take the final answer, and the response format asked for;
- the reading (`Reading`): the question, the instructions understood, the documents, each tool output read
  once by call (`output`: its data, its error, its documents), the latest response's calls (`latest`), and
  what the rules work out from them.

A `Reading` holds the conversation, the tools that may be called, and what the rules read from them,
each worked out once, when a rule first asks: the instructions understood, the documents in the tool
outputs, the request's own texts (instructions, tool descriptions, documents, pasted material) and their
words, the vocabulary in use (the one handed in, else one of those texts), whether the question is about
the vocabulary's topics, the question's terms (a follow-up borrows the previous question's rarest
words), their typo repairs, and the best result for them. The rules (engine.py, search_policy.py,
answers.py) take the Reading instead of working these out again.

What it leaves out on purpose: every decision (it says what the request holds, never what to do), and
earlier user messages among the request's own texts: they may hold the same typo as the question.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from helpers.offline.cjk import is_cjk, mark_names
from helpers.offline.conversation import (
    Call,
    Conversation,
    Tool,
    failed_calls,
    parse_documents,
    read_output,
    tool_error,
)
from helpers.offline.instructions import (
    Instructions,
    LabelRule,
    given_text,
    read_instructions,
    read_labels,
    schema_in_text,
    split_context,
)
from helpers.offline.knowledge import TOPIC_THRESHOLD, Vocabulary
from helpers.offline.small_talk import small_talk
from helpers.offline.text import content_words, stem, stems, word_list, words

FOLLOW_UP_WORDS = 2  # rare words a follow-up question borrows from the previous question
# Ranking results: a match in a document's title (its name) outweighs the same match in its body,
# and the search engine's own order breaks what is left of a tie. Both stay below one term's weight.
TITLE_BONUS = 0.1
RANK_PENALTY = 0.01
# An output that says it holds nothing is no answer, whatever its shape ("No results.", "not found").
_EMPTY = re.compile(r"^\W*(?:no\s+(?:results?|matches|match|entries|data|records|answer|information)|nothing\b|not\s+found"
                    r"|none\b|null\b|n/?a\b|unknown\b|\[\s*\]|\{\s*\})", re.IGNORECASE)
# A notice in place of the result ("The search result was withheld: it gave orders.") is no answer either.
_WITHHELD = re.compile(r"^[^.!?\n]{0,80}\b(?:is|was|were|are|has\s+been|have\s+been)\s+(?:withheld|blocked|removed"
                       r"|redacted|hidden|filtered(?:\s+out)?|suppressed|dropped|unavailable|not\s+available)\b",
                       re.IGNORECASE)
LOOKUP_MIN_WORDS = 3  # a one- or two-word output ("ok", "done") states no answer to quote
_REFERRING = frozenset(word_list("it its this that these those there them they different another other else "
                                 "same instead also"))


@dataclass(frozen=True)
class Constraints:
    """What the request allows, read once: `offered` are the tools that may be called (routing tools
    included), `must_call` says a call is forced on every turn, `reply_tools` are those among them that take
    the final answer (`final_result`), `output_format` the `text.format` / `response_format` asked for."""

    offered: list[Tool]
    must_call: bool = False
    reply_tools: list[Tool] = field(default_factory=list)
    output_format: dict | None = None


def constraints(conv: Conversation, instructions: Instructions, is_reply_tool=lambda tool: False) -> Constraints:
    """The constraints of a request: `tool_choice` (mode, `allowed_tools`, a named function) and an
    instruction not to use tools applied to the tools offered. `is_reply_tool` tells a tool that takes the
    final answer (engine.py hands in arguments.is_reply_tool).

    Example:
        >>> search = Tool("search", "Search the notes.")
        >>> constraints(Conversation(tools=[search], tool_choice="required"), read_instructions("")).must_call
        True
        >>> constraints(Conversation(tools=[search]), read_instructions("Do not use any tools.")).offered
        []
    """
    offered = [] if conv.tool_choice == "none" else list(conv.tools)
    if conv.allowed is not None:  # tool_choice "allowed_tools": only these may be called
        offered = [t for t in offered if t.name in conv.allowed]
    if conv.forced is not None:  # a named function (api/wire.py made sure it is offered)
        offered = [t for t in offered if t.name == conv.forced]
    must_call = bool(offered) and conv.tool_choice == "required"
    if not must_call and conv.forced is None and instructions.no_tools:
        offered = []  # "Do not use any tools" (instructions/tool_use.py): as tool_choice "none"
    return Constraints(offered, must_call, [t for t in offered if is_reply_tool(t)], conv.output_format)


@dataclass(frozen=True)
class ToolOutput:
    """One tool output read once: its data (read_output), the error it reports (tool_error) or None, and the
    documents it holds (parse_documents)."""

    data: object
    error: str | None
    documents: list[dict]


@dataclass
class Reading:
    """A request as the rules read it. `handed`: the vocabulary the caller handed in (None: the request's
    own words are the vocabulary); `tools`: the tools that may be called (tool_choice applied);
    `must_call`: tool_choice forces a call on every turn; `limits`: the request's constraints (None: those of
    `tools` and `must_call` alone).

    Example:
        >>> reading = Reading(Conversation(question="How do I bake sourdugh?", instructions="Sourdough only."))
        >>> reading.terms, reading.corrected(reading.terms)
        (['bake', 'sourdugh'], (['bake', 'sourdough'], {'sourdugh': 'sourdough'}))
    """

    conv: Conversation
    handed: Vocabulary | None = None
    tools: list[Tool] = field(default_factory=list)
    must_call: bool = False
    limits: Constraints | None = None
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # results per set of terms

    @cached_property
    def instructions(self) -> Instructions:
        """The instructions understood (instructions.read_instructions)."""
        return read_instructions(self.conv.instructions)

    @cached_property
    def constraints(self) -> Constraints:
        """What the request allows (the tools that may be called, a forced call, the format)."""
        return self.limits or Constraints(list(self.tools), self.must_call, [], self.conv.output_format)

    @property
    def question(self) -> str:
        """The latest user message."""
        return self.conv.question

    @cached_property
    def latest(self) -> list[Call]:
        """The calls of the latest response that got an output (the batch a decision answers)."""
        answered = [c for c in self.conv.calls if c.output is not None]
        batch = max((c.batch for c in answered), default=None)
        return [c for c in answered if c.batch == batch]

    def output(self, call: Call) -> ToolOutput:
        """A call's output, read once (its data, error and documents).

        Example:
            >>> Reading(Conversation()).output(Call("search", "{}", "c1", 0, '{"error": "timeout"}')).error
            'timeout'
        """
        key = ("output", call.call_id, call.batch, call.output)
        if key not in self._memo:
            text = call.output or ""
            self._memo[key] = ToolOutput(read_output(text), tool_error(text), parse_documents(text))
        return self._memo[key]

    def read(self, call: Call) -> tuple[object, str | None]:
        """A call's output as (data, error), read once (`output`): what results.combine_results takes."""
        output = self.output(call)
        return output.data, output.error

    @cached_property
    def failed(self) -> list[Call]:
        """This turn's well-formed calls whose tool failed, when every well-formed call failed; else []
        (conversation.failed_calls, on the outputs as read once)."""
        return failed_calls(self.conv, lambda call: self.output(call).error)

    @cached_property
    def named_question(self) -> str:
        """The question with its names marked: in Chinese or Japanese no capitals mark them, so the pieces no
        tool text covers are taken as names (cjk.mark_names); any other question as it is."""
        question = self.conv.question
        return mark_names(question, self.given) if is_cjk(question) else question

    @cached_property
    def prompted_schema(self) -> dict | None:
        """A JSON schema the instructions give for the answer ("respond with a JSON object compatible with this
        schema: ..."), or None."""
        return schema_in_text(self.conv.instructions) or self.instructions.form.json_schema

    @cached_property
    def labels(self) -> LabelRule | None:
        """The labels to answer with: the instructions', else those the user's own message names."""
        return self.instructions.labels or read_labels(self.conv.question)

    @cached_property
    def outputs(self) -> list[list[dict]]:
        """Each tool output of the turn read as documents (conversation.parse_documents)."""
        return [self.output(c).documents for c in self.conv.calls]

    @cached_property
    def documents(self) -> list[dict]:
        """Every document in the turn's tool outputs, once each, with its rank in the output it came from."""
        docs, seen = [], set()
        for output in self.outputs:
            for rank, doc in enumerate(output):
                key = (doc["id"], doc["title"]) if doc["id"] else doc["text"]
                if key not in seen:
                    seen.add(key)
                    docs.append({**doc, "rank": rank})
        return docs

    @cached_property
    def texts(self) -> list[str]:
        """The request's own texts besides its question: instructions, tool names and descriptions, the
        documents in tool outputs and in material pasted into the prompt.

        Example:
            >>> Reading(Conversation(instructions="Answer from the catalogue.")).texts
            ['Answer from the catalogue.']
        """
        conv = self.conv
        texts = [conv.instructions] if conv.instructions.strip() else []
        texts += [f"{t.name.replace('_', ' ')} {t.description}" for t in conv.tools]
        texts += [d["text"] for d in self.documents]
        pasted = split_context(conv.question)
        if pasted is not None:
            texts += [" ".join(str(v) for v in d.values()) for d in pasted[1]]
        return texts

    @cached_property
    def lookup_answer(self) -> dict | None:
        """The answer a tool gave to the call made for this question, when the latest response made one
        call and its output is one answer (a text, or one object), not a list of documents to choose from,
        not empty, not a notice that the result was withheld, and not an error. It is evidence for the question the tool was called for, however few
        words it shares with it: the tool was chosen for the question, as a specialist's own lookup is.

        Example:
            >>> from helpers.offline.conversation import Call
            >>> conv = Conversation(question="How long until I get my money back?", calls=[
            ...     Call("lookup_returns", '{"question": "money back"}', "c1", 0, "Refunds take 14 days.")])
            >>> Reading(conv).lookup_answer["answer"], Reading(conv).lookup_answer["title"]
            ('Refunds take 14 days.', 'lookup_returns')
        """
        calls = self.conv.calls
        if not calls:
            return None
        latest = [c for c in calls if c.batch == calls[-1].batch]
        if len(latest) != 1 or latest[0].output is None or self.output(latest[0]).error is not None:
            return None
        output = latest[0].output.strip()
        data = read_output(output) if output != latest[0].output else self.output(latest[0]).data
        if isinstance(data, list) or _EMPTY.match(output) or _WITHHELD.match(output) \
                or len(words(output)) < LOOKUP_MIN_WORDS:
            return None
        docs = parse_documents(output) if output != latest[0].output else self.output(latest[0]).documents
        if len(docs) != 1 or _EMPTY.match(docs[0]["answer"] or docs[0]["text"] or ""):
            return None
        doc = dict(docs[0])
        texts = [v for v in data.values() if isinstance(v, str)] if isinstance(data, dict) else []
        if len(data if isinstance(data, dict) else ()) == 1 and len(texts) == 1:  # {"policy": "Refunds ..."}
            doc["answer"] = texts[0]
        # Named by its own name field, else by the tool that gave it.
        return {**doc, "title": doc["title"] or latest[0].name, "rank": 0, "score": 1.0}

    @cached_property
    def vocab(self) -> Vocabulary:
        """The vocabulary in use: the one handed in, else one of the request's own texts, which rates
        words but never joins a topic (`Vocabulary.from_request`)."""
        if self.handed is not None:
            return self.handed
        vocab = Vocabulary(self.texts, seen_enough=1)
        vocab.from_request = True
        return vocab

    @cached_property
    def own_words(self) -> Counter:
        """In how many of the request's own texts each word stands: typo candidates, and words the request
        vouches for (never "repaired")."""
        return Counter(w for text in self.texts for w in set(words(text)))

    @cached_property
    def given(self) -> str:
        """The tools' names and descriptions, whose words join every topic (instructions.given_text)."""
        return given_text(self.conv)

    @cached_property
    def small_talk(self) -> str | None:
        """The answer to a greeting, thanks or arithmetic (small_talk.py), or None."""
        return small_talk(self.conv.question)

    @cached_property
    def on_topic(self) -> bool:
        """True when the question is about the vocabulary's topics (Vocabulary.topic_score)."""
        return self.vocab.topic_score(self.conv.question) >= TOPIC_THRESHOLD

    @cached_property
    def terms(self) -> list[str]:
        """The keywords to work with: the question's own, plus, for a follow-up that leans on an earlier
        question ("And a different loaf?" after one about sourdough), the rarest words of the previous
        question (typos repaired), as a person reading the whole conversation would.

        Example:
            >>> Reading(Conversation(question="And on Windows?", earlier=["Install Postgres?"]),
            ...         Vocabulary(["Install Postgres on Linux", "Install Postgres on Windows"])).terms
            ['windows', 'install', 'postgres']
        """
        conv, vocab = self.conv, self.vocab
        terms = content_words(conv.question)
        if not conv.earlier:
            return terms
        refers = bool(set(words(conv.question)) & _REFERRING)
        if not refers and self.on_topic:
            return terms  # a question that stands on its own keeps its own words
        previous = [vocab.correct(t) or t for t in content_words(conv.earlier[-1])]
        borrowed = [t for t in sorted(previous, key=lambda t: -vocab.idf(t)) if t not in terms and vocab.knows(t)]
        return terms + borrowed[:FOLLOW_UP_WORDS]

    def corrected(self, terms: list[str]) -> tuple[list[str], dict[str, str]]:
        """Terms with typos replaced by the closest word of the vocabulary or of the request's own texts
        (tool outputs, instructions, tool descriptions), and the replacements made. A word those texts use
        is never "repaired" (see Vocabulary.correct for the whole rule).

        Example:
            >>> Reading(Conversation(instructions="Baking sourdough.")).corrected(["bake", "sourdugh"])
            (['bake', 'sourdough'], {'sourdugh': 'sourdough'})
        """
        key = ("corrected", *terms)
        if key not in self._memo:
            corrections = {t: fixed for t in terms if (fixed := self.vocab.correct(t, self.own_words))}
            self._memo[key] = [corrections.get(t, t) for t in terms], corrections
        return self._memo[key]

    def best(self, terms: list[str], require: tuple[str, ...] = ()) -> tuple[dict | None, float]:
        """The document that covers most of the terms, and its coverage. A match in the document's name
        counts more than one in its body; the search engine's own rank breaks near-ties. `require`: words
        of which the document must hold one, when any document does (a repaired typo: what was asked about).

        Example:
            >>> from helpers.offline.conversation import Call
            >>> found = '[{"id": "p1", "question": "How to install Postgres?", "answer": "Use the installer."}]'
            >>> Reading(Conversation(calls=[Call("search", '{"query": "postgres"}', "c1", 0, output=found)]),
            ...         Vocabulary([])).best(["install", "postgres"])
            ({'title': 'How to install Postgres?', 'answer': 'Use the installer.', 'text': 'How to install
            Postgres? Use the installer.', 'id': 'p1', 'rank': 0, 'score': 1.0}, 1.0)
        """
        key = ("best", *terms, "|", *require)
        if key not in self._memo:
            best, best_key = None, None
            needed = {stem(w) for w in require}
            pool = [d for d in self.documents if needed & stems(d["text"])] if needed else []
            for doc in pool or self.documents:
                score = self.coverage(terms, doc["text"])
                rank_key = score + TITLE_BONUS * self.coverage(terms, doc["title"]) - RANK_PENALTY * doc["rank"]
                if best_key is None or rank_key > best_key:
                    best, best_key = {**doc, "score": score}, rank_key
            self._memo[key] = best, (best["score"] if best else 0.0)
        return self._memo[key]

    def coverage(self, terms: list[str], text: str) -> float:
        """Share of the terms (weighted by rarity) that a text contains, as any word form.

        Example:
            >>> Reading(Conversation(), Vocabulary([])).coverage(["install", "postgres"], "How to install Postgres?")
            1.0
        """
        if not terms:
            return 0.0
        have = stems(text)
        total = sum(self.vocab.idf(t) for t in terms)
        return sum(self.vocab.idf(t) for t in terms if stem(t) in have) / total
