"""Writing the answers: every text the offline model says.

- `reply_without_tools`: when no tool is called. From the tool results already in the conversation,
  from reference material pasted into the prompt, as one label ("ALLOW"), as small talk or arithmetic
  (small_talk.py), or as a plain "I am the offline stand-in, with no general knowledge" (`no_knowledge`).
- `grounded_reply`: from search results: an extract of the best one, naming it by its own best name
  field (title, question, filename, name; its id beside it); or "found nothing relevant" (a polite
  refusal when the instructions limit the scope).
- `failure_answer`: when the tools failed: which tool, what error, and that a retry later may help.
- `extract`: the few whole sentences of a document that share most words with the question.
- `combine_results`: from other tools' results, in sentences with units read from the key names, a
  direct yes or no when a result says so, and a comparison of a number they all report.

What it leaves out on purpose: new text. Answers are fixed sentences around extracts of what the tools
returned; the model never states a fact it was not given.
"""

from __future__ import annotations

import re

from helpers.offline.conversation import (
    Call,
    Conversation,
    Decision,
    first_string_arg,
    read_output,
    to_json,
    tool_error,
)
from helpers.offline.instructions import (
    PASTED,
    pasted_material,
    read_labels,
    scope_of,
    split_context,
    wants_follow_up,
)
from helpers.offline.reading import Reading
from helpers.offline.search_policy import RELEVANT, has_key_word, keywords
from helpers.offline.text import STOP_WORDS, stem, stems

# After the searches, a weaker result still answers a question that is about the vocabulary's topics.
ANSWERABLE = 0.3
EXTRACT_CHARS = 320  # longest extract quoted from a document
EXTRACT_SENTENCES = 3  # the direct answer plus the two sentences closest to the question
TOPIC_WORDS_SHOWN = 6  # keywords quoted back in "nothing I was given answers ...": enough to recognise
SUMMARY_CHARS = 200  # longest summary of one tool result: a line, not a dump
SUMMARY_ITEMS = 5  # items of a list result summarised; the rest would only repeat the pattern


def reply_without_tools(reading: Reading) -> Decision:
    """The answer when no tool is called: from earlier tool outputs if any, a label if asked for one, a
    small-talk or arithmetic reply, a refusal under scope instructions, or an honest "I am the offline
    stand-in, with no general knowledge". A Decision: the text, the documents it cites, whether it found
    an answer.

    Example:
        >>> reply_without_tools(Reading(Conversation(question="Is the rye bread vegan?"))).found
        False
    """
    conv, vocab = reading.conv, reading.vocab
    if conv.calls:
        if any(d["title"] for docs in reading.outputs for d in docs):  # search results
            return grounded_reply(reading)
        return Decision(text=combine_results(conv))
    pasted = pasted_material(conv.question, conv.earlier)
    if pasted is not None:
        # The prompt carries its own reference material (a RAG prompt): answer from it exactly as from
        # search results, as if the material had come back from a tool.
        question, documents = pasted
        as_results = Call(PASTED, "{}", PASTED, 0, to_json(documents))
        # What the user wrote before the question may instruct too ("Answer only from the notes").
        at = conv.question.find(question)
        preamble = conv.question[:at] if at > 0 and split_context(conv.question[:at]) is None else ""
        instructions = f"{conv.instructions}\n{preamble}"
        return grounded_reply(Reading(Conversation(instructions=instructions, question=question,
                                                   calls=[as_results]), vocab))
    read, rule = reading.instructions, reading.labels
    if rule:
        text = conv.question
        if read.labels is None:
            # The label instruction is inside the user's text: classify the rest of it.
            text = " ".join(s for s in re.split(r"(?<=[.!?\n])\s+", text) if not read_labels(s))
        label = rule.verdict(text, vocab, reading.given)
        return Decision(text=label, found=label == rule.positive)
    if reading.small_talk:
        return Decision(text=reading.small_talk)
    if read.scope is not None:
        if not read.scope.covers(conv.question, vocab, reading.given):
            return Decision(text=_refusal(conv), found=False)
        if read.scope.phrase:
            return Decision(text=_in_scope_unanswered(reading), found=False)
    return Decision(text=no_knowledge(reading), found=False)


