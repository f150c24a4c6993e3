"""Memory policies, measured: tokens, dollars and follow-up accuracy of one long conversation. `make bench-memory`.

A student talks to the course's FAQ agent (helpers.search's tool, the offline model) for SCRIPT's turns: they
say who they are and what they use, then ask FAQ questions whose search results fill the context, then ask
FOLLOW_UPS whose right answers were said only in the early turns. The conversation is played once per policy
of helpers.memory, each on a client of its own (cold prompt cache) whose context window is WINDOW tokens:
- none: the whole history every time, until the request no longer fits (400 context_length_exceeded);
- none, with a 128k window: the same, on a window it never reaches (what keeping everything costs);
- last N turns, drop stale tool outputs, summarise old turns (its summary calls counted too).

For each: the turns answered, input tokens, cached input tokens, dollars at PRICE_AS's prices on PRICES_AT
(genai-prices through helpers.cost, cached input at its own price, as lesson 06's bench does), and how many
follow-ups were answered right (the answer holds the expected words). A follow-up not reached counts as wrong.
The follow-ups ask only what the user said: a question about an old tool output can always be answered by
searching again, so it would measure the search, not the memory.

Left out on purpose: real models (the offline model answers a question about the conversation by quoting
the sentence that holds its words, recap.py; a real model would do better on reworded questions), and
server-side state (`previous_response_id` re-bills the whole chain as input: lesson 15 shows it).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from helpers.cost import CostMeter, price_tokens
from helpers.history import drop_stale_outputs, keep_last_turns, summarise_old_turns
from helpers.memory import run_conversation
from helpers.offline import neutral_client
from helpers.offline.constants import OFFLINE_MODEL
from helpers.search import SEARCH_TOOL, default_index, search

PRICE_AS = "gpt-5.4-mini"
PRICES_AT = "2026-11-30"  # prices as genai-prices lists them on this day (never the clock)
WINDOW = 8_000  # tokens: small enough that keeping everything fails before the follow-ups
BIG_WINDOW = 128_000
KEEP_TURNS = 3
INSTRUCTIONS = "You are the course assistant. Use the search tool for questions about the course."

SCRIPT = [
    "Hi! I'm Priya, I live in Lagos and my timezone is UTC+1.",
    "I decided to do the homework on a Windows laptop with 16 GB of RAM.",
    "Can I still join the course after it has started?",
    "How do I get a certificate?",
    "Do I need to submit the homework to get the certificate?",
    "What are the deadlines for the homework?",
    "Can I use Docker for the course?",
    "How do I run Ollama locally?",
    "Where can I find the course videos?",
    "What is the leaderboard?",
    "How are projects peer reviewed?",
    "Can I use a different LLM than OpenAI?",
]
FOLLOW_UPS = [  # (question, words the right answer holds)
    ("What was my name again?", "Priya"),
    ("Remind me which laptop I said I use?", "Windows"),
    ("What timezone did I tell you again?", "UTC+1"),
    ("How much RAM did I say my laptop has again?", "16 GB"),
]


def policies() -> list[tuple[str, int, Callable | str | None]]:
    """(name, context window, policy) for each row of the table; "summarise" needs the row's client, so
    `measure` makes it.

    Example:
        >>> [name for name, _, _ in policies()][:2]
        ['none (128k window)', 'none (8,000 window)']
    """
    return [
        ("none (128k window)", BIG_WINDOW, None),
        (f"none ({WINDOW:,} window)", WINDOW, None),
        (f"last {KEEP_TURNS} turns", WINDOW, lambda m: keep_last_turns(m, KEEP_TURNS)),
        ("drop stale tool outputs", WINDOW, lambda m: drop_stale_outputs(m, keep_turns=1)),
        (f"summarise (keep {KEEP_TURNS - 1} turns)", WINDOW, "summarise"),
    ]


def measure(name: str, window: int, policy) -> dict:
    """Play SCRIPT then FOLLOW_UPS under one policy on a fresh client; the row of the table.

    Example:
        >>> row = measure("none", 128_000, None)
        >>> row["turns"], row["right"]
        ('16/16', '4/4')
    """
    client = neutral_client(context_window=window)
    index = default_index()
    tools = {"search": lambda query: search(query, index=index)}
    meter = CostMeter()  # the loop's calls and the summaries' alike
    run_policy = policy
    if policy == "summarise":
        def run_policy(messages):
            return summarise_old_turns(messages, client, OFFLINE_MODEL, keep_turns=KEEP_TURNS - 1,
                                       when_over=KEEP_TURNS + 2, meter=meter, price_as=PRICE_AS)
    questions = SCRIPT + [q for q, _ in FOLLOW_UPS]
    run = run_conversation(client, OFFLINE_MODEL, questions, tools, schemas=[SEARCH_TOOL], instructions=INSTRUCTIONS,
                           policy=run_policy, meter=meter)
    follow_answers = run.answers[len(SCRIPT):]
    right = sum(expected.lower() in answer.lower() for (_, expected), answer in zip(FOLLOW_UPS, follow_answers, strict=False))  # unreached: wrong
    records = run.meter.records
    tokens_in = sum(r.input_tokens for r in records)
    cached = sum(r.cached_input_tokens for r in records)
    tokens_out = sum(r.output_tokens for r in records)
    dollars = price_tokens(PRICE_AS, tokens_in, tokens_out, cached, at=PRICES_AT)
    return {"policy": name, "turns": f"{len(run.answers)}/{len(questions)}", "calls": len(records),
            "input": tokens_in, "cached": cached, "dollars": dollars, "right": f"{right}/{len(FOLLOW_UPS)}",
            "error": "context_length_exceeded" if run.error and "context_length" in run.error else run.error}


def table(rows: list[dict]) -> str:
    """The rows as one Markdown table.

    Example:
        >>> print(table([{"policy": "p", "turns": "1/1", "calls": 2, "input": 1000, "cached": 0,
        ...               "dollars": 0.00075, "right": "0/4", "error": None}]))
        | policy | turns answered | model calls | input tokens | cached input | dollars | follow-ups right |
        | --- | ---: | ---: | ---: | ---: | ---: | ---: |
        | p | 1/1 | 2 | 1,000 | 0 | $0.00075 | 0/4 |
    """
    lines = ["| policy | turns answered | model calls | input tokens | cached input | dollars | follow-ups right |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        turns = r["turns"] + (" (then 400)" if r["error"] else "")
        lines.append(f"| {r['policy']} | {turns} | {r['calls']} | {r['input']:,} | {r['cached']:,} | "
                     f"${r['dollars']:.5f} | {r['right']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    rows = [measure(name, window, policy) for name, window, policy in policies()]
    print(table(rows))
    print(f"\n{len(SCRIPT)} scripted turns then {len(FOLLOW_UPS)} follow-ups on the offline model; dollars at "
          f"{PRICE_AS} prices of {PRICES_AT} (genai-prices), cached input at its own price.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
