"""What the offline model's rules look at and what they produce, and how they read the JSON in it.

- `Conversation`: a request reduced to what the rules read (instructions, the question, earlier
  questions, this turn's tool calls and their outputs, the tools offered), whatever the wire format.
- `Decision`: the answer, either text or tool calls.
- `parse_json` / `to_json`: the one JSON reader and the one writer the rules use.
- `read_output`: a tool output as data: JSON, else a Python literal (the Agents SDK's `str()` of a
  list of dicts, read safely with `ast.literal_eval`), else the text itself;
- `parse_documents`: a tool output read as documents (title, answer, id), whether it
  is a list of records (JSON or Python literal), some other data, "key: value" text records, or
  plain text. A document's title is its own best name field: title, question, filename, name.

What it leaves out on purpose: the wire formats themselves (wire.py turns Responses and Chat
Completions requests into a `Conversation`) and every decision (engine.py).
"""

from __future__ import annotations

import ast
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
    tool_choice: str = "auto"  # "auto" | "none" | "required", whichever API's shape it came in (api/wire.py)
    forced: str | None = None  # the one function a named tool_choice forces (tool_choice is then "required")
    allowed: list[str] | None = None  # tool_choice "allowed_tools": the names the model may call
    output_format: dict | None = None  # text.format / response_format: {"type": "json_schema", "schema": ...}
    parallel_tool_calls: bool = True
    fault: str | None = None  # "bad_arguments" | "unknown_tool" | "never_stop" | None
    # Every message and tool output of the request, in order, as (role, text): what recap.py summarises or
    # quotes back when asked about the conversation itself ("tool" for a tool output).
    transcript: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Decision:
    """What the model does: say `text`, or make `calls` (a list of (tool name, arguments JSON)). With a
    text, what it rests on: the documents it quotes (`cited` ids, their `titles`) and whether it found
    an answer at all (`found` is False for "found nothing", a refusal, a failure, "no knowledge")."""

    text: str | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)
    cited: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    found: bool = True


def parse_json(text: str, default=None):
    """The JSON value in `text`, or `default` when it isn't JSON. The one place the rules read JSON:
    call arguments a model may have cut short, and tool outputs that may be plain text.

    Example:
        >>> parse_json('{"query": "rye"}'), parse_json('{"query": "ry')
        ({'query': 'rye'}, None)
    """
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def to_json(value) -> str:
    """`value` as JSON the way a model writes it: non-ASCII characters kept as they are.

    Example:
        >>> to_json({"city": "Málaga"})
        '{"city": "Málaga"}'
    """
    return json.dumps(value, ensure_ascii=False)


def first_string_arg(call: Call) -> str:
    """The first string among a call's arguments (a search's query, a city), or "" when there is none.

    Example:
        >>> first_string_arg(Call("search", '{"query": "rye"}', "c1", 0))
        'rye'
    """
    args = parse_json(call.arguments)
    return next((v for v in args.values() if isinstance(v, str)), "") if isinstance(args, dict) else ""


# Plain-text tool output that reports a failure: "Error: ...", a traceback, or "ConnectionError: ...".
_FAILURE_TEXT = re.compile(r"^\s*(?:error|exception|traceback|failed)\b|^\s*\w*(?:Error|Exception):", re.IGNORECASE)
# Or a short message whose first sentence says something went wrong, the way frameworks word a tool's
# failure ("An error occurred while running the tool.", "The search failed: ..."). Short, because a long
# text is a result that may mention an error, not a report of one.
_FAILURE_WORDS = re.compile(r"\b(?:errors?|exceptions?|failed|fails|failure|unreachable|timed out|could not|"
                            r"cannot|unable to|went wrong)\b", re.IGNORECASE)
MAX_FAILURE_MESSAGE_CHARS = 300


def tool_error(output: str | None) -> str | None:
    """The error a tool output reports, or None when the output is a result. An error is a small dict
    with an "error" key ({"error": ..., "hint": ...}) or plain text that starts like an error message.

    Example:
        >>> tool_error('{"error": "timeout"}')
        'timeout'
        >>> tool_error('[{"answer": "Yes"}]') is None
        True
    """
    if not output:
        return None
    data = read_output(output)
    if isinstance(data, dict) and "error" in data and len(data) <= ERROR_REPORT_KEYS:
        error = data["error"]
        return error.get("message", str(error)) if isinstance(error, dict) else str(error)
    if isinstance(data, str) and (_FAILURE_TEXT.match(data) or _reports_failure(data)):
        return " ".join(data.split())
    return None


def _reports_failure(text: str) -> bool:
    first_sentence = re.split(r"(?<=[.!?])\s|\n", text.strip(), maxsplit=1)[0]
    return len(text) <= MAX_FAILURE_MESSAGE_CHARS and bool(_FAILURE_WORDS.search(first_sentence))


def well_formed(call: Call, tools: list[Tool]) -> bool:
    """True when a call names an offered tool and its arguments are a JSON object: an error to such a
    call is the tool's failure, not the model's mistake (a misspelt tool name, JSON cut short).

    Example:
        >>> search = Tool("search", "Search the notes", {"properties": {"query": {"type": "string"}}})
        >>> well_formed(Call("search", '{"query": "x"}', "c1", 0), [search]), well_formed(Call("serch", "{}",
        ...     "c2", 0), [search])
        (True, False)
    """
    return any(t.name == call.name for t in tools) and isinstance(parse_json(call.arguments), dict)


