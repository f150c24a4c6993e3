"""What the offline model remembers between requests: one `ServerState` per client transport or per server.

A real provider keeps state per account: its prompt cache, stored responses, conversations (and, added by
the Part 2 lessons, uploaded files and batches). The offline model keeps the same things in memory, one
`ServerState` for each `OfflineTransport` (so each client starts empty, like a new account) and one for each
HTTP server (shared by all of its clients). app.handle reads and writes it; the rules in engine.py never see
it. It also holds the context window the transport or server was given (context_window.py).

What it leaves out on purpose: persistence (a restarted kernel or server starts empty) and time (nothing expires
by the clock, so stored outputs do not depend on how fast a notebook runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers.offline.api.context_window import DEFAULT_CONTEXT_WINDOW
from helpers.offline.api.conversations import ConversationStore
from helpers.offline.api.prompt_cache import PromptCache
from helpers.offline.api.stored import ResponseStore


@dataclass
class ServerState:
    """Everything one client (or one server) has left behind: its prompt cache, stored responses and
    conversations, files and batches; and the context window its requests must fit in.

    Example:
        >>> ServerState().cache.cached(list(range(2000)))
        0
        >>> ServerState(context_window=4096).context_window
        4096
    """

    cache: PromptCache = field(default_factory=PromptCache)
    # The Files and Batch APIs (files.py, batches.py): files.StoredFile and batches.BatchJob by id, and a
    # logical clock (one tick per stored file or batch step) that gives their timestamps without the wall clock.
    files: dict = field(default_factory=dict)
    batches: dict = field(default_factory=dict)
    ticks: int = 0
    responses: ResponseStore = field(default_factory=ResponseStore)
    conversations: ConversationStore = field(default_factory=ConversationStore)
    context_window: int = DEFAULT_CONTEXT_WINDOW
