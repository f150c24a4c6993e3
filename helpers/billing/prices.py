"""What does a token cost on a given model at a given moment? Prices from genai-prices, never from the clock.

What it does:
- reads USD prices per million input, cached-input and output tokens from the `genai-prices` package, from
  the data bundled with the installed package (`price_per_mtok`, `price_tokens`);
- reads every price for one explicit moment: prices change on set dates, and some depend on the time of day
  (DeepSeek charges half price outside its peak hours), so a listing needs `at=` and a call is priced at the
  moment it was made (`to_utc` reads the forms a moment comes in);
- lets you teach it a model genai-prices does not know (`register_price`);
- costs nothing for local providers (Ollama, the offline model).

Rules it keeps:
- No network. genai-prices can refresh its prices from GitHub, but only when someone starts its
  `UpdatePrices` background task. We never start it, and we price from our own snapshot of the bundled
  data, so an updater started elsewhere in the process cannot change our numbers mid-run either. The
  numbers therefore change only when another genai-prices version is installed (the lock file pins it).
- Never a silent $0. A model nobody knows a price for gets None and a visible `UnknownPriceWarning` that
  says how to fix it.

Left out on purpose: reading usage from a response, the per-call record, the meter and the run report (all in
helpers.cost, which builds on this module and re-exports its public names, so lessons import them from
there); cache-write and audio/image token prices, priority and flex service tiers, and currency conversion.
The course uses text-only calls at the default tier, priced in USD.
"""

from __future__ import annotations

import warnings
from datetime import UTC, date, datetime
from decimal import Decimal

from genai_prices import Usage
from genai_prices.data_snapshot import DataSnapshot

# Providers that run on your own machine: no bill. Extend it if you add e.g. "lmstudio".
LOCAL_PROVIDERS = {"offline", "ollama"}


class UnknownPriceWarning(UserWarning):
    """Raised (as a warning) when a model has no known price, so the cost is None rather than $0."""


_SNAPSHOT: DataSnapshot | None = None
_CUSTOM_PRICES: dict[str, dict[str, float]] = {}  # set by register_price; beats genai-prices, at any moment


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
    Example:
        >>> register_price("doctest-finetune", 0.30, 1.20)
        >>> price_tokens("doctest-finetune", 1_000_000, 1_000_000, at="2026-11-30")
        1.5
    """
    for name, value in (("input_per_mtok", input_per_mtok), ("output_per_mtok", output_per_mtok)):
        if value is None or value < 0:
            raise ValueError(f"register_price: {name} must be a number >= 0 (USD per million tokens), got "
                             f"{value!r}")
    cached = input_per_mtok if cached_input_per_mtok is None else cached_input_per_mtok
    _CUSTOM_PRICES[model.lower()] = {"input": float(input_per_mtok), "cached_input": float(cached),
                                     "output": float(output_per_mtok)}


def _strip_vendor(model: str) -> str:
    # Router-style names (Groq, Hugging Face, OpenRouter) look like "openai/gpt-5-mini"; genai-prices wants "gpt-5-mini".
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
    return (f"No price known for model {model!r}{where}: its cost is recorded as None, not $0. Fix: "
            f"helpers.cost.register_price({model!r}, input_per_mtok=..., output_per_mtok=...) with the "
            "prices from your provider's pricing page, or price it as a known model with price_as=...")


def _as_float(price) -> float:
    # Tiered prices (e.g. gpt-5.4 above 272k input tokens) have a base rate; a per-token table shows that one.
    price = getattr(price, "base", price)
    return float(price) if price is not None else 0.0


def normalize_provider(provider) -> str | None:
    """A provider's name in lower case, from a plain name or a preset with `.name`; None stays None.

    A preset object (helpers.llm.Provider) is read by its `.name`, so this module never imports the client.
    Example:
        >>> from helpers.llm import PROVIDERS
        >>> normalize_provider(PROVIDERS["groq"]), normalize_provider("OpenAI"), normalize_provider(None)
        ('groq', 'openai', None)
    """
    if provider is None or isinstance(provider, str):
        return provider.lower() if provider else provider
    return str(getattr(provider, "name", provider)).lower()


# ---------------------------------------------------------------------------------------------------------
# When: every price is read for one moment


def to_utc(at) -> datetime:
    """A moment as an aware UTC datetime, from whatever form it comes in.

    Accepts a datetime (a naive one is taken as UTC, as genai-prices does), a date (00:00 UTC that day),
    a Unix timestamp such as a response's `created_at`, or an ISO 8601 string ("2026-11-17",
    "2026-11-17T20:00Z"). Raises TypeError or ValueError, with the accepted forms, for anything else.
    Example:
        >>> to_utc("2026-11-17T20:00Z")
        datetime.datetime(2026, 11, 17, 20, 0, tzinfo=datetime.timezone.utc)
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
        raise TypeError(f"{function}({model!r}) needs at=...: prices change on set dates, and some "
                        "providers (DeepSeek) charge less at certain hours, so a price only exists for a "
                        "moment. Pass the time of the call (at=response.created_at) or the moment you "
                        "want, e.g. at='2026-11-17T20:00Z'.")
    return to_utc(at)



