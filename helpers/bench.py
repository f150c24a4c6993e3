"""How many tokens does the way you serialize tool output cost? `python -m helpers.bench` measures it.

It runs a fixed set of FAQ questions through the agent loop on the offline model twice:
- plain: the loop of lesson 04, whose search tool returns `json.dumps(results)`: every field of every
  result, with json's default ", " and ": " separators and non-ASCII characters escaped as \\uXXXX;
- lean: the same loop, whose tool returns only the fields the model needs (id, question, answer) as
  compact JSON with non-ASCII characters kept (`helpers.tools.serialize`).
For each question it reports the tokens in the tool outputs (each output counted once), the total input
tokens of the run (every call re-sends the history, so tool outputs are paid for again on every later
call), and whether both runs gave the same final answer. The summary gives both ratios, lean / plain.

Why "id" stays: the model cites the FAQ entry it answers from, so the answer can be checked. Why
"course" and "section" go: the search already filters by course, and no answer needs the section name.

Left out on purpose: real models and a real tokenizer. The offline model is deterministic, so the
figures are the same on every machine; its token counts are estimates (characters / 4). A real
tokenizer counts differently, but the ratios tell the same story.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL, default_index, search
from helpers.tools import serialize

# Student questions about the LLM Zoomcamp, worded the way students write them (one with a typo).
QUESTIONS = [
    "I just found out about the course. Can I still join?",
    "How do I run Olama locally?",
    "Do I have to pay for the OpenAI API to take this course?",
    "Can I use Groq instead of OpenAI?",
    "I missed the first homework. Can I still get a certificate?",
    "How is the capstone project evaluated?",
    "Why is my OPENAI_API_KEY not found in the Jupyter notebook?",
    "Can I use another vector database instead of Elasticsearch?",
    "Are there free models that support tool use?",
    "How do I remove all Docker containers and images?",
]
LEAN_FIELDS = ["id", "question", "answer"]


def plain_search_tool(index=None):
    """The search tool of lesson 04: the full results through json.dumps.

    Example: plain_search_tool()("join late") -> '[{"id": "74eb249bbf", "course": "llm-zoomcamp", ...}]'
    """

    def search_faq(query: str) -> str:
        return json.dumps(search(query, index=index))

    return search_faq


def lean_search_tool(index=None, fields=LEAN_FIELDS):
    """The same search, returning only `fields`, as compact JSON that keeps non-ASCII characters.

    Example: lean_search_tool()("join late") -> '[{"id":"74eb249bbf","question":"I just discovered...",...}]'
    """

    def search_faq(query: str) -> str:
        return serialize(search(query, index=index), fields=fields)

    return search_faq


@dataclass
class Run:
    """One question answered with one tool variant: what came back and what it cost in tokens."""

    question: str
    variant: str
    stop_reason: str
    answer: str
    calls: int
    tool_output_tokens: int
    input_tokens: int


def measure(client, model: str, question: str, tool, variant: str) -> Run:
    """Run one question through the agent loop and count its tokens.

    Example: measure(client, model, "Can I join late?", lean_search_tool(), "lean").tool_output_tokens -> 690
    """
    from helpers.offline.text import estimate_tokens  # the same estimate the offline model bills with

    result = agent_loop(client, model, question, {"search": tool}, schemas=[SEARCH_TOOL], verbose=False)
    outputs = [m["output"] for m in result.messages if m.get("type") == "function_call_output"]
    return Run(question=question, variant=variant, stop_reason=result.stop_reason, answer=result.answer,
               calls=len(result.calls), tool_output_tokens=sum(estimate_tokens(text) for text in outputs),
               input_tokens=sum(c.input_tokens for c in result.calls))


def run_bench(client=None, model: str | None = None, questions=QUESTIONS, index=None) -> list[tuple[Run, Run]]:
    """Measure every question with both variants; returns (plain, lean) pairs, in question order.

    Example: run_bench(questions=["Can I join late?"])[0][1].variant -> "lean"
    """
    if client is None:
        from helpers.offline import OFFLINE_MODEL, offline_client

        client, model = offline_client(), OFFLINE_MODEL
    index = index if index is not None else default_index()
    plain, lean = plain_search_tool(index), lean_search_tool(index)
    return [(measure(client, model, q, plain, "plain"), measure(client, model, q, lean, "lean")) for q in questions]


def summarize(pairs: list[tuple[Run, Run]]) -> dict:
    """Means per answered question (answered in both variants) and the two ratios lean / plain.

    Example: summarize(run_bench())["tool_output_ratio"] -> 0.64
    """
    answered = [(p, le) for p, le in pairs if p.stop_reason == le.stop_reason == "answered"]
    if not answered:
        raise ValueError("No question was answered by both variants, so there is nothing to compare. "
                         "Check that the search tool works: python -m helpers.evaluate")
    n = len(answered)

    def mean(variant: int, attr: str) -> float:
        return sum(getattr(pair[variant], attr) for pair in answered) / n

    summary = {
        "questions": len(pairs),
        "answered": n,
        "same_answers": sum(p.answer == le.answer for p, le in answered),
        "tool_output_tokens": {"plain": mean(0, "tool_output_tokens"), "lean": mean(1, "tool_output_tokens")},
        "input_tokens": {"plain": mean(0, "input_tokens"), "lean": mean(1, "input_tokens")},
    }
    for key in ("tool_output_tokens", "input_tokens"):
        summary[key.replace("_tokens", "_ratio")] = summary[key]["lean"] / summary[key]["plain"]
    return summary


def report(pairs: list[tuple[Run, Run]], model: str = "offline-rules-v1") -> dict:
    """Print a table per question and the summary; return the summary.

    Example: report(run_bench()) -> prints the table, returns {"tool_output_ratio": 0.64, ...}
    """
    print(f"Tokens per question on the offline model ({model}); its counts are estimates (characters / 4).")
    print("plain: lesson 04's tool, json.dumps(results) with every field and \\u escapes")
    print(f"lean:  only {', '.join(LEAN_FIELDS)}; compact JSON; non-ASCII kept (helpers.tools.serialize)\n")
    print(f"{'question':<48} {'calls':>5}  {'tool-output tokens':>18}  {'input tokens':>15}  same answer")
    print(f"{'':<48} {'':>5}  {'plain':>8} {'lean':>9}  {'plain':>7} {'lean':>7}")
    for p, le in pairs:
        q = p.question if len(p.question) <= 47 else p.question[:46] + "…"
        calls = str(p.calls) if p.calls == le.calls else f"{p.calls}/{le.calls}"
        same = "yes" if p.answer == le.answer else "NO"
        if "answered" != p.stop_reason or "answered" != le.stop_reason:
            same += f" ({p.stop_reason}/{le.stop_reason})"
        print(f"{q:<48} {calls:>5}  {p.tool_output_tokens:>8,} {le.tool_output_tokens:>9,}"
              f"  {p.input_tokens:>7,} {le.input_tokens:>7,}  {same}")
    s = summarize(pairs)
    print(f"\nanswered by both: {s['answered']}/{s['questions']} · same final answers: "
          f"{s['same_answers']}/{s['answered']}")
    print("per answered question (mean)       plain      lean   lean/plain")
    for label, key in (("tokens in tool outputs", "tool_output"), ("total input tokens", "input")):
        tokens, ratio = s[f"{key}_tokens"], s[f"{key}_ratio"]
        print(f"  {label:<28} {tokens['plain']:>9,.0f} {tokens['lean']:>9,.0f}   {ratio:.2f} "
              f"({1 - ratio:.0%} fewer)")
    return s


def main(argv=None) -> dict:
    """Command line: `python -m helpers.bench [--json]`.

    Example: main(["--json"]) -> prints {"questions": 10, "answered": 10, ...}
    """
    parser = argparse.ArgumentParser(prog="python -m helpers.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the summary as JSON instead of a table")
    args = parser.parse_args(argv)
    pairs = run_bench()
    if args.json:
        summary = summarize(pairs)
        print(json.dumps(summary, indent=2))
        return summary
    return report(pairs)


if __name__ == "__main__":
    main()
