"""The form an answer must take, as the instructions word it, and the answer put into that form.

The grammar:
- a word limit: "in at most 20 words", "no more than twenty words", "under 50 words", "in 30 words or
  fewer", "answer in one word";
- a sentence limit: "in two sentences", "at most 3 sentences", "a single sentence", "one sentence";
- JSON with named keys: "respond in JSON with the keys answer and source", "a JSON object with fields
  "title", "year""; `json_schema` makes them a schema for structured.py's filler (it also shapes a
  `json_object` response format);
- a closing question: "end with a follow-up question", "ask if there are other areas to explore".

`read_form(text)` -> `OutputForm`; `fit(text, form)` cuts a text answer to the limits, keeping a closing
question whole.

What it leaves out on purpose: writing shorter. The answer is an extract, so a limit cuts it (at a word,
with "…"); a real model would write a shorter sentence that says the same. Keys get what their names
read like (field_roles.py); a key asking for something no rule can produce gets a valid, empty value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.instructions.clauses import near, unwrap
from helpers.offline.instructions.numbers import COUNT, count_in

CLOSING_QUESTION = "Is there anything else you would like to explore?"
SHORT_CLOSING_QUESTION = "Anything else?"  # under a word limit the closing question stays short

_STRICT = r"(?:under|fewer\s+than|less\s+than|below|shorter\s+than)"  # "under ten words": at most nine
_LIMIT = (rf"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|(?:a\s+)?maximum\s+of|max\.?|up\s+to|{_STRICT}|within"
          r"|no\s+longer\s+than|not\s+longer\s+than|not\s+exceeding|(?:must\s+)?not\s+exceed|in|with|using|exactly|only|just"
          r"|(?:keep|limit)\s+(?:it|yourself|your\s+(?:answers?|repl(?:y|ies)|responses?)|answers)\s+(?:to|under|within|below))")
_WORDS = re.compile(rf"\b{_LIMIT}\s+(?P<n>{COUNT})\s+words?\b|\b(?P<m>{COUNT})\s+words?\s+(?:or\s+(?:fewer|less)|max(?:imum)?|at\s+most)\b"
                    rf"|\b(?P<k>{COUNT})-word\s+(?:answer|reply|response|summary)\b", re.IGNORECASE)
_SENTENCES = re.compile(rf"\b{_LIMIT}\s+(?:a\s+)?(?P<n>{COUNT}|single)\s+(?:short\s+)?sentences?\b"
                        rf"|\b(?P<m>{COUNT})\s+sentences?\s+(?:or\s+(?:fewer|less)|max(?:imum)?|at\s+most)\b"
                        rf"|\b(?P<k>one|a\s+single|single)[- ]sentence\s+(?:answer|reply|response|summary)\b",
                        re.IGNORECASE)
_KEY = r"[\"'`\u201c\u2018]?[A-Za-z_][\w-]{0,39}[\"'`\u201d\u2019]?"
_JSON_KEYS = re.compile(rf"\bjson\b[^.\n]{{0,80}}?\b(?:keys?|fields?|properties|attributes)\b\s*(?:named\s+|called\s+)?:?\s*"
                        rf"(?P<keys>{_KEY}(?:\s*(?:,|and|,\s*and|&)\s*{_KEY})*)", re.IGNORECASE)
_FOLLOW_UP = re.compile(
    r"follow[- ]?up|(?:end|finish|close)\s+(?:\w+\s+){0,3}with\s+(?:a|one)\s+question"
    r"|ask\s+(?:\w+\s+){0,3}(?:further|clarifying|next|another)\s+question|suggest\s+(?:\w+\s+){0,3}question"
    r"|\b(?:end|finish|close)\s+(?:\w+\s+){0,3}(?:with|on)\s+(?:a|one)\s+(?:\w+\s+)?question"
    r"|\bask\s+(?:the\s+\w+\s+|them\s+|the user\s+)?(?:if|whether)\s+(?:there|they|the \w+|you)\b",
    re.IGNORECASE)


_CUE = ("word", "sentence", "json", "question", "follow", "ask")


@dataclass(frozen=True)
class OutputForm:
    """The limits and shape the instructions ask of every answer.

    Example:
        >>> form = read_form("Answer in at most 20 words and end with a question.")
        >>> form.max_words, form.closing_question
        (20, True)
    """

    max_words: int | None = None
    max_sentences: int | None = None
    json_keys: tuple[str, ...] = ()
    closing_question: bool = False

    @property
    def json_schema(self) -> dict | None:
        """The named JSON keys as an object schema (every key a required string), or None.

        Example:
            >>> OutputForm(json_keys=("answer", "source")).json_schema["required"]
            ['answer', 'source']
        """
        if not self.json_keys:
            return None
        return {"type": "object", "properties": {k: {"type": "string"} for k in self.json_keys},
                "required": list(self.json_keys), "additionalProperties": False}


def wants_follow_up(instructions: str) -> bool:
    """True when the instructions ask to end with a follow-up question.

    Example:
        >>> wants_follow_up("End your answer with a follow-up question.")
        True
    """
    return bool(_FOLLOW_UP.search(near(instructions or "", _CUE)))


_ASK_IF = re.compile(r"\bask\s+(?:the\s+(?:user|student|customer|reader)s?\s+|them\s+|him\s+|her\s+)?(?:if|whether)\s+"
                     r"(?P<q>[^.?!\n]{3,120})", re.IGNORECASE)
# The person asked about, as the instructions name them, and as the question speaks to them.
_TO_YOU = [(r"\b(?:the\s+(?:user|student|customer|reader)|they|he|she)\s+(wants|needs|has|is|was)\b",
            lambda m: "you " + {"wants": "want", "needs": "need", "has": "have", "is": "are", "was": "were"}[m.group(1).lower()]),
           (r"\b(?:the\s+(?:users|students|customers|readers)|they|he|she)\b", lambda m: "you"),
           (r"\b(?:the\s+(?:user|student|customer|reader)|them|him|her)\b", lambda m: "you"),
           (r"\b(?:their|his|her)\b", lambda m: "your")]


def closing_question(instructions: str) -> str | None:
    """The closing question in the instructions' own words, when they say what to ask ("ask if there are
    other areas that the user wants to explore" -> "Are there other areas that you want to explore?");
    None when they only ask for some question.

    Example:
        >>> closing_question("At the end, ask if there are other areas that the user wants to explore.")
        'Are there other areas that you want to explore?'
        >>> closing_question("Ask the customer whether they need anything else.")
        'Do you need anything else?'
    """
    match = _ASK_IF.search(near(unwrap(instructions or ""), _CUE))
    if match is None:
        return None
    clause = " ".join(match.group("q").split()).rstrip(" ,;:")
    for pattern, repl in _TO_YOU:
        clause = re.sub(pattern, repl, clause, flags=re.IGNORECASE)
    if m := re.match(r"there\s+(is|are|was|were)\s+(.+)", clause, re.IGNORECASE):
        return f"{m.group(1).capitalize()} there {m.group(2)}?"
    if m := re.match(r"you\s+(are|were|can|could|would|will|should)\s+(.+)", clause, re.IGNORECASE):
        return f"{m.group(1).capitalize()} you {m.group(2)}?"
    if m := re.match(r"you\s+(\w+)\s+(.+)", clause, re.IGNORECASE):
        return f"Do you {m.group(1)} {m.group(2)}?"
    return None


def read_form(text: str) -> OutputForm:
    """The output form the instructions ask for (nothing asked: no limits).

    Example:
        >>> read_form("Reply in two sentences.").max_sentences
        2
    """
    text = near(text or "", _CUE)
    words = _count(_WORDS.search(text))
    sentences = _count(_SENTENCES.search(text))
    keys: tuple[str, ...] = ()
    if match := _JSON_KEYS.search(text):
        found = re.split(r"\s*(?:,\s*and|,|\band\b|&)\s*", match.group("keys"))
        keys = tuple(dict.fromkeys(k.strip(" \"'`\u201c\u201d\u2018\u2019") for k in found if k.strip()))
    return OutputForm(words, sentences, keys, wants_follow_up(text))


def _count(match: re.Match | None) -> int | None:
    if match is None:
        return None
    found = next(g for g in match.groups() if g)
    n = 1 if found.lower() in ("single", "a single") else count_in(found)
    if n and n > 1 and re.search(rf"\b{_STRICT}\s", match.group(0), re.IGNORECASE):
        return n - 1  # a strict bound: "under ten words" allows nine
    return n


def fit(text: str, form: OutputForm) -> str:
    """A text answer cut to the form's sentence and word limits, with its closing question (if asked
    for) kept whole and counted in the limit.

    Example:
        >>> fit("One. Two. Three.", OutputForm(max_sentences=2))
        'One. Two.'
    """
    if not (form.max_words or form.max_sentences or form.closing_question):
        return text
    body = text.strip()
    question = ""
    if form.closing_question and not body.endswith("?"):
        question = SHORT_CLOSING_QUESTION if form.max_words or form.max_sentences else CLOSING_QUESTION
    elif form.closing_question:
        parts = re.split(r"(?<=[.!?])\s+", body)
        body, question = " ".join(parts[:-1]), parts[-1]
        if form.max_words and len(question.split()) > form.max_words // 2:
            question = SHORT_CLOSING_QUESTION  # a long closing question would leave no room for the answer
    if form.max_sentences:
        room = form.max_sentences - (1 if question else 0)
        parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])", body)
        body = " ".join(parts[: max(room, 1)])
        if room < 1:
            body = ""
    if form.max_words:
        room = form.max_words - len(question.split())
        if room < 1:
            body, question = "", " ".join(question.split()[: form.max_words])
        else:
            tokens = body.split()
            if len(tokens) > room:
                body = " ".join(tokens[:room]).rstrip(",;:") + "\u2026"
    return " ".join(p for p in (body, question) if p)
