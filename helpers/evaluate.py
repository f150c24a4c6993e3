"""Measure the FAQ search and the agent on labelled questions: hit rate, MRR, tuning, cited answers.

Lesson 12 builds these step by step; `make bench-search` (helpers.maint.bench_search) prints them for the
whole file. Each row of the ground truth (the LLM Zoomcamp's own file, fetched pinned by helpers.setup.pinned) is a
question, its course and the id of the FAQ entry that answers it. A question is a hit when that id is among
the top k results; MRR averages 1/rank of the right entry (0 when it is missing).

What it does:
- `load_ground_truth()` reads the pinned CSV; `answerable()` keeps the rows whose entry is in the pinned FAQ
  snapshot (75 rows name entries added to the FAQ after that snapshot, which no search can find);
- `scores()` turns ranks into hit rate and MRR; `rank_of()` runs one search;
- `split_by_entry()` makes a deterministic validation / held-back split, by FAQ entry, so that the held-back
  questions are about entries the tuning never saw;
- `FieldScores` computes each field's similarity once, so a grid of boosts costs a matrix sum per setting
  instead of a search per question; `tune()` runs the grid on one split;
- `agent_benchmark()` runs questions through the agent loop and counts answers that cite the right entry;
- `report_other_splits()` repeats the tuning on other splits, to show how much one split's figure can move.

Left out on purpose: embeddings and LLM-made ground truth (the file is the course's own), and the command
line, which is a maintainers' tool (helpers.maint.bench_search).
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from helpers.search import NUM_RESULTS, TEXT_FIELDS, ZOOMCAMP_BOOST, search

COLUMNS = ("question", "course", "document")
# The small grid lesson 12 and `make bench-search` search: 5 x 4 x 5 = 100 settings of the three field boosts.
BOOST_GRID = {"question": [0.5, 1.0, 2.0, 3.0, 4.0], "section": [0.0, 0.25, 0.5, 1.0],
              "answer": [0.5, 1.0, 2.0, 3.0, 4.0]}
COURSE_TUNED_MRR = 0.907  # MRR of the LLM Zoomcamp's own tuned boosts on these 320 answerable rows (in-sample)


class GroundTruthError(ValueError):
    """The ground-truth file is not the shape the course needs. The message says what is wrong."""


def load_ground_truth(path: str | Path | None = None, *, progress: bool = True) -> list[dict]:
    """Read the ground-truth CSV (columns question, course, document). With no path, the pinned file
    (GROUND_TRUTH_CSV, else the cache in data/, else a one-time download; see helpers.setup.pinned).

    Example:
        >>> import tempfile
        >>> path = Path(tempfile.mkdtemp()) / "ground-truth.csv"
        >>> _ = path.write_text("question,course,document\\nCan I still join?,llm-zoomcamp,74eb249bbf\\n")
        >>> load_ground_truth(path)
        [{'question': 'Can I still join?', 'course': 'llm-zoomcamp', 'document': '74eb249bbf'}]
    """
    if path is None:
        from helpers.setup.pinned import GROUND_TRUTH, fetch

        path = fetch(GROUND_TRUTH, progress=progress)
    path = Path(path)
    if not path.is_file():
        raise GroundTruthError(f"No ground-truth file at {path}. Pass the path of a CSV with the columns "
                               f"question, course and document, or pass none to use the pinned file.")
    try:
        text = path.read_bytes().decode("utf-8-sig")  # -sig: a spreadsheet's byte-order mark is not a column name
    except UnicodeDecodeError as exc:
        raise GroundTruthError(f"{path} is not a UTF-8 text file ({exc}). Save it as CSV (UTF-8).") from exc
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = set(COLUMNS) - set(reader.fieldnames or [])
    if missing:
        raise GroundTruthError(f"{path} lacks the column(s) {', '.join(sorted(missing))}; it needs question, "
                               f"course and document (the id of the FAQ entry that answers the question).")
    rows = list(reader)
    if not rows:
        raise GroundTruthError(f"{path} has the right columns but no rows: there is nothing to measure.")
    return rows


def answerable(rows: list[dict], documents: list[dict]) -> list[dict]:
    """The rows whose FAQ entry is in `documents` (the others can't be found by any search).

    Example:
        >>> answerable([{"question": "Q?", "document": "a1"}, {"question": "New?", "document": "zz"}],
        ...     [{"id": "a1"}])
        [{'question': 'Q?', 'document': 'a1'}]
    """
    known = {d["id"] for d in documents}
    return [row for row in rows if row["document"] in known]


# ---------------------------------------------------------------------------------------------------------
# Metrics


def rank_of(row: dict, index, k: int = NUM_RESULTS, boost: dict | None = None) -> int | None:
    """1-based rank of the right document in the top k results, or None.

    Example:
        >>> from helpers.search import default_index
        >>> rank_of({"question": "docker", "course": "llm-zoomcamp", "document": "02df9d0302"},
        ...     default_index())
        2
    """
    results = search(row["question"], index=index, course=row["course"], num_results=k, boost=boost)
    ids = [r["id"] for r in results]
    return ids.index(row["document"]) + 1 if row["document"] in ids else None


def scores(ranks: list[int | None]) -> tuple[float, float]:
    """Hit rate and MRR from a list of ranks (None = not found).

    Example:
        >>> scores([1, None, 2])
        (0.6666666666666666, 0.5)
    """
    if not ranks:
        return 0.0, 0.0
    hit_rate = sum(r is not None for r in ranks) / len(ranks)
    mrr = sum(1 / r for r in ranks if r is not None) / len(ranks)
    return hit_rate, mrr


# ---------------------------------------------------------------------------------------------------------
# A validation split and a grid search


def split_by_entry(rows: list[dict], share: float = 0.5, salt: str = "") -> tuple[list[dict], list[dict]]:
    """(validation, held_back): the FAQ entries ordered by the sha256 of their id, the first `share` of
    them to validation. The same rows always land on the same side, on every machine, and all the
    questions about one entry stay together, so the held-back half asks about entries tuning never saw.
    Another `salt` (a prefix to the id before hashing) gives another split, as another random seed would.

    Example:
        >>> validation, held_back = split_by_entry([{"document": d} for d in ("a1", "b2", "b2", "c3", "d4")])
        >>> [row["document"] for row in validation], [row["document"] for row in held_back]
        (['b2', 'b2', 'c3'], ['a1', 'd4'])
    """
    if not 0 < share < 1:
        raise ValueError(f"share must be between 0 and 1 (the part of the entries used to tune), got {share!r}")
    entries = sorted({row["document"] for row in rows},
                     key=lambda i: hashlib.sha256(f"{salt}{i}".encode()).hexdigest())
    tuning = set(entries[: round(len(entries) * share)])
    return [r for r in rows if r["document"] in tuning], [r for r in rows if r["document"] not in tuning]


class FieldScores:
    """Each text field's similarity between every question and every FAQ entry, computed once.

    minsearch scores an entry as the sum over fields of boost x (cosine similarity of the query and that
    field), then keeps the entries of the course. The similarities don't depend on the boosts, so a grid
    of 100 boost settings costs 100 weighted sums, not 100 searches per question. It reads the fitted
    index's own vectorizers and matrices (minsearch's `vectorizers`, `text_matrices`, `docs`), and `ranks()`
    gives the same ranks as `helpers.search.search`: a test checks it, so a minsearch change shows up there.

    Example:
        >>> from helpers.search import default_index
        >>> rows = [{"question": q, "course": "llm-zoomcamp", "document": d}
        ...         for q, d in [("Can I still join?", "74eb249bbf"), ("certificate", "9f689c185f"),
        ...                      ("docker", "02df9d0302")]]
        >>> FieldScores(default_index(), rows).ranks({"question": 3, "answer": 4}, k=5)
        [1, 2, 3]
    """

    def __init__(self, index, rows: list[dict]):
        from sklearn.metrics.pairwise import cosine_similarity  # minsearch's own dependency and measure

        self.rows = rows
        questions = [row["question"] for row in rows]
        self.similarity = {f: cosine_similarity(index.vectorizers[f].transform(questions), index.text_matrices[f])
                           for f in TEXT_FIELDS}
        self.ids = [doc["id"] for doc in index.docs]
        courses = np.array([doc.get("course") for doc in index.docs], dtype=object)
        self.masks = {c: (courses == c).astype(float) for c in {row["course"] for row in rows}}

    def ranks(self, boost: dict, k: int = NUM_RESULTS) -> list[int | None]:
        """Rank of each row's entry in its top k under `boost`, as helpers.search would rank it.

        Example:
            >>> from helpers.search import BOOST, default_index
            >>> rows = [{"question": q, "course": "llm-zoomcamp", "document": d}
            ...         for q, d in [("Can I still join?", "74eb249bbf"), ("certificate", "9f689c185f"),
            ...                      ("docker", "02df9d0302")]]
            >>> FieldScores(default_index(), rows).ranks(BOOST), FieldScores(default_index(),
            ...     rows).ranks(BOOST, k=1)
            ([1, 2, 2], [1, None, None])
        """
        ranks = []
        for i, row in enumerate(self.rows):
            total = np.zeros(len(self.ids))
            for f in TEXT_FIELDS:  # the same sum, in the same order, as minsearch: the same floats, the same ties
                total += self.similarity[f][i] * boost.get(f, 1)
            total = total * self.masks[row["course"]]
            nonzero = np.where(total > 0)[0]
            top = nonzero[np.argsort(-total[nonzero])][:k]
            ids = [self.ids[j] for j in top]
            ranks.append(ids.index(row["document"]) + 1 if row["document"] in ids else None)
        return ranks


@dataclass
class Trial:
    """One setting tried by the grid search, and its scores on the rows it was tried on."""

    boost: dict
    k: int
    hit_rate: float
    mrr: float


def boost_grid(grid: dict = BOOST_GRID) -> list[dict]:
    """Every combination of the grid's values, as boost dicts (all-zero ones left out).

    Example:
        >>> len(boost_grid()), boost_grid({"question": [1, 2], "answer": [0, 1]})
        (100, [{'question': 1, 'answer': 0}, {'question': 1, 'answer': 1}, {'question': 2, 'answer': 0},
        {'question': 2, 'answer': 1}])
    """
    names = list(grid)
    combos = [dict(zip(names, values, strict=True)) for values in itertools.product(*grid.values())]
    return [b for b in combos if any(b.values())]


def tune(field_scores: FieldScores, boosts: list[dict] | None = None, k: int = NUM_RESULTS) -> list[Trial]:
    """Score every boost setting on the rows of `field_scores`; best MRR first (then hit rate, then the
    grid's own order, so ties resolve the same way every time).

    Example:
        >>> from helpers.search import default_index
        >>> rows = [{"question": q, "course": "llm-zoomcamp", "document": d}
        ...         for q, d in [("Can I still join?", "74eb249bbf"), ("certificate", "9f689c185f"),
        ...                      ("docker", "02df9d0302")]]
        >>> tune(FieldScores(default_index(), rows))[0]
        Trial(boost={'question': 2.0, 'section': 0.0, 'answer': 0.5}, k=5, hit_rate=1.0,
        mrr=0.8333333333333334)
    """
    trials = [Trial(b, k, *scores(field_scores.ranks(b, k))) for b in (boosts or boost_grid())]
    order = sorted(range(len(trials)), key=lambda i: (-trials[i].mrr, -trials[i].hit_rate, i))
    return [trials[i] for i in order]


def fewest_results(field_scores: FieldScores, boost: dict, target_hit_rate: float,
                   most: int = NUM_RESULTS) -> int:
    """The smallest number of results whose hit rate reaches `target_hit_rate` (else `most`). Fewer
    results are fewer tokens for the model to read, on every later call of the loop.

    Example:
        >>> from helpers.search import BOOST, default_index
        >>> rows = [{"question": q, "course": "llm-zoomcamp", "document": d}
        ...         for q, d in [("Can I still join?", "74eb249bbf"), ("certificate", "9f689c185f"),
        ...                      ("docker", "02df9d0302")]]
        >>> fewest_results(FieldScores(default_index(), rows), BOOST, 0.95)
        2
    """
    for k in range(1, most + 1):
        if scores(field_scores.ranks(boost, k))[0] >= target_hit_rate:
            return k
    return most


# ---------------------------------------------------------------------------------------------------------
# The agent on labelled questions


@dataclass
class AgentOutcome:
    """What the agent did with one labelled question."""

    question: str
    document: str
    answer: str
    stop_reason: str
    cited: bool  # the final answer names the right FAQ entry
    not_found: bool  # the final answer says nothing relevant was found
    calls: int
    cost_usd: float | None


def cites(answer: str, document: str) -> bool:
    """True when an answer names a FAQ entry by its id, the way the course's agents cite: "[74eb249bbf]".

    Example:
        >>> cites('According to "Can I join?" [74eb249bbf]: Yes.', "74eb249bbf")
        True
    """
    return f"[{document}]" in answer


NOT_FOUND_PHRASES = ("found nothing relevant", "couldn't find", "could not find", "no relevant", "not find any")


def says_not_found(answer: str) -> bool:
    """True when an answer says that the FAQ had nothing on the question (a few common phrasings).

    Example:
        >>> says_not_found('I searched ("join late") but found nothing relevant to your question.')
        True
    """
    lowered = answer.lower()
    return any(phrase in lowered for phrase in NOT_FOUND_PHRASES)


def agent_benchmark(rows: list[dict], index, *, client=None, model: str | None = None,
                    instructions: str | None = None, price_as: str | None = None,
                    progress: bool = True) -> list[AgentOutcome]:
    """Run each question through the agent loop (the offline model unless a client is given) and record
    whether the answer cites the right FAQ entry or says nothing was found.

    Example:
        >>> from helpers.search import default_index
        >>> row = {"question": "Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"}
        >>> [(o.cited, o.not_found, o.stop_reason, o.calls) for o in agent_benchmark([row], default_index(),
        ...     progress=False)]
        [(True, False, 'answered', 2)]
    """
    from tqdm.auto import tqdm

    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL

    if client is None:
        from helpers.llm import offline_client
        from helpers.offline import OFFLINE_MODEL

        client, model = offline_client(max_retries=0), OFFLINE_MODEL
    elif model is None:
        raise ValueError("agent_benchmark: with a client, pass model= too (the model that client serves).")
    outcomes = []
    for row in tqdm(rows, desc="agent", file=sys.stderr, disable=not progress):
        tools = {"search": lambda query, course=row["course"]: search(query, index=index, course=course)}
        result = agent_loop(client, model, row["question"], tools, schemas=[SEARCH_TOOL], verbose=False,
                            instructions=instructions, price_as=price_as)
        outcomes.append(AgentOutcome(row["question"], row["document"], result.answer, result.stop_reason,
                                     cites(result.answer, row["document"]), says_not_found(result.answer),
                                     len(result.calls), result.cost_usd))
    return outcomes


def report_other_splits(index, rows: list[dict], k: int = NUM_RESULTS, splits: int = 20) -> None:
    """How much the held-back figure owes to the one split: the same tuning on `splits` other splits.

    Example:
        >>> from helpers.search import default_index
        >>> rows = [{"question": q, "course": "llm-zoomcamp", "document": d}
        ...         for q, d in [("Can I still join?", "74eb249bbf"), ("certificate", "9f689c185f"),
        ...                      ("docker", "02df9d0302")]]
        >>> report_other_splits(default_index(), rows, splits=3)
        Over 3 other splits by entry, held-back MRR: Zoomcamp boosts 0.667 on average; tuned 0.667 (from 0.500
        to 1.000), above 0.907 in 1 of 3.
    """
    every = FieldScores(index, rows)
    grid = boost_grid()
    ranks = {i: every.ranks(b, k) for i, b in enumerate(grid)}  # once per setting, for all rows
    untuned = every.ranks(ZOOMCAMP_BOOST, k)
    tuned_mrrs, untuned_mrrs = [], []
    for n in range(1, splits + 1):
        validation, _ = split_by_entry(rows, salt=f"split-{n}:")
        tuning = {id(r) for r in validation}
        side = [id(r) in tuning for r in rows]
        on_validation = [scores([x for x, v in zip(ranks[i], side, strict=True) if v]) for i in range(len(grid))]
        best = min(range(len(grid)), key=lambda i: (-on_validation[i][1], -on_validation[i][0], i))
        tuned_mrrs.append(scores([x for x, v in zip(ranks[best], side, strict=True) if not v])[1])
        untuned_mrrs.append(scores([x for x, v in zip(untuned, side, strict=True) if not v])[1])
    wins = sum(m > COURSE_TUNED_MRR for m in tuned_mrrs)
    print(f"Over {splits} other splits by entry, held-back MRR: Zoomcamp boosts {np.mean(untuned_mrrs):.3f} on "
          f"average; tuned {np.mean(tuned_mrrs):.3f} (from {min(tuned_mrrs):.3f} to {max(tuned_mrrs):.3f}), "
          f"above {COURSE_TUNED_MRR} in {wins} of {splits}.")

