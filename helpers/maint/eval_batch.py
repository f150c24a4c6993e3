"""`make eval-batch`: lesson 12's agent evaluation on all 320 answerable questions, as Batch API jobs.

Runs the agent loop with every model call made through the Batch API (helpers.batch.batch_agent: one batch
per round of the loop), on the provider configured in .env (the offline model when there is no key), and
prints the share of answers citing the right FAQ entry, the share saying nothing was found, the cost at the
batch rate against the same calls at the synchronous rate, and the wall time. Then, unless `--batch-only`,
the same questions through the sequential loop (helpers.evaluate.agent_benchmark), for its cost and time.

    python -m helpers.maint.eval_batch [--batch-only] [--limit N]

The offline model is priced as if it were gpt-5.4-mini (lesson 12 does the same); a real provider as itself.
Its responses carry a fixed 2026-01-01 time, before genai-prices' batch prices start, so its batch cost is
half the synchronous one by the documented 50% rule (the printed note says which rule priced it).
Left out on purpose: judging the answers (lesson 12's judge), and resuming a batch after an interrupted run.
"""

from __future__ import annotations

import argparse
import time

from helpers.batch import batch_agent, price_bodies
from helpers.capabilities import supports
from helpers.evaluate import agent_benchmark, answerable, cites, load_ground_truth, says_not_found
from helpers.ingest import load_faq_data
from helpers.llm import make_client, provider_of
from helpers.search import SEARCH_TOOL, build_index, search

# Lesson 12's instructions for the agent it evaluates.
INSTRUCTIONS = ("You are a course assistant. Use the search tool to answer from the course FAQ. "
                "Cite the id of the FAQ entry you use in square brackets, e.g. [74eb249bbf].")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch-only", action="store_true", help="skip the sequential loop (it makes live calls)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N answerable questions")
    args = parser.parse_args(argv)

    client, model = make_client()
    preset = provider_of(client)
    if not supports(preset, "files_batch", instead="run make eval-batch with LLM_PROVIDER=offline or on a provider "
                    "that has them (make bench-search runs the loop without a batch)"):
        raise SystemExit(1)
    price_as = "gpt-5.4-mini" if preset.local else None
    documents = load_faq_data()
    index = build_index(documents)
    rows = answerable(load_ground_truth(progress=False), documents)[: args.limit]

    def tools_for(row: dict) -> dict:
        return {"search": lambda query, course=row["course"]: search(query, index=index, course=course)}

    print(f"{len(rows)} questions, model {model} ({preset.name}), every call through the Batch API")
    started = time.monotonic()
    result = batch_agent(client, model, rows, tools_for, schemas=[SEARCH_TOOL], instructions=INSTRUCTIONS,
                         on_status=lambda batch: print(f"  {batch.id}: {batch.status}", flush=True))
    batch_seconds = time.monotonic() - started
    ids = [f"q{i:04d}" for i in range(len(rows))]
    answers = {cid: result.answers.get(cid, "") for cid in ids}
    cited = sum(cites(answers[cid], row["document"]) for cid, row in zip(ids, rows, strict=True))
    not_found = sum(says_not_found(answers[cid]) for cid in ids)
    batch_usd, sync_usd, note = price_bodies(result.bodies, provider=preset.name, price_as=price_as)
    n = len(rows)
    print(f"batches: {len(result.runs)} rounds, {len(result.bodies)} model calls, {len(result.failures)} questions "
          f"without an answer")
    print(f"cites the right entry:  {cited}/{n} ({cited / n:.0%})")
    print(f"says nothing was found: {not_found}/{n} ({not_found / n:.0%})")
    if batch_usd is not None and sync_usd is not None:
        print(f"cost at the batch rate: ${batch_usd:.4f}; the same calls one by one: ${sync_usd:.4f} ({note})")
    else:
        print(f"cost: unknown ({note})")
    print(f"wall time, upload to results: {batch_seconds:.1f} s")
    if args.batch_only:
        return
    print("The sequential loop (agent_benchmark), one live call after another:")
    started = time.monotonic()
    outcomes = agent_benchmark(rows, index, client=client, model=model, instructions=INSTRUCTIONS, price_as=price_as,
                               progress=False)
    loop_seconds = time.monotonic() - started
    loop_cited = sum(o.cited for o in outcomes)
    costs = [o.cost_usd for o in outcomes if o.cost_usd is not None]
    loop_cost = f"${sum(costs):.4f}" if len(costs) == len(outcomes) else "unknown"
    print(f"cites the right entry:  {loop_cited}/{n} ({loop_cited / n:.0%}); {sum(o.calls for o in outcomes)} model "
          f"calls; cost {loop_cost}; wall time {loop_seconds:.1f} s")


if __name__ == "__main__":
    main()
