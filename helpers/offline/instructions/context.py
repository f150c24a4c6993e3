"""Reference material pasted into the prompt, and a JSON schema written into the instructions.

- `split_context`: reference material pasted into the prompt (a RAG prompt's "CONTEXT:" block, or under
  any short label on a line of its own: "Menu:", "Here is the timetable:"), as the question plus a list
  of documents; `pasted_material` finds it in any user message, with the question in the same message
  or another (the last message that asks).
- `schema_in_text`: a JSON schema the answer should follow, written into the instructions (PydanticAI's
  prompted output).

What it leaves out on purpose: material with no label line. Pasted text that no "Label:" line introduces
is read as part of the question; a label longer than MAX_LABEL_WORDS words is read as a sentence.
"""

from __future__ import annotations

import json
import re

from helpers.offline.conversation import parse_documents

# Without a "QUESTION:" line, the question is the text just before the material; a longer preamble
# than this is instructions, not the question.
QUESTION_TAIL_WORDS = 60

# --- reference material pasted into the prompt ---------------------------------------------------

PASTED = "<pasted material>"  # stands in for a tool name when the prompt itself carries the documents
_CONTEXT_HEADER = re.compile(
    r"^[ \t#*]*(?:context|documents?|sources?|references?|search results|(?:\w+ )?entries|knowledge(?: base)?)"
    r"[ \t*]*:?[ \t*]*$|^[ \t#*]*(?:CONTEXT|DOCUMENTS|SOURCES)[ \t]*:", re.IGNORECASE | re.MULTILINE)
_QUESTION_LINE = re.compile(r"^[ \t#*]*(?:question|user question|query)[ \t*]*:[ \t]*(.+)$",
                            re.IGNORECASE | re.MULTILINE)
_FIELD_LINE = re.compile(r"^[ \t-]*([A-Za-z][\w ]{0,20}?)[ \t]*:[ \t]*(.*)$")


# Any short label on a line of its own, ending in a colon: "Menu:", "Here is the timetable:", "Notes from
# the wiki:". What follows it is material when it has at least MIN_MATERIAL_CHARS.
_ANY_LABEL = re.compile(r"^[ \t#*>]*(?P<label>[A-Za-z][\w '\u2019(),/&-]{0,60}?)[ \t*]*:[ \t*]*$", re.MULTILINE)
MAX_LABEL_WORDS = 8
MIN_MATERIAL_CHARS = 40  # shorter than a sentence or two: a list the question itself makes, not material
_ASKS = re.compile(r"\?\s*$|^\s*(?:how|what|which|when|where|who|why|can|could|do|does|is|are|should|may|will|"
                   r"tell me|explain|summari[sz]e|list|give me)\b", re.IGNORECASE)


def split_context(text: str) -> tuple[str, list[dict]] | None:
    """Split a prompt that carries reference material into (the question, the material as documents).
    The material starts at a header line: "CONTEXT:", "Documents", or any short label on a line of its
    own that ends in a colon ("Menu:", "Here is the timetable:"). The question is a "QUESTION: ..." line
    before it, else the text before it, else a last paragraph after the material that asks something.
    The question is "" when the text is material only (`pasted_material` then looks for it elsewhere).
    None when there is no such material.

    Example:
        >>> split_context("QUESTION: Is rye vegan?\\n\\nCONTEXT:\\nquestion: Rye bread?\\nanswer: Vegan.")
        ('Is rye vegan?', [{'question': 'Rye bread?', 'answer': 'Vegan.'}])
    """
    header = _CONTEXT_HEADER.search(text) or _label_header(text)
    if header is None:
        return None
    before, material = text[: header.start()], text[header.end():]
    asked = _QUESTION_LINE.findall(before)
    question = asked[-1].strip() if asked else " ".join(before.split()[-QUESTION_TAIL_WORDS:])
    paragraphs = [p for p in re.split(r"\n\s*\n", material.strip()) if p.strip()]
    if not (asked or _ASKS.search(question)) and len(paragraphs) > 1 and _ASKS.search(paragraphs[-1].strip()):
        # "Timetable:\n...\n\nWhich platform for Delft?": the question comes after the material.
        question, material = paragraphs[-1].strip(), "\n\n".join(paragraphs[:-1])
    documents = _documents_in(material)
    if not documents:
        return None
    return question, documents


def _label_header(text: str) -> re.Match | None:
    """The first short label line ("Menu:") followed by enough material, or None."""
    for match in _ANY_LABEL.finditer(text):
        words = match.group("label").split()
        if len(words) <= MAX_LABEL_WORDS and len(text[match.end():].strip()) >= MIN_MATERIAL_CHARS:
            return match
    return None


def pasted_material(question: str, earlier: list[str]) -> tuple[str, list[dict]] | None:
    """Material pasted into the conversation, anywhere: in the last user message, or in an earlier one
    (documents first, question later), and the question it should answer: the last message that asks.
    Material from every user message counts; None when there is none.

    Example:
        >>> pasted_material("Which platform for Delft?", ["Timetable:\\n08:10 Delft, platform 4\\n08:40 Leiden, platform 2"])
        ('Which platform for Delft?', [{'id': '', 'question': '', 'answer': '08:10 Delft, platform 4\\n08:40
        Leiden, platform 2'}])
    """
    documents: list[dict] = []
    asked = ""
    for message in [*earlier, question]:
        found = split_context(message)
        if found is None:
            asked = message if message.strip() else asked
            continue
        documents += found[1]
        if found[0].strip() and (_ASKS.search(found[0]) or not asked):
            asked = found[0]
    if not documents or not asked.strip():
        return None
    return asked, documents


def _documents_in(material: str) -> list[dict]:
    """Documents in pasted material: JSON, or "key: value" records (a record starts each time the first
    key comes again; lines without a key continue the field before them), or else paragraphs."""
    stripped = material.strip()
    if stripped[:1] in "[{":
        docs = parse_documents(stripped)
        if docs:
            return [{"id": d["id"], "title": d["title"], "answer": d["answer"]} for d in docs]
    records: list[dict] = []
    first_key, current, field_name = None, None, None
    for line in stripped.splitlines():
        match = _FIELD_LINE.match(line)
        key = match.group(1).strip().lower() if match else None
        if match and key is not None and (first_key is None or key == first_key
                                          or current is not None and key not in current):
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
        return [{k: v.strip() for k, v in r.items()} for r in records]
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
