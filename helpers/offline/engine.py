"""The offline model's rules: from a conversation, decide to answer in text or to call tools.

The whole "model" is `decide(conversation) -> Decision`. It reads the conversation the way a careful
person would read it, with simple rules:

1. No tool to call: answer from what is already in the conversation (tool results), or say plainly
   that it has no course-specific knowledge. If the instructions ask for exactly one label ("ALLOW or
   BLOCK", "yes or no"), answer one label, chosen by whether the question is about the FAQ's topics.
2. A search-like tool (one required string parameter, named or described like a search): call it with
   the question rewritten as keywords. Asked for several searches: several varied queries at once.
3. After search results: judge them by how many of the question's words (weighted by rarity) the best
   result contains. Poor results and a word that looks like a typo of a FAQ word: search again with the
   corrected word (at most twice). Then answer from the best result and name the FAQ entry it came from,
   or say nothing relevant was found (a polite refusal if the instructions limit it to course questions).
4. Other tools: fill string arguments from names in the question (capitalised words, quoted text,
   enum values), numbers for numeric parameters; one call per name, one per turn; then combine results.

What it leaves out on purpose: language understanding. It does not know what words mean, only which
words match. Its answers are extracts, never new text. Every decision depends only on the request, so
the same request always gets the same decision.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

from helpers.offline import knowledge
from helpers.offline.knowledge import Vocabulary, faq_vocabulary
from helpers.offline.text import (
    STOP_WORDS,
    SYNONYMS,
    close_words,
    content_words,
    stem,
    stems,
    word_list,
    words,
)

MAX_RETRY_SEARCHES = 2  # extra searches after the first batch, for typo repair or more variety
RELEVANT = 0.5  # share of the question's (rarity-weighted) words a result must contain to stop searching
# After the searches, a weaker result still answers a question that is about the FAQ's topics.
ANSWERABLE = 0.3
TOPIC_THRESHOLD = 0.55  # topic score from which a question counts as being about the FAQ
EXTRACT_CHARS = 320  # longest extract quoted from a FAQ answer
WITHOUT_FAQ = ("offline model: running without the course FAQ's vocabulary, so it cannot repair misspelled words "
               "or tell course questions from other questions, and its answers are weaker. The FAQ could not be "
               "loaded (no cached copy in data/ and no download). To fix it, set FAQ_ARCHIVE=/path/to/faq.zip in "
               ".env (or connect to the internet), then restart the kernel.")
_warned_without_faq = False  # the note is printed once per process, not on every model call


@dataclass
class Tool:
    """A function the caller offers: name, description, JSON-schema parameters."""

    name: str
    description: str = ""
    parameters: dict = field(default_factory=dict)


@dataclass
class Call:
    """A tool call made earlier in the current turn, with the output the caller sent back (if any)."""

    name: str
    arguments: str
    call_id: str
    batch: int  # which model response made it: calls made together share a batch number
    output: str | None = None


@dataclass
class Conversation:
    """Everything the rules look at, independent of the wire format (Responses or Chat Completions)."""

    instructions: str = ""
    question: str = ""  # the text of the last user message
    earlier: list[str] = field(default_factory=list)  # earlier user messages, oldest first
    calls: list[Call] = field(default_factory=list)  # calls after the last user message, in order
    tools: list[Tool] = field(default_factory=list)
    tool_choice: str | dict = "auto"
    parallel_tool_calls: bool = True
    fault: str | None = None  # "bad_arguments" | "unknown_tool" | "never_stop" | None


@dataclass
class Decision:
    """What the model does: say `text`, or make `calls` (a list of (tool name, arguments JSON))."""

    text: str | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------
# Reading the instructions. General phrasings, not sentences from one notebook.

_MULTI_SEARCH = re.compile(
    r"\b(?:multiple|several|different|various|many|a few|diverse|varied)\s+(?:\w+\s+){0,2}?"
    r"(?:search(?:es)?|quer(?:y|ies)|keywords?|phrasings?|formulations?)\b"
    r"|\bsearch(?:es)?\s+(?:more than once|several times|multiple times|repeatedly|again)"
    r"|\bmore than one\s+(?:search|query)"
    r"|\bat least\s+(\d+|two|three|four|five)\s+(?:\w+\s+)?(?:search(?:es)?|quer(?:y|ies)|times)\b",
    re.IGNORECASE)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
_GUARDRAIL = re.compile(
    r"\bonly\s+(?:answer|respond|reply|help|discuss|talk)|\b(?:answer|respond|reply)\s+only"
    r"|\bonly\s+(?:use|from|based on|with)\b.{0,40}\b(?:faq|facts?|results?|context|documents?|course)"
    r"|\boff[- ]?topic\b|\bunrelated\b|\bout of scope\b|\boutside (?:the |of )?(?:scope|course)"
    r"|\b(?:politely )?(?:decline|refuse)\b|\bnot (?:related|about)\b",
    re.IGNORECASE)
_FOLLOW_UP = re.compile(
    r"follow[- ]?up|(?:end|finish|close)\s+(?:\w+\s+){0,3}with\s+(?:a|one)\s+question"
    r"|ask\s+(?:\w+\s+){0,3}(?:further|clarifying|next|another)\s+question|suggest\s+(?:\w+\s+){0,3}question",
    re.IGNORECASE)
# "Reply with exactly one word: ALLOW or BLOCK", "Answer yes or no", "respond with ON_TOPIC/OFF_TOPIC"
_LABEL_CUE = re.compile(r"\b(?:exactly one|only one|one word|single word|only with|only the word|just)\b"
                        r"|\b(?:answer|reply|respond|output|return|say)\b[^.\n]{0,30}\b(?:yes or no)\b",
                        re.IGNORECASE)
_LABEL_PAIR = re.compile(r"(?<![\w'])([A-Za-z][\w-]{0,19})\s*(?:,?\s+or\s+|\s*/\s*|\s*\|\s*)([A-Za-z][\w-]{0,19})"
                         r"(?![\w'])")
_POSITIVE = {"allow", "allowed", "yes", "true", "relevant", "on_topic", "on-topic", "ontopic", "pass", "ok",
             "safe", "accept", "valid", "in_scope", "course", "related", "approve", "1"}
_NEGATIVE = {"block", "blocked", "no", "false", "irrelevant", "off_topic", "off-topic", "offtopic", "fail",
             "unsafe", "reject", "invalid", "out_of_scope", "unrelated", "deny", "refuse", "0"}


def wanted_searches(instructions: str) -> int:
    """How many searches the instructions ask for: 1, or 2-5 when they ask for several.

    Example: wanted_searches("Make at least 3 searches with different keywords") -> 3
    """
    match = _MULTI_SEARCH.search(instructions)
    if not match:
        return 1
    if match.group(1):
        n = _NUMBER_WORDS.get(match.group(1).lower()) or int(match.group(1))
        return max(2, min(n, 5))
    return 3


def has_guardrail(instructions: str) -> bool:
    """True when the instructions limit the assistant to course questions or to FAQ facts.

    Example: has_guardrail("Only answer questions about the course.") -> True
    """
    return bool(_GUARDRAIL.search(instructions))


def wants_follow_up(instructions: str) -> bool:
    """True when the instructions ask to end with a follow-up question.

    Example: wants_follow_up("End your answer with a follow-up question.") -> True
    """
    return bool(_FOLLOW_UP.search(instructions))


def label_choice(text: str) -> tuple[str, str] | None:
    """The (positive, negative) labels of a "reply with exactly one of ..." instruction, or None.

    Example: label_choice("Reply with exactly one word: ALLOW or BLOCK") -> ("ALLOW", "BLOCK")
    """
    if not _LABEL_CUE.search(text):
        return None
    for sentence in re.split(r"(?<=[.!?\n])\s+", text):
        if not _LABEL_CUE.search(sentence):
            continue
        for a, b in _LABEL_PAIR.findall(sentence):
            if a.lower() in STOP_WORDS - {"yes", "no"} or b.lower() in STOP_WORDS - {"yes", "no"}:
                continue
            return _polarity(a, b)
        # "ALLOW if the question is about X, BLOCK otherwise": labels written in capitals, not side by side.
        capitals = list(dict.fromkeys(_CAPITAL_LABEL.findall(sentence)))
        if len(capitals) == 2:
            return _polarity(*capitals)
    return None


_CAPITAL_LABEL = re.compile(r"(?<![\w'])([A-Z][A-Z_-]{1,19})(?![\w'])")


def _polarity(a: str, b: str) -> tuple[str, str]:
    """Order two labels as (positive, negative) when their words say which is which."""
    if a.lower() in _NEGATIVE or b.lower() in _POSITIVE:
        return (b, a)
    return (a, b)


# ---------------------------------------------------------------------------------------------------
# Keywords and queries

def keywords(question: str) -> list[str]:
    """The question's content words: stop words dropped, order kept.

    Example: keywords("How do I run Olama locally?") -> ["run", "olama", "locally"]
    """
    return content_words(question)


_REFERRING = frozenset(word_list("it its this that these those there them they different another other else "
                                 "same instead also"))
FOLLOW_UP_WORDS = 2  # rare words a follow-up question borrows from the previous question


def question_terms(conv: Conversation, vocab: Vocabulary) -> list[str]:
    """The keywords to work with: the question's own, plus, for a follow-up that leans on an earlier
    question ("How do I run a different model?" after one about Ollama), the rarest words of the previous
    question (typos repaired), as a person reading the whole conversation would.

    Example: question_terms(Conversation(question="And on Windows?", earlier=["Install Ollama?"]), v)
             -> ["windows", "ollama", "install"]
    """
    terms = keywords(conv.question)
    if not conv.earlier:
        return terms
    refers = bool(set(words(conv.question)) & _REFERRING)
    if not refers and vocab.topic_score(conv.question) >= TOPIC_THRESHOLD:
        return terms  # a question that stands on its own keeps its own words
    previous = [vocab.correct(t) or t for t in keywords(conv.earlier[-1])]
    borrowed = [t for t in sorted(previous, key=lambda t: -vocab.idf(t)) if t not in terms and vocab.knows(t)]
    return terms + borrowed[:FOLLOW_UP_WORDS]


def keyword_query(terms: list[str], extra: bool = True) -> str:
    """A search query from keywords, with one or two close words added (other forms, synonyms).

    Example: keyword_query(["run", "olama", "locally"]) -> "run olama locally running local"
    """
    out = list(terms)
    if extra:
        added = 0
        for term in terms:
            for close in close_words(term)[:1]:
                if close not in out and added < 3:
                    out.append(close)
                    added += 1
    return " ".join(out)


def varied_queries(terms: list[str], n: int, vocab: Vocabulary) -> list[str]:
    """`n` different queries for the same question: all keywords with close words, the keywords alone,
    the rarest keywords, and synonyms in place of the words.

    Example: varied_queries(["join", "course", "late"], 2, vocab) -> ["join course late joining ...", "join late"]
    """
    by_rarity = sorted(terms, key=lambda t: -vocab.idf(t))
    candidates = [
        keyword_query(terms),
        " ".join(by_rarity[:2]) if len(terms) > 2 else " ".join(terms + [c for t in terms for c in close_words(t)]),
        " ".join(SYNONYMS.get(t, [t])[0] if t in SYNONYMS else t for t in terms),
        " ".join(by_rarity[:1] + [c for t in by_rarity[:1] for c in close_words(t)]),
        " ".join(terms),
    ]
    queries: list[str] = []
    for q in candidates:
        if q and q not in queries:
            queries.append(q)
    while len(queries) < n:  # very short questions: vary by adding a general word
        queries.append(f"{queries[0]} {['faq', 'how', 'help', 'error', 'guide'][len(queries) % 5]}")
    return queries[:n]


# ---------------------------------------------------------------------------------------------------
# Tools

_SEARCHY = re.compile(r"search|query|find|lookup|look up|retriev|faq|knowledge|docs|documents", re.IGNORECASE)


def _required_string_params(tool: Tool) -> list[str]:
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or list(props)
    return [p for p in required if _param_type(props.get(p, {})) == "string"]


def _param_type(schema: dict) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"]
        kind = next((k for k in kind if k != "null"), "string")
    if kind is None and "anyOf" in schema:
        kind = next((s.get("type") for s in schema["anyOf"] if s.get("type") not in (None, "null")), None)
    return kind or "string"


_QUERY_PARAM = re.compile(r"query|keyword|search|question|text|term|prompt|^q$|^input$", re.IGNORECASE)
_ENTITY_PARAM = re.compile(r"name|id$|city|user|email|country|location|date|place|code", re.IGNORECASE)


def is_search_like(tool: Tool) -> bool:
    """A tool with exactly one (required) string parameter that takes a query: the parameter is named or
    described like one ("query", "keywords"), or the tool reads like a search and the parameter is not
    a name of something ("city", "username").

    Example: is_search_like(Tool("search", "Search the FAQ", {"properties": {"query": {"type": "string"}},
             "required": ["query"]})) -> True
    """
    required = _required_string_params(tool)
    params = (tool.parameters or {}).get("properties") or {}
    all_required = (tool.parameters or {}).get("required") or list(params)
    if len(required) != 1 or len(all_required) != 1:
        return False
    name = required[0]
    description = str(params.get(name, {}).get("description", ""))
    if _QUERY_PARAM.search(name) or _QUERY_PARAM.search(description):
        return True
    return bool(_SEARCHY.search(f"{tool.name} {tool.description}")) and not _ENTITY_PARAM.search(name)


def _tool_words(tool: Tool) -> tuple[set[str], set[str]]:
    name_words = {stem(w) for w in re.split(r"[_\W]+", tool.name.lower()) if w and w not in STOP_WORDS}
    desc_words = {stem(w) for w in content_words(tool.description)}
    return name_words - {"get", "set"}, desc_words


def tool_relevance(tool: Tool, question: str) -> float:
    """How strongly a question points at a tool: 2 per question word in the tool's name, 1 per word in its
    description (word forms matched by stem).

    Example: tool_relevance(Tool("get_weather", "Current weather for a city"), "Weather in Berlin?") -> 3.0
    """
    name_words, desc_words = _tool_words(tool)
    q = {stem(w) for w in content_words(question)}
    return 2.0 * len(q & name_words) + 1.0 * len(q & desc_words)


# ---------------------------------------------------------------------------------------------------
# Reading tool outputs

def parse_documents(output: str) -> list[dict]:
    """Tool output (normally a JSON list of FAQ entries, but any JSON or plain text) as a list of
    documents {"title", "text", "answer", "id", "section", "course"}.

    Example: parse_documents('[{"question": "Q?", "answer": "A."}]') -> [{"title": "Q?", "answer": "A.", ...}]
    """
    try:
        data = json.loads(output)
    except (TypeError, ValueError):
        data = output
    if isinstance(data, dict):
        if "error" in data and len(data) <= 3:
            return []
        for key in ("results", "documents", "items", "data", "hits"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
    items = data if isinstance(data, list) else [data]
    docs = []
    for item in items:
        if isinstance(item, dict):
            strings = {k: v for k, v in item.items() if isinstance(v, str | int | float) and not isinstance(v, bool)}
            title = str(item.get("question") or item.get("title") or item.get("name") or "")
            answer = str(item.get("answer") or item.get("text") or item.get("content") or item.get("body") or "")
            if not title and not answer:
                answer = "; ".join(f"{k}: {v}" for k, v in strings.items())
            docs.append({"title": title, "answer": answer, "text": f"{title} {answer}",
                         "id": str(item.get("id", "")), "section": str(item.get("section", "")),
                         "course": str(item.get("course", ""))})
        elif isinstance(item, str) and item.strip():
            docs.append({"title": "", "answer": item, "text": item, "id": "", "section": "", "course": ""})
    return docs


def coverage(terms: list[str], text: str, vocab: Vocabulary) -> float:
    """Share of the terms (weighted by rarity) that a text contains, as any word form.

    Example: coverage(["install", "ollama"], "How to install Ollama?", vocab) -> 1.0
    """
    if not terms:
        return 0.0
    have = stems(text)
    total = sum(vocab.idf(t) for t in terms)
    return sum(vocab.idf(t) for t in terms if stem(t) in have) / total


# ---------------------------------------------------------------------------------------------------
# The decision

def decide(conv: Conversation, vocab: Vocabulary | None = None) -> Decision:
    """Decide the next step of the conversation: a text answer or tool calls.

    Example: decide(Conversation(question="Can I join late?", tools=[search_tool])).calls
             -> [("search", '{"query": "join late joining ..."}')]
    """
    if vocab is None:
        vocab = faq_vocabulary()
        if vocab.n_docs == 0:
            _warn_without_faq()
    choice = conv.tool_choice
    callable_tools = [] if choice == "none" else list(conv.tools)
    forced = None
    if isinstance(choice, dict):
        name = choice.get("name") or (choice.get("function") or {}).get("name")
        callable_tools = [t for t in callable_tools if t.name == name] or callable_tools
        forced = callable_tools[0] if callable_tools else None
    must_call = bool(callable_tools) and (choice == "required" or forced is not None)

    decision = _decide(conv, callable_tools, must_call, vocab)
    return _apply_fault(conv, decision, callable_tools, vocab)


def _warn_without_faq() -> None:
    # Silently weaker answers would look like the rules' fault; say once why, and how to fix it.
    global _warned_without_faq
    if not _warned_without_faq:
        _warned_without_faq = True
        reason = knowledge.faq_load_error
        print(WITHOUT_FAQ + (f" (The error was: {reason})" if reason else ""), file=sys.stderr, flush=True)


def _decide(conv: Conversation, tools: list[Tool], must_call: bool, vocab: Vocabulary) -> Decision:
    question = conv.question
    used = {c.name for c in conv.calls}
    if not tools or (_small_talk(question) and not must_call and not conv.calls):
        return Decision(text=answer_without_tools(conv, vocab))
    searchy = [t for t in tools if is_search_like(t)]
    others = [t for t in tools if t not in searchy]

    # A tool already used in this turn keeps the lead; otherwise the question's words pick one:
    # its name must be mentioned, or its description and the question must name something.
    other = next((t for t in others if t.name in used), None)
    if other is None and others:
        best = max(others, key=lambda t: tool_relevance(t, question))
        relevance = tool_relevance(best, question)
        if relevance >= 2 or (relevance >= 1 and _entities_for(best, question)):
            other = best
    if other is not None:
        return _entity_step(conv, other, must_call)

    search = next((t for t in searchy if t.name in used), searchy[0] if searchy else None)
    if search is not None and (question_terms(conv, vocab) or must_call):
        return _search_step(conv, search, vocab)
    if must_call:
        return _entity_step(conv, tools[0], must_call=True)
    return Decision(text=answer_without_tools(conv, vocab))


def answer_without_tools(conv: Conversation, vocab: Vocabulary) -> str:
    """The text answer when no tool is called: from earlier tool outputs if any, a label if asked for
    one, a small-talk or arithmetic reply, or an honest "I have no course-specific knowledge".

    Example: answer_without_tools(Conversation(question="Can I join?"), vocab) -> "I don't have ..."
    """
    if conv.calls:
        searchy_outputs = [c for c in conv.calls if parse_documents(c.output or "") and
                           any(d["title"] for d in parse_documents(c.output or ""))]
        if searchy_outputs:
            return _grounded_answer(conv, vocab)
        return _combine_results(conv)
    pasted = split_context(conv.question)
    if pasted is not None:
        # The prompt carries its own reference material (a RAG prompt): answer from it exactly as from
        # search results, as if the material had come back from a tool.
        question, documents = pasted
        as_results = Call(PASTED, "{}", PASTED, 0, json.dumps(documents, ensure_ascii=False))
        instructions = f"{conv.instructions}\n{conv.question[: conv.question.find(question)]}"
        return _grounded_answer(Conversation(instructions=instructions, question=question, calls=[as_results]),
                                vocab)
    labels = label_choice(conv.instructions) or label_choice(conv.question)
    if labels:
        text = conv.question
        if label_choice(conv.question) and not label_choice(conv.instructions):
            # The label instruction is inside the user's text: classify the rest of it.
            text = " ".join(s for s in re.split(r"(?<=[.!?\n])\s+", text) if not label_choice(s))
        return labels[0] if vocab.topic_score(text) >= TOPIC_THRESHOLD else labels[1]
    small = _small_talk(conv.question)
    if small:
        return small
    terms = keywords(conv.question)
    if has_guardrail(conv.instructions) and vocab.topic_score(conv.question) < TOPIC_THRESHOLD:
        return _refusal(conv)
    topic = " ".join(terms[:6]) or "that"
    if vocab.topic_score(conv.question) >= TOPIC_THRESHOLD:
        return (f"I don't have course-specific information about \"{topic}\". I am answering without "
                f"looking anything up, so I can only say in general terms: check the course FAQ, its "
                f"website, or ask in the course's community channel.")
    return (f"I don't have specific information about \"{topic}\", and I am answering without looking "
            f"anything up, so I can't give you a reliable answer. A tool or a document about it would help.")


# --- reference material pasted into the prompt ---------------------------------------------------------

PASTED = "<pasted material>"  # stands in for a tool name when the prompt itself carries the documents
_CONTEXT_HEADER = re.compile(
    r"^[ \t#*]*(?:context|documents?|sources?|references?|search results|faq(?: entries)?|knowledge(?: base)?)"
    r"[ \t*]*:?[ \t*]*$|^[ \t#*]*(?:CONTEXT|DOCUMENTS|SOURCES)[ \t]*:", re.IGNORECASE | re.MULTILINE)
_QUESTION_LINE = re.compile(r"^[ \t#*]*(?:question|user question|query)[ \t*]*:[ \t]*(.+)$",
                            re.IGNORECASE | re.MULTILINE)
_FIELD_LINE = re.compile(r"^[ \t-]*([A-Za-z][\w ]{0,20}?)[ \t]*:[ \t]*(.*)$")


def split_context(text: str) -> tuple[str, list[dict]] | None:
    """Split a prompt that carries reference material into (the question, the material as documents).
    The material starts at a header line such as "CONTEXT:" or "Documents"; the question is a
    "QUESTION: ..." line before it, or else the text before it. None when there is no such material.

    Example: split_context("QUESTION: Can I join?\n\nCONTEXT:\nquestion: Join late?\nanswer: Yes.")
             -> ("Can I join?", [{"question": "Join late?", "answer": "Yes."}])
    """
    header = _CONTEXT_HEADER.search(text)
    if header is None:
        return None
    before, material = text[: header.start()], text[header.end():]
    asked = _QUESTION_LINE.findall(before)
    question = asked[-1].strip() if asked else " ".join(before.split()[-60:])
    documents = _documents_in(material)
    if not question or not documents:
        return None
    return question, documents


def _documents_in(material: str) -> list[dict]:
    """Documents in pasted material: JSON, or "key: value" records (a record starts each time the first
    key comes again; lines without a key continue the field before them), or else paragraphs."""
    stripped = material.strip()
    if stripped[:1] in "[{":
        docs = parse_documents(stripped)
        if docs:
            return [{"id": d["id"], "question": d["title"], "answer": d["answer"]} for d in docs]
    records: list[dict] = []
    first_key, current, field_name = None, None, None
    for line in stripped.splitlines():
        match = _FIELD_LINE.match(line)
        key = match.group(1).strip().lower() if match else None
        if key is not None and (first_key is None or key == first_key or current is not None and key not in current):
            if first_key is None:
                first_key = key
            if key == first_key or current is None:
                current = {}
                records.append(current)
            current[key] = match.group(2)
            field_name = key
        elif current is not None and field_name is not None:
            current[field_name] += "\n" + line
    records = [r for r in records if len(r) >= 2]
    if records:
        return [{"id": str(r.get("id", "")), "question": (r.get("question") or r.get("title") or "").strip(),
                 "answer": (r.get("answer") or r.get("text") or r.get("content") or "").strip()} for r in records]
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", stripped) if p.strip()]
    return [{"id": "", "question": "", "answer": p} for p in paragraphs]


# --- search path -------------------------------------------------------------------------------------

def _search_step(conv: Conversation, tool: Tool, vocab: Vocabulary) -> Decision:
    param = _required_string_params(tool)[0]
    terms = question_terms(conv, vocab) or words(conv.question)[:5] or ["help"]  # a forced search of a wordless question
    mine = [c for c in conv.calls if c.name == tool.name]
    n_wanted = wanted_searches(conv.instructions)

    if not mine:
        n = n_wanted if conv.parallel_tool_calls else 1
        return Decision(calls=[(tool.name, _args({param: q})) for q in varied_queries(terms, n, vocab)])

    sent = [_query_of(c, param) for c in mine]
    batches = len({c.batch for c in mine})
    fixed_terms, corrections = _corrected(terms, conv, vocab)
    # Results are judged against what was asked: a correction counts once a query has used it.
    asked = {w for q in sent for w in words(q)}
    judged = [fixed if fixed in asked else term for term, fixed in zip(terms, fixed_terms, strict=True)]
    _, score = _best_result(conv, judged, vocab)
    if batches <= MAX_RETRY_SEARCHES:
        next_query = None
        if score < RELEVANT and corrections:
            next_query = keyword_query(fixed_terms)  # typo repair: "olama" -> "ollama"
        if (next_query is None or next_query in sent) and (
                len(sent) < n_wanted or (score < RELEVANT and batches == 1)):
            # Asked for more searches, or the first results were poor: try other keywords once.
            options = varied_queries(fixed_terms, len(sent) + 2, vocab)
            next_query = next((q for q in options if q not in sent), None)
        if next_query and next_query not in sent:
            return Decision(calls=[(tool.name, _args({param: next_query}))])
    return Decision(text=_grounded_answer(conv, vocab))


def _query_of(call: Call, param: str) -> str:
    try:
        return str(json.loads(call.arguments).get(param, ""))
    except (ValueError, AttributeError):
        return ""


def _output_words(conv: Conversation) -> Counter:
    counts: Counter = Counter()
    for call in conv.calls:
        for doc in parse_documents(call.output or ""):
            counts.update(set(words(doc["text"])))
    return counts


def _corrected(terms: list[str], conv: Conversation, vocab: Vocabulary) -> tuple[list[str], dict[str, str]]:
    """Terms with typos replaced by the closest FAQ (or tool output) word, and the replacements made."""
    seen = _output_words(conv)
    corrections = {}
    for term in terms:
        fixed = vocab.correct(term, seen)
        if fixed:
            corrections[term] = fixed
    return [corrections.get(t, t) for t in terms], corrections


def _all_documents(conv: Conversation) -> list[dict]:
    docs, seen = [], set()
    for call in conv.calls:
        for rank, doc in enumerate(parse_documents(call.output or "")):
            key = (doc["id"], doc["title"]) if doc["id"] else doc["text"]
            if key not in seen:
                seen.add(key)
                docs.append({**doc, "rank": rank})
    return docs


def _best_result(conv: Conversation, terms: list[str], vocab: Vocabulary) -> tuple[dict | None, float]:
    """The document that covers most of the question, and its coverage. A match in the entry's question
    counts more than one in its answer; the search engine's own rank breaks near-ties."""
    best, best_key = None, None
    for doc in _all_documents(conv):
        score = coverage(terms, doc["text"], vocab)
        key = score + 0.1 * coverage(terms, doc["title"], vocab) - 0.01 * doc["rank"]
        if best_key is None or key > best_key:
            best, best_key = {**doc, "score": score}, key
    return best, (best["score"] if best else 0.0)


