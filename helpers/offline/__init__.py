"""The offline model: a deterministic, rule-based stand-in for an LLM that speaks the OpenAI wire format.

    from helpers.offline import neutral_client
    client = neutral_client()          # an openai.OpenAI client answered in-process, no key, no network
    client.responses.create(model=OFFLINE_MODEL, input="Is the rye bread vegan?")
    client = async_neutral_client()    # the same as an openai.AsyncOpenAI client (for agent frameworks)

Or as a server for any client (curl, other SDKs): `python -m helpers.offline serve --port 8765`.
See README.md in this folder for what it can and cannot do.
"""

from __future__ import annotations

import importlib

from helpers.offline.constants import OFFLINE_BASE_URL, OFFLINE_MODEL

# Where each exported name lives. They load on first use (PEP 562's module __getattr__), so that
# `import helpers.offline` and its constants cost next to nothing: pricing and the provider presets name the
# offline model without loading the engine, the wire format or httpx.
_LAZY = {
    "handle": "api.app", "Conversation": "engine", "Decision": "engine", "decide": "engine",
    "FAULT_MODES": "api.faults", "OfflineServer": "api.server", "serve": "api.server",
    "AsyncOfflineTransport": "api.transport", "OfflineTransport": "api.transport",
}

__all__ = ["FAULT_MODES", "OFFLINE_BASE_URL", "OFFLINE_MODEL", "AsyncOfflineTransport", "Conversation", "Decision",
           "OfflineServer", "OfflineTransport", "async_neutral_client", "decide", "handle", "neutral_client", "serve"]


def __getattr__(name: str):
    # Python calls this only for a name the module doesn't have yet; the value is cached, so it runs once.
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def neutral_client(faults=None, vocabulary=None, context_window=None, decide=None, **kwargs):
    """An openai.OpenAI client answered by the offline model in-process. `vocabulary`: an optional
    knowledge.Vocabulary; `context_window`: prompt tokens per request; `decide`: another model behind the same
    wire, `decide(conversation) -> Decision` (see OfflineTransport). `kwargs` go to
    OpenAI(...) (e.g. max_retries, timeout). Each client has its own stored responses and conversations.

    Example:
        >>> neutral_client().models.list().data[0].id
        'offline-rules-v1'
    """
    import httpx
    from openai import OpenAI

    from helpers.offline.api.transport import OfflineTransport

    return _client(OpenAI, httpx.Client(transport=OfflineTransport(faults, vocabulary, context_window, decide)), kwargs)


def async_neutral_client(faults=None, vocabulary=None, context_window=None, decide=None, **kwargs):
    """An openai.AsyncOpenAI client answered by the offline model in-process, for async code and agent
    frameworks (OpenAI Agents SDK, PydanticAI). `kwargs` go to AsyncOpenAI(...).

    Example:
        >>> import asyncio
        >>> async def first_model():
        ...     return (await async_neutral_client().models.list()).data[0].id
        >>> asyncio.run(first_model())
        'offline-rules-v1'
    """
    import httpx
    from openai import AsyncOpenAI

    from helpers.offline.api.transport import AsyncOfflineTransport

    transport = AsyncOfflineTransport(faults, vocabulary, context_window, decide)
    return _client(AsyncOpenAI, httpx.AsyncClient(transport=transport), kwargs)


def _client(client_class, http_client, kwargs: dict):
    kwargs.setdefault("api_key", "offline")
    kwargs.setdefault("base_url", OFFLINE_BASE_URL)
    # openai 3 annotates http_client as an httpx2 client and accepts an httpx one too (openai/_httpx2.py).
    return client_class(http_client=http_client, **kwargs)
