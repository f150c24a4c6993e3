"""Memory for the agent loop (lesson 15): play a conversation under a history policy, and remember across sessions.

- `run_conversation(client, model, questions, tools, policy=...)` plays scripted questions through
  helpers.loop's agent loop with a policy applied before each one (any function from a list of items to a
  shorter list: those of helpers.history, or your own), counting every call in a CostMeter, and stops at the
  API's error when the conversation no longer fits;
- a long-term memory: `FactStore(path)`, a small JSON file of facts, with `memory_tools(store)`, a `remember`
  tool and a `recall` tool (helpers.tools' registry) that a loop offers the model, so a fact saved in one
  session is found in a later one, by a new client.

What it leaves out on purpose: the policies themselves (helpers.history), embeddings for recall (the store
matches words), and server-side state (`previous_response_id`, conversations): the offline model keeps those,
see lesson 15.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from helpers.cost import CostMeter
from helpers.loop import agent_loop
from helpers.tools import Tools


@dataclass
class ConversationRun:
    """What `run_conversation` played: one answer per question answered, the calls (the loop's and any a
    policy made, e.g. summaries) in `meter`, and the API error that ended it early, if one did."""

    answers: list[str] = field(default_factory=list)
    meter: CostMeter = field(default_factory=CostMeter)
    error: str | None = None
    messages: list = field(default_factory=list)


def run_conversation(client, model: str, questions: list[str], tools, *, policy: Callable[[list], list] | None = None,
                     meter: CostMeter | None = None, **options) -> ConversationRun:
    """Ask `questions` one after the other in one conversation, through helpers.loop's agent loop; before each,
    `policy(messages)` (e.g. `lambda m: keep_last_turns(m, 3)`) shortens the history. Stops at the first
    question the loop could not answer because of an API error (e.g. 400 context_length_exceeded).
    `options` go to agent_loop (schemas, instructions, api, price_as, ...).

    Example:
        >>> from helpers.offline import neutral_client
        >>> run = run_conversation(neutral_client(), "offline-rules-v1",
        ...     ["I'm Ana and my room is 214.", "What was my room number again?"], {})
        >>> print(run.answers[-1], len(run.meter))
        You said earlier: "I'm Ana and my room is 214." 2
    """
    run = ConversationRun(meter=meter if meter is not None else CostMeter())
    options.setdefault("verbose", False)
    for question in questions:
        history = policy(run.messages) if policy is not None else run.messages
        result = agent_loop(client, model, question, tools, messages=history, meter=run.meter, **options)
        if result.stop_reason == "error":
            run.error = result.error or result.answer
            break
        run.answers.append(result.answer)
        run.messages = result.messages
    return run


# --------------------------------------------------------------------------------------------------------
# Long-term memory: facts that outlive the conversation


class FactStore:
    """A small JSON file of facts (a list of strings), read and written on every call, so another client,
    kernel or day sees what was saved.

    Example:
        >>> import tempfile, os
        >>> store = FactStore(os.path.join(tempfile.mkdtemp(), "facts.json"))
        >>> store.save("The user's cat is called Miso.")
        "Saved: The user's cat is called Miso."
        >>> FactStore(store.path).recall("What is my cat called?")
        ["The user's cat is called Miso."]
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def facts(self) -> list[str]:
        """Every fact saved so far, oldest first (none if the file doesn't exist yet).

        Example:
            >>> FactStore("/nonexistent/facts.json").facts()
            []
            >>> import tempfile, os
            >>> damaged = os.path.join(tempfile.mkdtemp(), "f.json")
            >>> _ = open(damaged, "w").write("{not json")
            >>> FactStore(damaged).facts()  # doctest: +IGNORE_EXCEPTION_DETAIL
            Traceback (most recent call last):
            ValueError: ... is not a fact store (a JSON list of strings): ...
        """
        if not self.path.exists():
            return []
        try:
            facts = json.loads(self.path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            facts = error
        if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
            # Never overwritten: a damaged store is the student's saved facts; say where it is instead.
            raise ValueError(f"{self.path} is not a fact store (a JSON list of strings): {facts!s:.80}. Repair it "
                             f"or move it away; nothing was written to it.")
        return facts

    def save(self, fact: str) -> str:
        """Add a fact (a repeat is kept once) and say what was saved.

        Example:
            >>> import tempfile, os
            >>> FactStore(os.path.join(tempfile.mkdtemp(), "f.json")).save("  Likes tea.  ")
            'Saved: Likes tea.'
        """
        fact = " ".join(str(fact).split())
        if not fact:
            raise ValueError("a fact to save must have some text")
        facts = self.facts()
        if fact not in facts:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Written aside, then renamed over the store: a run stopped mid-write leaves the old file whole.
            partial = self.path.with_name(self.path.name + ".partial")
            partial.write_text(json.dumps(facts + [fact], indent=1, ensure_ascii=False), encoding="utf-8")
            partial.replace(self.path)
        return f"Saved: {fact}"

    def recall(self, query: str, limit: int = 5) -> list[str]:
        """The facts sharing most words (4+ letters, any case) with `query`, best first; none if none share one.

        Example:
            >>> import tempfile, os
            >>> store = FactStore(os.path.join(tempfile.mkdtemp(), "f.json"))
            >>> _ = store.save("Flat 3B has no lift."); _ = store.save("The dog is called Pip.")
            >>> store.recall("what is the dog called")
            ['The dog is called Pip.']
        """
        wanted = _long_words(query)
        scored = [(len(wanted & _long_words(f)), -i, f) for i, f in enumerate(self.facts())]
        return [f for score, _, f in sorted(scored, reverse=True) if score][:limit]


def _long_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 4 or w.isdigit()}


def memory_tools(store: FactStore) -> Tools:
    """Two tools over `store` for the model: `remember(fact)` and `recall(query)` (a helpers.tools registry:
    pass it as the loop's tools, its `responses_schemas()` as the schemas).

    Example:
        >>> import tempfile, os
        >>> tools = memory_tools(FactStore(os.path.join(tempfile.mkdtemp(), "f.json")))
        >>> tools.names()
        ['remember', 'recall']
    """

    def remember(fact: str) -> str:
        """Save a fact about the user to long-term memory, to recall in a later conversation.

        Args:
            fact: The fact to remember, as one sentence, e.g. "The user's dentist is Dr Osei".
        """
        return store.save(fact)

    def recall(query: str) -> list[str]:
        """Search long-term memory for facts saved in earlier conversations.

        Args:
            query: Keywords of what to look up, e.g. "dentist appointment".
        """
        return store.recall(query)

    return Tools(remember, recall)
