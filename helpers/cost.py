"""What did that run cost? Per-call records, prices and a running meter.

Every model call becomes a `CallRecord`: which model and provider answered, how many input, cached-input,
output and reasoning tokens the API reported, how long it took, why it stopped, and what it cost in USD.
Prices come from the `genai-prices` package, read from the data bundled with the installed package.

Rules this module keeps:
- No network. genai-prices can refresh its prices from GitHub, but only when someone starts its
  `UpdatePrices` background task. We never start it, and we price from our own snapshot of the bundled
  data, so an updater started elsewhere in the process cannot change our numbers mid-run either. The
  numbers therefore change only when another genai-prices version is installed (the lock file pins it).
- Never a silent $0. A model genai-prices does not know gets `cost_usd=None` and a visible warning that
  says how to fix it (`register_price(...)`). Only local providers (Ollama, the offline model) cost $0,
  and their `price_note` says so.
- A replayed recording ("replay") is priced as the call it recorded, so a lesson can show a real bill.
- The offline model's token counts are estimates (`estimated=True`). Its runs can be priced "as if" they
  had run on a real model: `record_call(resp, provider="offline", latency_s=0.1, price_as="gpt-5.4-mini")`.
- Never the wall clock behind your back. Prices change on set dates, and some depend on the time of day
  (DeepSeek charges half price outside its peak hours). So a call is priced at the moment it was made, the
  response's `created_at` (Responses) or `created` (Chat Completions), and a price listing
  (`price_per_mtok`, `price_tokens`) needs an explicit `at=`. Only a response without any timestamp is
  priced at the current time, and its `price_note` says so.

Left out on purpose: cache-write and audio/image token prices, batch and priority service tiers, and
currency conversion. The course uses text-only calls at the default tier, priced in USD.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal

import pandas as pd
from genai_prices import Usage
from genai_prices.data_snapshot import DataSnapshot

# Providers that run on your own machine: no bill. Extend it if you add e.g. "lmstudio".
LOCAL_PROVIDERS = {"offline", "ollama"}
OFFLINE_PROVIDER = "offline"
OFFLINE_MODEL = (
    "offline-rules-v1"  # same value as helpers.offline.OFFLINE_MODEL (kept here to avoid the import)
)


class UnknownPriceWarning(UserWarning):
    """Raised (as a warning) when a model has no known price, so the cost is None rather than $0."""


@dataclass
class CallRecord:
    """Tokens, latency, finish reason and cost of one model call.

    Example: CallRecord(model="gpt-5.4-mini", provider="openai", api="responses", input_tokens=812, ...)
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
    finish: str | None = (
        None  # Responses: status ("completed", "incomplete (max_output_tokens)"); Chat: finish_reason
    )
    estimated: bool = False  # True when the token counts are estimates (the offline model)
    cost_usd: float | None = None  # None means unknown, never "free"
    price_note: str = ""
    priced_at: str | None = None  # the moment the prices were read for, e.g. "2026-01-01T00:00:00Z"

    def to_dict(self) -> dict:
        """The record as a plain dict (for JSON or a DataFrame row).

        Example: record.to_dict() -> {"model": "gpt-5.4-mini", "provider": "openai", ...}
        """
        return asdict(self)


# ---------------------------------------------------------------------------------------------------------
# Prices

_SNAPSHOT: DataSnapshot | None = None
_CUSTOM_PRICES: dict[str, dict[str, float]] = {}


def _snapshot() -> DataSnapshot:
    # Our own snapshot of the bundled data: genai_prices.calc_price() would use whatever an UpdatePrices task
    # last fetched from the network, and we want the same numbers on every machine, offline.
    global _SNAPSHOT
    if _SNAPSHOT is None:
        from genai_prices.data import providers

        _SNAPSHOT = DataSnapshot(providers=providers, from_auto_update=False)
    return _SNAPSHOT


def register_price(model, input_per_mtok, output_per_mtok, cached_input_per_mtok=None):
    """Teach the meter the price of a model genai-prices does not know (USD per million tokens).

    It also overrides genai-prices for that model name. Cached input defaults to the input price.
    Example: register_price("my-finetune", 0.30, 1.20) -> None
    """
    for name, value in (("input_per_mtok", input_per_mtok), ("output_per_mtok", output_per_mtok)):
        if value is None or value < 0:
            raise ValueError(
                f"register_price: {name} must be a number >= 0 (USD per million tokens), got {value!r}"
            )
    cached = input_per_mtok if cached_input_per_mtok is None else cached_input_per_mtok
    _CUSTOM_PRICES[model.lower()] = {
        "input": float(input_per_mtok),
        "cached_input": float(cached),
        "output": float(output_per_mtok),
    }