def _grounded_answer(conv: Conversation, vocab: Vocabulary) -> str:
    terms, _ = _corrected(question_terms(conv, vocab), conv, vocab)
    best, score = _best_result(conv, terms, vocab)
    if best is None or score < RELEVANT and (
            score < ANSWERABLE or vocab.topic_score(conv.question) < TOPIC_THRESHOLD
            or not _has_key_word(conv, terms, vocab)):
        if has_guardrail(conv.instructions):
            return _refusal(conv)
        if all(c.name == PASTED for c in conv.calls):
            return ("The material I was given doesn't answer your question, so I can't answer it from there. "
                    "It may need other documents.")
        queries = [q for c in conv.calls if (q := _first_string_arg(c))]
        tried = ", ".join(f'"{q}"' for q in dict.fromkeys(queries)) or "your question"
        return (f"I searched the FAQ ({tried}) but found nothing relevant to your question, so I can't "
                f"answer it from the FAQ. Try rephrasing it with other keywords.")
    name = best["title"] or "the search result"
    source = f' [{best["id"]}]' if best["id"] else ""
    text = f'According to the FAQ entry "{name}"{source}: {extract(best["answer"] or best["text"], terms)}'
    if wants_follow_up(conv.instructions):
        topic = next((t for t in sorted(terms, key=lambda t: -vocab.idf(t))), "this")
        text += f" Would you like to know more about {topic}, or is there anything else about the course I can help with?"
    return text


