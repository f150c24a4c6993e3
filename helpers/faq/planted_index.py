"""An FAQ search index with a few entries added, fitted once per content and shared between short agent runs.

Lesson 14 measures defences by running the FAQ agent once per (case, defence), each run over the whole FAQ
plus one planted entry; homework 7.2's check does it twice per held-back case, on every check call. Fitting
a fresh minsearch index over ~1,200 entries takes about 0.2 s, so fitting one per run made a lesson and its
checks crawl. `PlantedIndex` gives the same results for a fraction of that:
- the FAQ itself is fitted once per content (kept pickled, so each copy starts from it without re-tokenising),
  and the added entries are appended to a copy, which is the same index `fit` builds over all of them;
- the results of a search are remembered per content and query, so a second run over the same entries and
  the same query (another defence, another check call) does not build an index at all;
- a write (`append`) is one more added entry: nothing is built until a search needs the index.
Content is told apart by a hash of the pickled documents (key order included, as a search returns the entries
as they are), so changing a list in place between two calls is seen.

What it leaves out on purpose: other search settings than helpers.search's defaults (the course filter, the
number of results, `BOOST`, read at each search), and eviction by size: both caches keep the newest few.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Iterable
from typing import cast

from minsearch import AppendableIndex, Index

from helpers.search import BOOST, KEYWORD_FIELDS, TEXT_FIELDS
from helpers.search import search as faq_search

_BASES: OrderedDict[str, bytes] = OrderedDict()  # fingerprint of the documents -> the fitted index, pickled
_RESULTS: OrderedDict[tuple, list[dict]] = OrderedDict()  # (fingerprints, boost, query) -> the results
MAX_BASES = 2  # a pickled index of the FAQ is ~3 MB
MAX_RESULTS = 1024


def fingerprint(documents: list[dict]) -> str:
    """A hash of the documents' content, key order included.

    Example:
        >>> fingerprint([{"a": 1, "b": 2}]) == fingerprint([{"a": 1, "b": 2}]), fingerprint([{"b": 2, "a": 1}]) == fingerprint([{"a": 1, "b": 2}])
        (True, False)
    """
    return hashlib.blake2b(pickle.dumps(documents, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).hexdigest()


def _remember(cache: OrderedDict, key, value, limit: int) -> None:
    """Keep `value` under `key`, forgetting the least recently used entries beyond `limit`."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)


class PlantedIndex:
    """The FAQ `documents` plus the entries `added`, searched as one minsearch index with helpers.search's
    settings; the index is built only when a search needs it (see the module docstring).

    Example:
        >>> faq = [{"id": "a1", "course": "llm-zoomcamp", "section": "s", "question": "Can I join late?",
        ...         "answer": "Yes."}]
        >>> index = PlantedIndex(faq, [{"id": "n1", "course": "llm-zoomcamp", "section": "s",
        ...                             "question": "Is there a Lisbon group?", "answer": "Yes."}])
        >>> [doc["id"] for doc in index.search("Lisbon group")], len(index)
        (['n1'], 2)
    """

    def __init__(self, documents: list[dict], added: Iterable[dict] = ()):
        self._documents = list(documents)  # as the caller's list is now, like `fit` would take it
        self._faq_key = fingerprint(self._documents)
        self._added = list(added)
        self._index: AppendableIndex | None = None

    def __len__(self) -> int:
        return len(self._documents) + len(self._added)

    def _built(self) -> AppendableIndex:
        """This object's own index: a copy of the fitted FAQ with the added entries appended."""
        if self._index is None:
            base = _BASES.get(self._faq_key)
            if base is None:
                fitted = AppendableIndex(text_fields=TEXT_FIELDS, keyword_fields=KEYWORD_FIELDS)
                base = pickle.dumps(fitted.fit(list(self._documents)), protocol=pickle.HIGHEST_PROTOCOL)
            _remember(_BASES, self._faq_key, base, MAX_BASES)
            self._index = cast(AppendableIndex, pickle.loads(base))
            for entry in self._added:
                self._index.append(entry)
        return self._index

    def search(self, query: str) -> list[dict]:
        """helpers.search.search over these entries (a new list each time; the entries themselves are shared).

        Example:
            >>> PlantedIndex([]).search("anything")
            []
        """
        if not isinstance(query, str):  # helpers.search says what is wrong
            return faq_search(query, index=cast(Index, self._built()))
        key = (self._faq_key, fingerprint(self._added), tuple(BOOST.items()), query)
        results = _RESULTS.get(key)
        if results is None:  # an AppendableIndex searches the same way as an Index
            results = faq_search(query, index=cast(Index, self._built()))
        _remember(_RESULTS, key, results, MAX_RESULTS)
        return list(results)

    def append(self, entry: dict) -> None:
        """Add one entry (a write): it counts as one more added entry, so this object's searches from now on
        are told apart from those of an index without it.

        Example:
            >>> index = PlantedIndex([])
            >>> index.append({"id": "n1", "course": "llm-zoomcamp", "section": "s", "question": "Lisbon?",
            ...               "answer": "Yes."})
            >>> [doc["id"] for doc in index.search("Lisbon")], len(index)
            (['n1'], 1)
        """
        self._added.append(entry)
        if self._index is not None:  # built: keep it in step (appending is what `fit` over all of them gives)
            self._index.append(entry)