def _strip_vendor(model: str) -> str:
    # GitHub Models and OpenRouter-style names look like "openai/gpt-5-mini"; genai-prices wants "gpt-5-mini".
    return model.split("/", 1)[1] if "/" in model else model


def _find_model(model: str, provider: str | None):
    """Return (provider_info, model_info) from genai-prices, or None if it does not know the model."""
    snap = _snapshot()
    provider_id = None
    if provider:
        try:
            provider_id = snap.find_provider(None, provider, None).id
        except LookupError:
            provider_id = None  # e.g. "github": not a genai-prices provider, so match on the model name alone
    for ref in dict.fromkeys([model, _strip_vendor(model)]):  # unique, in order
        try:
            return snap.find_provider_model(ref, None, provider_id, None)
        except LookupError:
            continue
    return None


def _unknown_price_message(model: str, provider: str | None) -> str:
    where = f" (provider {provider!r})" if provider else ""
    return (
        f"No price known for model {model!r}{where}: its cost is recorded as None, not $0. "
        f"Fix: helpers.cost.register_price({model!r}, input_per_mtok=..., output_per_mtok=...) "
        f"with the prices from your provider's pricing page, or price it as a known model with price_as=..."
    )


def _as_float(price) -> float:
    # Tiered prices (e.g. gpt-5.4 above 272k input tokens) have a base rate; a per-token table shows that one.
    price = getattr(price, "base", price)
    return float(price) if price is not None else 0.0


# ---------------------------------------------------------------------------------------------------------
# When: every price is read for one moment