KEY_WORD_MIN_DOCS = 5  # a subject word ("kafka", "terraform") recurs across FAQ entries; a rare plain word doesn't


def _has_key_word(conv: Conversation, terms: list[str], vocab: Vocabulary) -> bool:
    """False when the question's subject (its rarest word that still recurs across the FAQ, like "kafka")
    is in none of the results: weak matches on common words are then not about the question."""
    subjects = [t for t in terms if vocab.stem_freq.get(stem(t), 0) >= KEY_WORD_MIN_DOCS]
    if not subjects:
        return True
    key = stem(max(subjects, key=vocab.idf))
    return any(key in stems(doc["text"]) for doc in _all_documents(conv))


def _first_string_arg(call: Call) -> str:
    try:
        args = json.loads(call.arguments)
    except ValueError:
        return ""
    return next((v for v in args.values() if isinstance(v, str)), "") if isinstance(args, dict) else ""


def _refusal(conv: Conversation) -> str:
    return ("Sorry, I can only help with questions about the course, and I found nothing about that in "
            "the course FAQ. Could you ask a question about the course?")


def extract(answer: str, terms: list[str], limit: int = EXTRACT_CHARS) -> str:
    """A short extract of an answer: its sentences that share most words with the question, in their
    original order, up to `limit` characters. Markdown links and code fences become plain text.

    Example: extract("Yes, you can join. Submit the project in time.", ["join"]) -> "Yes, you can join. ..."
    """
    text = re.sub(r"```[\w-]*\n?(.*?)```", lambda m: " `" + " ".join(m.group(1).split()) + "` ", answer,
                  flags=re.DOTALL)
    text = re.sub(r"!?\[([^\]]*)\]\(([^)]*)\)", lambda m: m.group(2) if m.group(1) in m.group(2) else m.group(1),
                  text)
    text = re.sub(r"[*_]{2,}|^#+\s*|^\s*[-*]\s+", "", text, flags=re.MULTILINE)
    pieces: list[str] = []
    for piece in re.split(r"(?<=[.!?:])\s+|\n+", text):
        piece = piece.strip()
        if piece.count("`") % 2:  # an inline code span cut in two by the split
            piece = piece.replace("`", "")
        if not piece:
            continue
        if pieces and pieces[-1].endswith(":") and piece.startswith("`"):
            pieces[-1] = f"{pieces[-1]} {piece}"  # keep "type:" together with the command it introduces
        else:
            pieces.append(piece)
    if not pieces:
        return ""
    term_stems = {stem(t) for t in terms}
    scored = sorted(range(len(pieces)), key=lambda i: (-len(stems(pieces[i]) & term_stems), i))
    chosen: list[int] = []
    length = 0
    for i in [0] + scored:  # the first sentence usually carries the direct answer
        if i in chosen:
            continue
        if length + len(pieces[i]) > limit and chosen:
            break
        chosen.append(i)
        length += len(pieces[i]) + 3
        if len(chosen) >= 3:
            break
    out = ""
    for n, i in enumerate(sorted(chosen)):
        piece = pieces[i][:-1] + "." if pieces[i].endswith(":") else pieces[i]
        gap = "" if n == 0 else (" " if i == sorted(chosen)[n - 1] + 1 else " \u2026 ")
        out += gap + piece
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0] + "\u2026"
    return out


