"""What did that run cost? Per-call records, a running meter and a run report.

Every model call becomes a `CallRecord`: which model and provider answered, how many input, cached-input,
output and reasoning tokens the API reported, how long it took, why it stopped, and what it cost in USD.
Prices come from helpers.billing.prices (genai-prices at an explicit moment), whose public names are re-exported
here: lessons import `price_per_mtok`, `record_call`, `CostMeter` and `run_report` all from helpers.cost.

Rules this module keeps:
- Never a silent $0. An unknown model gets `cost_usd=None` and a warning that says how to fix it. Only local
  providers (Ollama, the offline model) cost $0, and their `price_note` says so.
- A replayed recording ("replay") is priced as the call it recorded, so a lesson can show a real bill.
- The offline model's token counts are estimates (`estimated=True`). Its runs can be priced "as if" they
  had run on a real model: `record_call(resp, provider="offline", latency_s=0.1, price_as="gpt-5.4-mini")`.
- Never the wall clock behind your back. A call is priced at the moment it was made (the response's
  `created_at` or `created`); only a response without a timestamp is priced now, and its `price_note` says so.

Left out on purpose: the price lookup (helpers.billing.prices); alerts, and a meter that outlives the kernel.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime

import pandas as pd

from helpers.apis.adapter import lookup, usage_of

# Re-exported: a lesson imports prices and records from one place, helpers.cost (lesson 06).
from helpers.billing.prices import (  # noqa: F401
    LOCAL_PROVIDERS,
    UnknownPriceWarning,
    normalize_provider,
    price_per_mtok,
    price_tokens,
    price_usage,
    register_price,
    to_utc,
)
from helpers.billing.tokens import request_tokens  # noqa: F401

# The offline model's name from its constants module, which imports nothing: pricing never loads the model.
from helpers.offline.constants import OFFLINE_MODEL

OFFLINE_PROVIDER = "offline"


@dataclass
class CallRecord:
    """Tokens, latency, finish reason and cost of one model call.

    Example:
        >>> CallRecord(model="gpt-5.4-mini", provider="openai", api="responses",
        ...     input_tokens=812).cost_usd is None
        True
    """

    model: str
    provider: str
    api: str  # "responses" or "chat"
    input_tokens: int = 0  # includes the cached ones, as both APIs count them
    cached_input_tokens: int = 0
    output_tokens: int = 0  # includes the reasoning ones
    reasoning_tokens: int = 0
    total_tokens: int = 0
    latency_s: float | None = None
    # Responses: the status ("completed", "incomplete (max_output_tokens)"); Chat Completions: finish_reason.
    finish: str | None = None
    estimated: bool = False  # True when the token counts are estimates (the offline model)
    cost_usd: float | None = None  # None means unknown, never "free"
    price_note: str = ""
    priced_at: str | None = None  # the moment the prices were read for, e.g. "2026-01-01T00:00:00Z"

    def to_dict(self) -> dict:
        """The record as a plain dict (for JSON or a DataFrame row).

        Example:
            >>> CallRecord(model="gpt-5.4-mini", provider="openai", api="responses",
            ...     input_tokens=812).to_dict()
            {'model': 'gpt-5.4-mini', 'provider': 'openai', 'api': 'responses', 'input_tokens': 812, 'cached_input_tokens': 0,
             'output_tokens': 0, 'reasoning_tokens': 0, 'total_tokens': 0, 'latency_s': None, 'finish': None,
             'estimated': False, 'cost_usd': None, 'price_note': '', 'priced_at': None}
        """
        return asdict(self)



# ---------------------------------------------------------------------------------------------------------
# Pricing one call (helpers.apis.adapter reads its usage)


def call_time(response) -> datetime | None:
    """When a Responses or Chat Completions result was created (UTC), or None if it carries no timestamp.

    Example:
        >>> call_time({"created_at": 1764460800}), call_time({"model": "m"})
        (datetime.datetime(2025, 11, 30, 0, 0, tzinfo=datetime.timezone.utc), None)
    """
    stamp = lookup(response, "created_at", default=lookup(response, "created"))  # Responses, else Chat
    try:
        return to_utc(stamp)  # no stamp (None) is a TypeError too
    except (TypeError, ValueError):
        return None  # an unreadable stamp counts as none; record_call then says it used the current time


def record_call(response, *, provider, latency_s, price_as=None, meter=None, at=None):
    """Turn one Responses or Chat Completions result (SDK object or dict) into a priced CallRecord.

    provider is a name ("openai", "offline", "ollama", "groq", "deepseek", "github", "replay", ...).
    price_as="gpt-5.4-mini" prices the call as if it had run on that model (useful for offline runs).
    The call is priced at the moment it was made: `at` if given, else the response's `created_at` /
    `created`. Only a response with neither is priced at the current time, and its price_note says so.
    The record is added to `meter` if given (a CostMeter).
    Example:
        >>> resp = {"model": "gpt-5.4-mini", "created_at": 1764460800,
        ...         "usage": {"input_tokens": 812, "output_tokens": 40}}
        >>> call = record_call(resp, provider="openai", latency_s=0.8)
        >>> call.model, call.total_tokens, call.cost_usd
        ('gpt-5.4-mini', 852, 0.000789)
    """
    provider_name = normalize_provider(provider) or "unknown"
    # A replayed cassette costs nothing now, but it shows what the recorded call cost: price it as recorded.
    local = provider_name != "replay" and (provider_name in LOCAL_PROVIDERS
                                           or bool(getattr(provider, "local", False)))
    usage = usage_of(response)
    model = str(lookup(response, "model", default="unknown"))
    input_tokens, cached, output_tokens = usage.input_tokens, usage.cached_input_tokens, usage.output_tokens

    estimated = provider_name == OFFLINE_PROVIDER or model == OFFLINE_MODEL
    when = to_utc(at) if at is not None else call_time(response)
    unstamped = when is None
    if unstamped:
        # A real API always stamps its responses; this is a hand-made dict. Say that the clock was used.
        when = datetime.now(tz=UTC)
    priced_at: str | None = when.isoformat().replace("+00:00", "Z")
    if price_as:
        cost, _ = price_usage(price_as, None, input_tokens, cached, output_tokens, when)
        note = f"as if {price_as}"
        if cost is None:
            note += ": unknown model, register a price"
    elif local:
        cost, note, priced_at = 0.0, f"local: $0 ({provider_name})", None
    else:
        cost, note = price_usage(model, provider_name, input_tokens, cached, output_tokens, when)
        if provider_name == "replay" and cost is not None:
            note = f"replay, original cost ({note})"
    if unstamped and priced_at is not None:
        note += "; no timestamp in the response, priced at the current time"

    record = CallRecord(model=model, provider=provider_name, api=usage.api, input_tokens=input_tokens,
                        cached_input_tokens=cached, output_tokens=output_tokens,
                        reasoning_tokens=usage.reasoning_tokens, total_tokens=usage.total_tokens,
                        latency_s=latency_s, finish=usage.finish, estimated=estimated, cost_usd=cost,
                        price_note=note, priced_at=priced_at)
    if meter is not None:
        meter.add(record)
    return record


# ---------------------------------------------------------------------------------------------------------
# Summing: one run, one session


def _as_record(r) -> CallRecord:
    return r if isinstance(r, CallRecord) else CallRecord(**r)


def format_usd(amount) -> str:
    """Dollars with enough decimals to see small costs.

    Example:
        >>> format_usd(0.0031)
        '$0.0031'
    """
    if amount is None:
        return "$?"
    if amount == 0:
        return "$0"
    if amount >= 1:
        return f"${amount:,.2f}"
    text = f"{amount:.6f}".rstrip("0")
    if len(text.split(".")[1]) < 2:
        text = f"{amount:.2f}"
    return "$" + text if float(text) else f"${amount:.1e}"


@dataclass
class CostMeter:
    """A running total of calls, tokens and dollars (one loop run, or a whole session).

    Example:
        >>> response = {"model": "gpt-5.4-mini", "created_at": 1764460800, "status": "completed",
        ...             "usage": {"input_tokens": 812, "output_tokens": 40}}
        >>> record = record_call(response, provider="openai", latency_s=0.8)
        >>> meter = CostMeter()
        >>> _ = meter.add(record)
        >>> str(meter)
        '1 call · 852 tokens · $0.000789'
    """

    records: list[CallRecord] = field(default_factory=list)

    def add(self, record):
        """Count one call. Returns the record so you can write `rec = meter.add(record_call(...))`.

        Example:
            >>> response = {"model": "gpt-5.4-mini", "created_at": 1764460800, "status": "completed",
            ...             "usage": {"input_tokens": 812, "output_tokens": 40}}
            >>> record = record_call(response, provider="openai", latency_s=0.8)
            >>> CostMeter().add(record) is record
            True
        """
        record = _as_record(record)
        self.records.append(record)
        return record

    @property
    def total_cost(self) -> float:
        """Sum of the known costs in USD; see `.unpriced` for calls whose price is unknown."""
        return sum(r.cost_usd for r in self.records if r.cost_usd is not None)

    @property
    def unpriced(self) -> int:
        """How many calls have no known price (their cost is not in total_cost)."""
        return sum(1 for r in self.records if r.cost_usd is None)

    @property
    def total_tokens(self) -> int:
        return sum(r.total_tokens for r in self.records)

    @property
    def input_tokens(self) -> int:
        return sum(r.input_tokens for r in self.records)

    @property
    def output_tokens(self) -> int:
        return sum(r.output_tokens for r in self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __str__(self) -> str:
        n = len(self.records)
        parts = [f"{n} call{'s' if n != 1 else ''}", f"{self.total_tokens:,} tokens"]
        priced = n - self.unpriced
        if n and not priced:
            parts.append("$? (no known price)")
        else:
            cost = format_usd(self.total_cost)
            if self.unpriced:
                cost += f" + {self.unpriced} unpriced call{'s' if self.unpriced != 1 else ''}"
            parts.append(cost)
        flags = []
        if n and all(r.price_note.startswith("local") for r in self.records):
            flags.append("local")
        if any(r.estimated for r in self.records):
            flags.append("estimated")
        return " · ".join(parts) + (f" ({', '.join(flags)})" if flags else "")

    def __repr__(self) -> str:
        return f"CostMeter({self})"


# ---------------------------------------------------------------------------------------------------------
# Run report

_METRICS = [("input tokens", "input_tokens", 1), ("cached input tokens", "cached_input_tokens", 1),
            ("output tokens", "output_tokens", 1), ("reasoning tokens", "reasoning_tokens", 1),
            ("total tokens", "total_tokens", 1)]


def _stats(values, digits):
    stats = {"min": min(values), "max": max(values), "mean": sum(values) / len(values), "sum": sum(values)}
    return {name: round(value, digits) for name, value in stats.items()}


def run_report(records, latency=False):
    """One table for a run: calls, token stats (min/max/mean/sum), cost, finish reasons and models.

    Rows "finish: <reason>" and "model: <name>" carry their count. Latency is left out unless
    latency=True, so notebook outputs stay the same from run to run.
    Example:
        >>> response = {"model": "gpt-5.4-mini", "created_at": 1764460800, "status": "completed",
        ...             "usage": {"input_tokens": 812, "output_tokens": 40}}
        >>> record = record_call(response, provider="openai", latency_s=0.8)
        >>> report = run_report([record, record])
        >>> list(report.index)[:3], report.loc["input tokens", "sum"], report.loc["model: gpt-5.4-mini",
        ...     "count"]
        (['calls', 'input tokens', 'cached input tokens'], 1624, 2)
    """
    records = [_as_record(r) for r in records]
    columns = ["count", "min", "max", "mean", "sum"]
    rows: dict[str, dict] = {"calls": {"count": len(records)}}
    if records:
        for label, attr, digits in _METRICS:
            rows[label] = _stats([getattr(r, attr) for r in records], digits)
        if latency:
            lat = [r.latency_s for r in records if r.latency_s is not None]
            if lat:
                rows["latency (s)"] = _stats(lat, 3)
        costs = [r.cost_usd for r in records if r.cost_usd is not None]
        if costs:
            rows["cost (USD)"] = _stats(costs, 6)
        unpriced = len(records) - len(costs)
        if unpriced:
            rows["unpriced calls"] = {"count": unpriced}
        for name, count in sorted(Counter(str(r.finish) for r in records).items()):
            rows[f"finish: {name}"] = {"count": count}
        for name, count in sorted(Counter(r.model for r in records).items()):
            rows[f"model: {name}"] = {"count": count}
    # Blank rather than NaN where a cell does not apply: it reads better in a notebook, and counts stay ints.
    data = [[row.get(c, "") for c in columns] for row in rows.values()]
    return pd.DataFrame(data, index=list(rows), columns=columns, dtype=object)


def _cell(value, label) -> str:
    if value == "":
        return ""
    if label == "cost (USD)":
        return f"{value:.6f}"
    if label == "latency (s)":
        return f"{value:.3f}"
    return f"{value:,.1f}" if value != int(value) else f"{int(value):,}"


def print_report(records, latency=False):
    """Print the run report as plain text (deterministic unless latency=True).

    Example:
        >>> response = {"model": "gpt-5.4-mini", "created_at": 1764460800, "status": "completed",
        ...             "usage": {"input_tokens": 812, "output_tokens": 40}}
        >>> record = record_call(response, provider="openai", latency_s=0.8)
        >>> print_report([record, record])
        Run: 2 calls · 1,704 tokens · $0.001578
                                      min         max        mean         sum
        input tokens                  812         812         812       1,624
        cached input tokens             0           0           0           0
        output tokens                  40          40          40          80
        reasoning tokens                0           0           0           0
        total tokens                  852         852         852       1,704
        cost (USD)               0.000789    0.000789    0.000789    0.001578
        finish reasons: completed 2
        models: gpt-5.4-mini 2
        priced: genai-prices: openai/gpt-5.4-mini
    """
    records = [_as_record(r) for r in records]
    print("Run:", CostMeter(list(records)))
    if not records:
        return
    df = run_report(records, latency=latency)
    metrics = [label for label in df.index if df.loc[label, "min"] != ""]
    width = max(len(label) for label in metrics)
    print(f"{'':{width}}  " + "".join(f"{c:>12}" for c in ["min", "max", "mean", "sum"]))
    for label in metrics:
        cells = "".join(f"{_cell(df.loc[label, c], label):>12}" for c in ["min", "max", "mean", "sum"])
        print(f"{label:{width}}  {cells}")
    if "unpriced calls" in df.index:
        print(f"unpriced calls: {df.loc['unpriced calls', 'count']} (register a price to include them)")
    for prefix, title in (("finish: ", "finish reasons"), ("model: ", "models")):
        counts = [f"{label[len(prefix) :]} {df.loc[label, 'count']}" for label in df.index
                  if label.startswith(prefix)]
        print(f"{title}: " + " · ".join(counts))
    notes = sorted({r.price_note for r in records if r.price_note})
    print("priced: " + "; ".join(notes))
