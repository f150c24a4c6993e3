"""The conversation's history, made shorter: turns, and four ways to send fewer of its tokens (lessons 06 and 15).

Every model call re-sends the whole message list, so a long conversation grows until it costs too much or no
longer fits (the API answers 400 `context_length_exceeded`). Each function here takes a Responses input list
or a Chat Completions message list (plain dicts, as `LoopResult.messages` holds them, or the SDK's objects)
and returns a new list; none changes the one it is given:
- `user_turns(items)`: the leading instructions, then one list per user turn (a turn starts at a user message
  and holds every item up to the next one, so a tool call always stays with its output);
- `drop_tool_outputs(messages)` (lesson 06): the finished turns without their tool calls and outputs;
- `keep_last_turns(items, n)` (lesson 15): the instructions and the last `n` user turns, whole;
- `drop_stale_outputs(items, keep_turns)` (lesson 15): every tool output older than the last `keep_turns`
  turns becomes a short note; the calls, questions and answers stay;
- `summarise_old_turns(items, client, model, ...)` (lesson 15): the turns before the last `keep_turns`
  replaced by one message holding a summary that a model call wrote (the client is passed in);
- `compact_old_turns(items, client, model, ...)` (lesson 15): OpenAI's compaction, `client.responses.compact`,
  once `when_over` items other than user messages have piled up (the Agents SDK's
  OpenAIResponsesCompactionSession default, 10): the user messages and one opaque `compaction` item.

Each of them rewrites the start of the history, so a provider's prompt cache no longer matches past the first
changed item: lesson 15 measures what that costs.

What it leaves out on purpose: counting tokens before trimming (helpers.billing.tokens does that; a policy
that keeps a token budget is homework 7.3), and server-side state (`previous_response_id`, conversations,
`context_management`), which lives at the provider: see lesson 15.
"""

from __future__ import annotations

from helpers.apis.adapter import FLAVOURS, as_item, flavour_of, role_of
from helpers.cost import record_call

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
        >>> from helpers.offline import neutral_client
        >>> items = [{"role": "user", "content": "I'm Ana; my room is 214."},
        ...          {"role": "assistant", "content": "Welcome, Ana."}, {"role": "user", "content": "Thanks!"}]
        >>> summarise_old_turns(items, neutral_client(), "offline-rules-v1", keep_turns=1)[0]["content"]
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


COMPACT_WHEN_OVER = 10  # items other than user messages: openai-agents 0.24.0's DEFAULT_COMPACTION_THRESHOLD


def compact_old_turns(items: list, client, model: str, *, when_over: int = COMPACT_WHEN_OVER, meter=None,
                      price_as: str | None = None, provider: str = "offline") -> list:
    """The history compacted by the provider (`client.responses.compact`, Responses API only) once it holds
    `when_over` or more items that are not user messages or compaction items: what comes back is every user
    message and one `compaction` item, as plain dicts to send as the next input. One extra call, counted in
    `meter` like the summaries. Until then the items come back as they are (a new list).

    Example:
        >>> from helpers.offline import neutral_client
        >>> items = [{"role": "user", "content": "I'm Ana; my room is 214."},
        ...          {"role": "assistant", "content": "Welcome, Ana."}, {"role": "user", "content": "Thanks!"}]
        >>> [i.get("type") for i in compact_old_turns(items, neutral_client(), "gpt-5.4-mini", when_over=1)]
        ['message', 'message', 'compaction']
    """
    items = [item if isinstance(item, dict) else as_item(item) for item in items]
    piled = [item for item in items if role_of(item) != "user" and item.get("type") != "compaction"]
    if len(piled) < when_over:
        return items
    compacted = client.responses.compact(model=model, input=items)
    if meter is not None:
        record_call(compacted, provider=provider, latency_s=None, price_as=price_as, meter=meter)
    # warnings=False: the SDK types the user messages it returns as output messages, which they are not
    return [item.model_dump(exclude_none=True, warnings=False) for item in compacted.output]


def _is_summary(item: dict) -> bool:
    return role_of(item) in _INSTRUCTION_ROLES and str(item.get("content", "")).startswith(SUMMARY_PREFIX)


def drop_tool_outputs(messages: list) -> list:
    """The conversation without the tool calls and outputs of finished turns, in either API flavour: the
    user questions and the assistant's answers stay, so a follow-up question still has its context.

    Call it between questions, not inside a turn (the model needs this turn's results to answer). It
    rewrites the history, so a provider's prompt cache no longer matches past the first dropped item.
    Example:
        >>> drop_tool_outputs([{"role": "user", "content": "Can I join?"},
        ...                    {"type": "function_call", "name": "search", "arguments": "{}", "call_id": "c1"},
        ...                    {"type": "function_call_output", "call_id": "c1", "output": "[]"},
        ...                    {"role": "assistant", "content": "Yes."}])
        [{'role': 'user', 'content': 'Can I join?'}, {'role': 'assistant', 'content': 'Yes.'}]
    """
    kept = []
    for message in messages:
        item = message if isinstance(message, dict) else as_item(message)
        for flavour in FLAVOURS.values():  # each takes out its own kind of tool item and leaves the other's
            item = None if item is None else flavour.without_tools(item)
        if item is not None:
            kept.append(item)
    return kept
