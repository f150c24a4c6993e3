"""Memory for the agent loop (lesson 15): keep the conversation under the context window, and remember across sessions.

Every model call re-sends the whole message list, so a long conversation grows until it costs too much or
no longer fits (the API answers 400 `context_length_exceeded`). Three policies shorten it before the next
question, each over a Responses input list or a Chat Completions message list (plain dicts, as
`LoopResult.messages` holds them):
- `keep_last_turns(items, n)`: the instructions (leading system/developer messages) and the last `n` user
  turns, whole. A turn starts at a user message and holds every item up to the next one, so a tool call
  always keeps its output (an orphaned output is the API's 400);
- `drop_stale_outputs(items, keep_turns)`: every tool output older than the last `keep_turns` turns becomes a
  short note; the calls, questions and answers stay;
- `summarise_old_turns(items, client, model, ...)`: the turns before the last `keep_turns` replaced by one
  message holding a summary that a model call wrote (the client is passed in; its cost can go to a meter).

`user_turns(items)` splits a list into those pieces; `run_conversation(...)` plays scripted questions through
helpers.loop's agent loop with a policy applied before each one, counting every call in a CostMeter. And a long-term memory: `FactStore(path)`, a small JSON
file of facts, with `memory_tools(store)`, a `remember` tool and a `recall` tool (helpers.tools' registry) that
a loop offers the model, so a fact saved in one session is found in a later one, by a new client.

What it leaves out on purpose: counting tokens before trimming (helpers.tokens does that; a policy that keeps
a token budget is the homework), embeddings for recall (the store matches words), and server-side state
(`previous_response_id`, conversations): the offline model keeps those, see lesson 15.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from helpers.cost import CostMeter, record_call
from helpers.flavour import as_item, flavour_of, role_of
from helpers.loop import agent_loop
from helpers.tools import Tools

STALE_NOTE = "[tool output removed to save tokens; call the tool again if you need it]"
SUMMARY_PREFIX = "Summary of the earlier conversation:"
SUMMARY_WORDS = 80
SUMMARY_INSTRUCTIONS = ("Summarise the conversation so far in at most {words} words. Keep every name, number, "
                        "date and decision, and what the user said about themselves.")
_INSTRUCTION_ROLES = ("system", "developer")


def user_turns(items: list) -> tuple[list, list[list]]:
    """(head, turns): the leading system/developer messages (and a summary kept there), then one list per
    user turn, each starting at its user message. Items before the first user message that are not
    instructions go into the first turn.

    Example:
        >>> head, turns = user_turns([{"role": "system", "content": "Be brief."},
        ...     {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
        ...     {"role": "user", "content": "Bye"}])
        >>> len(head), [len(t) for t in turns]
        (1, [2, 1])
    """
    items = [as_item(item) if not isinstance(item, dict) else item for item in items]
    start = 0
    while start < len(items) and role_of(items[start]) in _INSTRUCTION_ROLES:
        start += 1
    head, turns = items[:start], []
    for item in items[start:]:
        if role_of(item) == "user" or not turns:
            turns.append([])
        turns[-1].append(item)
    return head, turns


def keep_last_turns(items: list, n: int) -> list:
    """The instructions and the last `n` user turns, whole: a tool call and its output are never split.

    Example:
        >>> items = [{"role": "user", "content": "Q1"}, {"type": "function_call", "call_id": "c1", "name": "f",
        ...          "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": "42"},
        ...          {"role": "assistant", "content": "A1"}, {"role": "user", "content": "Q2"}]
        >>> [i.get("content") or i["type"] for i in keep_last_turns(items, 1)]
        ['Q2']
        >>> len(keep_last_turns(items, 2))
        5
    """
    if n < 1:
        raise ValueError(f"n must be at least 1 (the current question's turn), got {n}")
    head, turns = user_turns(items)
    return head + [item for turn in turns[-n:] for item in turn]


def drop_stale_outputs(items: list, keep_turns: int = 1, note: str = STALE_NOTE) -> list:
    """The list with every tool output before the last `keep_turns` user turns replaced by `note` (Responses
    `function_call_output` and Chat `tool` messages alike). Calls keep their outputs, so the list stays valid.

    Example:
        >>> items = [{"role": "user", "content": "Q1"}, {"type": "function_call", "call_id": "c1", "name": "f",
        ...          "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": "[...long...]"},
        ...          {"role": "user", "content": "Q2"}]
        >>> drop_stale_outputs(items)[2]["output"][:25]
        '[tool output removed to s'
    """
    head, turns = user_turns(items)
    fresh_from = max(len(turns) - keep_turns, 0)
    out = list(head)
    for index, turn in enumerate(turns):
        for item in turn:
            if index < fresh_from and item.get("type") == "function_call_output":
                item = {**item, "output": note}
            elif index < fresh_from and role_of(item) == "tool":
                item = {**item, "content": note}
            out.append(item)
    return out


def summarise_old_turns(items: list, client, model: str, *, keep_turns: int = 2, when_over: int | None = None,
                        words: int = SUMMARY_WORDS, api: str = "responses", meter=None, price_as: str | None = None,
                        provider: str = "offline") -> list:
    """The turns before the last `keep_turns` replaced by one summary message written by a model call (one
    extra call, billed like any other: pass a helpers.cost.CostMeter as `meter` to count it). With
    `when_over`, nothing happens until there are more than that many turns, so the prompt cache survives
    between summaries. An earlier summary is summarised again with the turns after it.

    Example:
        >>> from helpers.offline import offline_client
        >>> items = [{"role": "user", "content": "I'm Ana; my room is 214."},
        ...          {"role": "assistant", "content": "Welcome, Ana."}, {"role": "user", "content": "Thanks!"}]
        >>> summarise_old_turns(items, offline_client(), "offline-rules-v1", keep_turns=1)[0]["content"]
        "Summary of the earlier conversation: User: I'm Ana; my room is 214."
    """
    head, turns = user_turns(items)
    if len(turns) <= max(keep_turns, when_over or 0):
        return head + [item for turn in turns for item in turn]
    earlier = [m for m in head if _is_summary(m)]
    head = [m for m in head if not _is_summary(m)]
    old = earlier + [item for turn in turns[:-keep_turns] for item in turn]
    flavour = flavour_of(api)
    instructions = SUMMARY_INSTRUCTIONS.format(words=words)
    history = old if flavour.sends_instructions else [{"role": "system", "content": instructions}, *old]
    response = flavour.create(client, flavour.request(model, history, instructions=instructions))
    if meter is not None:
        record_call(response, provider=provider, latency_s=None, price_as=price_as, meter=meter)
    role = "developer" if api == "responses" else "system"
    summary = {"role": role, "content": f"{SUMMARY_PREFIX} {flavour.text(response).strip()}"}
    return head + [summary] + [item for turn in turns[-keep_turns:] for item in turn]


def _is_summary(item: dict) -> bool:
    return role_of(item) in _INSTRUCTION_ROLES and str(item.get("content", "")).startswith(SUMMARY_PREFIX)


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
        >>> from helpers.offline import offline_client
        >>> run = run_conversation(offline_client(), "offline-rules-v1",
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