# --- other tools: entities ---------------------------------------------------------------------------

_SENTENCE_START_VERBS = frozenset(word_list("""
compare tell show give find check look search list send book call create make add set turn please let
help explain describe calculate convert translate fetch get what which who where when how is are can
could would should do does did will shall may might i what's whats and or but also then compute
"""))
_QUOTED = re.compile(r"\"([^\"]{1,80})\"|(?<!\w)'([^']{1,80})'(?!\w)|\u201c([^\u201d]{1,80})\u201d")
_CAPITALISED = re.compile(r"\b[A-Z][\w.-]*(?:\s+(?:of|de|la|del|von|van|da)?\s*[A-Z][\w.-]*)*")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def entities(question: str, tool: Tool | None = None) -> list[str]:
    """Names in a question: quoted strings, then capitalised words and phrases that are not just a
    sentence-initial "What"/"Compare", or words from the tool's own name. Without capitals, the words
    after "in", "for", "at", "of" (and after a following "and").

    Example: entities("Compare the weather in Berlin and Madrid") -> ["Berlin", "Madrid"]
    """
    tool_stems = set().union(*_tool_words(tool)) if tool else set()
    found: list[str] = []
    for groups in _QUOTED.findall(question):
        value = next(g for g in groups if g)
        if value not in found:
            found.append(value)
    unquoted = _QUOTED.sub(" ", question)
    for match in _CAPITALISED.finditer(unquoted):
        phrase = match.group(0).strip(" .-")
        first = phrase.split()[0]
        start = match.start()
        at_sentence_start = start == 0 or re.search(r"[.!?:]\s*$", unquoted[:start]) is not None
        if at_sentence_start and first.lower().strip("'") in _SENTENCE_START_VERBS | STOP_WORDS:
            phrase = " ".join(phrase.split()[1:])
            if not phrase:
                continue
        if phrase.lower() in STOP_WORDS or stem(phrase.lower()) in tool_stems or phrase == "I":
            continue
        if phrase not in found:
            found.append(phrase)
    if not found:
        tail = re.findall(r"\b(?:in|for|at|of|about|from|to)\s+([a-z][\w-]+)((?:\s*(?:,|and)\s*[a-z][\w-]+)*)",
                          unquoted.lower())
        for head, rest in tail:
            for word in [head] + re.findall(r"[a-z][\w-]+", rest):
                if word not in STOP_WORDS and word != "and" and stem(word) not in tool_stems:
                    value = word.title()
                    if value not in found:
                        found.append(value)
    return found


