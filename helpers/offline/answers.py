"""Writing the answers: every text the offline model says.

- `answer_without_tools`: when no tool is called. From the tool results already in the conversation,
  from reference material pasted into the prompt, as one label ("ALLOW"), as small talk or arithmetic,
  or as a plain "I have no course-specific information".
- `grounded_answer`: from search results: an extract of the best one, naming its FAQ entry; or "found
  nothing relevant" (a polite refusal when the instructions limit it to the course).
- `extract`: the few sentences of a FAQ answer that share most words with the question.
- `combine_results`: from other tools' results, with a comparison of a number they all report.

What it leaves out on purpose: new text. Answers are fixed sentences around extracts of what the tools
returned; the model never states a fact it was not given.
"""

from __future__ import annotations

import ast
import math
import operator
import re

from helpers.offline.conversation import (
    Call,
    Conversation,
    first_string_arg,
    parse_documents,
    parse_json,
    to_json,
)
from helpers.offline.instructions import PASTED, has_guardrail, label_choice, split_context, wants_follow_up
from helpers.offline.knowledge import TOPIC_THRESHOLD, Vocabulary
from helpers.offline.search_policy import (
    RELEVANT,
    best_result,
    corrected_terms,
    has_key_word,
    keywords,
    question_terms,
)
from helpers.offline.text import stem, stems

# After the searches, a weaker result still answers a question that is about the FAQ's topics.
ANSWERABLE = 0.3
EXTRACT_CHARS = 320  # longest extract quoted from a FAQ answer
EXTRACT_SENTENCES = 3  # the direct answer plus the two sentences closest to the question
TOPIC_WORDS_SHOWN = 6  # keywords quoted back in "I don't have information about ...": enough to recognise
SUMMARY_CHARS = 200  # longest summary of one tool result: a line, not a dump
SUMMARY_ITEMS = 5  # items of a list result summarised; the rest would only repeat the pattern
MAX_EXPONENT = 100  # 2**100 is still arithmetic; 9**9**9 would hang the process


def answer_without_tools(conv: Conversation, vocab: Vocabulary) -> str:
    """The text answer when no tool is called: from earlier tool outputs if any, a label if asked for
    one, a small-talk or arithmetic reply, or an honest "I have no course-specific knowledge".

    Example: answer_without_tools(Conversation(question="Can I join?"), vocab) -> "I don't have ..."
    """
    if conv.calls:
        searchy_outputs = [c for c in conv.calls if parse_documents(c.output or "") and
                           any(d["title"] for d in parse_documents(c.output or ""))]
        if searchy_outputs:
            return grounded_answer(conv, vocab)
        return combine_results(conv)
    pasted = split_context(conv.question)
    if pasted is not None:
        # The prompt carries its own reference material (a RAG prompt): answer from it exactly as from
        # search results, as if the material had come back from a tool.
        question, documents = pasted
        as_results = Call(PASTED, "{}", PASTED, 0, to_json(documents))
        instructions = f"{conv.instructions}\n{conv.question[: conv.question.find(question)]}"
        return grounded_answer(Conversation(instructions=instructions, question=question, calls=[as_results]),
                                vocab)
    labels = label_choice(conv.instructions) or label_choice(conv.question)
    if labels:
        text = conv.question
        if label_choice(conv.question) and not label_choice(conv.instructions):
            # The label instruction is inside the user's text: classify the rest of it.
            text = " ".join(s for s in re.split(r"(?<=[.!?\n])\s+", text) if not label_choice(s))
        return labels[0] if vocab.topic_score(text) >= TOPIC_THRESHOLD else labels[1]
    small = small_talk(conv.question)
    if small:
        return small
    terms = keywords(conv.question)
    if has_guardrail(conv.instructions) and vocab.topic_score(conv.question) < TOPIC_THRESHOLD:
        return _refusal(conv)
    topic = " ".join(terms[:TOPIC_WORDS_SHOWN]) or "that"
    if vocab.topic_score(conv.question) >= TOPIC_THRESHOLD:
        return (f"I don't have course-specific information about \"{topic}\". I am answering without "
                f"looking anything up, so I can only say in general terms: check the course FAQ, its "
                f"website, or ask in the course's community channel.")
    return (f"I don't have specific information about \"{topic}\", and I am answering without looking "
            f"anything up, so I can't give you a reliable answer. A tool or a document about it would help.")


def grounded_answer(conv: Conversation, vocab: Vocabulary) -> str:
    """The answer from search results (or pasted material): an extract of the best one, naming its FAQ
    entry, or a plain "found nothing relevant" (a refusal when the instructions limit the scope).

    Example: grounded_answer(conv_with_ollama_results, vocab)
             -> 'According to the FAQ entry "How to install Ollama?" [1d0b969028]: ...'
    """
    terms, _ = corrected_terms(question_terms(conv, vocab), conv, vocab)
    best, score = best_result(conv, terms, vocab)
    if best is None or score < RELEVANT and (
            score < ANSWERABLE or vocab.topic_score(conv.question) < TOPIC_THRESHOLD
            or not has_key_word(conv, terms, vocab)):
        if has_guardrail(conv.instructions):
            return _refusal(conv)
        if all(c.name == PASTED for c in conv.calls):
            return ("The material I was given doesn't answer your question, so I can't answer it from there. "
                    "It may need other documents.")
        queries = [q for c in conv.calls if (q := first_string_arg(c))]
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


def _refusal(conv: Conversation) -> str:
    return ("Sorry, I can only help with questions about the course, and I found nothing about that in "
            "the course FAQ. Could you ask a question about the course?")


# --- quoting a FAQ answer ----------------------------------------------------------------------------

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

def _summarise_output(output: str) -> str:
    data = parse_json(output) if output else None
    if isinstance(data, dict):
        if "error" in data:
            return f"error: {data['error']}"
        return ", ".join(f"{k} {v}" for k, v in data.items() if not isinstance(v, dict | list))[:SUMMARY_CHARS]
    if isinstance(data, list):
        return "; ".join(_summarise_output(to_json(x)) if isinstance(x, dict) else str(x)
                         for x in data[:SUMMARY_ITEMS])[:SUMMARY_CHARS]
    return " ".join((output or "").split())[:SUMMARY_CHARS]


def combine_results(conv: Conversation) -> str:
    """The answer from other tools' results: each result in short, then, for a number that every result
    has ("temperature_c"), which one is higher.

    Example: combine_results(conv_after_two_weather_calls)
             -> "Here is what I found. Berlin: ...; Madrid: .... Madrid has the higher temperature_c
                 (24 vs 14 for Berlin)."
    """
    parts = []
    numeric: dict[str, list[tuple[str, float]]] = {}
    for call in conv.calls:
        label = first_string_arg(call) or call.name
        if call.output is None:
            continue
        parts.append(f"{label}: {_summarise_output(call.output)}")
        data = parse_json(call.output)
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


def small_talk(question: str) -> str | None:
    """A reply to a greeting, thanks, or a bare arithmetic question; None for anything else.

    Example: small_talk("What is 2+2?") -> "2+2 = 4"
    """
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
            if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
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
