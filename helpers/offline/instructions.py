"""Reading the instructions and the prompt: what they ask for, in general phrasings, not one notebook's.

- `wanted_searches`: how many searches ("Make at least 3 searches", "search several times", "then
  perform more searches").
- `has_guardrail`: whether the assistant is limited to the course ("Only answer questions about ...").
- `wants_follow_up`: whether the answer should end with a question ("End with a follow-up question",
  "ask if there are other areas to explore").
- `label_choice`: the two labels of a "reply with exactly one word: ALLOW or BLOCK" instruction.
- `split_context`: reference material pasted into the prompt (a RAG prompt's "CONTEXT:" block), as
  the question plus a list of documents.
- `schema_in_text`: a JSON schema the answer should follow, written into the instructions (PydanticAI's
  prompted output).

What it leaves out on purpose: any meaning beyond these phrasings. An instruction worded in a way the
patterns don't cover is simply not followed, as a weaker real model would miss it.
"""

from __future__ import annotations

import json
import re

from helpers.offline.conversation import parse_documents
from helpers.offline.text import STOP_WORDS

SEVERAL_SEARCHES = 3  # "several searches" with no number: enough variety to show, few enough to read
MAX_SEARCHES = 5  # "at least 10 searches" is capped: more queries only repeat the same keywords
# Without a "QUESTION:" line, the question is the text just before the material; a longer preamble
# than this is instructions, not the question.
QUESTION_TAIL_WORDS = 60

_MULTI_SEARCH = re.compile(
    r"\b(?:multiple|several|different|various|many|a few|diverse|varied)\s+(?:\w+\s+){0,2}?"
    r"(?:search(?:es)?|quer(?:y|ies)|keywords?|phrasings?|formulations?)\b"
    r"|\bsearch(?:es)?\s+(?:more than once|several times|multiple times|repeatedly|again)"
    r"|\bmore than one\s+(?:search|query)"
    r"|\b(?:perform|make|do|run|try)\s+(?:\w+\s+){0,2}?(?:more|other|further|additional|follow-up)\s+"
    r"(?:search(?:es)?|quer(?:y|ies))\b"
    r"|\bsearch\s+(?:\w+\s+){0,3}?(?:again|more)\b(?!\s+than)"
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
    r"|ask\s+(?:\w+\s+){0,3}(?:further|clarifying|next|another)\s+question|suggest\s+(?:\w+\s+){0,3}question"
    r"|\b(?:end|finish|close)\s+(?:\w+\s+){0,3}(?:with|on)\s+(?:a|one)\s+(?:\w+\s+)?question"
    r"|\bask\s+(?:the\s+\w+\s+|them\s+|the user\s+)?(?:if|whether)\s+(?:there|they|the user|the student|you)\b",
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

    Example:
        >>> wanted_searches("Make at least 3 searches with different keywords")
        3
    """
    match = _MULTI_SEARCH.search(instructions)
    if not match:
        return 1
    if match.group(1):
        n = _NUMBER_WORDS.get(match.group(1).lower()) or int(match.group(1))
        return max(2, min(n, MAX_SEARCHES))  # the phrase asked for several: at least two
    return SEVERAL_SEARCHES


def has_guardrail(instructions: str) -> bool:
    """True when the instructions limit the assistant to course questions or to FAQ facts.

    Example:
        >>> has_guardrail("Only answer questions about the course.")
        True
    """
    return bool(_GUARDRAIL.search(instructions))


def wants_follow_up(instructions: str) -> bool:
    """True when the instructions ask to end with a follow-up question.

    Example:
        >>> wants_follow_up("End your answer with a follow-up question.")
        True
    """
    return bool(_FOLLOW_UP.search(instructions))


def label_choice(text: str) -> tuple[str, str] | None:
    """The (positive, negative) labels of a "reply with exactly one of ..." instruction, or None.

    Example:
        >>> label_choice("Reply with exactly one word: ALLOW or BLOCK")
        ('ALLOW', 'BLOCK')
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


# --- reference material pasted into the prompt ---------------------------------------------------

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

    Example:
        >>> split_context("QUESTION: Can I join?\\n\\nCONTEXT:\\nquestion: Join late?\\nanswer: Yes.")
        ('Can I join?', [{'id': '', 'question': 'Join late?', 'answer': 'Yes.'}])
    """
    header = _CONTEXT_HEADER.search(text)
    if header is None:
        return None
    before, material = text[: header.start()], text[header.end():]
    asked = _QUESTION_LINE.findall(before)
    question = asked[-1].strip() if asked else " ".join(before.split()[-QUESTION_TAIL_WORDS:])
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
        if match and key is not None and (first_key is None or key == first_key or current is not None
                                          and key not in current):
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


_JSON_CUE = re.compile(r"\bjson\b", re.IGNORECASE)
_SCHEMA_CUE = re.compile(r"\bschema\b", re.IGNORECASE)


def schema_in_text(text: str) -> dict | None:
    """A JSON schema that instructions ask the answer to follow ("Always respond with a JSON object
    that's compatible with this schema: {...}", PydanticAI's prompted output): the first top-level JSON
    object in a text that says both "JSON" and "schema", when it reads as an object schema ("type":
    "object", or "properties" / "$ref" / "anyOf"). None when there is none. Objects nested in other
    JSON (a tool definition's "parameters") don't count: they describe something else.

    Example:
        >>> schema_in_text('Reply in JSON with this schema: {"type": "object", "properties": {}}')
        {'type': 'object', 'properties': {}}
    """
    if not text or not _JSON_CUE.search(text) or not _SCHEMA_CUE.search(text):
        return None
    decoder = json.JSONDecoder()
    position = 0
    while (start := text.find("{", position)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        if isinstance(value, dict) and (value.get("type") == "object" or "type" not in value and any(
                k in value for k in ("properties", "$ref", "anyOf"))):
            return value
        position = end  # skip what this object holds
    return None