def failed_calls(conv: Conversation, error_of=None) -> list[Call]:
    """This turn's well-formed calls whose tool failed, when every well-formed call failed; else [].
    One failure among working calls is only part of the results, and the answer reports it there.
    `error_of(call)`: the error a call's output reports (default: tool_error of it; a Reading passes the
    outputs it has read once).

    Example:
        >>> search = Tool("search", "Search the notes", {"properties": {"query": {"type": "string"}}})
        >>> failed_calls(Conversation(question="Can I join?", tools=[search],
        ...                           calls=[Call("search", '{"query": "join"}', "c1", 0, '{"error": "timeout"}')]))
        [Call(name='search', arguments='{"query": "join"}', call_id='c1', batch=0, output='{"error":
        "timeout"}')]
    """
    answered = [c for c in conv.calls if c.output is not None and well_formed(c, conv.tools)]
    error_of = error_of or (lambda call: tool_error(call.output))
    failed = [c for c in answered if error_of(c) is not None]
    return failed if failed and len(failed) == len(answered) else []


# A Python literal longer than this is not read as one: literal_eval's cost grows with the text.
MAX_LITERAL_CHARS = 1_000_000
_RECORD_LINE = re.compile(r"^[ \t-]*([A-Za-z][\w ]{0,20}?)[ \t]*:[ \t]*(.*)$")


_FENCED = re.compile(r"^\s*<\s*([A-Za-z][\w-]*)[^>]*>(.*)<\s*/\s*\1\s*>\s*$", re.DOTALL)


def read_output(output: str):
    """A tool output as data: JSON; else a Python literal (the Agents SDK sends a tool's `list[dict]` as
    `str()` of it: single quotes, True, None), read safely with `ast.literal_eval`; else the text. An output
    wrapped in one pair of tags (`<data>...</data>`) is read inside them.

    Example:
        >>> read_output("[{'id': 'a1', 'ok': True}]")
        [{'id': 'a1', 'ok': True}]
    """
    fenced = _FENCED.match(output)
    if fenced:  # a delimited output (one pair of tags around it, as a defence wraps it): read what is inside
        output = fenced.group(2)
    data = parse_json(output, default=output)
    if isinstance(data, str) and data is output and len(output) <= MAX_LITERAL_CHARS \
            and output.lstrip()[:1] in ("[", "{", "("):
        try:
            data = ast.literal_eval(output.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            data = output
        if isinstance(data, tuple):
            data = list(data)
    return data


def text_records(text: str) -> list[dict]:
    """"key: value" records in plain text (a record starts each time its first key comes again; lines
    without a key continue the field before). Records with fewer than two fields are dropped.

    Example:
        >>> text_records("id: a1\\nquestion: Q?\\nanswer: A.")
        [{'id': 'a1', 'question': 'Q?', 'answer': 'A.'}]
    """
    records: list[dict] = []
    first, current, last = None, None, None
    for line in text.splitlines():
        match = _RECORD_LINE.match(line)
        key = match.group(1).strip().lower().replace(" ", "_") if match else None
        if match and key is not None and (first is None or key == first
                                          or current is not None and key not in current):
            first = first or key
            if key == first or current is None:
                current = {}
                records.append(current)
            current[key] = match.group(2).strip()
            last = key
        elif current is not None and last is not None and line.strip():
            current[last] += "\n" + line.strip()
    return [r for r in records if len(r) >= 2]


# A document's name and body, each read from the first of these keys it has, in this order of preference.
# Generic names for what a record calls itself and what it says, not the keys of any one data set.
NAME_KEYS = ("title", "question", "filename", "name")
BODY_KEYS = ("answer", "text", "content", "body")


def parse_documents(output: str) -> list[dict]:
    """Tool output (a JSON list of records, but any JSON, a Python literal, "key: value" records or plain
    text) as a list of documents {"title", "answer", "text", "id"}: "title" is the record's own best name
    (the first of NAME_KEYS it has), "answer" its body (the first of BODY_KEYS), "text" both.

    Example:
        >>> parse_documents('[{"filename": "a.md", "content": "Hi."}]')
        [{'title': 'a.md', 'answer': 'Hi.', 'text': 'a.md Hi.', 'id': ''}]
    """
    data = read_output(output)
    if isinstance(data, str):
        records = text_records(data)
        if records and any(k in r for r in records for k in NAME_KEYS + BODY_KEYS):
            data = records
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
            title = str(next((item[k] for k in NAME_KEYS if item.get(k)), ""))
            answer = str(next((item[k] for k in BODY_KEYS if item.get(k)), ""))
            if not title and not answer:
                answer = "; ".join(f"{k}: {v}" for k, v in strings.items())
            docs.append({"title": title, "answer": answer, "text": f"{title} {answer}", "id": str(item.get("id", ""))})
        elif isinstance(item, str) and item.strip():
            docs.append({"title": "", "answer": item, "text": item, "id": ""})
    return docs

