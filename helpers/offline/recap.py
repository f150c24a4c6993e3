"""Two rules about the conversation itself: summarise it when asked, and answer a question that points back at it.

- **A summary asked for** (in the instructions or the last user message): "Summarise the conversation so far",
  "Write a short summary of the text below", "Give me a brief recap of this chat in at most 60 words", "Sum up
  the discussion above". The answer is made of the conversation's own sentences that carry its facts: numbers,
  dates, names, decisions ("we agreed", "booked", "will"), and what the user said about themselves ("I'm",
  "my", "I prefer"). Questions, greetings and filler are left out. Each stretch is labelled with who said it
  ("User:", "Assistant:", "Tool:", "Notes:"). Under a word limit the sentences that carry most facts are kept,
  in the order they were said. The text summarised is every message and tool output of the request (JSON
  outputs read as "key: value" sentences) but the request itself; material pasted after the request ("...
  the following conversation:" and then the text) is summarised with it.
- **A question about the conversation** ("What was my booking reference again?", "Remind me which room we
  picked", "What did I say my dog is called?", "What did you find earlier about the ferry?"): at the start of
  a turn, when the question points back ("what was ... again?", earlier, remind me, did I say, I told you, we
  agreed, ...; not "again" or "did I" alone: "Did I miss the last ferry?" asks about the world) and an
  earlier sentence shares its words, it quotes that sentence and says who said it. A summary put into the
  conversation (as a message) is searched like the rest, so facts kept by a summary are still found.

What it leaves out on purpose: writing. A real model would paraphrase ("The user, Ana, booked the 9:40
ferry"), merge facts from several sentences, resolve "it" and "there", notice that a later fact replaced an
earlier one, and answer a question about the conversation even when its words differ from the ones said.
These rules only pick whole sentences by their surface (digits, capitals, a few verbs), so a fact worded
without any of them ("the blue one suits me") is missed, and a question reworded away from the sentence it
needs is not answered from the conversation.
"""

from __future__ import annotations

import re

from helpers.offline.conversation import Conversation, Decision, parse_json
from helpers.offline.instructions.form import read_form
from helpers.offline.reading import Reading
from helpers.offline.text import MONTHS, STOP_WORDS, stem, stems, words

# "summarise/summarize/sum up/recap <object>", or "write/give/... a (short) summary|recap <object>"; the object
# must name something to summarise, so "summarise your answer" or "the summary field" do not fire.
_OBJECT = (r"(?:conversation|chat|discussion|dialogue|dialog|transcript|messages|text|thread|exchange|history|"
           r"turns|following|above|below|so\s+far|this|everything|what\s+(?:we|you|I)\b)")
_ASK = re.compile(
    rf"\b(?:summari[sz]e|sum\s+up|recap)\b[^.?!\n:]{{0,40}}?\b{_OBJECT}"
    rf"|\b(?:write|give|make|produce|create|prepare|provide|draft)\s+(?:me\s+|us\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){{0,2}}"
    rf"(?:summary|recap)\b[^.?!\n:]{{0,40}}?\b{_OBJECT}",
    re.IGNORECASE)

# A question that points back at what was said before.
# Not "again" or "did I" alone: "Can I renew the loan again?" and "Did I miss the last ferry?" ask about the
# world, not about the conversation. "again" points back at the end of a wh-question ("What was my number again?").
_SAID = r"(?:say|tell|mention|give|ask\s+for|choose|pick|book|agree|decide)"
_BACK = re.compile(
    r"\b(?:earlier|previously|so\s+far|in\s+this\s+(?:conversation|chat)|remind\s+me|"
    r"I\s+(?:told|gave|said|mentioned|asked\s+for|chose|picked|booked)|"
    rf"(?:did|have)\s+(?:I|we)\s+{_SAID}\w*|"
    r"you\s+(?:said|told|mentioned|found|suggested|recommended|gave)|"
    r"we\s+(?:agreed|decided|discussed|said|chose|picked|booked))\b"
    r"|\b(?:what|which|who|whom|where|when|how)\b[^?.!]*\bagain\s*\?",
    re.IGNORECASE)
# Words of a back-pointing question that say where to look, not what to look for.
_POINTER_WORDS = frozenset(words("again earlier previously remind told tell said say mentioned mention asked "
                                 "gave give found suggested recommended agreed decided discussed chose picked "
                                 "conversation chat before"))

_DATE_WORDS = frozenset(MONTHS + tuple("monday tuesday wednesday thursday friday saturday sunday "
                                       "today tomorrow tonight yesterday".split()))
_SELF = re.compile(r"\b(?:I\s+am|I'm|I\s+have|I've|I\s+live|I\s+work|I\s+prefer|I\s+need|I\s+want|I\s+like|"
                   r"I\s+use|I\s+can't|I\s+cannot|I'll|call\s+me|my|mine|we\s+are|we're|our)\b", re.IGNORECASE)
