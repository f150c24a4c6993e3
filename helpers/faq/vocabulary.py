"""The course FAQ's vocabulary, handed to the offline model when the course makes its client.

The offline model (helpers/offline) knows no course: what it knows of words comes from each request, plus a
vocabulary its caller may hand in. The lessons hand in this one, built from the FAQ the lessons search, so the
model can repair a typo before the search tool has returned anything ("Olama" -> "Ollama") and tell a course
question from another one (lesson 05's guardrail).

What it does:
- `faq_vocabulary()`: a `helpers.offline.knowledge.Vocabulary` over every FAQ entry (section, question and
  answer; sections and questions are its titles), built once per process on first use (about half a second);
- if the FAQ cannot be loaded (no archive, no cache, no network), an empty vocabulary, and one note on
  stderr that says why answers are weaker and how to fix it.

What it leaves out on purpose: the answers. The vocabulary holds word counts only; the model still reads
every answer from what the search tool returns.
"""

from __future__ import annotations

import sys
from functools import lru_cache

from helpers.offline.knowledge import Vocabulary

WITHOUT_FAQ = ("offline model: running without the course FAQ's vocabulary, so it cannot repair misspelled words "
               "before a search or tell course questions from other questions, and its answers are weaker. The "
               "FAQ could not be loaded (no cached copy in data/ and no download). To fix it, set "
               "FAQ_ARCHIVE=/path/to/faq.zip in .env (or connect to the internet), then restart the kernel.")


@lru_cache(maxsize=1)
def faq_vocabulary() -> Vocabulary:
    """The vocabulary of the pinned course FAQ (all courses), built on first use and then kept. Empty, with a
    note on stderr, when the FAQ cannot be loaded: the model still works, on the words of each request.

    Example:
        >>> faq_vocabulary().correct("olama")
        'ollama'
    """
    try:
        from helpers.ingest import load_faq_data

        documents = load_faq_data(progress=False)
    except Exception as exc:  # noqa: BLE001 -- any failure must weaken the offline model, not break it
        # Silently weaker answers would look like the rules' fault; say once (the cache) why, and how to fix it.
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"{WITHOUT_FAQ} (The error was: {reason})", file=sys.stderr, flush=True)
        documents = []
    return Vocabulary((f"{d.get('section', '')} {d.get('question', '')} {d.get('answer', '')}" for d in documents),
                      titles=[f"{d.get('section', '')} {d.get('question', '')}" for d in documents])
