"""Test-only stand-ins for the shapes real models and providers answer in, built on the offline model.

Every lesson's stored output comes from the offline model, whose answers have one shape: no reasoning items,
no text beside tool calls, its own habits about parallel calls, and every API (stored state, conversations,
Files and Batch). Real models and providers differ, and a lesson that assumes the offline model's shape
raises on them (issue 27). A `Shape` is a proxy in front of the offline model: each request is answered by the
offline model's own `app.handle` (same rules, same state, same errors), then the answer is rewritten the way
a model of that shape would have answered, or refused the way a provider without that API refuses it.

Why a proxy over HTTP, not a seam inside `helpers.llm`: a notebook kernel reaches it exactly as it reaches a
real OpenAI-compatible server (`LLM_PROVIDER=<preset>` and `OPENAI_BASE_URL=http://127.0.0.1:<port>/v1`), so
the course's own code runs unchanged, with no test hook in what students import; and a rewrite after the
offline model has answered keeps every rule of the offline model (nothing here decides an answer).

The shapes (SHAPES):
- `reasoning`: a reasoning item first in every Responses output, its summary empty in one response and not in
  the next (GPT-5, gpt-oss); on Chat Completions a `reasoning_content` field beside the message (DeepSeek, Groq);
- `chatty`: a short message beside every set of tool calls;
- `sequential`: several tool calls the offline model makes in one response come one per response instead,
  in the same order, each after the previous one's output (the offline model already makes several calls in
  one response when a request asks for several things, so that shape is the offline model's own);
- `misjudge`: the first move after a user's message is turned round: a tool call becomes the call written as
  text (a weak local model's habit), a text answer becomes a tool call (the offline model asked again with
  `tool_choice="required"`); every later step is the offline model's. This one is not a rewrite of the JSON but a
  model behind the offline model's own wire (`misjudging`, handed to `app.handle` as its `decide`), so both
  APIs render it the one way the wire renders any decision;
- `stateless`: `previous_response_id`, `store: true`, `conversation`, `/responses/{id}`, `/conversations`,
  `/files` and `/batches` answer 400 or 404, as Groq, DeepSeek and Ollama do; nothing is stored;
- `chat_only`: `/responses` and `/conversations` answer 404, as a Chat-Completions-only provider does;
- `combined` (what `make test` uses): reasoning, chatty, sequential and stateless at once.

What it leaves out on purpose: streaming events arriving over time (a streamed request is answered whole,
rewritten, then sent as the same server-sent events the offline model sends), encrypted reasoning content,
and rate limits.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from dataclasses import dataclass, field, replace

from helpers.offline.api.app import handle
from helpers.offline.api.state import ServerState
from helpers.offline.api.stored import continue_request
from helpers.offline.api.stream import chat_frames, response_frames
from helpers.offline.conversation import Conversation, Decision
from helpers.offline.engine import decide
from helpers.setup.providers import PROVIDERS

JSON = {"content-type": "application/json"}
CHATTY_TEXT = "Let me check that with the tools first."


def _chat_only_preset() -> str:
    # The first listed provider with Chat Completions only (the presets change with the providers' own news).
    return next(name for name, p in PROVIDERS.items() if not p.responses_api and not p.local)


@dataclass(frozen=True)
class Shape:
    """What a shape changes, and which preset a kernel names to reach it (its capabilities are that preset's)."""

    name: str
    preset: str = "openai"
    reasoning: bool = False
    chatty: bool = False
    sequential: bool = False
    misjudge: bool = False
    stateless: bool = False
    chat_only: bool = False


SHAPES: dict[str, Shape] = {s.name: s for s in [
    Shape("reasoning", reasoning=True),
    Shape("chatty", chatty=True),
    Shape("sequential", sequential=True),
    Shape("misjudge", misjudge=True),
    Shape("stateless", preset="groq", stateless=True),
    Shape("chat_only", preset=_chat_only_preset(), chat_only=True),
    Shape("combined", preset="groq", reasoning=True, chatty=True, sequential=True, stateless=True),
]}
EVERY_SHAPE = [name for name in SHAPES if name != "combined"]


def _error(status: int, message: str, param: str | None = None, code: str | None = None) -> tuple[int, dict, bytes]:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}
    return status, dict(JSON), json.dumps(body).encode()


def _route(path: str) -> str:
    route = path.split("?", 1)[0].rstrip("/")
    return route[3:] if route.startswith("/v1/") else route


def _digest(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:24]


