"""OpenAI's automatic prompt caching, as the offline model reports it in `usage` (`cached_tokens`).

What it does: a request whose first 1,024 or more tokens repeat the start of an earlier request's prompt has
that common prefix, rounded down to a multiple of 128 tokens, reported as cached; a shorter common prefix
counts nothing (OpenAI's documented rules). Each client transport and each server keeps its own cache, so a
new client starts cold, like a new provider account.

It misses as OpenAI's does whenever the start of a prompt changes: after a history policy trims or summarises
the oldest turns, only the part before the first rewritten item can be cached (nothing, when that part is under
1,024 tokens); tests/test_memory.py checks it.

What it leaves out on purpose: time. A real cache forgets a prefix after minutes (OpenAI's `in_memory`
retention) to a day (`24h`) of disuse; this one forgets by count only (the least recently used of its last
CAPACITY prompts, fewer if they pass MAX_TOKENS in all), so a notebook run top to bottom gets the same figures
on every machine however slowly it runs. Lesson 15 prices the cold case apart (helpers.memory.uncached_cost),
for turns further apart than a real cache keeps a prefix. Also left out: `prompt_cache_key` routing and cache
writes (OpenAI does not bill writing to its cache; `cache_write_tokens` stays 0).
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict

CACHE_MIN_TOKENS = 1024  # OpenAI caches prompts from 1,024 tokens on ...
CACHE_STEP = 128  # ... and reports hits in steps of 128 tokens
CAPACITY = 128  # prompts remembered; a notebook or a benchmark conversation re-sends only the last few
MAX_TOKENS = 4_000_000  # tokens remembered in all (16 MB): a few huge requests must not fill the memory


class PromptCache:
    """The prompts one client (or one server) has sent, and how much of a new prompt they cover.

    Thread-safe: the HTTP server answers several connections at once. Prompts are kept packed (4 bytes a
    token) so that CAPACITY long prompts stay small, and compared 128 tokens at a time, which is also the
    step of the result.

    Example:
        >>> cache, ids = PromptCache(), list(range(1500))
        >>> cache.cached(ids), cache.cached(ids + [7, 8, 9])
        (0, 1408)
    """

    def __init__(self, capacity: int = CAPACITY, min_tokens: int = CACHE_MIN_TOKENS, step: int = CACHE_STEP,
                 max_tokens: int = MAX_TOKENS):
        if capacity < 1 or min_tokens < step or min_tokens % step:
            raise ValueError("PromptCache needs capacity >= 1 and min_tokens a positive multiple of step.")
        self.capacity, self.min_tokens, self.step, self.max_tokens = capacity, min_tokens, step, max_tokens
        self._prompts: OrderedDict[bytes, None] = OrderedDict()  # oldest first
        self._bytes = 0  # 4 bytes a token
        self._lock = threading.Lock()

    def cached(self, ids: list[int]) -> int:
        """The cached tokens of this prompt given the earlier ones; then remember it (and refresh the prompt
        it matched, as a cache hit does).

        Example: (nothing seen yet)
            >>> PromptCache().cached(list(range(2000)))
            0
        """
        if len(ids) < self.min_tokens:
            return 0  # too short to be cached, or to be a cached prefix for a later prompt
        packed = array("i", ids).tobytes()
        width = self.step * 4
        with self._lock:
            best, source = 0, None
            for earlier in self._prompts:
                common = _common_blocks(packed, earlier, width)
                if common > best:
                    best, source = common, earlier
            if source is not None:
                self._prompts.move_to_end(source)
            if packed not in self._prompts:
                self._bytes += len(packed)
            self._prompts[packed] = None
            self._prompts.move_to_end(packed)
            while len(self._prompts) > self.capacity or (self._bytes > 4 * self.max_tokens and len(self._prompts) > 1):
                self._bytes -= len(self._prompts.popitem(last=False)[0])
        tokens = best // 4
        return tokens if tokens >= self.min_tokens else 0


def _common_blocks(a: bytes, b: bytes, width: int) -> int:
    """Bytes of the longest common prefix of a and b counted in whole blocks of `width` bytes.

    Example:
        >>> _common_blocks(b"abcdef", b"abcdxx", 2)
        4
    """
    end = min(len(a), len(b)) // width * width
    i = 0
    while i < end and a[i: i + width] == b[i: i + width]:
        i += width
    return i
