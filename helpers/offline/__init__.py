"""The offline model: a deterministic, rule-based stand-in for an LLM that speaks the OpenAI wire format.

    from helpers.offline import offline_client
    client = offline_client()          # an openai.OpenAI client answered in-process, no key, no network
    client.responses.create(model=OFFLINE_MODEL, input="Can I still join the course?")
    client = async_offline_client()    # the same as an openai.AsyncOpenAI client (for agent frameworks)

Or as a server for any client (curl, other SDKs): `python -m helpers.offline serve --port 8765`.
See README.md in this folder for what it can and cannot do.
"""

from helpers.offline.app import handle
from helpers.offline.engine import Conversation, Decision, decide
from helpers.offline.faults import FAULT_MODES
from helpers.offline.server import OfflineServer, serve
from helpers.offline.transport import OFFLINE_BASE_URL, AsyncOfflineTransport, OfflineTransport
from helpers.offline.wire import OFFLINE_MODEL

__all__ = ["FAULT_MODES", "OFFLINE_BASE_URL", "OFFLINE_MODEL", "AsyncOfflineTransport", "Conversation", "Decision",
           "OfflineServer", "OfflineTransport", "async_offline_client", "decide", "handle", "offline_client", "serve"]


def offline_client(faults=None, **kwargs):
    """An openai.OpenAI client answered by the offline model in-process. `kwargs` go to OpenAI(...)
    (e.g. max_retries, timeout, default_headers).

    Example:
        >>> offline_client().models.list().data[0].id
        'offline-rules-v1'
    """
    import httpx
    from openai import OpenAI

    kwargs.setdefault("api_key", "offline")
    kwargs.setdefault("base_url", OFFLINE_BASE_URL)
    # openai 3 annotates http_client as an httpx2.Client and accepts an httpx.Client too (openai/_httpx2.py).
    http_client = httpx.Client(transport=OfflineTransport(faults))
    return OpenAI(http_client=http_client, **kwargs)  # ty: ignore[invalid-argument-type]


def async_offline_client(faults=None, **kwargs):
    """An openai.AsyncOpenAI client answered by the offline model in-process, for async code and agent
    frameworks (OpenAI Agents SDK, PydanticAI). `kwargs` go to AsyncOpenAI(...).

    Example:
        >>> import asyncio
        >>> async def first_model():
        ...     return (await async_offline_client().models.list()).data[0].id
        >>> asyncio.run(first_model())
        'offline-rules-v1'
    """
    import httpx
    from openai import AsyncOpenAI

    kwargs.setdefault("api_key", "offline")
    kwargs.setdefault("base_url", OFFLINE_BASE_URL)
    # openai 3 annotates http_client as an httpx2.AsyncClient and accepts an httpx.AsyncClient too.
    http_client = httpx.AsyncClient(transport=AsyncOfflineTransport(faults))
    return AsyncOpenAI(http_client=http_client, **kwargs)  # ty: ignore[invalid-argument-type]
