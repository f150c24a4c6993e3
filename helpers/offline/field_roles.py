"""Field roles: what a field of a JSON schema is for, read from the words of its name and description.

A field whose name or description says "source", "id", "reference", "url", ... holds where an answer came
from; "answer", "text", "reply", "summary", ... the answer itself; "title", "question", "topic", ... a
heading. A negative word ("not", "missing", "refused", ...) in the name or the description's first clause
flips a yes/no field. The words are general English for these roles, never one schema's field names.

Used by structured.py (which value goes in which field of a response format) and arguments.py (which
argument of a forced tool takes the answer).

What it leaves out on purpose: meaning. A field named in words outside these lists has no role, and gets
what the filler gives a field of its type.
"""

from __future__ import annotations

import re

from helpers.offline.text import stem

NAME_WEIGHT = 3.0  # a role word in the field's own name counts more than one in its description
DESCRIPTION_DECAY = 0.3  # the description's n-th content word counts 1 / (1 + 0.3 n): its head noun counts most

# General English words for the three roles. They describe what a field is for, in any schema.
_SOURCE_WORDS = {stem(w) for w in """source sources id ids identifier identifiers reference references ref refs
    citation citations cite cited url urls uri link links entry entries document documents doc docs key origin
    provenance""".split()}
_ANSWER_WORDS = {stem(w) for w in """answer answers text response respond reply replies content summary message
    body explanation explain output result solution advice details""".split()}
_TITLE_WORDS = {stem(w) for w in "title question heading headline topic subject label".split()}
NEGATIVE_WORDS = {stem(w) for w in """no not none never nothing missing unknown refuse refused refusal decline
    declined reject rejected fail failed failure error off without unanswered unavailable irrelevant invalid
    empty unrelated uncovered outside unsure insufficient""".split()}
_FILLER = {"the", "a", "an", "of", "to", "for", "in", "on", "this", "that", "is", "was", "be", "and", "or",
           "if", "whether", "when", "which", "what", "it", "its", "from", "with", "by", "as", "true", "false"}


def name_words(name: str) -> list[str]:
    """The words of a field name, whatever its case style.

    Example:
        >>> name_words("isCoveredBy_KB-entry")
        ['is', 'covered', 'by', 'kb', 'entry']
    """
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", name))
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def role_scores(name: str, description: str) -> dict[str, float]:
    """How much a field reads like a source, an answer, a title; and whether it is negative.

    Example:
        >>> role_scores("reference", "")["source"]
        3.0
    """
    scores = {"source": 0.0, "answer": 0.0, "title": 0.0}
    words_in_name = [stem(w) for w in name_words(name)]
    described = [stem(w) for w in name_words(description) if w not in _FILLER]
    for weight, word in [(NAME_WEIGHT, w) for w in words_in_name] + [
            (1 / (1 + DESCRIPTION_DECAY * i), w) for i, w in enumerate(described)]:
        for role, vocabulary in (("source", _SOURCE_WORDS), ("answer", _ANSWER_WORDS), ("title", _TITLE_WORDS)):
            if word in vocabulary:
                scores[role] += weight
    first_clause = re.split(r"[,;.(]|\b(?:otherwise|else|false|or)\b", description.lower(), maxsplit=1)[0]
    negative = any(w in NEGATIVE_WORDS for w in words_in_name) or any(
        stem(w) in NEGATIVE_WORDS for w in name_words(first_clause))
    scores["negative"] = 1.0 if negative else 0.0
    return scores


def field_role(name: str, schema: dict) -> str:
    """The role of one property: "source", "title", "answer" or "other", from its name, description and title.

    Example:
        >>> field_role("reference", {"description": "Identifier of the catalogue entry"})
        'source'
    """
    scores = role_scores(name, str(schema.get("description") or "") + " " + str(schema.get("title") or ""))
    if scores["source"] > max(scores["answer"], scores["title"]) and scores["source"] > 0:
        return "source"
    if scores["title"] > scores["answer"] and scores["title"] > 0:
        return "title"
    return "answer" if scores["answer"] > 0 else "other"