def _entities_for(tool: Tool, question: str) -> list[str]:
    if not _required_string_params(tool) and not (tool.parameters or {}).get("properties"):
        return []
    return entities(question, tool)


def _fill_arguments(tool: Tool, question: str, entity: str | None, others: list[str]) -> dict:
    """Arguments for one call: the entity in the first free string parameter, enum values mentioned in
    the question, numbers from the question for numeric parameters."""
    props = (tool.parameters or {}).get("properties") or {}
    required = set((tool.parameters or {}).get("required") or [])
    lowered = question.lower()
    numbers = _NUMBER.findall(question)
    pool = ([entity] if entity else []) + [e for e in others if e != entity]
    args: dict = {}
    for name, schema in props.items():
        kind = _param_type(schema)
        enum = schema.get("enum")
        if enum:
            mentioned = [v for v in enum if isinstance(v, str) and re.search(rf"\b{re.escape(v.lower())}", lowered)]
            if mentioned:
                args[name] = mentioned[0]
            elif name in required:
                args[name] = schema.get("default", enum[0])
        elif kind == "string":
            if pool:
                args[name] = pool.pop(0)
            elif name in required:
                args[name] = schema.get("default") or " ".join(keywords(question)[:4]) or question
        elif kind in ("number", "integer"):
            if numbers:
                value = float(numbers.pop(0))
                args[name] = int(value) if kind == "integer" or value.is_integer() else value
            elif name in required:
                args[name] = schema.get("default", 1)
        elif kind == "boolean" and name in required:
            args[name] = bool(schema.get("default", False))
        elif kind == "array" and name in required:
            args[name] = list(pool)
            pool = []
    return args


