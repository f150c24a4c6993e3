"""Writing the answers: every text the offline model says.

- `reply_without_tools`: when no tool is called. From the tool results already in the conversation,
  from reference material pasted into the prompt, as one label ("ALLOW"), as small talk or arithmetic
  (small_talk.py), or as a plain "I am the offline stand-in, with no general knowledge" (`no_knowledge`).
- `grounded_reply`: from search results: an extract of the best one, naming it by its own best name
  field (title, question, filename, name; its id beside it); or "found nothing relevant" (a polite
  refusal when the instructions limit the scope).
- `failure_answer`: when the tools failed: which tool, what error, and that a retry later may help.
- `empty_message`: when the user's message holds no word at all (empty, spaces, punctuation): ask what they
  want, and call no tool.

The extract it quotes is quoting.py's (`extract`); the answer from other tools' results is results.py's
(`combine_results`).

What it leaves out on purpose: new text. Answers are fixed sentences around extracts of what the tools
returned; the model never states a fact it was not given.
"""

from __future__ import annotations

import re

from helpers.offline.cjk import script_of
from helpers.offline.conversation import (
    Call,
    Conversation,
    Decision,
    first_string_arg,
    to_json,
    tool_error,
)
from helpers.offline.instructions import (
    PASTED,
    closing_question,
    pasted_material,
    read_labels,
    scope_of,
    split_context,
    wants_follow_up,
)
from helpers.offline.quoting import extract
from helpers.offline.reading import Reading
from helpers.offline.results import combine_results
from helpers.offline.search_policy import RELEVANT, has_key_word, keywords, question_names

# After the searches, a weaker result still answers a question that is about the vocabulary's topics.
ANSWERABLE = 0.3
QUOTED_WORDS = 15  # a question quoted back longer than this is cut: a reminder of what was asked, not a copy
# Where one sentence ends: after ".", "!" or "?" (and "。", "！", "？", the full-width forms) and the spaces after.
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+")


EMPTY_MESSAGE = ("Your message is empty, so there is nothing for me to answer or look up yet. "
                 "What would you like to ask?")
_NO_WORD = re.compile(r"^[\W_]*$")  # no letter or digit in any script (\w covers Chinese, Cyrillic, ...)