_DECISION = re.compile(r"\b(?:decided?|agreed?|chose|choose|chosen|picked|booked|confirmed?|will|let's|we'll|"
                       r"going\s+with|settled|selected|cancel(?:led|ed)?|switch(?:ed)?|instead)\b", re.IGNORECASE)
_NAMED = re.compile(r"\b(?:I'm|I\s+am|my\s+name\s+is|call\s+me|this\s+is)\s+[A-Z]")
_BREAK = re.compile(r"(?<=[.!?])\s+|\n+|\s+(?=(?:User|Assistant|Tool|Notes):\s)")  # sentences; a summary's labels
_LABEL = re.compile(r"^\s*(User|Assistant|Tool|Notes)\s*:\s*", re.IGNORECASE)
_LABEL_ROLES = {"user": "user", "assistant": "assistant", "tool": "tool", "notes": "developer"}
LABELS = {"user": "User:", "assistant": "Assistant:", "tool": "Tool:", "system": "Notes:", "developer": "Notes:"}
DENSE_WORDS = 10  # a summary ranks sentences by facts per word, counting a short one as this long
MIN_FACT_SCORE = 2  # one strong sign (a number, a date, a decision, the user about themselves) or two names
NOTHING_TO_SUMMARISE = "There is nothing to summarise yet: the conversation has no earlier messages."
NO_FACTS = "Nothing said so far carries a name, a number, a date or a decision to keep."


def asks_for_summary(text: str) -> bool:
    """True when `text` asks for a summary of a conversation or a text.

    Example:
        >>> asks_for_summary("Summarise the conversation so far in at most 40 words."), asks_for_summary(
        ...     "Write a short summary of the chat above."), asks_for_summary("Fill in the summary field.")
        (True, True, False)
    """
    return bool(_ASK.search(text or ""))


def fact_score(sentence: str) -> int:
    """How many facts a sentence carries, by its surface: numbers and dates count 2, a decision or the user
    speaking of themselves 2, each name (a capitalised word not opening the sentence) 1, at most 2. A question
    or a sentence of under three words (but "I'm Wen.") carries none.

    Example:
        >>> fact_score("My flight leaves on 14 May."), fact_score("Thanks, that helps!"), fact_score("Is it far?")
        (7, 0, 0)
    """
    text = sentence.strip()
    if text.endswith("?") or (len(text.split()) < 3 and not _NAMED.search(text)):
        return 0
    lowered = words(text)
    score = 2 if any(ch.isdigit() for ch in text) else 0
    score += 2 if any(w in _DATE_WORDS for w in lowered) else 0
    score += 2 if _SELF.search(text) else 0
    score += 2 if _NAMED.search(text) else 0  # the user's own name is the fact a summary must not lose
    score += 2 if _DECISION.search(text) else 0
    names = [w for w in re.findall(r"(?<=\s)[A-Z][\w'-]+", text) if w not in ("I", "I'm", "I've", "I'll")]
    return score + min(len(names), 2)


def sentences_of(role: str, text: str) -> list[tuple[str, str]]:
    """A message or tool output as (role, sentence) pairs: a JSON output becomes one "key: value" sentence per
    record (underscores in keys read as spaces); in a summary's text, a label ("User: ...") is dropped and its
    sentences are given that role.

    Example:
        >>> sentences_of("tool", '{"gate": "B12", "boarding_time": "09:40"}')
        [('tool', 'gate: B12, boarding time: 09:40.')]
        >>> sentences_of("developer", "User: I'm Lu. I fly on 2 May. Assistant: Booked.")
        [('user', "I'm Lu."), ('user', 'I fly on 2 May.'), ('assistant', 'Booked.')]
    """
    data = parse_json(text) if text.lstrip()[:1] in "[{" else None
    if isinstance(data, dict | list):
        records = data if isinstance(data, list) else [data]
        out = []
        for record in records:
            if isinstance(record, dict):
                fields = ", ".join(f"{str(k).replace('_', ' ')}: {v}" for k, v in record.items() if not isinstance(v, dict | list))
                if fields:
                    out.append((role, fields.rstrip(".") + "."))
        return out
    out, speaker = [], role
    for piece in _BREAK.split(text):
        if label := _LABEL.match(piece):  # a summary's "User: ..." stretch: its sentences are the user's
            speaker = _LABEL_ROLES[label.group(1).lower()]
            piece = piece[label.end():]
        if piece.strip():
            out.append((speaker, piece.strip()))
    return out