def _entity_step(conv: Conversation, tool: Tool, must_call: bool = False) -> Decision:
    found = _entities_for(tool, conv.question)
    string_params = [p for p, s in ((tool.parameters or {}).get("properties") or {}).items()
                     if _param_type(s) == "string" and not s.get("enum")]
    mine = [c for c in conv.calls if c.name == tool.name]
    if len(string_params) >= 2 or len(found) <= 1:
        plan = [_fill_arguments(tool, conv.question, found[0] if found else None, found[1:])]
    else:  # one string parameter, several names: one call per name
        plan = [_fill_arguments(tool, conv.question, e, []) for e in found]
    done = [_loads(c.arguments) for c in mine]
    for args in plan:
        if args not in done:
            return Decision(calls=[(tool.name, _args(args))])
    if must_call and not mine:
        return Decision(calls=[(tool.name, _args(plan[0]))])
    return Decision(text=_combine_results(conv))


def _loads(arguments: str):
    try:
        return json.loads(arguments)
    except ValueError:
        return None


def _summarise_output(output: str) -> str:
    data = _loads(output) if output else None
    if isinstance(data, dict):
        if "error" in data:
            return f"error: {data['error']}"
        return ", ".join(f"{k} {v}" for k, v in data.items() if not isinstance(v, dict | list))[:200]
    if isinstance(data, list):
        return "; ".join(_summarise_output(json.dumps(x)) if isinstance(x, dict) else str(x) for x in data[:5])[:200]
    return " ".join((output or "").split())[:200]


