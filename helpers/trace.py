"""A JSONL trace of a run: every request, response and error, one JSON object per line.

Why a file and not prints: a trace lets you replay in your head what the loop sent and got back, after the
fact, even when the run was interrupted. Each line is written and flushed on its own (the file is opened in
append mode, written and closed per event), so Ctrl-C or a crash keeps everything logged so far.

Each line looks like {"kind": "request", "iteration": 1, "time": ..., "body": {...}}; kind is "request",
"response", "error", or your own (e.g. "stop").
SDK objects are stored with `.model_dump(mode="json")`. Secrets are redacted before anything is written:
values under keys named like api_key / authorization / token / secret / password, and any string that looks
like a key (sk-..., gsk_..., ghp_..., github_pat_..., "Bearer ...") become "[REDACTED]".

Traces live in data/traces/ under the repository root (gitignored), wherever the notebook runs from.

Left out on purpose: rotation, compression, streaming events and a viewer UI. `show_trace` prints text.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from helpers import ROOT
from helpers.apis.adapter import flavour_of_request, flavour_of_response
from helpers.tools import preview

REDACTED = "[REDACTED]"


TRACE_DIR = ROOT / "data" / "traces"

# ---------------------------------------------------------------------------------------------------------
# Redaction

# Key names whose values are secrets. "token" alone is a secret (access tokens), "input_tokens" is a count.
_SECRET_KEY = re.compile(r"(api[_-]?key|authorization|secret|password|passwd|(^|[_-])token$|bearer|cookie)",
                         re.IGNORECASE)
# Strings shaped like provider keys, wherever they appear (headers, error messages, pasted text).
_SECRET_TEXT = re.compile(
    r"(?<![A-Za-z0-9])("
    r"sk-[A-Za-z0-9_\-]{16,}"  # OpenAI (sk-..., sk-proj-...), DeepSeek, Anthropic (sk-ant-...)
    r"|gsk_[A-Za-z0-9]{16,}"  # Groq
    r"|gh[pousr]_[A-Za-z0-9]{16,}"  # GitHub tokens
    r"|github_pat_[A-Za-z0-9_]{16,}"  # GitHub fine-grained tokens
    r"|hf_[A-Za-z0-9]{16,}"  # Hugging Face
    r"|Bearer\s+[A-Za-z0-9._~+/=\-]{8,}"  # any Authorization header value
    r")"
)


def _is_secret_key(key) -> bool:
    return isinstance(key, str) and bool(_SECRET_KEY.search(key))


def redact(value):
    """A copy of value with secrets replaced by "[REDACTED]" (by key name, and by key-like strings).

    Example:
        >>> redact({"api_key": "sk-abc...", "q": "hi"})
        {'api_key': '[REDACTED]', 'q': 'hi'}
    """
    if isinstance(value, dict):
        return {k: (REDACTED if _is_secret_key(k) and v not in (None, "") else redact(v))
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value]
    if isinstance(value, str):
        return _SECRET_TEXT.sub(REDACTED, value)
    return value


def to_jsonable(obj):
    """Turn SDK objects (pydantic models), dicts, lists and odd values into plain JSON-ready data.

    Example:
        >>> from helpers.offline import neutral_client
        >>> data = to_jsonable(neutral_client().responses.create(model="offline-rules-v1", input="Hi"))
        >>> type(data).__name__, data["object"], data["output"][0]["content"][0]["text"]
        ('dict', 'response', "Hello! Ask me a question and I'll look it up.")
    """
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if callable(obj):  # e.g. a tool function passed along by mistake: keep its name, not its repr address
        return f"<callable {getattr(obj, '__name__', type(obj).__name__)}>"
    return repr(obj)


# ---------------------------------------------------------------------------------------------------------
# Writing


class Trace:
    """Append-only JSONL log of one run.

    path: a file path; or None for data/traces/<name>.jsonl, where name defaults to the current time.
    A new Trace starts the file afresh unless append=True. Nothing is created until the first event.
    Example: (`Trace(name="lesson04")` writes data/traces/lesson04.jsonl; here a temporary file)
        >>> import tempfile
        >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
        >>> _ = trace.log_request(1, {"model": "m", "input": "Hi"})
        >>> _ = trace.log_response(1, {"output_text": "Hello!"}, 0.8)
        >>> [(event["kind"], event["iteration"]) for event in load_trace(trace.path)]
        [('request', 1), ('response', 1)]
    """

    def __init__(self, path=None, *, name=None, append=False):
        if path is None:
            name = name or datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = TRACE_DIR / f"{name}.jsonl"
        self.path = Path(path)
        self._fresh = not append  # truncate on the first write, so a re-run does not mix two runs
        self.count = 0

    def log(self, kind, iteration, body=None, **extra):
        """Write one event line now (redacted). Returns the event dict as written.

        Example:
            >>> import tempfile
            >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
            >>> event = trace.log("stop", 3, {"reason": "answered"})
            >>> event["kind"], event["iteration"], event["body"], trace.count
            ('stop', 3, {'reason': 'answered'}, 1)
        """
        event = {"kind": kind, "iteration": iteration,
                 "time": datetime.now().isoformat(timespec="milliseconds")}
        event.update(extra)
        event["body"] = to_jsonable(body)
        event = redact(event)
        line = json.dumps(event, ensure_ascii=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "w" if self._fresh else "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
        self._fresh = False
        self.count += 1
        return event

    def log_request(self, iteration, kwargs):
        """Log the keyword arguments of a `responses.create` / `chat.completions.create` call.

        Example: (secrets never reach the file)
            >>> import tempfile
            >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
            >>> trace.log_request(1, {"model": "gpt-5.4-mini", "input": "Hi", "api_key": "sk-abc123"})["body"]
            {'model': 'gpt-5.4-mini', 'input': 'Hi', 'api_key': '[REDACTED]'}
        """
        return self.log("request", iteration, dict(kwargs))

    def log_response(self, iteration, response, latency_s=None):
        """Log the API's response (SDK object or dict) and how long it took.

        Example:
            >>> import tempfile
            >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
            >>> event = trace.log_response(1, {"status": "completed", "output_text": "Yes."}, 0.83)
            >>> event["kind"], event["latency_s"], event["body"]
            ('response', 0.83, {'status': 'completed', 'output_text': 'Yes.'})
        """
        return self.log("response", iteration, response, latency_s=latency_s)

    def log_error(self, iteration, exc):
        """Log an exception (type, message, HTTP status if any) raised by a call.

        Example:
            >>> import tempfile
            >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
            >>> trace.log_error(2, TimeoutError("the provider took too long"))["body"]
            {'type': 'TimeoutError', 'message': 'the provider took too long'}
        """
        body = {"type": type(exc).__name__, "message": str(exc)}
        status = getattr(exc, "status_code", None)
        if status is not None:
            body["status_code"] = status
        return self.log("error", iteration, body)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False  # nothing to close: every event is already on disk

    def __repr__(self) -> str:
        return f"Trace({str(self.path)!r}, events={self.count})"


# ---------------------------------------------------------------------------------------------------------
# Reading


def load_trace(path):
    """Read a trace back as a list of event dicts. A bad line raises ValueError naming file and line.

    Example:
        >>> import tempfile
        >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
        >>> _ = trace.log("stop", 1, {"reason": "answered"})
        >>> [(event["kind"], event["body"]) for event in load_trace(trace.path)]
        [('stop', {'reason': 'answered'})]
        >>> load_trace("no-such-trace.jsonl")
        Traceback (most recent call last):
        FileNotFoundError: No trace file at no-such-trace.jsonl. Check the path, or list data/traces/ for the
        runs you have.
    """
    path = Path(getattr(path, "path", path))  # a Trace object works too
    if not path.is_file():
        raise FileNotFoundError(f"No trace file at {path}. Check the path, or list data/traces/ for the "
                                "runs you have.")
    events = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
                problem = (
                    None if isinstance(event, dict) else f"expected a JSON object, got {type(event).__name__}"
                )
            except json.JSONDecodeError as e:
                problem = f"not valid JSON ({e.msg})"
            if problem:
                raise ValueError(f"{path}, line {number}: {problem}. The run may have been cut off while "
                                 "writing it; delete that line (or the file) and load again.")
            events.append(event)
    return events


def show_trace(path_or_events, latency=False, width=80):
    """Print a trace iteration by iteration: tool outputs sent, tool calls made, answer, tokens.

    Outputs re-sent from earlier iterations are shown once. Latency is hidden unless latency=True
    (so notebook outputs do not change between runs).
    Example:
        >>> import tempfile
        >>> trace = Trace(Path(tempfile.mkdtemp()) / "run.jsonl")
        >>> _ = trace.log_request(1, {"model": "gpt-5.4-mini", "input": "Can I join?"})
        >>> show_trace(trace.path, width=40)
        ── iteration 1 ────────────────────────
          request: gpt-5.4-mini · 1 input item(s) · 0 tool(s)
    """
    if isinstance(path_or_events, (str, Path)) or hasattr(path_or_events, "path"):
        events = load_trace(path_or_events)
    else:
        events = list(path_or_events)
    seen_outputs: set[str] = set()
    current = object()
    for event in events:
        it, kind, body = event.get("iteration"), event.get("kind"), event.get("body")
        if it != current:
            current = it
            print(f"── iteration {it} " + "─" * max(0, width - 15 - len(str(it))))
        if kind == "request" and isinstance(body, dict):
            flavour = flavour_of_request(body)
            items = body.get(flavour.history_key)
            items = items if isinstance(items, list) else [items]  # a plain string input is one item
            tools = len(body.get("tools") or [])
            print(f"  request: {body.get('model')} · {len(items)} input item(s) · {tools} tool(s)")
            for call_id, output in filter(None, map(flavour.item_output, items)):
                if str(call_id) not in seen_outputs:
                    seen_outputs.add(str(call_id))
                    print(f"  tool output [{call_id}]: {preview(output, width - 20)}")
        elif kind == "response" and isinstance(body, dict):
            flavour = flavour_of_response(body)
            for call in flavour.calls_in(flavour.output_items(body)):
                name = str(call.name)
                print(f"  tool call: {name}({preview(call.arguments, width - 16 - len(name))})")
            answer, usage = flavour.text(body), flavour.usage(body)
            if answer:
                print(f"  answer: {preview(answer, width - 10)}")
            seconds = event.get("latency_s")
            timing = f" · {seconds:.2f}s" if latency and seconds is not None else ""
            tokens = f"{usage.input_tokens:,} in / {usage.output_tokens:,} out" if usage.reported else "not reported"
            print(f"  {usage.finish} · tokens: {tokens}{timing}")
        elif kind == "error" and isinstance(body, dict):
            status = f" (HTTP {body['status_code']})" if body.get("status_code") else ""
            print(f"  error: {body.get('type')}{status}: {preview(body.get('message', ''), width - 20)}")
        else:
            print(f"  {kind}: {preview(json.dumps(body, ensure_ascii=False), width - 6 - len(str(kind)))}")
