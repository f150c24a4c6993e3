"""What the offline model's rules look at and what they produce, and how they read the JSON in it.

- `Conversation`: a request reduced to what the rules read (instructions, the question, earlier
  questions, this turn's tool calls and their outputs, the tools offered), whatever the wire format.
- `Decision`: the answer, either text or tool calls.
- `parse_json` / `to_json`: the one JSON reader and the one writer the rules use.
- `parse_documents` / `all_documents`: tool outputs read as documents (title, answer, id), whether they
  are a JSON list of FAQ entries, some other JSON, or plain text.

What it leaves out on purpose: the wire formats themselves (wire.py turns Responses and Chat
Completions requests into a `Conversation`) and every decision (engine.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

# A dict with an "error" key and at most two others ({"error": ..., "code": ...}) reports a failure;
# a larger one is a result that happens to have an "error" field.
ERROR_REPORT_KEYS = 3


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
    said: list[str] = field(default_factory=list)  # the assistant's earlier text answers, oldest first
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


def parse_json(text: str, default=None):
    """The JSON value in `text`, or `default` when it isn't JSON. The one place the rules read JSON:
    call arguments a model may have cut short, and tool outputs that may be plain text.

    Example: parse_json('{"query": "ollama"}') -> {"query": "ollama"};  parse_json('{"query": "oll') -> None
    """
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def to_json(value) -> str:
    """`value` as JSON the way a model writes it: non-ASCII characters kept as they are.

    Example: to_json({"city": "Málaga"}) -> '{"city": "Málaga"}'
    """
    return json.dumps(value, ensure_ascii=False)


def first_string_arg(call: Call) -> str:
    """The first string among a call's arguments (a search's query, a city), or "" when there is none.

    Example: first_string_arg(Call("search", '{"query": "ollama"}', "c1", 0)) -> "ollama"
    """
    args = parse_json(call.arguments)
    return next((v for v in args.values() if isinstance(v, str)), "") if isinstance(args, dict) else ""


# Plain-text tool output that reports a failure: "Error: ...", a traceback, or "ConnectionError: ...".
_FAILURE_TEXT = re.compile(r"^\s*(?:error|exception|traceback|failed)\b|^\s*\w*(?:Error|Exception):", re.IGNORECASE)


def tool_error(output: str | None) -> str | None:
    """The error a tool output reports, or None when the output is a result. An error is a small dict
    with an "error" key ({"error": ..., "hint": ...}) or plain text that starts like an error message.

    Example: tool_error('{"error": "timeout"}') -> "timeout";  tool_error('[{"answer": "Yes"}]') -> None
    """
    if not output:
        return None
    data = parse_json(output, default=output)
    if isinstance(data, dict) and "error" in data and len(data) <= ERROR_REPORT_KEYS:
        error = data["error"]
        return error.get("message", str(error)) if isinstance(error, dict) else str(error)
    if isinstance(data, str) and _FAILURE_TEXT.match(data):
        return " ".join(data.split())
    return None


def well_formed(call: Call, tools: list[Tool]) -> bool:
    """True when a call names an offered tool and its arguments are a JSON object: an error to such a
    call is the tool's failure, not the model's mistake (a misspelt tool name, JSON cut short).

    Example: well_formed(Call("search", '{"query": "x"}', "c1", 0), [search_tool]) -> True
    """
    return any(t.name == call.name for t in tools) and isinstance(parse_json(call.arguments), dict)


def failed_calls(conv: Conversation) -> list[Call]:
    """This turn's well-formed calls whose tool failed, when every well-formed call failed; else [].
    One failure among working calls is only part of the results, and the answer reports it there.

    Example: failed_calls(conv_after_a_search_that_raised) -> [Call("search", ..., output='{"error": ...}')]
    """
    answered = [c for c in conv.calls if c.output is not None and well_formed(c, conv.tools)]
    failed = [c for c in answered if tool_error(c.output) is not None]
    return failed if failed and len(failed) == len(answered) else []


def parse_documents(output: str) -> list[dict]:
    """Tool output (normally a JSON list of FAQ entries, but any JSON or plain text) as a list of
    documents {"title", "text", "answer", "id", "section", "course"}.

    Example: parse_documents('[{"question": "Q?", "answer": "A."}]') -> [{"title": "Q?", "answer": "A.", ...}]
    """
    data = parse_json(output, default=output)
    if isinstance(data, dict):
        if "error" in data and len(data) <= ERROR_REPORT_KEYS:
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


def all_documents(conv: Conversation) -> list[dict]:
    """Every document in the turn's tool outputs, once each, with its rank in the output it came from.

    Example: all_documents(conv) -> [{"title": "How to install Ollama?", ..., "rank": 0}, ...]
    """
    docs, seen = [], set()
    for call in conv.calls:
        for rank, doc in enumerate(parse_documents(call.output or "")):
            key = (doc["id"], doc["title"]) if doc["id"] else doc["text"]
            if key not in seen:
                seen.add(key)
                docs.append({**doc, "rank": rank})
    return docs