def no_knowledge(reading: Reading, searched: str = "") -> str:
    """The plain answer to a question that nothing given (no tool, no result, no material) answers: the
    offline model has no general knowledge, and a real model would answer from its training data, which
    can be wrong. A question about the vocabulary's topics gets the reason a real model would be unreliable
    on it.

    Example:
        >>> print(no_knowledge(Reading(Conversation(question="What does 'overcast' mean?"))))
        I am the offline stand-in for a language model, with no general knowledge: I only follow rules over
        the text and tool results I am given, and nothing I was given answers "overcast mean". A real model
        would answer from its training data: often well for common knowledge, but possibly wrongly or out of
        date, and it sounds just as sure either way.
    """
    topic = " ".join(keywords(reading.conv.question)[:TOPIC_WORDS_SHOWN]) or "that"
    if reading.on_topic:
        real = ("A real model would answer from its training data, which may not hold the current facts of "
                "this subject, so its answer could be a confident guess; giving it the documents (a search "
                "tool) fixes that.")
    else:
        real = ("A real model would answer from its training data: often well for common knowledge, but "
                "possibly wrongly or out of date, and it sounds just as sure either way.")
    return (f"{searched}I am the offline stand-in for a language model, with no general knowledge: I only "
            f"follow rules over the text and tool results I am given, and nothing I was given answers "
            f"\"{topic}\". {real}")


def grounded_reply(reading: Reading) -> Decision:
    """The answer from search results (or pasted material): an extract of the best one, naming it by its
    own best name field, or a plain "found nothing relevant" (a refusal when the instructions limit the
    scope). A Decision: the text, the id and title of the document it quotes, and whether it found one
    (False for "found nothing" and refusals).

    Example:
        >>> found = '[{"id": "b-12", "question": "Is the rye bread vegan?", "answer": "Yes, it is vegan."}]'
        >>> conv = Conversation(question="Is the rye bread vegan?",
        ...                     calls=[Call("search", '{"query": "rye bread vegan"}', "c1", 0, output=found)])
        >>> grounded_reply(Reading(conv)).cited
        ['b-12']
    """
    conv, vocab = reading.conv, reading.vocab
    terms, _ = reading.corrected(reading.terms)
    best, score = reading.best(terms)
    if best is None or score < RELEVANT and (
            score < ANSWERABLE or not reading.on_topic or not has_key_word(reading, terms)):
        return Decision(text=_nothing_found(reading), found=False)
    own = terms[: len(keywords(conv.question))]
    # A follow-up that borrowed words from the previous question asks something new about the same
    # subject: quote what answers its own words, not the opening the previous answer already quoted.
    focus = own if len(own) < len(terms) else None
    quoted = extract(best["answer"] or best["text"], terms, focus=focus, said=conv.said)
    text = f"{source_name(best)}{quoted}"
    if wants_follow_up(conv.instructions):
        topic = next((t for t in sorted(terms, key=lambda t: -vocab.idf(t))), "this")
        text += f" Would you like to know more about {topic}, or is there anything else I can help with?"
    return Decision(text=text, cited=[best["id"]] if best["id"] else [], titles=[best["title"]] if best["title"] else [])


def source_name(doc: dict) -> str:
    """How an answer names the document it quotes: its own best name (title, question, filename, name)
    in quotes, with its id in brackets when it has one; the id alone when it has no name; nothing when it
    has neither.

    Example:
        >>> source_name({"title": "docs/setup.md", "id": ""})
        'According to "docs/setup.md": '
    """
    if doc["title"]:
        return f'According to "{doc["title"]}"' + (f' [{doc["id"]}]' if doc["id"] else "") + ": "
    return f'According to "{doc["id"]}": ' if doc["id"] else ""


def _nothing_found(reading: Reading) -> str:
    """"Found nothing": a refusal under scope instructions, else what was tried and what to do."""
    conv, scope = reading.conv, reading.instructions.scope
    if scope is not None and not scope.covers(conv.question, reading.vocab, reading.given):
        return _refusal(conv)
    if all(c.name == PASTED for c in conv.calls):
        return ("The material I was given doesn't answer your question, so I can't answer it from there. "
                "It may need other documents.")
    queries = [q for c in conv.calls if (q := first_string_arg(c))]
    tried = ", ".join(f'"{q}"' for q in dict.fromkeys(queries)) or "your question"
    if not reading.on_topic:
        # Not about what the tool searches, and nothing limits the scope: a real model would answer
        # from what it knows. The stand-in knows nothing, and says so.
        return no_knowledge(reading, f"I searched ({tried}) and found nothing relevant. ")
    return (f"I searched ({tried}) but found nothing relevant to your question, so I can't answer it from "
            f"the results. Try rephrasing it with other keywords.")


