"""The search and agent benchmark over the whole ground truth: `make bench-search`.

`python -m helpers.maint.bench_search [--csv PATH] [-k 5] [--agent]` prints the hit rate and MRR of the FAQ
search over all rows and over the answerable rows, tunes the boosts on the validation half and checks them on
the held-back half (the Zoomcamp boosts against the tuned ones, and against helpers.search.TUNED_BOOST), and
with `--agent` counts the offline agent's answers that cite the right entry. The README quotes its figures.

Every measure comes from helpers.evaluate, the module lesson 12 teaches; this file only runs them over the
whole file and prints the tables. Left out on purpose: anything a lesson imports (it stays in helpers.evaluate).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from helpers.evaluate import (
    COURSE_TUNED_MRR,
    FieldScores,
    GroundTruthError,
    agent_benchmark,
    answerable,
    fewest_results,
    load_ground_truth,
    report_other_splits,
    scores,
    split_by_entry,
    tune,
)
from helpers.search import BOOST, NUM_RESULTS, TUNED_BOOST, TUNED_NUM_RESULTS, ZOOMCAMP_BOOST, build_index


def _line(label: str, n: int, hit_rate: float, mrr: float) -> str:
    return f"{label:<44}{n:>5}{hit_rate:>10.3f}{mrr:>8.3f}"


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m helpers.maint.bench_search [--csv PATH] [-k 5] [--agent]`.

    Example: main(["--agent"]) -> prints the search and agent figures, returns 0
    """
    parser = argparse.ArgumentParser(prog="python -m helpers.maint.bench_search",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=None,
                        help="a ground-truth CSV (default: the pinned file; GROUND_TRUTH_CSV points at a copy)")
    parser.add_argument("-k", type=int, default=NUM_RESULTS, help="results per search (default %(default)s)")
    parser.add_argument("--agent", action="store_true",
                        help="also run the agent loop on the offline model and count answers citing the right entry")
    args = parser.parse_args(argv)

    from helpers.ingest import load_faq_data
    from helpers.pinned import PinnedFileError

    try:
        rows = load_ground_truth(args.csv)
    except (GroundTruthError, PinnedFileError) as err:
        raise SystemExit(str(err)) from None
    documents = load_faq_data()
    index = build_index(documents)
    present = answerable(rows, documents)
    name = args.csv.name if args.csv else "the pinned ground truth (LLM Zoomcamp)"

    print(f"Search benchmark: {name}, top {args.k}, the course's search (boosts {BOOST})")
    print(f"{'rows':<44}{'n':>5}{'hit rate':>10}{'MRR':>8}")
    everything = FieldScores(index, rows)
    ranks = everything.ranks(BOOST, args.k)
    known = {d["id"] for d in documents}
    print(_line("all rows", len(rows), *scores(ranks)))
    answerable_ranks = [r for r, row in zip(ranks, rows, strict=True) if row["document"] in known]
    print(_line("rows whose answer is in the snapshot", len(present), *scores(answerable_ranks)))

    if len({row["document"] for row in present}) >= 2:
        report_tuning(index, present, args.k)
    if args.agent:
        outcomes = agent_benchmark(present, index)
        cited = sum(o.cited for o in outcomes)
        nothing = sum(o.not_found for o in outcomes)
        n = max(len(outcomes), 1)
        print(f"\nAgent loop on the offline model, {len(outcomes)} questions whose answer is in the snapshot:")
        print(f"  final answer cites the right FAQ entry: {cited} ({cited / n:.0%})")
        print(f"  says it found nothing relevant:         {nothing} ({nothing / n:.0%})")
    return 0




def report_tuning(index, rows: list[dict], k: int = NUM_RESULTS) -> None:
    """Tune the boosts on the validation half, then compare on the held-back half: the LLM Zoomcamp's boosts
    (the starting point), the tuned ones found here, and the named constants TUNED_BOOST / TUNED_NUM_RESULTS.

    Example: report_tuning(index, answerable_rows) -> prints two small tables
    """
    validation, held_back = split_by_entry(rows)
    on_validation, on_held_back = FieldScores(index, validation), FieldScores(index, held_back)
    trials = tune(on_validation, k=k)
    best = trials[0]
    untuned_hit_rate = scores(on_validation.ranks(ZOOMCAMP_BOOST, k))[0]
    fewest = fewest_results(on_validation, best.boost, untuned_hit_rate, most=k)
    print(f"\nTuning: a grid of {len(trials)} boost settings on the validation half "
          f"({len(validation)} rows, {len({r['document'] for r in validation})} entries), best MRR at top {k}:")
    for trial in trials[:3]:
        print(f"  {trial.boost}  hit rate {trial.hit_rate:.3f}  MRR {trial.mrr:.3f}")
    print(f"  fewest results that keep the Zoomcamp boosts' hit rate on validation ({untuned_hit_rate:.3f}): "
          f"{fewest}")
    print(f"\nHeld-back half ({len(held_back)} rows, {len({r['document'] for r in held_back})} entries, "
          f"never used for tuning):")
    print(f"{'search':<44}{'n':>5}{'hit rate':>10}{'MRR':>8}")
    settings = [(f"Zoomcamp boosts, top {k}", ZOOMCAMP_BOOST, k), (f"tuned here, top {k}", best.boost, k),
                (f"tuned here, top {fewest}", best.boost, fewest)]
    if (TUNED_BOOST, TUNED_NUM_RESULTS) != (best.boost, fewest):
        settings.append((f"search.TUNED_BOOST, top {TUNED_NUM_RESULTS}", TUNED_BOOST, TUNED_NUM_RESULTS))
    for label, boost, n_results in settings:
        print(_line(label, len(held_back), *scores(on_held_back.ranks(boost, n_results))))
    tuned_mrr = scores(on_held_back.ranks(best.boost, k))[1]
    verdict = "beats" if tuned_mrr > COURSE_TUNED_MRR else "does not beat"
    print(f"The tuned search {verdict} the LLM Zoomcamp's tuned MRR of {COURSE_TUNED_MRR} on the held-back half "
          f"({tuned_mrr:.3f}).")
    report_other_splits(index, rows, k)


if __name__ == "__main__":
    raise SystemExit(main())
