"""The offline model's public scorecard: BFCL's single-turn Python categories, `make bench-offline`.

Every case of every category in helpers.maint.bfcl_data.CATEGORIES goes through the real openai SDK to
the offline model (in process, `helpers.offline.neutral_client()`, no vocabulary handed in), once as a Chat
Completions call and once as a Responses call, with the case's functions as tools (mapped as BFCL's OpenAI
handler maps them). The calls that come back are scored by helpers.maint.bfcl_check. It prints, per
category and API, the share of cases right beside the published leaderboard figures, then the most common
kinds of failure.

The live categories are the held-out measure (GUIDE.md, principle 4): this module reports them as counts
only, and never prints a live case's id, question or answer. `--show KIND` lists non-live failures of one
kind, for whoever tunes the rules; it refuses live categories.

What it leaves out on purpose: BFCL's multi-turn and agentic categories, Java and JavaScript, and timing
(the offline model is deterministic; its speed is not what this measures).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from helpers.maint.bfcl_check import Verdict, check
from helpers.maint.bfcl_data import CATEGORIES, LIVE, NON_LIVE, Case, load_cases, to_tool

APIS = ("chat", "responses")

# The published figures, BFCL v4 (https://gorilla.cs.berkeley.edu/leaderboard, "Last Updated: 2025-12-16";
# read 2026-12-01 through the mirror https://basedagi.org/benchmarks/bfcl-non-live and .../bfcl-live, whose
# rows are dated 2026-05-15). The leaderboard publishes the non-live and live aggregates, not one figure per
# category: the best model's and GPT-4.1's.
PUBLISHED_SOURCE = ("BFCL v4 leaderboard (gorilla.cs.berkeley.edu/leaderboard, updated 2025-12-16; rows of "
                    "2026-05-15 as basedagi.org mirrors them)")
PUBLISHED = {"non-live": "best 89.7% (Mistral Small 4, Claude Opus 4.5); GPT-4.1 88.7%",
             "live": "best 79.0% (Mistral Small 4); GPT-4.1 78.9%"}

# Done-when figures of issue 26: the non-live targets, and live at least 0.75x its non-live counterpart.
TARGETS = {"simple_python": 0.60, "multiple": 0.60, "parallel": 0.50, "parallel_multiple": 0.40,
           "irrelevance": 0.85, "live_irrelevance": 0.80}
LIVE_COUNTERPART = {"live_simple": "simple_python", "live_multiple": "multiple", "live_parallel": "parallel",
                    "live_parallel_multiple": "parallel_multiple"}


@dataclass
class Score:
    """How one API did on one category: cases, cases right, and the failures by kind."""

    cases: int = 0
    right: int = 0
    kinds: Counter | None = None

    @property
    def share(self) -> float:
        return self.right / self.cases if self.cases else 0.0


def ask(client, case: Case, api: str) -> list[tuple[str, object]]:
    """The calls the model makes for one case on one API: (name, arguments parsed, or the raw string)."""
    tools = [to_tool(f, api) for f in case.functions]
    if api == "chat":
        # As BFCL's Chat handler sends it (_query_FC): the messages as they stand, store off.
        message = client.chat.completions.create(model="offline", messages=case.messages, tools=tools,
                                                 store=False).choices[0].message
        raw = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
    else:
        # BFCL's Responses handler sends the system prompt as a developer message.
        items = [{**m, "role": "developer"} if m.get("role") == "system" else m for m in case.messages]
        response = client.responses.create(model="offline", input=items, tools=tools, store=False)
        raw = [(item.name, item.arguments) for item in response.output if item.type == "function_call"]
    return [(name, _parsed(arguments)) for name, arguments in raw]


def _parsed(arguments: str):
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def score(cases: Iterable[Case], api: str, client=None) -> tuple[Score, list[tuple[Case, Verdict]]]:
    """Run the cases on one API; the score and every failure (case, verdict)."""
    if client is None:
        from helpers.offline import neutral_client

        client = neutral_client(max_retries=0)
    kinds: Counter = Counter()
    result, failures = Score(kinds=kinds), []
    for case in cases:
        verdict = check(case, ask(client, case, api))
        result.cases += 1
        if verdict.ok:
            result.right += 1
        else:
            kinds[verdict.kind] += 1
            failures.append((case, verdict))
    return result, failures


def sample(cases: list[Case], every: int = 10) -> list[Case]:
    """The fixed sample the floor test runs: every `every`-th case by index, from the first.

    Example:
        >>> [c.id for c in sample([Case(str(i), "multiple", [], [], []) for i in range(25)])]
        ['0', '10', '20']
    """
    return cases[::every]


def _table(scores: dict[str, dict[str, Score]]) -> list[str]:
    lines = ["| category | cases | Chat Completions | Responses | target | published (aggregate) |",
             "| --- | ---: | ---: | ---: | ---: | --- |"]
    for category in scores:
        chat, responses = scores[category]["chat"], scores[category]["responses"]
        target = TARGETS.get(category)
        if target is None and category in LIVE_COUNTERPART:
            base = scores.get(LIVE_COUNTERPART[category])
            target = 0.75 * min(base["chat"].share, base["responses"].share) if base else None
        published = PUBLISHED["live" if category in LIVE else "non-live"]
        # One decimal: a whole percent would show 99 of 200 as 50% (the targets are met or not by the count).
        lines.append(f"| {category} | {chat.cases} | {chat.share:.1%} | {responses.share:.1%} | "
                     f"{'' if target is None else f'{target:.0%}'} | {published} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--category", action="append", choices=CATEGORIES, help="only these (default: all)")
    parser.add_argument("--sample", type=int, default=1, help="every n-th case only (the floor test uses 10)")
    parser.add_argument("--show", metavar="KIND", help="list non-live failures of this kind (see bfcl_check.KINDS)")
    parser.add_argument("--write-floor", metavar="PATH", help="with --sample 10: write the cases right per category "
                                                              "and API as the floor test's JSON (tests/offline/bfcl_floor.json)")
    args = parser.parse_args(argv)
    categories = args.category or CATEGORIES
    scores: dict[str, dict[str, Score]] = {}
    for category in categories:
        cases = sample(load_cases(category), args.sample)
        scores[category] = {}
        for api in APIS:
            scores[category][api], failures = score(cases, api)
            if args.show and category in NON_LIVE and api == "chat":
                for case, verdict in failures:
                    if verdict.kind == args.show or args.show == "all":
                        print(f"{case.id}: {verdict.kind}: {verdict.detail} | {case.messages[-1]['content'][:160]}")
    if args.write_floor:
        floor = {c: {api: scores[c][api].right for api in APIS} for c in categories}
        with open(args.write_floor, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(floor, indent=1) + "\n")
    print(f"BFCL v4 ({', '.join(categories)}), offline model, every case{'' if args.sample == 1 else f' (1 in {args.sample})'}:")
    print("\n".join(_table(scores)))
    print(f"Published: {PUBLISHED_SOURCE}.")
    print("\nMost common failures (Chat Completions; counts only):")
    for category in categories:
        kinds = scores[category]["chat"].kinds or Counter()
        listed = ", ".join(f"{kind} {count}" for kind, count in kinds.most_common(4)) or "none"
        print(f"- {category}: {listed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