def _in_scope_unanswered(reading: Reading) -> str:
    """A question inside the scope that nothing given answers: said plainly, in the scope's words."""
    return f"That is about {scope_of(reading.conv.instructions)}, but {no_knowledge(reading)}"


def _refusal(conv: Conversation) -> str:
    scope = scope_of(conv.instructions) or "what my instructions cover"
    looked = ", and my searches found nothing about that" if conv.calls else ""
    return f"Sorry, I can only help with questions about {scope}{looked}. Could you ask a question about {scope}?"


def failure_answer(failed: list[Call]) -> str:
    """The answer when the tools failed: which tool, what the error said, and that a retry later may help.
    A failure is not an empty result, so it is never answered as "found nothing".

    Example:
        >>> print(failure_answer([Call("search", "{}", "c1", 0, '{"error": "timeout"}')]))
        I couldn't get an answer: the tool search failed with the error "timeout". This is a problem with the
        tool, not with your question, so trying again later may help.
    """
    reports = {}
    for call in failed:
        reports.setdefault(call.name, tool_error(call.output) or "")  # a failed call always has its error
    # The error's own closing full stop goes: the sentence that quotes it ends with one already.
    what = "; ".join(f'the tool {name} failed with the error "{error.rstrip(". ")}"' for name, error in reports.items())
    return (f"I couldn't get an answer: {what}. This is a problem with the tool, not with your question, so "
            f"trying again later may help.")


# --- quoting a document ------------------------------------------------------------------------------

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


# --- other tools' results -----------------------------------------------------------------------------

# Units read from the end of a key name ("temperature_c", "wind_kmh"): the suffix after the last "_".
# A rule about how people name fields, not about any one tool.
UNITS = {"c": "°C", "f": "°F", "k": "K", "kmh": "km/h", "kph": "km/h", "mph": "mph", "mps": "m/s",
         "pct": "%", "percent": "%", "mm": "mm", "cm": "cm", "m": "m", "km": "km", "kg": "kg", "g": "g",
         "ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s", "min": "min", "mins": "min",
         "minutes": "min", "h": "h", "hours": "h", "days": "days", "usd": "USD", "eur": "EUR", "gbp": "GBP",
         "kb": "KB", "mb": "MB", "gb": "GB", "hpa": "hPa", "ppm": "ppm"}
# A question that starts with an auxiliary verb asks for yes or no ("Do I need ...?", "Is it ...?").
_YES_NO = re.compile(r"^\s*(?:and\s+|so\s+|but\s+)?(?:do|does|did|is|are|was|were|am|can|could|will|would|should|"
                     r"shall|has|have|had|may|might|must)\b", re.IGNORECASE)


def field_phrase(key: str, value) -> str:
    """One field of a result as words: the key's unit suffix becomes the value's unit.

    Example:
        >>> field_phrase("temperature_c", 14)
        'the temperature is 14 °C'
    """
    name, shown = name_and_value(key, value)
    if isinstance(value, bool):
        return f"{name}: {shown}"
    verb = "are" if name.endswith("s") and not name.endswith("ss") else "is"
    return f"the {name} {verb} {shown}"


def name_and_value(key: str, value) -> tuple[str, str]:
    """A field's name in words and its value with the unit its key names.

    Example:
        >>> name_and_value("wind_kmh", 18)
        ('wind', '18 km/h')
    """
    name, _, suffix = key.rpartition("_")
    unit = UNITS.get(suffix.lower()) if name else None
    name = (name if unit else key).replace("_", " ").strip()
    if isinstance(value, bool):
        value = "yes" if value else "no"
    elif isinstance(value, int | float):
        value = _num(float(value))
    return name, f"{value}{unit}" if unit == "%" else f"{value} {unit}" if unit else str(value)


def _sentence(label: str, data: dict) -> str:
    """A dict result in one sentence; fields that only repeat the label (city: Berlin) are left out."""
    phrases = [field_phrase(k, v) for k, v in data.items()
               if not isinstance(v, dict | list) and v is not None and str(v).lower() != label.lower()]
    if not phrases:
        return f"{label}: no details"
    listed = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return f"{label}: {listed}"[:SUMMARY_CHARS]


