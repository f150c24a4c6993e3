"""One model call, streamed: each piece of the answer's text goes to a callback as it arrives, and what comes
back is the same response object the plain call returns (lesson 10's chat widget; helpers.loop's `on_text`,
through helpers.apis.adapter, which calls the function of its flavour).

Why give back the plain object: everything after the call (the history, token usage, cost, the trace) reads
a `Response` or a `ChatCompletion`. If a streamed call returned something else, each of them would need a
streamed variant; put back together, streaming changes nothing but when the text shows.

What it leaves out on purpose: tool-call argument deltas (a card shows a call once it is whole), reasoning
deltas, and retrying a stream that broke off (the error says so; the SDK retries only before the first byte).
"""

from __future__ import annotations

import openai
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletion

# The events that end a Responses stream, each carrying the whole response.
FINAL_EVENTS = ("response.completed", "response.incomplete", "response.failed")


def stream_responses(client, kwargs: dict, on_text):
    """`client.responses.create(**kwargs)`, streamed: each text delta goes to `on_text`. The stream ends with an
    event that carries the whole Response, exactly what the plain call returns, and that comes back.
    Example:
        >>> from helpers.offline import neutral_client
        >>> deltas = []
        >>> stream_responses(neutral_client(), {"model": "offline-rules-v1", "input": "Hi"}, deltas.append).output_text
        "Hello! Ask me a question and I'll look it up."
    """
    with client.responses.create(**kwargs, stream=True) as events:
        for event in events:
            if event.type == "response.output_text.delta":
                on_text(event.delta)
            elif event.type in FINAL_EVENTS:
                return event.response
    raise _cut_short(events, "no response.completed event")


def stream_chat(client, kwargs: dict, on_text):
    """`client.chat.completions.create(**kwargs)`, streamed: each text delta goes to `on_text`. The stream has
    only deltas: the SDK's accumulator (`ChatCompletionStreamState`) adds them up into the ChatCompletion a
    plain call returns, and `stream_options={"include_usage": True}` asks for a last chunk with the token counts.
    Example:
        >>> from helpers.offline import neutral_client
        >>> deltas = []
        >>> stream_chat(neutral_client(), {"model": "offline-rules-v1", "messages": [{"role": "user", "content": "Hi"}]},
        ...             deltas.append).choices[0].message.content
        "Hello! Ask me a question and I'll look it up."
    """
    state, finished = ChatCompletionStreamState(), False
    with client.chat.completions.create(**kwargs, stream=True, stream_options={"include_usage": True}) as chunks:
        for chunk in chunks:
            state.handle_chunk(chunk)
            for choice in chunk.choices:
                finished = finished or choice.finish_reason is not None
                if choice.delta.content:
                    on_text(choice.delta.content)
    if not finished:
        raise _cut_short(chunks, "no finish_reason")
    return _as_plain_completion(state.get_final_completion())


def _cut_short(stream, missing: str) -> openai.APIError:
    """The error for a stream that ended before the response was whole (a dropped connection, a proxy).

    Example:
        >>> from types import SimpleNamespace
        >>> import httpx
        >>> events = SimpleNamespace(response=httpx.Response(200, request=httpx.Request("POST",
        ...     "http://x/v1/responses")))
        >>> print(_cut_short(events, "no response.completed event").message)
        The streamed response ended before it was complete (no response.completed event). Try again; if it
        keeps happening, run without streaming.
    """
    return openai.APIError(f"The streamed response ended before it was complete ({missing}). Try again; if it "
                           "keeps happening, run without streaming.", stream.response.request, body=None)


def _as_plain_completion(parsed) -> ChatCompletion:
    """The SDK's accumulated stream as the ChatCompletion a plain call returns: without the fields its
    structured-output parsing adds (`parsed`, `parsed_arguments`) or the `index` each tool-call delta carries,
    which would otherwise go back to the provider in the history.

    Example:
        >>> from openai.lib.streaming.chat import ChatCompletionStreamState
        >>> from helpers.offline import neutral_client
        >>> state = ChatCompletionStreamState()
        >>> for chunk in neutral_client().chat.completions.create(model="offline-rules-v1", stream=True,
        ...                                                       messages=[{"role": "user", "content": "Hi"}]):
        ...     _ = state.handle_chunk(chunk)
        >>> completion = _as_plain_completion(state.get_final_completion())
        >>> type(completion).__name__, completion.choices[0].message.content
        ('ChatCompletion', "Hello! Ask me a question and I'll look it up.")
    """
    data = parsed.to_dict()
    for choice in data.get("choices", []):
        message = choice.get("message", {})
        message.pop("parsed", None)
        for call in message.get("tool_calls") or []:
            call.pop("index", None)
            call.get("function", {}).pop("parsed_arguments", None)
    return ChatCompletion.model_validate(data)