def empty_message(reading: Reading) -> Decision | None:
    """The answer to a user message with no word in it ("", "   ", "?", "..."), at the start of a turn: ask
    what they want, as a person (and a real model) would, instead of searching for nothing or saying that
    nothing answers it. None for any message with a word, and once tools were called this turn.

    Example:
        >>> empty_message(Reading(Conversation(question=" ?! "))).text
        'Your message is empty, so there is nothing for me to answer or look up yet. What would you like to ask?'
        >>> empty_message(Reading(Conversation(question="¿?"))).found, empty_message(Reading(Conversation(question="Hi")))
        (False, None)
    """
    if reading.conv.calls or not _NO_WORD.match(reading.question):
        return None
    return Decision(text=EMPTY_MESSAGE, found=False)


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
        return Decision(text=combine_results(conv, reading.read))
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
    on it. The question is quoted back as the user wrote it (`asked`), so the answer reads as a sentence a
    person would write, in any language.

    Example:
        >>> print(no_knowledge(Reading(Conversation(question="What does 'overcast' mean?"))))
        I am the offline stand-in for a language model, with no general knowledge: I only follow rules over
        the text and tool results I am given, and nothing I was given answers "What does 'overcast' mean?". A
        real model would answer from its training data: often well for common knowledge, but possibly
        wrongly or out of date, and it sounds just as sure either way.
    """
    question = asked(reading.conv.question)
    if reading.on_topic:
        real = ("A real model would answer from its training data, which may not hold the current facts of "
                "this subject, so its answer could be a confident guess; giving it the documents (a search "
                "tool) fixes that.")
    else:
        real = ("A real model would answer from its training data: often well for common knowledge, but "
                "possibly wrongly or out of date, and it sounds just as sure either way.")
    return (f"{searched}I am the offline stand-in for a language model, with no general knowledge: I only "
            f"follow rules over the text and tool results I am given, and nothing I was given answers "
            f"{question}. {real}")


def asked(question: str) -> str:
    """What the user asked, quoted back: the last sentence that is a question (else the last sentence), in
    double quotes (the user's own double quotes become single ones), cut after QUOTED_WORDS words;
    "your question" when there is no text. Why not keywords: "one sentence ai agent" is no phrase a person
    writes, and the user's own words are right in every language.

    Example:
        >>> asked("I'm planning a trip. Wie spät ist es in Tokio?")
        '"Wie spät ist es in Tokio?"'
        >>> asked("")
        'your question'
    """
    sentences = [s for s in _SENTENCE_END.split(" ".join(question.split())) if s]
    if not sentences:
        return "your question"
    chosen = next((s for s in reversed(sentences) if s.endswith(("?", "\uff1f"))), sentences[-1])
    words = chosen.replace('"', "'").split()
    if len(words) > QUOTED_WORDS:
        return '"' + " ".join(words[: QUOTED_WORDS - 1]) + '…"'
    return '"' + " ".join(words) + '"'


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
    terms, corrections = reading.corrected(reading.terms)
    # A repaired name ("Gerit" -> "Gerrit") is what the question is about: the answer comes from a document
    # that has it. Not so an ordinary word's repair, which may be wrong ("unrelated" -> "related").
    names = question_names(conv.question)
    best, score = reading.best(terms, tuple(fixed for typo, fixed in corrections.items() if typo in names))
    scope = reading.instructions.scope
    in_scope = scope is not None and scope.covers(conv.question, vocab, reading.given)
    # A question inside the scope the instructions set is on their topic, whatever the vocabulary says.
    if best is None or score < RELEVANT and (
            score < ANSWERABLE or not (reading.on_topic or in_scope) or not has_key_word(reading, terms)):
        lookup = reading.lookup_answer
        if lookup is None or scope is not None and not in_scope:
            return Decision(text=_nothing_found(reading), found=False)
        best = lookup  # one answer from the tool called for this question: evidence, whatever its words
    own = terms[: len(keywords(conv.question))]
    # A follow-up that borrowed words from the previous question asks something new about the same
    # subject: quote what answers its own words, not the opening the previous answer already quoted.
    focus = own if len(own) < len(terms) else None
    quoted = extract(best["answer"] or best["text"], terms, focus=focus, said=conv.said)
    text = f"{source_name(best, script_of(conv.question))}{quoted}"
    if wants_follow_up(conv.instructions):
        topic = next((t for t in sorted(terms, key=lambda t: -vocab.idf(t))), "this")
        text += " " + (closing_question(conv.instructions)
                       or f"Would you like to know more about {topic}, or is there anything else I can help with?")
    return Decision(text=text, cited=[best["id"]] if best["id"] else [], titles=[best["title"]] if best["title"] else [])


def source_name(doc: dict, script: str = "") -> str:
    """How an answer names the document it quotes: its own best name (title, question, filename, name)
    in quotes, with its id in brackets when it has one; the id alone when it has no name; nothing when it
    has neither. `script` "zh" or "ja" (cjk.script_of the question): the same in Chinese or Japanese.

    Example:
        >>> source_name({"title": "docs/setup.md", "id": ""})
        'According to "docs/setup.md": '
        >>> source_name({"title": "如何续借图书？", "id": "l1"}, "zh")
        '根据“如何续借图书？”[l1]：'
    """
    name = doc["title"] or doc["id"]
    if script and name:
        ref = f"[{doc['id']}]" if doc["title"] and doc["id"] else ""
        return f"根据“{name}”{ref}：" if script == "zh" else f"「{name}」{ref}によると："
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