def _summarise_output(output: str, label: str = "") -> str:
    if tool_error(output) is not None:
        return f"{label}: the tool failed with the error \"{tool_error(output)}\"".lstrip(": ")
    data = read_output(output) if output else None
    if isinstance(data, dict):
        return _sentence(label or "the result", data)
    if isinstance(data, list):
        items = [_sentence(label or "the result", x) if isinstance(x, dict) else str(x) for x in data[:SUMMARY_ITEMS]]
        # An empty list is a result too ("nothing matched"): say so rather than leave an empty sentence.
        return "; ".join(items)[:SUMMARY_CHARS] or f"{label or 'the tool'} returned nothing"
    text = ' '.join((output or '').split())[:SUMMARY_CHARS]
    return f"{label}: {text}".lstrip(": ") if text else f"{label or 'the tool'} returned nothing"


def _yes_or_no(question: str, results: list[tuple[str, dict]]) -> str | None:
    """"Yes, ..." or "No, ..." when a result answers a yes/no question in so many words: a true/false
    field named like a word of the question, or a text value that holds a word of the question. None
    when the results hold no such direct answer (judging needs knowledge the rules don't have).

    Example:
        >>> _yes_or_no("Is it raining in Oslo?", [("Oslo", {"conditions": "light rain"})])
        'Yes: for Oslo, the conditions are light rain.'
    """
    if not _YES_NO.match(question):
        return None
    asked = stems(question) - {stem(w) for w in STOP_WORDS}
    for label, data in results:
        asked_here = asked - stems(label)
        for key, value in data.items():
            if isinstance(value, bool) and stems(key.replace("_", " ")) & asked_here:
                return f"{'Yes' if value else 'No'}: for {label}, {field_phrase(key, value)}."
            if isinstance(value, str) and stems(value) & asked_here:
                return f"Yes: for {label}, {field_phrase(key, value)}."
    return None


def combine_results(conv: Conversation) -> str:
    """The answer from other tools' results, in plain sentences (units read from key names), a direct
    yes or no when the results answer a yes/no question in so many words, and, for a number that every
    result has ("temperature_c"), which one is higher.

    Example:
        >>> from helpers.offline.conversation import Tool
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...     {"properties": {"city": {"type": "string"}}})
        >>> conv = Conversation(question="Is it warmer in Berlin or Madrid?", tools=[weather], calls=[
        ...     Call("get_weather", '{"city": "Berlin"}', "c1", 0, '{"temperature_c": 14, "conditions": "light rain"}'),
        ...     Call("get_weather", '{"city": "Madrid"}', "c2", 0, '{"temperature_c": 24, "conditions": "sunny"}')])
        >>> print(combine_results(conv))
        The results don't say yes or no to that in so many words, so here is what they say. Berlin: the
        temperature is 14 °C and the conditions are light rain. Madrid: the temperature is 24 °C and the
        conditions are sunny. A real model would draw the conclusion from these facts; I only repeat them.
        Madrid has the higher temperature (24 °C vs 14 °C for Berlin).
    """
    parts = []
    results: list[tuple[str, dict]] = []
    numeric: dict[str, list[tuple[str, float]]] = {}
    for call in conv.calls:
        label = first_string_arg(call) or call.name
        if call.output is None:
            continue
        parts.append(_summarise_output(call.output, label))
        data = read_output(call.output)
        if isinstance(data, dict) and tool_error(call.output) is None:
            results.append((label, data))
            for key, value in data.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    numeric.setdefault(key, []).append((label, float(value)))
    if not parts:
        return "I could not get any results from the tools, so I have no answer."
    facts = ". ".join(p[0].upper() + p[1:] for p in parts) + "."
    verdict = _yes_or_no(conv.question, results)
    if verdict:
        text = f"{verdict} {facts}"
    elif _YES_NO.match(conv.question):
        text = (f"The results don't say yes or no to that in so many words, so here is what they say. {facts} "
                f"A real model would draw the conclusion from these facts; I only repeat them.")
    else:
        text = facts
    if len(parts) > 1:
        for key, values in numeric.items():
            if len(values) == len(parts) and len({label for label, _ in values}) > 1:
                top = max(values, key=lambda lv: lv[1])
                low = min(values, key=lambda lv: lv[1])
                if top[1] != low[1]:
                    name, high = name_and_value(key, top[1])
                    text += f" {top[0]} has the higher {name} ({high} vs {name_and_value(key, low[1])[1]} for {low[0]})."
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
