"""Evaluate at scale with the Batch API: many model calls as one job, half the price, results joined by custom_id.

Lesson 12 runs the agent on a sample because every question is a live call. The Batch API (OpenAI's, and the
offline model's, which serves the same endpoints) takes a JSONL file of requests, answers them within 24 hours
at half the price, and writes the answers to an output file (failed requests to an error file), in no
particular order. This module does the bookkeeping:
- `first_call_lines()` writes, for each question, the request lesson 12's agent loop would send first (the
  same helpers.apis.adapter code builds both), with a `custom_id` per question;
- `run_batch()` uploads them, creates the batch, polls it until it is done, downloads both files and joins
  their lines to the requests by `custom_id` (`join_by_custom_id`), never by position;
- `batch_agent()` runs the whole agent loop as rounds of batches: each round sends every unfinished
  conversation's next call as one batch, then runs the tools it asked for locally;
- `price_bodies()` prices the answers at the batch rate and at the synchronous rate (helpers.billing.prices).

- `collect_batch()` reads a batch created earlier: `run_batch(..., max_wait=...)` raises BatchStillRunning,
  naming the batch, instead of holding a notebook cell for the 24 hours a real batch may take.

It works against any provider with the Files and Batch endpoints (OpenAI, the offline model). Left out on
purpose: batches over 50,000 requests (split them), and the Chat-only batch endpoints of other providers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from helpers.apis.adapter import flavour_of, lookup
from helpers.billing.prices import LOCAL_PROVIDERS, normalize_provider, price_usage, to_utc
from helpers.tools import run_tool

ENDPOINTS = {"responses": "/v1/responses", "chat": "/v1/chat/completions"}
FINISHED = ("completed", "failed", "expired", "cancelled")


def first_call_lines(rows: list[dict], model: str, *, instructions: str | None = None,
                     schemas: list[dict] | None = None, api: str = "responses") -> list[dict]:
    """One batch request per question: the first call of the agent loop (instructions, the question, the
    tools), with the custom_id `q0000`, `q0001`, ... in the rows' order.

    Example:
        >>> line = first_call_lines([{"question": "Can I join late?"}], "m", instructions="Be brief.")[0]
        >>> line["custom_id"], line["url"], line["body"]
        ('q0000', '/v1/responses', {'model': 'm', 'input': [{'role': 'user', 'content': 'Can I join late?'}],
        'instructions': 'Be brief.'})
    """
    flavour = flavour_of(api)
    return [request_line(f"q{i:04d}", flavour.request(model, flavour.start([], instructions, row["question"]),
                                                       instructions=instructions, tools=schemas), api)
            for i, row in enumerate(rows)]


def request_line(custom_id: str, body: dict, api: str = "responses") -> dict:
    """One line of a batch input file: the request's body, the URL it goes to and its custom_id.

    Example:
        >>> request_line("q1", {"model": "m", "messages": []}, api="chat")["url"]
        '/v1/chat/completions'
    """
    return {"custom_id": custom_id, "method": "POST", "url": ENDPOINTS[api], "body": body}


def to_jsonl(lines: list[dict]) -> bytes:
    """The lines as a JSON Lines file (one JSON object a line), checking that each custom_id is unique.

    Example:
        >>> to_jsonl([{"custom_id": "a"}, {"custom_id": "b"}])
        b'{"custom_id": "a"}\\n{"custom_id": "b"}\\n'
    """
    ids = [line["custom_id"] for line in lines]
    duplicates = sorted({i for i in ids if ids.count(i) > 1}) if len(set(ids)) < len(ids) else []
    if duplicates:
        raise ValueError(f"custom_id must be unique in a batch; repeated: {', '.join(duplicates[:5])}")
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")


class BatchStillRunning(TimeoutError):
    """A batch that had not finished within the wait allowed. Nothing is lost: it goes on at the provider, and
    `collect_batch(client, batch_id, lines)` reads its results later, in this kernel or another."""

    def __init__(self, batch_id: str, status: str, waited: float):
        self.batch_id, self.status = batch_id, status
        super().__init__(f"The batch {batch_id} is still {status} after {waited:.0f} s: a real batch may take up "
                         f"to 24 hours. Nothing is lost. Later, in this kernel or another, run "
                         f"collect_batch(client, {batch_id!r}, lines) (helpers.batch) to read its results.")


def wait_for_batch(client, batch_id: str, *, sleep: Callable[[float], None] = time.sleep, first_wait: float = 0.25,
                   longest_wait: float = 60.0, on_status: Callable | None = None, max_wait: float | None = None,
                   clock: Callable[[], float] = time.monotonic):
    """Poll a batch until it has finished (completed, failed, expired or cancelled) and return it. The wait
    doubles after each poll, from `first_wait` up to `longest_wait` seconds; `on_status(batch)` hears each new
    status. With `max_wait` (seconds), a batch still running then raises BatchStillRunning, so a notebook cell
    is never stuck for the 24 hours a real batch may take.

    Example:
        >>> from helpers.offline import neutral_client
        >>> client = neutral_client()
        >>> file = client.files.create(file=("q.jsonl", to_jsonl(first_call_lines([{"question": "Hi"}],
        ...     "offline-rules-v1"))), purpose="batch")
        >>> batch = client.batches.create(input_file_id=file.id, endpoint="/v1/responses", completion_window="24h")
        >>> wait_for_batch(client, batch.id, sleep=lambda s: None, on_status=lambda b: print(b.status)).status
        in_progress
        finalizing
        completed
        'completed'
    """
    wait, status, started = first_wait, None, clock()
    while True:
        batch = client.batches.retrieve(batch_id)
        if batch.status != status and on_status is not None:
            on_status(batch)
        status = batch.status
        if status in FINISHED:
            return batch
        waited = clock() - started
        if max_wait is not None and waited >= max_wait:
            raise BatchStillRunning(batch_id, status, waited)
        sleep(wait)
        wait = min(wait * 2, longest_wait)


def read_file_lines(client, file_id: str | None) -> list[dict]:
    """The JSON lines of a stored file (an output or error file); none for no file.

    Example:
        >>> read_file_lines(None, None)
        []
    """
    if file_id is None:
        return []
    return [json.loads(text) for text in client.files.content(file_id).text.splitlines() if text.strip()]


def join_by_custom_id(lines: list[dict], output: list[dict], errors: list[dict]) -> dict[str, dict]:
    """Each request's result line by its custom_id, from the output and the error file (both in no particular
    order). A request missing from both (a cancelled or expired batch) is missing here too.

    Example:
        >>> ok = {"custom_id": "b", "response": {"status_code": 200, "body": {"id": "r2"}}, "error": None}
        >>> bad = {"custom_id": "a", "response": {"status_code": 400, "body": {"error": {}}}, "error": None}
        >>> sorted(join_by_custom_id([{"custom_id": "a"}, {"custom_id": "b"}], [ok], [bad]))
        ['a', 'b']
    """
    wanted = {line["custom_id"] for line in lines}
    return {result["custom_id"]: result for result in [*output, *errors] if result["custom_id"] in wanted}


def answer_body(result: dict | None) -> dict | None:
    """The response body of a result line when the request succeeded (status 200), else None.

    Example:
        >>> answer_body({"response": {"status_code": 200, "body": {"id": "r1"}}, "error": None})
        {'id': 'r1'}
    """
    response = (result or {}).get("response") or {}
    return response.get("body") if response.get("status_code") == 200 else None


@dataclass
class BatchRun:
    """One batch from upload to joined results."""

    batch: object  # the final openai Batch object
    results: dict[str, dict]  # custom_id -> its line of the output or error file
    statuses: list[str] = field(default_factory=list)  # every status seen, in order
    seconds: float = 0.0  # wall time from upload to downloaded results


def run_batch(client, lines: list[dict], *, api: str = "responses", sleep: Callable[[float], None] = time.sleep,
              clock: Callable[[], float] = time.monotonic, metadata: dict | None = None,
              on_status: Callable | None = None, max_wait: float | None = None) -> BatchRun:
    """Upload the lines, create a batch, wait for it, download the output and error files and join them.
    `max_wait`: see wait_for_batch (past it, BatchStillRunning names the batch to collect later).

    Example:
        >>> from helpers.offline import neutral_client
        >>> run = run_batch(neutral_client(), first_call_lines([{"question": "Hi"}], "offline-rules-v1"),
        ...                 sleep=lambda s: None)
        >>> run.statuses, answer_body(run.results["q0000"])["status"]
        (['validating', 'in_progress', 'finalizing', 'completed'], 'completed')
    """
    started = clock()
    upload = client.files.create(file=("requests.jsonl", to_jsonl(lines)), purpose="batch")
    batch = client.batches.create(input_file_id=upload.id, endpoint=ENDPOINTS[api], completion_window="24h",
                                  metadata=metadata)
    run = collect_batch(client, batch.id, lines, sleep=sleep, clock=clock, on_status=on_status, max_wait=max_wait)
    return BatchRun(run.batch, run.results, [batch.status, *run.statuses], clock() - started)


def collect_batch(client, batch_id: str, lines: list[dict], *, sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic, on_status: Callable | None = None,
                  max_wait: float | None = None) -> BatchRun:
    """Wait for a batch created earlier (by run_batch, another kernel, or the provider's dashboard) and join its
    output and error files to the `lines` it was made from. Its `seconds` count from this call.

    Example:
        >>> from helpers.offline import neutral_client
        >>> client, lines = neutral_client(), first_call_lines([{"question": "Hi"}], "offline-rules-v1")
        >>> file = client.files.create(file=("q.jsonl", to_jsonl(lines)), purpose="batch")
        >>> batch = client.batches.create(input_file_id=file.id, endpoint="/v1/responses", completion_window="24h")
        >>> sorted(collect_batch(client, batch.id, lines, sleep=lambda s: None).results)
        ['q0000']
    """
    started, statuses = clock(), []

    def heard(update) -> None:
        statuses.append(update.status)
        if on_status is not None:
            on_status(update)

    batch = wait_for_batch(client, batch_id, sleep=sleep, on_status=heard, max_wait=max_wait, clock=clock)
    if batch.status == "failed":
        problems = "; ".join(f"line {e.line}: {e.code}: {e.message}" for e in (batch.errors.data if batch.errors
                                                                                 else [])[:5])
        raise RuntimeError(f"The batch {batch.id} failed validation: {problems or 'no reason given'}")
    results = join_by_custom_id(lines, read_file_lines(client, batch.output_file_id),
                                read_file_lines(client, batch.error_file_id))
    return BatchRun(batch, results, statuses, clock() - started)


def price_bodies(bodies: list[dict], *, provider, price_as: str | None = None) -> tuple[float | None, float | None, str]:
    """(cost at the batch rate, cost of the same calls made one by one, the price note) of response bodies,
    each priced at its own `created_at`/`created`. A local provider costs $0 unless `price_as` names a model.

    Example:
        >>> body = {"model": "gpt-5.4-mini", "created_at": 1796083200, "usage": {"input_tokens": 812,
        ...         "output_tokens": 40}}
        >>> price_bodies([body, body], provider="openai")
        (0.000789, 0.001578, 'genai-prices: openai/gpt-5.4-mini, batch price')
    """
    from helpers.apis.adapter import usage_of

    if price_as is None and normalize_provider(provider) in LOCAL_PROVIDERS:
        return 0.0, 0.0, f"local: $0 ({normalize_provider(provider)})"
    batch_total, sync_total, note = 0.0, 0.0, ""
    for body in bodies:
        usage = usage_of(body)
        when = to_utc(lookup(body, "created_at", default=None) or lookup(body, "created", default=0))
        model = price_as or str(lookup(body, "model", default="unknown"))
        args = (model, None if price_as else normalize_provider(provider), usage.input_tokens,
                usage.cached_input_tokens, usage.output_tokens, when)
        batch_cost, note = price_usage(*args, batch=True)
        sync_cost, _ = price_usage(*args)
        if batch_cost is None or sync_cost is None:
            return None, None, note
        batch_total, sync_total = batch_total + batch_cost, sync_total + sync_cost
    return round(batch_total, 9), round(sync_total, 9), (f"as if {price_as}: {note}" if price_as else note)


@dataclass
class BatchAgentResult:
    """What `batch_agent` produced: each question's answer (or why it has none) and every model answer body."""

    answers: dict[str, str]  # custom_id -> final answer text
    failures: dict[str, str]  # custom_id -> why there is no answer (a failed request, no answer within the rounds)
    bodies: list[dict]  # every successful response body, for pricing
    runs: list[BatchRun]  # one batch per round
    histories: dict[str, list]  # custom_id -> the conversation, as the loop keeps it


def batch_agent(client, model: str, rows: list[dict], tools_for: Callable[[dict], dict], *,
                schemas: list[dict] | None = None, instructions: str | None = None, api: str = "responses",
                rounds: int = 3, sleep: Callable[[float], None] = time.sleep,
                on_status: Callable | None = None) -> BatchAgentResult:
    """The agent loop with every model call made through the Batch API: round 1 sends every question's first
    call as one batch; the tool calls in the answers run locally (`tools_for(row)` gives each row's tools);
    round 2 sends the conversations that called a tool; and so on. The last round forbids tool calls
    (tool_choice "none"), as the loop's iteration cap does, so each conversation ends with an answer.

    Example:
        >>> from helpers.offline import neutral_client
        >>> from helpers.search import SEARCH_TOOL
        >>> faq = [{"id": "a1", "question": "Can I join late?", "answer": "Yes, until May."}]
        >>> result = batch_agent(neutral_client(), "offline-rules-v1", [{"question": "Can I join late?"}],
        ...                      lambda row: {"search": lambda query: faq}, schemas=[SEARCH_TOOL], sleep=lambda s: None)
        >>> result.answers["q0000"], len(result.runs)
        ('According to "Can I join late?" [a1]: Yes, until May.', 2)
    """
    flavour = flavour_of(api)
    ids = [f"q{i:04d}" for i in range(len(rows))]
    row_of = dict(zip(ids, rows, strict=True))
    histories = {cid: flavour.start([], instructions, row_of[cid]["question"]) for cid in ids}
    answers, failures, bodies, runs = {}, {}, [], []
    waiting = list(ids)
    for round_number in range(1, rounds + 1):
        if not waiting:
            break
        last = round_number == rounds
        lines = [request_line(cid, flavour.request(model, histories[cid], instructions=instructions, tools=schemas,
                                                   tool_choice="none" if last else None), api) for cid in waiting]
        run = run_batch(client, lines, api=api, sleep=sleep, on_status=on_status)
        runs.append(run)
        still = []
        for cid in waiting:  # joined by custom_id: the output file's order is not ours
            result = run.results.get(cid)
            body = answer_body(result)
            if body is None:
                failures[cid] = _why_failed(result)
                continue
            bodies.append(body)
            items = flavour.output_items(body)
            histories[cid].extend(items)
            calls = flavour.calls_in(items)
            if not calls:
                answers[cid] = flavour.text(body)
                continue
            tools = tools_for(row_of[cid])
            for call in calls:
                histories[cid].append(flavour.tool_output(call.id, run_tool(call.name or "", call.arguments, tools)))
            still.append(cid)
        waiting = still
    for cid in waiting:
        failures[cid] = f"no answer within {rounds} rounds"
    return BatchAgentResult(answers, failures, bodies, runs, histories)


def _why_failed(result: dict | None) -> str:
    if result is None:
        return "not in the output or error file (the batch was cancelled or expired)"
    if result.get("error"):
        return f"{result['error'].get('code')}: {result['error'].get('message')}"
    response = result.get("response") or {}
    message = lookup(response, "body", "error", "message", default="no message")
    return f"HTTP {response.get('status_code')}: {message}"