def to_utc(at) -> datetime:
    """A moment as an aware UTC datetime, from whatever form it comes in.

    Accepts a datetime (a naive one is taken as UTC, as genai-prices does), a date (00:00 UTC that day),
    a Unix timestamp such as a response's `created_at`, or an ISO 8601 string ("2026-11-17",
    "2026-11-17T20:00Z"). Raises TypeError or ValueError, with the accepted forms, for anything else.
    Example: to_utc("2026-11-17T20:00Z") -> datetime(2026, 11, 17, 20, 0, tzinfo=UTC)
    """
    when = at
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when.strip())
        except ValueError:
            raise ValueError(f"at={at!r} is not a moment I can read. {_AT_FORMS}") from None
    elif isinstance(when, (int, float)) and not isinstance(when, bool):
        try:
            when = datetime.fromtimestamp(when, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise ValueError(f"at={at!r} is not a Unix timestamp in range. {_AT_FORMS}") from None
    elif isinstance(when, date) and not isinstance(when, datetime):
        when = datetime(when.year, when.month, when.day)
    if not isinstance(when, datetime):
        raise TypeError(f"at={at!r} is a {type(at).__name__}, not a moment. {_AT_FORMS}")
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


_AT_FORMS = ("Pass a datetime, a date, a Unix timestamp (e.g. response.created_at) or an ISO 8601 string "
             "such as '2026-11-17T20:00Z' (a time without a zone is read as UTC).")


def _require_at(function: str, model: str, at) -> datetime:
    if at is None:
        raise TypeError(
            f"{function}({model!r}) needs at=...: prices change on set dates, and some providers (DeepSeek) "
            f"charge less at certain hours, so a price only exists for a moment. Pass the time of the call "
            f"(at=response.created_at) or the moment you want, e.g. at='2026-11-17T20:00Z'."
        )
    return to_utc(at)


def call_time(response) -> datetime | None:
    """When a Responses or Chat Completions result was created (UTC), or None if it carries no timestamp.

    Example: call_time(response) -> datetime(2026, 1, 1, 0, 0, tzinfo=UTC)
    """
    stamp = _get(response, "created_at")
    if stamp is None:
        stamp = _get(response, "created")
    if stamp is None:
        return None
    try:
        return to_utc(stamp)
    except (TypeError, ValueError):
        return None  # an unreadable stamp counts as none; record_call then says it used the current time


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def price_per_mtok(model, provider=None, *, at=None):
    """USD per million input, cached-input and output tokens at the moment `at`, from genai-prices.

    `at` is required: a datetime, date, Unix timestamp or ISO string (see to_utc). Prices set with
    register_price do not change with time. Local providers cost 0. Raises LookupError, with the fix,
    for a model nobody knows a price for.
    Example: price_per_mtok("deepseek-flash", at="2026-11-17T20:00Z") -> {"input": 0.15, ..., "output": 0.6}
    """
    when = _require_at("price_per_mtok", model, at)
    if _provider_name(provider) in LOCAL_PROVIDERS:
        return {"input": 0.0, "cached_input": 0.0, "output": 0.0}
    if model.lower() in _CUSTOM_PRICES:
        return dict(_CUSTOM_PRICES[model.lower()])
    found = _find_model(model, _provider_name(provider))
    if found is None:
        raise LookupError(_unknown_price_message(model, _provider_name(provider)))
    _, info = found
    prices = info.get_prices(when)
    cached = prices.cache_read_mtok if prices.cache_read_mtok is not None else prices.input_mtok
    return {
        "input": _as_float(prices.input_mtok),
        "cached_input": _as_float(cached),
        "output": _as_float(prices.output_mtok),
    }


def price_tokens(model, input_tokens, output_tokens, cached_input_tokens=0, provider=None, *, at=None):
    """Cost in USD of a token count on a model at the moment `at`, or None (with a warning) if unknown.

    `at` is required, as for price_per_mtok.
    Example: price_tokens("gpt-5.4-mini", 1_000_000, 1_000_000, at="2026-11-30") -> 5.25
    """
    when = _require_at("price_tokens", model, at)
    cost, _ = _price(model, _provider_name(provider), input_tokens, cached_input_tokens, output_tokens, when)
    return cost


def _price(model, provider, input_tokens, cached, output_tokens, when: datetime) -> tuple[float | None, str]:
    """(cost_usd or None, note) for a non-local call made at `when`."""
    cached = min(cached, input_tokens)  # both APIs count cached tokens inside input_tokens; guard odd data
    custom = _CUSTOM_PRICES.get(model.lower())
    if custom is not None:
        cost = (
            (input_tokens - cached) * custom["input"]
            + cached * custom["cached_input"]
            + output_tokens * custom["output"]
        ) / 1_000_000
        return cost, "registered price"
    found = _find_model(model, provider)
    if found is None:
        warnings.warn(_unknown_price_message(model, provider), UnknownPriceWarning, stacklevel=3)
        return None, "unknown model: register a price"
    prov, info = found
    # genai-prices wants input_tokens as the total, with cache reads as a part of it (the same as OpenAI).
    usage = Usage(input_tokens=input_tokens, cache_read_tokens=cached, output_tokens=output_tokens)
    calc = info.calc_price(usage, prov, genai_request_timestamp=when)  # never genai-prices' "now" default
    return float(Decimal(calc.total_price)), f"genai-prices: {prov.id}/{info.id}"


# ---------------------------------------------------------------------------------------------------------
# Reading usage from a response


def _get(obj, *path, default=None):
    """Walk attributes or dict keys: _get(resp, "usage", "input_tokens"). Missing anywhere -> default."""
    for key in path:
        if obj is None:
            return default
        if isinstance(obj, dict):
            obj = obj.get(key)
        elif isinstance(key, int):
            try:
                obj = obj[key]
            except (IndexError, TypeError, KeyError):
                return default
        else:
            obj = getattr(obj, key, None)
    return default if obj is None else obj


def _int(value) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _provider_name(provider) -> str | None:
    # Accept a plain name or a preset object with .name (helpers.llm.Provider) without importing it.
    if provider is None or isinstance(provider, str):
        return provider.lower() if provider else provider
    return str(getattr(provider, "name", provider)).lower()


def _detect_api(response) -> str:
    if _get(response, "choices") is not None or _get(response, "usage", "prompt_tokens") is not None:
        return "chat"
    return "responses"


def record_call(response, *, provider, latency_s, price_as=None, meter=None, at=None):
    """Turn one Responses or Chat Completions result (SDK object or dict) into a priced CallRecord.

    provider is a name ("openai", "offline", "ollama", "groq", "deepseek", "github", "replay", ...).
    price_as="gpt-5.4-mini" prices the call as if it had run on that model (useful for offline runs).
    The call is priced at the moment it was made: `at` if given, else the response's `created_at` /
    `created`. Only a response with neither is priced at the current time, and its price_note says so.
    The record is added to `meter` if given (e.g. SESSION).
    Example: record_call(resp, provider="openai", latency_s=0.8) -> CallRecord(model="gpt-5.4-mini", ...)
    """
    provider_name = _provider_name(provider) or "unknown"
    # A replayed cassette costs nothing now, but it shows what the recorded call cost: price it as recorded.
    local = provider_name != "replay" and (
        provider_name in LOCAL_PROVIDERS or bool(getattr(provider, "local", False))
    )
    api = _detect_api(response)
    model = str(_get(response, "model", default="unknown"))

    if api == "chat":
        input_tokens = _int(_get(response, "usage", "prompt_tokens"))
        cached = _int(_get(response, "usage", "prompt_tokens_details", "cached_tokens"))
        if not cached:  # DeepSeek reports cache hits in its own field
            cached = _int(_get(response, "usage", "prompt_cache_hit_tokens"))
        output_tokens = _int(_get(response, "usage", "completion_tokens"))
        reasoning = _int(_get(response, "usage", "completion_tokens_details", "reasoning_tokens"))
        finish = _get(response, "choices", 0, "finish_reason")
    else:
        input_tokens = _int(_get(response, "usage", "input_tokens"))
        cached = _int(_get(response, "usage", "input_tokens_details", "cached_tokens"))
        output_tokens = _int(_get(response, "usage", "output_tokens"))
        reasoning = _int(_get(response, "usage", "output_tokens_details", "reasoning_tokens"))
        finish = _get(response, "status")
        reason = _get(response, "incomplete_details", "reason")
        if finish == "incomplete" and reason:
            finish = f"incomplete ({reason})"
    total = _int(_get(response, "usage", "total_tokens")) or input_tokens + output_tokens

    estimated = provider_name == OFFLINE_PROVIDER or model == OFFLINE_MODEL
    when = to_utc(at) if at is not None else call_time(response)
    unstamped = when is None
    if unstamped:
        # A real API always stamps its responses; this is a hand-made dict. Say that the clock was used.
        when = datetime.now(tz=UTC)
    priced_at: str | None = _iso(when)
    if price_as:
        cost, _ = _price(price_as, None, input_tokens, cached, output_tokens, when)
        note = f"as if {price_as}"
        if cost is None:
            note += ": unknown model, register a price"
    elif local:
        cost, note, priced_at = 0.0, f"local: $0 ({provider_name})", None
    else:
        cost, note = _price(model, provider_name, input_tokens, cached, output_tokens, when)
        if provider_name == "replay" and cost is not None:
            note = f"replay, original cost ({note})"
    if unstamped and priced_at is not None:
        note += "; no timestamp in the response, priced at the current time"

    record = CallRecord(
        model=model,
        provider=provider_name,
        api=api,
        input_tokens=input_tokens,
        cached_input_tokens=cached,
        output_tokens=output_tokens,
        reasoning_tokens=reasoning,
        total_tokens=total,
        latency_s=latency_s,
        finish=None if finish is None else str(finish),
        estimated=estimated,
        cost_usd=cost,
        price_note=note,
        priced_at=priced_at,
    )
    if meter is not None:
        meter.add(record)
    return record


# ---------------------------------------------------------------------------------------------------------
# Summing: one run, one session


def _as_record(r) -> CallRecord:
    return r if isinstance(r, CallRecord) else CallRecord(**r)


def format_usd(amount) -> str:
    """Dollars with enough decimals to see small costs.

    Example: format_usd(0.0031) -> "$0.0031"
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

    Example: meter = CostMeter(); meter.add(record); str(meter) -> "1 call · 852 tokens · $0.00079"
    """

    records: list[CallRecord] = field(default_factory=list)

    def add(self, record):
        """Count one call. Returns the record so you can write `rec = meter.add(record_call(...))`.

        Example: meter.add(record) -> record
        """
        record = _as_record(record)
        self.records.append(record)
        return record

    def reset(self):
        """Forget all calls (start a new session).

        Example: SESSION.reset() -> None
        """
        self.records.clear()

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


def cost_of(records) -> float:
    """Total known cost in USD of a list of CallRecords (one loop run).

    Example: cost_of(result.calls) -> 0.0031
    """
    return CostMeter([_as_record(r) for r in records]).total_cost


# The session meter: pass meter=SESSION to record_call (the course's loop does); SESSION.reset() clears it.
SESSION = CostMeter()


# ---------------------------------------------------------------------------------------------------------
# Run report

_METRICS = [
    ("input tokens", "input_tokens", 1),
    ("cached input tokens", "cached_input_tokens", 1),
    ("output tokens", "output_tokens", 1),
    ("reasoning tokens", "reasoning_tokens", 1),
    ("total tokens", "total_tokens", 1),
]


def _stats(values, digits):
    return {
        "min": round(min(values), digits),
        "max": round(max(values), digits),
        "mean": round(sum(values) / len(values), digits),
        "sum": round(sum(values), digits),
    }


def run_report(records, latency=False):
    """One table for a run: calls, token stats (min/max/mean/sum), cost, finish reasons and models.

    Rows "finish: <reason>" and "model: <name>" carry their count. Latency is left out unless
    latency=True, so notebook outputs stay the same from run to run.
    Example: run_report(result.calls) -> DataFrame, rows "calls", "input tokens", ..., "model: gpt-5.4-mini"
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

    Example: print_report(result.calls) -> prints "Run: 3 calls · 4,210 tokens · $0.0031" and a table
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
        counts = [
            f"{label[len(prefix) :]} {df.loc[label, 'count']}"
            for label in df.index
            if label.startswith(prefix)
        ]
        print(f"{title}: " + " · ".join(counts))
    notes = sorted({r.price_note for r in records if r.price_note})
    print("priced: " + "; ".join(notes))
