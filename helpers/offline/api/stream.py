"""Streaming: turn a finished answer into the server-sent events a real OpenAI server sends for `stream=True`.

The offline model decides everything at once, so it first renders the final object exactly as for a
non-streamed request (wire.py), then replays it as events:
- Responses API: typed events `event: <type>\\ndata: <json>\\n\\n` with a `sequence_number` counting from 0:
  response.created, response.in_progress, then for each output item output_item.added, its content
  (content_part.added, output_text.delta ..., output_text.done, content_part.done for a message;
  function_call_arguments.delta ... and .done for a function call), output_item.done, and at the end
  response.completed (or response.incomplete) carrying the whole final Response;
- Chat Completions: `data: <chat.completion.chunk>\\n\\n` frames: the assistant role, content or tool-call
  argument pieces, a chunk with the finish_reason, a usage chunk if `stream_options.include_usage`, then
  `data: [DONE]\\n\\n`.
Text and arguments are cut word by word (each word keeps the whitespace after it), so a client sees the
answer arrive in pieces and joining the pieces gives back the exact text.

Deterministic: ids, times and usage come from the final object (itself derived from a hash of the
request), so the same request always gives the same bytes.

What it leaves out on purpose: the `obfuscation` padding real servers add to delta events (random by
design; `stream_options.include_obfuscation` is accepted and ignored), keep-alive comments, pauses between
events (the events are all ready at once: a client reads them as fast as it can), `response.failed` and
`error` events (an error here is answered before the stream starts, as plain JSON), and real token
boundaries (the offline model has no tokenizer).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator

SSE_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}
DONE_FRAME = b"data: [DONE]\n\n"
# A piece is a word with the whitespace after it (leading whitespace joins the first word; an all-blank text
# is one piece). Joined, the pieces are exactly the text.
_PIECE = re.compile(r"\s*\S+\s*|\s+")


def pieces(text: str) -> list[str]:
    """The text cut into small pieces, word by word, each with the whitespace that follows it.

    Example:
        >>> pieces("Yes, you can.")
        ['Yes, ', 'you ', 'can.']
    """
    return _PIECE.findall(text)


def _json(data: dict) -> str:
    # Compact and in insertion order, like app.py's JSON bodies: equal events give equal bytes. JSON escapes
    # CR and LF inside strings, the only line ends of SSE, so one event's data is always one line.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def typed_frame(event: dict) -> bytes:
    """One Responses-API SSE frame: the event's type on an `event:` line, its JSON on a `data:` line.

    Example:
        >>> typed_frame({"type": "response.created"})
        b'event: response.created\\ndata: {"type":"response.created"}\\n\\n'
    """
    return f"event: {event['type']}\ndata: {_json(event)}\n\n".encode()


def data_frame(chunk: dict) -> bytes:
    """One Chat-Completions SSE frame: `data: <json>` and a blank line (chat chunks carry no event name).

    Example:
        >>> data_frame({"object": "chat.completion.chunk"})
        b'data: {"object":"chat.completion.chunk"}\\n\\n'
    """
    return f"data: {_json(chunk)}\n\n".encode()


# ---------------------------------------------------------------------------------------------------
# Responses API

def response_events(response: dict) -> Iterator[dict]:
    """The typed events that stream `response` (a final Response object), in order, numbered from 0.

    Example:
        >>> response = {"status": "completed", "output": [{"type": "message", "id": "msg_1",
        ...             "content": [{"type": "output_text", "text": "Yes, you can."}]}]}
        >>> [(e["sequence_number"], e["type"], e.get("delta")) for e in response_events(response)]
        [(0, 'response.created', None), (1, 'response.in_progress', None), (2, 'response.output_item.added',
        None), (3, 'response.content_part.added', None), (4, 'response.output_text.delta', 'Yes, '), (5,
        'response.output_text.delta', 'you '), (6, 'response.output_text.delta', 'can.'), (7,
        'response.output_text.done', None), (8, 'response.content_part.done', None), (9,
        'response.output_item.done', None), (10, 'response.completed', None)]
    """
    number = 0

    def event(kind: str, **fields) -> dict:
        nonlocal number
        numbered = {"type": kind, "sequence_number": number, **fields}
        number += 1
        return numbered

    # While it runs, a response has no output, no end time and no usage yet. Real servers send "usage": null
    # here; the official schema has no null for it, so the field is left out (the SDK reads both as None).
    running = {key: value for key, value in copy.deepcopy(response).items() if key != "usage"}
    running.update(status="in_progress", output=[], completed_at=None, incomplete_details=None)
    yield event("response.created", response=running)
    yield event("response.in_progress", response=running)
    for index, item in enumerate(response["output"]):
        if item["type"] == "message":
            yield event("response.output_item.added", output_index=index,
                        item={**item, "status": "in_progress", "content": []})
            for part_index, part in enumerate(item["content"]):
                at = {"item_id": item["id"], "output_index": index, "content_index": part_index}
                yield event("response.content_part.added", **at, part={**part, "text": ""})
                for piece in pieces(part["text"]):
                    yield event("response.output_text.delta", **at, delta=piece, logprobs=[])
                yield event("response.output_text.done", **at, text=part["text"], logprobs=[])
                yield event("response.content_part.done", **at, part=part)
        elif item["type"] == "function_call":
            yield event("response.output_item.added", output_index=index,
                        item={**item, "status": "in_progress", "arguments": ""})
            at = {"item_id": item["id"], "output_index": index}
            for piece in pieces(item["arguments"]):
                yield event("response.function_call_arguments.delta", **at, delta=piece)
            yield event("response.function_call_arguments.done", **at, name=item["name"],
                        arguments=item["arguments"])
        else:  # wire.py renders only the two kinds above; anything else still arrives whole
            yield event("response.output_item.added", output_index=index, item=item)
        yield event("response.output_item.done", output_index=index, item=item)
    final = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    yield event(final, response=response)


def response_frames(response: dict) -> list[bytes]:
    """The whole SSE body that streams `response`, one frame per event.

    Example:
        >>> response = {"status": "completed", "output": [{"type": "message", "id": "msg_1",
        ...             "content": [{"type": "output_text", "text": "Yes, you can."}]}]}
        >>> print(response_frames(response)[4].decode())
        event: response.output_text.delta
        data: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1",...,"delta":"Yes, ",...}
        <BLANKLINE>
    """
    return [typed_frame(e) for e in response_events(response)]


# ---------------------------------------------------------------------------------------------------
# Chat Completions API

def chat_chunks(completion: dict, include_usage: bool = False) -> Iterator[dict]:
    """The `chat.completion.chunk` objects that stream `completion` (a final chat.completion).

    Example:
        >>> completion = {"id": "c1", "created": 0, "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
        ...               "message": {"role": "assistant", "content": "Yes."}}]}
        >>> [(chunk["choices"][0]["delta"],
        ...     chunk["choices"][0]["finish_reason"]) for chunk in chat_chunks(completion)]
        [({'role': 'assistant', 'content': '', 'refusal': None}, None), ({'content': 'Yes.'}, None), ({}, 'stop')]
    """
    head = {key: completion[key] for key in ("id", "created", "model", "service_tier") if key in completion}
    # With include_usage, the real API puts `"usage": null` on every chunk but the last one.
    tail = {"usage": None} if include_usage else {}
    choice = completion["choices"][0]
    message = choice["message"]

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"id": head["id"], "object": "chat.completion.chunk", "created": head["created"],
                "model": head["model"], "service_tier": head.get("service_tier"),
                "choices": [{"index": choice["index"], "delta": delta, "logprobs": None, "finish_reason": finish}],
                **tail}

    calls = message.get("tool_calls") or []
    # The first chunk names the role. Its content is "" for a text answer and null before tool calls,
    # so the SDK's accumulated message matches the non-streamed one.
    yield chunk({"role": "assistant", "content": None if calls else "", "refusal": None})
    for piece in pieces(message.get("content") or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(calls):
        arguments = pieces(call["function"]["arguments"])
        # The first delta of a call carries its id, type and name; later ones only argument pieces, found
        # again by `index`, which is how a client tells parallel calls apart.
        yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": call["type"],
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]})
        for piece in arguments:
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if include_usage:
        yield {**chunk({}), "choices": [], "usage": completion["usage"]}


def chat_frames(completion: dict, include_usage: bool = False) -> list[bytes]:
    """The whole SSE body that streams `completion`, ending with `data: [DONE]`.

    Example:
        >>> completion = {"id": "c1", "created": 0, "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
        ...               "message": {"role": "assistant", "content": "Yes."}}]}
        >>> print(b"".join(chat_frames(completion)[-2:]).decode())
        data: {"id":"c1","object":"chat.completion.chunk",...,"delta":{},"logprobs":null,"finish_reason":"stop"}]}
        <BLANKLINE>
        data: [DONE]
        <BLANKLINE>
    """
    return [data_frame(c) for c in chat_chunks(completion, include_usage)] + [DONE_FRAME]
