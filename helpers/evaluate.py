"""Benchmark the FAQ search: hit rate and MRR at 5 over a labelled question set.

Run it with `python -m helpers.evaluate` (or `make bench-search`). Each row of the ground-truth CSV
is a question, its course and the id of the FAQ entry that answers it. A question is a hit when that
id is among the top 5 results; MRR averages 1/rank of the right entry (0 when it is missing).

Some rows name entries that are not in the pinned snapshot (they were edited or removed upstream).
No search can find those, so the figures are reported twice: over all rows, and over the rows whose
answer exists in the snapshot.

With `--agent` it also runs every answerable question through the agent loop on the offline model and
counts the answers that cite the right FAQ entry: a check that the offline model's rules are general, run on
questions nobody tuned them for.

Left out on purpose: tuning. This measures the course's search as it is.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

from helpers.ingest import ROOT, load_faq_data
from helpers.search import build_index, search

DEFAULT_CSV = ROOT.parent / "shared" / "data" / "ground-truth-llm-zoomcamp.csv"


def load_ground_truth(path: Path) -> list[dict]:
    """Read the ground-truth CSV (columns question, course, document).

    Example: load_ground_truth(DEFAULT_CSV)[0]["document"] -> "69d122f12e"
    """
    if not path.is_file():
        raise SystemExit(f"No ground-truth file at {path}. Pass its path: python -m helpers.evaluate --csv PATH "
                         f"(or set GROUND_TRUTH_CSV).")
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    missing = {"question", "course", "document"} - set(rows[0] if rows else {})
    if missing:
        raise SystemExit(f"{path} lacks the column(s) {', '.join(sorted(missing))}; "
                         f"it needs question, course and document.")
    return rows


def rank_of(row: dict, index, k: int = 5) -> int | None:
    """1-based rank of the right document in the top k results, or None.

    Example: rank_of({"question": "Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"}, index) -> 1
    """
    results = search(row["question"], index=index, course=row["course"], num_results=k)
    ids = [r["id"] for r in results]
    return ids.index(row["document"]) + 1 if row["document"] in ids else None


def scores(ranks: list[int | None]) -> tuple[float, float]:
    """Hit rate and MRR from a list of ranks (None = not found).

    Example: scores([1, None, 2]) -> (0.667, 0.5)
    """
    if not ranks:
        return 0.0, 0.0
    hit_rate = sum(r is not None for r in ranks) / len(ranks)
    mrr = sum(1 / r for r in ranks if r is not None) / len(ranks)
    return hit_rate, mrr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=Path(os.environ.get("GROUND_TRUTH_CSV", DEFAULT_CSV)))
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--agent", action="store_true",
                        help="also run the agent loop on the offline model and count grounded answers")
    args = parser.parse_args(argv)

    from tqdm.auto import tqdm

    rows = load_ground_truth(args.csv)
    documents = load_faq_data()
    known = {d["id"] for d in documents}
    index = build_index(documents)
    ranks = [rank_of(row, index, args.k) for row in tqdm(rows, desc="questions", file=sys.stderr)]
    present = [r for r, row in zip(ranks, rows, strict=True) if row["document"] in known]

    print(f"Search benchmark: {args.csv.name}, top {args.k}")
    print(f"{'rows':<38}{'n':>5}{'hit rate':>10}{'MRR':>8}")
    for label, subset in (("all rows", ranks), ("rows whose answer is in the snapshot", present)):
        hit_rate, mrr = scores(subset)
        print(f"{label:<38}{len(subset):>5}{hit_rate:>10.3f}{mrr:>8.3f}")
    if args.agent:
        answerable = [row for row in rows if row["document"] in known]
        cited, nothing = agent_benchmark(answerable, index)
        print(f"\nAgent loop on the offline model, {len(answerable)} questions whose answer is in the snapshot:")
        print(f"  final answer cites the right FAQ entry: {cited} ({cited / len(answerable):.0%})")
        print(f"  says it found nothing relevant:         {nothing} ({nothing / len(answerable):.0%})")
    return 0


def agent_benchmark(rows: list[dict], index) -> tuple[int, int]:
    """Run each question through the agent loop on the offline model; count answers that cite the right
    FAQ entry, and answers that say nothing relevant was found. A measure of how general its rules are.

    Example: agent_benchmark(rows, index) -> (258, 37)
    """
    from tqdm.auto import tqdm

    from helpers.loop import agent_loop
    from helpers.offline import offline_client
    from helpers.search import SEARCH_TOOL

    client = offline_client(max_retries=0)
    cited = nothing = 0
    for row in tqdm(rows, desc="agent", file=sys.stderr):
        tools = {"search": lambda query, course=row["course"]: search(query, index=index, course=course)}
        result = agent_loop(client, "offline", row["question"], tools, schemas=[SEARCH_TOOL], verbose=False)
        cited += f"[{row['document']}]" in result.answer
        nothing += "found nothing" in result.answer
    return cited, nothing


if __name__ == "__main__":
    raise SystemExit(main())