def _combine_results(conv: Conversation) -> str:
    parts = []
    numeric: dict[str, list[tuple[str, float]]] = {}
    for call in conv.calls:
        label = _first_string_arg(call) or call.name
        if call.output is None:
            continue
        parts.append(f"{label}: {_summarise_output(call.output)}")
        data = _loads(call.output)
        if isinstance(data, dict):
            for key, value in data.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    numeric.setdefault(key, []).append((label, float(value)))
    if not parts:
        return "I could not get any results from the tools, so I have no answer."
    text = "Here is what I found. " + "; ".join(parts) + "."
    if len(parts) > 1:
        for key, values in numeric.items():
            if len(values) == len(parts) and len({label for label, _ in values}) > 1:
                top = max(values, key=lambda lv: lv[1])
                low = min(values, key=lambda lv: lv[1])
                if top[1] != low[1]:
                    text += f" {top[0]} has the higher {key} ({_num(top[1])} vs {_num(low[1])} for {low[0]})."
    return text


def _num(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


# --- small talk and arithmetic -----------------------------------------------------------------------

_GREETING = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings|howdy|yo)\b[\s!.,]*"
                       r"(?:there|everyone|all)?[\s!.,]*$", re.IGNORECASE)
_THANKS = re.compile(r"^\s*(?:thanks|thank you|thx|cheers)\b[^?]*$", re.IGNORECASE)
_ARITHMETIC = re.compile(r"(-?\d+(?:\.\d+)?(?:\s*(?:\*\*|[-+*/%x\u00d7])\s*\(?-?\d+(?:\.\d+)?\)?)+)")
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.Mod: operator.mod, ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos}