def price_per_mtok(model, provider=None, *, at=None):
    """USD per million input, cached-input and output tokens at the moment `at`, from genai-prices.

    `at` is required: a datetime, date, Unix timestamp or ISO string (see to_utc). Prices set with
    register_price do not change with time. Local providers cost 0. Raises LookupError, with the fix,
    for a model nobody knows a price for.
    Example:
        >>> price_per_mtok("deepseek-flash", at="2026-11-17T20:00Z")
        {'input': 0.15, 'cached_input': 0.003, 'output': 0.6}
    """
    when = _require_at("price_per_mtok", model, at)
    if normalize_provider(provider) in LOCAL_PROVIDERS:
        return {"input": 0.0, "cached_input": 0.0, "output": 0.0}
    if model.lower() in _CUSTOM_PRICES:
        return dict(_CUSTOM_PRICES[model.lower()])
    found = _find_model(model, normalize_provider(provider))
    if found is None:
        raise LookupError(_unknown_price_message(model, normalize_provider(provider)))
    _, info = found
    prices = info.get_prices(when)
    cached = prices.cache_read_mtok if prices.cache_read_mtok is not None else prices.input_mtok
    return {"input": _as_float(prices.input_mtok), "cached_input": _as_float(cached),
            "output": _as_float(prices.output_mtok)}


def price_tokens(model, input_tokens, output_tokens, cached_input_tokens=0, provider=None, *, at=None):
    """Cost in USD of a token count on a model at the moment `at`, or None (with a warning) if unknown.

    `at` is required, as for price_per_mtok.
    Example:
        >>> price_tokens("gpt-5.4-mini", 1_000_000, 1_000_000, at="2026-11-30")
        5.25
    """
    when = _require_at("price_tokens", model, at)
    provider = normalize_provider(provider)
    cost, _ = price_usage(model, provider, input_tokens, cached_input_tokens, output_tokens, when)
    return cost


def price_usage(
    model, provider, input_tokens, cached, output_tokens, when: datetime, *, batch: bool = False
) -> tuple[float | None, str]:
    """(cost in USD or None, a note saying where the price came from) for a non-local call made at `when`.

    The one place a price is computed: price_tokens and helpers.cost.record_call both go through it. An
    unknown model warns (UnknownPriceWarning, pointing at the caller's caller) and costs None.
    `batch=True` prices a request of a Batch API job: genai-prices' batch price where it has one (its
    `processing: batch` variant), else half the standard price, the discount OpenAI documents, and the note says so.
    Example:
        >>> price_usage("gpt-5.4-mini", "openai", 812, 0, 40, to_utc("2026-11-30"))
        (0.000789, 'genai-prices: openai/gpt-5.4-mini')
        >>> price_usage("gpt-5.4-mini", "openai", 812, 0, 40, to_utc("2026-11-30"), batch=True)
        (0.0003945, 'genai-prices: openai/gpt-5.4-mini, batch price')
    """
    cached = min(cached, input_tokens)  # both APIs count cached tokens inside input_tokens; guard odd data
    custom = _CUSTOM_PRICES.get(model.lower())
    if custom is not None:
        cost = (
            (input_tokens - cached) * custom["input"]
            + cached * custom["cached_input"]
            + output_tokens * custom["output"]
        ) / 1_000_000
        return (cost / 2, "registered price, halved for a batch") if batch else (cost, "registered price")
    found = _find_model(model, provider)
    if found is None:
        warnings.warn(_unknown_price_message(model, provider), UnknownPriceWarning, stacklevel=3)
        return None, "unknown model: register a price"
    prov, info = found
    # genai-prices wants input_tokens as the total, with cache reads as a part of it (the same as OpenAI).
    usage = Usage(input_tokens=input_tokens, cache_read_tokens=cached, output_tokens=output_tokens)
    note = f"genai-prices: {prov.id}/{info.id}"
    calc = info.calc_price(usage, prov, genai_request_timestamp=when)  # never genai-prices' "now" default
    cost = float(Decimal(calc.total_price))
    if not batch:
        return cost, note
    # A batch variant applies from the date genai-prices verified it; before it (or without one) the price
    # comes back unchanged, and the documented 50% is applied instead, saying so.
    batched = float(Decimal(info.calc_price(usage, prov, genai_request_timestamp=when,
                                            price_context={"processing": "batch"}).total_price))
    if batched < cost or cost == 0:
        return batched, f"{note}, batch price"
    return cost / 2, f"{note}, no batch price known at that date: half the standard price"