@dataclass
class ShapedModel:
    """The offline model answering in one shape: `answer(method, path, headers, body)` -> (status, headers,
    body bytes). One state for all clients, as one provider account has.

    Example:
        >>> model = ShapedModel(SHAPES["reasoning"])
        >>> status, _, body = model.answer("POST", "/v1/responses", {}, b'{"model": "m", "input": "Hello"}')
        >>> status, json.loads(body)["output"][0]["type"]
        (200, 'reasoning')
    """

    shape: Shape
    vocabulary: object = None
    state: ServerState = field(default_factory=ServerState)
    # sequential: the calls still to come, by the call id whose output comes before them
    _pending: dict = field(default_factory=dict)
    _count: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
        route = _route(path)
        refused = self._refusal(method, route, body)
        if refused is not None:
            return refused
        if method != "POST" or route not in ("/responses", "/chat/completions"):
            return self._offline(method, path, headers, body)
        try:
            request = json.loads(body)
        except ValueError:
            return self._offline(method, path, headers, body)
        if not isinstance(request, dict):
            return self._offline(method, path, headers, body)
        stream, include_usage = request.pop("stream", False) is True, bool(
            (request.pop("stream_options", None) or {}).get("include_usage"))
        if self.shape.stateless and route == "/responses":
            request["store"] = False  # nothing is kept, so GET /responses/{id} is a 404 as on the real provider
        if route == "/responses":
            status, out_headers, content = self._responses(method, path, headers, request)
        else:
            status, out_headers, content = self._chat(method, path, headers, request)
        if status != 200 or not stream:
            return status, out_headers, content
        data = json.loads(content)
        frames = response_frames(data) if route == "/responses" else chat_frames(data, include_usage)
        return status, {**out_headers, "content-type": "text/event-stream"}, b"".join(frames)

    # ---------------------------------------------------------------------------------------------------------
    def _offline(self, method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
        model = misjudging(self.vocabulary) if self.shape.misjudge else None
        status, out_headers, content = handle(method, path, headers, body, None, self.state, self.vocabulary, model)
        if not isinstance(content, bytes | bytearray):
            content = b"".join(content)
        return status, out_headers, bytes(content)

    def _refusal(self, method: str, route: str, body: bytes) -> tuple[int, dict, bytes] | None:
        """The 404 or 400 a provider without this API gives, or None when the shape serves the request."""
        top = route.split("/")[1] if route.count("/") else ""
        if self.shape.chat_only and top in ("responses", "conversations"):
            return _error(404, f"Invalid URL ({method} /v1{route}): this provider serves Chat Completions only.")
        if not self.shape.stateless:
            return None
        if top in ("conversations", "files", "batches") or (top == "responses" and route != "/responses"):
            return _error(404, f"Unknown request URL: {method} /v1{route}. This provider stores nothing: "
                               "no stored responses, conversations, files or batches.", code="unknown_url")
        if route == "/responses" and method == "POST":
            try:
                request = json.loads(body)
            except ValueError:
                return None
            if not isinstance(request, dict):
                return None
            for name in ("previous_response_id", "conversation"):
                if request.get(name) is not None:
                    return _error(400, f"{name} is not supported by this provider: it keeps no state. Send the "
                                       "whole conversation in `input` instead.", param=name,
                                  code="unsupported_parameter")
            if request.get("store") is True:
                return _error(400, "store=true is not supported by this provider: it keeps no state.",
                              param="store", code="unsupported_parameter")
        return None

    def _next(self) -> int:
        with self._lock:
            self._count += 1
            return self._count

    # --- Responses --------------------------------------------------------------------------------------------
    def _responses(self, method: str, path: str, headers: dict, request: dict) -> tuple[int, dict, bytes]:
        items = request.get("input")
        last = items[-1] if isinstance(items, list) and items else None
        after_output = isinstance(last, dict) and last.get("type") == "function_call_output"
        if self.shape.sequential and after_output and last.get("call_id") in self._pending:
            return self._next_call(request, last["call_id"])
        status, out_headers, content = self._offline(method, path, headers, json.dumps(request).encode())
        if status != 200:
            return status, out_headers, content
        response = json.loads(content)
        original = list(response["output"])
        output = [item for item in response["output"] if item.get("type") != "reasoning"]
        calls = [item for item in output if item.get("type") == "function_call"]
        if self.shape.sequential and len(calls) > 1:
            self._pending[calls[0]["call_id"]] = (response["id"], calls[1:])
            output = [item for item in output if item.get("type") != "function_call"] + calls[:1]
            calls = calls[:1]
        if self.shape.chatty and calls and not any(item.get("type") == "message" for item in output):
            output = [_message(response["id"], CHATTY_TEXT), *output]
        if self.shape.reasoning:
            output = [self._reasoning(response["id"], calls), *output]
        response["output"] = output
        response["model"] = request.get("model") or response.get("model")  # a provider names the model asked for
        self._restore(request, response, original)
        return 200, out_headers, json.dumps(response).encode()

    def _reasoning(self, response_id: str, calls: list[dict]) -> dict:
        # Every other response has an empty summary, as models give when the summary was not asked for.
        summary = []
        if self._next() % 2 == 0:
            plan = f"The request needs `{calls[0]['name']}`." if calls else "I can answer from what I have."
            summary = [{"type": "summary_text", "text": f"**Planning the answer**\n\n{plan}"}]
        return {"type": "reasoning", "id": "rs_" + _digest(response_id, "reasoning"), "summary": summary}

    def _next_call(self, request: dict, call_id: str) -> tuple[int, dict, bytes]:
        """The next call of a set the offline model made at once, as its own response."""
        with self._lock:
            first_id, rest = self._pending.pop(call_id)
        if len(rest) > 1:
            self._pending[rest[0]["call_id"]] = (first_id, rest[1:])
        seed = _digest(first_id, rest[0]["call_id"])
        stored = self.state.responses.get(first_id)
        response = copy.deepcopy(stored[0]) if stored else {"id": first_id, "object": "response", "status":
                                                            "completed", "model": request.get("model")}
        response["id"] = "resp_" + seed
        output = [rest[0]]
        if self.shape.chatty:
            output = [_message(response["id"], CHATTY_TEXT), *output]
        if self.shape.reasoning:
            output = [self._reasoning(response["id"], output[-1:]), *output]
        response["output"] = output
        if request.get("store") is not False:
            try:
                body, _ = continue_request(request, self.state, seed)
                self.state.responses.put(response, body["input"])
            except Exception:  # noqa: BLE001 -- a request the offline model would refuse: keep nothing
                pass
        return 200, {**JSON, "x-request-id": "req_" + seed}, json.dumps(response).encode()

    def _restore(self, request: dict, response: dict, original: list[dict]) -> None:
        """Keep the rewritten output in the offline model's state, so a later `previous_response_id` or
        conversation reads what the client was given."""
        stored = self.state.responses.get(response["id"])
        if stored is not None:
            self.state.responses.put(response, stored[1])
        conversation = request.get("conversation")
        if conversation:
            chat = self.state.conversations.get(conversation["id"] if isinstance(conversation, dict)
                                                else conversation)
            with chat.lock:
                if original and chat.items[-len(original):] == original:
                    chat.items[-len(original):] = response["output"]

    # --- Chat Completions -------------------------------------------------------------------------------------
    def _chat(self, method: str, path: str, headers: dict, request: dict) -> tuple[int, dict, bytes]:
        messages = request.get("messages")
        last = messages[-1] if isinstance(messages, list) and messages else None
        if (self.shape.sequential and isinstance(last, dict) and last.get("role") == "tool"
                and last.get("tool_call_id") in self._pending):
            with self._lock:
                first, rest = self._pending.pop(last["tool_call_id"])
            if len(rest) > 1:
                self._pending[rest[0]["id"]] = (first, rest[1:])
            completion = copy.deepcopy(first)
            completion["id"] = "chatcmpl-" + _digest(first["id"], rest[0]["id"])
            message = completion["choices"][0]["message"]
            message["tool_calls"] = rest[:1]
            message["content"] = CHATTY_TEXT if self.shape.chatty else None
            self._chat_reasoning(message)
            return 200, dict(JSON), json.dumps(completion).encode()
        status, out_headers, content = self._offline(method, path, headers, json.dumps(request).encode())
        if status != 200:
            return status, out_headers, content
        completion = json.loads(content)
        choice = completion["choices"][0]
        message = choice["message"]
        calls = message.get("tool_calls") or []
        if self.shape.sequential and len(calls) > 1:
            self._pending[calls[0]["id"]] = (copy.deepcopy(completion), calls[1:])
            message["tool_calls"] = calls[:1]
        if self.shape.chatty and calls and not message.get("content"):
            message["content"] = CHATTY_TEXT
        self._chat_reasoning(message)
        completion["model"] = request.get("model") or completion.get("model")  # a provider names the model asked for
        return 200, out_headers, json.dumps(completion).encode()

    def _chat_reasoning(self, message: dict) -> None:
        if self.shape.reasoning:
            message["reasoning_content"] = "" if self._next() % 2 else "Planning the answer."


def misjudging(vocabulary=None):
    """The `misjudge` shape as a model behind the offline model's wire: `decide(conversation) -> Decision`.

    Example:
        >>> from helpers.offline.conversation import Tool
        >>> weather = Tool("get_weather", "Current weather for a city.", {"type": "object",
        ...                "properties": {"city": {"type": "string"}}, "required": ["city"]})
        >>> misjudging()(Conversation(question="Weather in Oslo?", tools=[weather])).text
        '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    """
    def misjudged(conv: Conversation) -> Decision:
        decision = decide(conv, vocabulary)
        if conv.calls or not _free_choice(conv):
            return decision  # every later step is the offline model's own
        if decision.calls:  # a weak model writes the call as text instead of making it
            name, arguments = decision.calls[0]
            return Decision(text=json.dumps({"name": name, "arguments": json.loads(arguments or "{}")}))
        return decide(replace(conv, tool_choice="required"), vocabulary)  # and calls a tool where none was needed

    return misjudged


def _free_choice(conv: Conversation) -> bool:
    # Only a model left to choose misjudges: a forced or forbidden tool choice, or no tools, is obeyed; and a
    # structured output (a JSON schema) is enforced by the provider's decoding, so its text is never a stray call.
    if (conv.output_format or {}).get("type") == "json_schema":
        return False
    return conv.tool_choice == "auto" and conv.forced is None and conv.allowed is None and bool(conv.tools)


def _message(response_id: str, text: str) -> dict:
    return {"type": "message", "id": "msg_" + _digest(response_id, text), "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