def _small_talk(question: str) -> str | None:
    """A reply to a greeting, thanks, or a bare arithmetic question; None for anything else."""
    if _GREETING.match(question):
        return "Hello! Ask me a question about the course and I'll look it up."
    if _THANKS.match(question):
        return "You're welcome! Anything else I can help with?"
    match = _ARITHMETIC.search(question)
    if match and len(keywords(_ARITHMETIC.sub(" ", question))) <= 1:
        expression = match.group(1).replace("x", "*").replace("\u00d7", "*")
        value = _evaluate(expression)
        if value is not None:
            return f"{' '.join(expression.split())} = {_num(float(value)) if isinstance(value, float) else value}"
    return None


def _evaluate(expression: str) -> float | int | None:
    """Evaluate + - * / % ** over numbers, never anything else (no names, no calls)."""
    def walk(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 100:
                raise ValueError("exponent too large")
            return _OPERATORS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.operand))
        raise ValueError("not arithmetic")
    try:
        value = walk(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return round(value, 10) if isinstance(value, float) else value


# --- faults ------------------------------------------------------------------------------------------

def _apply_fault(conv: Conversation, decision: Decision, tools: list[Tool], vocab: Vocabulary) -> Decision:
    """Turn a correct decision into a broken one, for the fault modes that live in the model itself."""
    fault = conv.fault
    if fault not in ("bad_arguments", "unknown_tool", "never_stop") or not tools:
        return decision
    if not decision.calls:
        # The model should have answered; under these faults it calls a tool anyway.
        tool = next((t for t in tools if is_search_like(t)), tools[0])
        if is_search_like(tool):
            terms = keywords(conv.question) or ["help"]
            rotation = len({c.batch for c in conv.calls}) % max(len(terms), 1)
            query = keyword_query(terms[rotation:] + terms[:rotation])
            args = {_required_string_params(tool)[0]: query}
        else:
            found = _entities_for(tool, conv.question)
            args = _fill_arguments(tool, conv.question, found[0] if found else None, found[1:])
        decision = Decision(calls=[(tool.name, _args(args))])
    if fault == "bad_arguments":
        # Cut the JSON short, the way a model's output gets truncated: '{"query": "ollama ru'
        return Decision(calls=[(name, args[: max(2, len(args) * 2 // 3)]) for name, args in decision.calls])
    if fault == "unknown_tool":
        offered = {t.name for t in conv.tools}
        renamed = []
        for name, args in decision.calls:
            new = f"{name}_v2"
            while new in offered:
                new += "_v2"
            renamed.append((new, args))
        return Decision(calls=renamed)
    return decision


def _args(arguments: dict) -> str:
    return json.dumps(arguments, ensure_ascii=False)
