"""Quoting a document: the few whole sentences of it that answer a question, as answers.py quotes them.

- `whole_sentences`: a chunk of a document without the broken sentences at its ends;
- `extract`: the sentences that share most words with the question, in their own order, within a length,
  markdown and code fences turned into plain text, a command kept whole.

What it leaves out on purpose: rewording. An extract is the document's own sentences, cut, never rephrased.
"""

from __future__ import annotations

import re

from helpers.offline.text import stem, stems

EXTRACT_CHARS = 320  # longest extract quoted from a document
EXTRACT_SENTENCES = 3  # the direct answer plus the two sentences closest to the question

# A sentence break inside a line: . ! ? then space, then what starts a sentence.
_BREAK = re.compile(r"[.!?][\"')\]]*\s+(?=[A-Z0-9\"'(\[\x00])")


def whole_sentences(text: str) -> str:
    """The text without the broken sentences at its ends, as a document cut into overlapping chunks has
    them. The rule: the first line starts in the middle of a sentence when it starts with a lower-case
    letter or a comma, and ends in the middle of one when it ends without closing punctuation (a letter,
    digit, comma or hyphen last); such a piece is dropped only when it shares its line with a whole
    sentence. So a line of its own (a list item, a command, a link) is never taken for a cut sentence,
    and a text of one broken sentence is kept as it is (there is nothing else to quote).

    Example:
        >>> whole_sentences("the oven. Bake it for 40 minutes. Let it cool for")
        'Bake it for 40 minutes.'
    """
    text = text.strip()
    first_line = text.split("\n", 1)[0]
    if re.match(r"[a-z,;]", text) and (cut := _BREAK.search(first_line)):
        text = text[cut.end():]
    last_line = text.rsplit("\n", 1)[-1]
    if text and re.search(r"[\w,;-]$", text) and not re.search(r"https?://\S+$", text) and (cuts := list(_BREAK.finditer(last_line))):
        text = text[: len(text) - len(last_line) + cuts[-1].end()].rstrip()
    return text


def extract(answer: str, terms: list[str], limit: int = EXTRACT_CHARS, focus: list[str] | None = None,
            said: list[str] | None = None) -> str:
    """A short extract of an answer: its sentences that share most words with the question, in their
    original order, up to `limit` characters. Markdown links and code fences become plain text. With
    `focus` (a follow-up's own words), sentences with those words come first and the opening sentence
    is not kept for its own sake. Sentences already in an earlier answer (`said`) come last: a person
    doesn't repeat what they just said.

    Only whole sentences are quoted: a document cut into chunks loses the broken sentences at its ends
    (`whole_sentences`).

    Example:
        >>> extract("Yes, rye bread is vegan. It keeps for a week.", ["vegan"])
        'Yes, rye bread is vegan. It keeps for a week.'
    """
    text = re.sub(r"```[\w-]*\n?(.*?)```", lambda m: " `" + " ".join(m.group(1).split()) + "` ", answer,
                  flags=re.DOTALL)
    text = re.sub(r"!?\[([^\]]*)\]\(([^)]*)\)", lambda m: m.group(2) if m.group(1) in m.group(2) else m.group(1),
                  text)
    text = re.sub(r"[*_]{2,}|^#+\s*|^\s*[-*]\s+", "", text, flags=re.MULTILINE)
    # Sentences end at . ! ? : but never inside a code span: a command is quoted whole or not at all.
    spans: list[str] = []
    text = re.sub(r"`[^`\n]*`", lambda m: spans.append(m.group(0)) or f"\x00{len(spans) - 1}\x00", text)
    text = whole_sentences(text)
    pieces: list[str] = []
    for piece in re.split(r"(?<=[.!?:])\s+|\n+", text):
        piece = re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], piece).strip()
        if piece.count("`") % 2:  # a stray backtick left by the markdown
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
    focus_stems = {stem(t) for t in focus or []}
    before = " ".join(" ".join(t.split()) for t in said or [])
    repeated = [bool(before) and " ".join(p.split()).rstrip(":.") in before for p in pieces]
    scored = sorted(range(len(pieces)), key=lambda i: (repeated[i], -len(stems(pieces[i]) & focus_stems),
                                                       -len(stems(pieces[i]) & term_stems), i))
    chosen: list[int] = []
    length = 0
    for i in ([] if focus or repeated[0] else [0]) + scored:  # the first sentence usually carries the direct answer
        if i in chosen or (repeated[i] and chosen):  # said before: only if nothing new is left
            continue
        if length + len(pieces[i]) > limit and chosen:
            break
        chosen.append(i)
        length += len(pieces[i]) + 3
        if len(chosen) >= EXTRACT_SENTENCES:
            break
    out = ""
    for n, i in enumerate(sorted(chosen)):
        piece = pieces[i][:-1] + "." if pieces[i].endswith(":") else pieces[i]
        gap = "" if n == 0 else (" " if i == sorted(chosen)[n - 1] + 1 else " \u2026 ")
        out += gap + piece
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0] + "\u2026"
    return out