def summarise(conv: Conversation, max_words: int | None = None) -> str:
    """The conversation's fact-carrying sentences, labelled by who said them, within `max_words`.

    Example:
        >>> conv = Conversation(question="Summarise the conversation so far.", transcript=[
        ...     ("user", "Hi! I'm Tomás and I keep bees in Girona."), ("assistant", "Lovely. How can I help?"),
        ...     ("user", "Summarise the conversation so far.")])
        >>> summarise(conv)
        "User: I'm Tomás and I keep bees in Girona."
    """
    pieces = [p for who, text in _material(conv) for p in sentences_of(who, text)]
    if not pieces:
        return NOTHING_TO_SUMMARISE
    scored = [(fact_score(s), i) for i, (_, s) in enumerate(pieces)]
    # Dense sentences first: facts per word (a sentence of under DENSE_WORDS counts as that long), so a long
    # record from a tool output does not crowd out "I'm Priya" under a word limit.
    sizes = [max(len(s.split()), DENSE_WORDS) for _, s in pieces]
    ranked = sorted((i for score, i in scored if score >= MIN_FACT_SCORE), key=lambda i: (-scored[i][0] / sizes[i], i))
    chosen, seen, used = [], set(), 0
    for i in ranked:
        key = frozenset(words(pieces[i][1]))
        cost = len(pieces[i][1].split()) + 1  # the sentence and, at worst, its label
        if key in seen or (max_words is not None and used + cost > max_words):
            continue
        seen.add(key)
        chosen.append(i)
        used += cost
    if not chosen:
        return NO_FACTS
    out, last_role = [], None
    for i in sorted(chosen):
        role, sentence = pieces[i]
        label = LABELS.get(role, "Notes:")
        out.append(sentence if label == last_role else f"{label} {sentence}")
        last_role = label
    return " ".join(out)


def recall(conv: Conversation) -> str | None:
    """The answer to a question pointing back at the conversation: the earlier sentence sharing most of its
    words (a fact-carrying one first), quoted with who said it. None when the question doesn't point back or
    nothing earlier fits.

    Example:
        >>> conv = Conversation(question="What was my locker number again?", transcript=[
        ...     ("user", "My locker number is 318."), ("assistant", "Noted."),
        ...     ("user", "What was my locker number again?")])
        >>> recall(conv)
        'You said earlier: "My locker number is 318."'
    """
    if not _BACK.search(conv.question):
        return None
    asked = words(conv.question)
    about_self, asks_name = bool({"i", "my", "me", "im"} & set(asked)), "name" in asked
    wanted = {stem(w) for w in asked if w not in STOP_WORDS and w not in _POINTER_WORDS}
    if not wanted and not asks_name:
        return None
    earlier = conv.transcript[:-1] if conv.transcript and conv.transcript[-1][0] == "user" else conv.transcript
    best, best_key = None, (0, 0, 0)
    pieces = [p for who, text in earlier for p in sentences_of(who, text)]
    for index, (role, sentence) in enumerate(pieces):
        if sentence.strip().endswith("?"):
            continue  # a question asked earlier is not what was said
        shared = len(wanted & stems(sentence))
        if shared and role == "user" and about_self:
            shared += 1  # "my ..." / "did I ...": what the user said about themselves comes first
        if asks_name and role == "user" and _NAMED.search(sentence):
            shared += 2  # "what was my name?" is answered by "I'm Priya", which never says "name"
        key = (shared, fact_score(sentence), index)  # the most shared words; then facts; then the latest
        if shared and key > best_key:  # (a name question counts "I'm Priya" as shared)
            best, best_key = (role, sentence), key
    if best is None:
        return None
    who = {"user": "You said earlier", "assistant": "I said earlier", "tool": "A tool returned earlier"}
    return f'{who.get(best[0], "The notes say")}: "{best[1]}"'


def recap_reply(reading: Reading) -> Decision | None:
    """The answer of these rules, or None when neither applies: a summary when one is asked for, else the
    answer to a question about the conversation (only at the start of a turn, before any tool call). A word
    limit comes from the request for the summary, else from the instructions as the reading understood them.

    Example:
        >>> recap_reply(Reading(Conversation(question="Hello"))) is None
        True
    """
    conv, instructed = reading.conv, reading.instructions.form.max_words
    if asks_for_summary(conv.instructions):
        return Decision(text=summarise(conv, instructed))
    if asks_for_summary(conv.question):
        return Decision(text=summarise(conv, read_form(conv.question).max_words or instructed))
    if conv.calls:
        return None
    answer = recall(conv)
    return None if answer is None else Decision(text=answer)


def _material(conv: Conversation) -> list[tuple[str, str]]:
    """What a summary is made of: every message and tool output but the request itself, plus any text pasted
    after the request in the same message."""
    out = []
    for role, text in conv.transcript:
        match = _ASK.search(text)
        if match is None:
            out.append((role, text))
            continue
        rest = text[match.end():]
        cut = re.search(r"[.:!?\n]", rest)  # the request's sentence ends; what follows is material
        if cut is not None and rest[cut.end():].strip():
            out.append((role, rest[cut.end():].strip()))
    return out
