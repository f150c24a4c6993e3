"""Pick an LLM provider and hand back a ready `openai.OpenAI` client, so lessons never hard-code one.

What it does:
- reads `.env` (searching upwards from the folder you run in, so a notebook in notebooks/ finds the
  repository's `.env`), without overriding variables already set in your shell;
- chooses a provider: `LLM_PROVIDER` if set, else OpenAI when `OPENAI_API_KEY` is set, else the built-in
  offline model, which needs no key and no network;
- uses each provider's preset (helpers.setup.providers: base URL, key variable, default model, API flavours,
  notes and the documented facts behind them, re-exported here), and `require_api` stops a lesson early
  with a plain message when the provider lacks the API flavour it calls;
- optionally records every request/response pair to a JSONL cassette, and replays one offline
  (see helpers/apis/cassette.py);
- never prints, logs or stores an API key: the one line it prints names the provider and model only.

`make_async_client` is the same choice as an `openai.AsyncOpenAI` client, for the agent frameworks of
lesson 11, which are async.

What it leaves out on purpose: the presets' data (helpers.setup.providers), streaming helpers, and any wrapper around the SDK's calls. Lessons call `client.responses.create(...)` themselves; hiding that call
would hide the lesson.

Why one module of about 430 lines: it answers one question a lesson asks, "which model am I talking to?".
Choosing the provider, making the sync and async clients and saying what the chosen provider lacks all read
the same `Settings`; the presets' data already lives apart, in helpers.setup.providers.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import httpx
import openai

from helpers import ROOT  # noqa: F401 -- ROOT stays importable as llm.ROOT
from helpers.setup import env
from helpers.setup.errors import ProviderError  # re-exported: callers catch llm.ProviderError
from helpers.setup.providers import (  # noqa: F401 -- re-exported: lessons import the presets from helpers.llm
    CAPABILITIES,
    CHOICES,
    FACTS_CHECKED,
    PRETTY_NAMES,
    PROVIDERS,
    REPLAY_BASE_URL,
    RETIRED,
    Fact,
    Provider,
    caps,
    retired_message,
)

MAX_RETRIES = 3  # the SDK retries 429 and 5xx with exponential backoff (and honours Retry-After)
TIMEOUT_S = 120.0  # long enough for a slow reasoning model; short enough that a dead server is noticed
CHAT_LESSON = "lesson 08"  # the lesson written with Chat Completions, for providers without Responses
MIN_OPENAI_SDK = "3.0"  # the SDK major version the course is tested with (see requirements.txt)


SWITCH_HINT = "put OPENAI_API_KEY in .env, or set LLM_PROVIDER=groq|gemini|huggingface|deepseek|ollama; see .env.example"


@dataclass(frozen=True)
class Settings:
    """What `make_client` decided, before it builds anything. Holds the key, so it is never printed."""

    provider: Provider
    model: str
    base_url: str
    api_key: str | None
    env_path: str | None  # the .env that was loaded, or None
    reason: str  # why this provider was chosen, in words
    cassette: str | None = None  # replay: the cassette to serve

    def __repr__(self) -> str:
        # A dataclass repr would show the key; show whether it is set instead.
        key = "set" if self.api_key else "missing"
        return f"Settings(provider={self.provider.name!r}, model={self.model!r}, api_key={key})"


def load_env(env_file: str | os.PathLike | None = None) -> str | None:
    """Load `.env` into os.environ without overriding what is already set; return its path or None.

    Example: (`load_env()` returns the .env it found, e.g. "/home/me/course/.env", or None)
        >>> load_env("no-such.env")
        Traceback (most recent call last):
        helpers.setup.errors.ProviderError: The env file no-such.env does not exist. Copy .env.example to no-such.env,
        ...
    """
    # One loader for every helper (helpers/setup/env.py): ingest, evaluate and the doctor read .env the same way.
    try:
        return env.load_env(env_file)
    except FileNotFoundError as err:
        raise ProviderError(str(err)) from err


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def _is_local_url(url: str) -> bool:
    return (urlparse(url).hostname or "") in {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


def resolve(provider: str | None = None, *, env_file=None, require_key: bool = True) -> Settings:
    """Decide provider, model, base URL and key from arguments, environment and `.env`; build nothing.

    Raises ProviderError for an unknown or retired provider (RETIRED: LLM_PROVIDER names it, or a .env sets its
    key and no LLM_PROVIDER), or a missing key unless require_key=False.
    Example:
        >>> resolve("offline")
        Settings(provider='offline', model='offline-rules-v1', api_key=missing)
    """
    env_path = load_env(env_file)
    name = provider or _env("LLM_PROVIDER")
    if provider:
        name, reason = provider, f"make_client(provider={provider!r})"
    elif name:
        reason = f"LLM_PROVIDER={name}"
    elif _env("OPENAI_API_KEY"):
        name, reason = "openai", "OPENAI_API_KEY is set"
    elif env_path and (retired := _retired_key_in(env_path)):
        # A .env written for a provider that is gone: running offline instead would hide that from the student.
        raise ProviderError(f"{env_path} sets {RETIRED[retired].key_env} and no LLM_PROVIDER. "
                            + retired_message(retired))
    else:
        name, reason = "offline", "no OPENAI_API_KEY and no LLM_PROVIDER"
    name = name.strip().lower()
    if name in RETIRED:
        raise ProviderError(retired_message(name))
    if name not in PROVIDERS:
        raise ProviderError(f"Unknown LLM_PROVIDER {name!r}. Use one of: {', '.join(PROVIDERS)} "
                            "(see .env.example).")
    preset = PROVIDERS[name]

    base_url = preset.base_url
    if name not in ("offline", "replay") and (custom_url := _env("OPENAI_BASE_URL")):
        # Lets a student point any preset at a proxy or a self-hosted OpenAI-compatible server.
        base_url = custom_url.rstrip("/")

    api_key = None
    if preset.key_env:
        api_key = _env(preset.key_env)
        if not api_key and _is_local_url(base_url):
            api_key = "not-needed"  # a local server usually ignores the key, but the SDK wants one
        if not api_key and require_key:
            where = f"in {env_path}" if env_path else "in a .env file at the repository root (copy .env.example)"
            raise ProviderError(f"{preset.key_env} is not set, and the {name} provider needs it. Get one: "
                                f"{preset.key_help}. Then put {preset.key_env}=... {where} and restart the "
                                "kernel; or set LLM_PROVIDER=offline to run without a key.")

    cassette = None
    model = _env("LLM_MODEL") or preset.default_model
    if name == "replay":
        cassette = _env("LLM_CASSETTE")
        if not cassette:
            raise ProviderError("LLM_PROVIDER=replay needs LLM_CASSETTE=path/to/cassette.jsonl (a file "
                                "recorded with make_client(record=...) or LLM_RECORD). Set it in .env.")
        cassette = str(_data_path(cassette))
        if not _env("LLM_MODEL") and Path(cassette).is_file():
            from helpers.apis.cassette import recorded_model

            model = recorded_model(cassette) or preset.default_model
    return Settings(preset, model, base_url, api_key, env_path, reason, cassette)


def _retired_key_in(env_path: str) -> str | None:
    """The retired provider whose key the .env file itself sets, if any. Only the file counts: Codespaces and
    GitHub Actions put that key in every shell, and there it says nothing about the course's set-up."""
    from dotenv import dotenv_values

    values = dotenv_values(env_path)
    return next((name for name, r in RETIRED.items() if (values.get(r.key_env) or "").strip()), None)


def _data_path(path: str | os.PathLike) -> Path:
    # Relative cassette paths are taken from the repository root, so notebooks and scripts share data/.
    return env.repo_path(path)


def _describe(s: Settings, record: Path | None) -> str:
    p = s.provider
    if p.name == "offline":
        line = f"LLM: offline model {s.model} (no network, no key; answers come from rules, not a real LLM)"
        if s.reason.startswith("no OPENAI_API_KEY"):
            line += f". To use a real model: {SWITCH_HINT}"
    elif p.name == "replay":
        line = f"LLM: replay of {s.cassette}, model {s.model} (offline; unseen requests fail)"
    else:
        line = f"LLM: {p.name}, model {s.model}"
        if s.base_url != p.base_url:
            line += f" at {s.base_url}"
        line += f" (chosen because {s.reason})"
    if record is not None:
        line += f"; recording to {record}"
    return line


def make_client(provider: str | None = None, *, env_file=None, record=None, verbose: bool = True,
                context_window: int | None = None):
    """Return `(client, model)` for the configured provider, and print one line saying which it is.

    provider: one of PROVIDERS, overriding LLM_PROVIDER. record: a cassette path (or env LLM_RECORD)
    to append every request/response pair to. The client retries 429/5xx itself (max_retries=3).
    context_window: the prompt tokens the offline model accepts per request (or env OFFLINE_CONTEXT_WINDOW;
    default 128,000); a longer request gets the real 400 `context_length_exceeded`. Other providers have
    their model's own window, so it changes nothing there (lesson 15).
    Example:
        >>> client, model = make_client("offline")
        LLM: offline model offline-rules-v1 (no network, no key; answers come from rules, not a real LLM)
        >>> type(client).__name__, model
        ('OpenAI', 'offline-rules-v1')
    """
    s = resolve(provider, env_file=env_file)
    _remember_preset(s)
    record_path = _record_path(s, record)
    transport = _transport_for(s, record_path, context_window)
    http_client = httpx.Client(transport=transport, timeout=TIMEOUT_S) if transport is not None else None
    client = openai.OpenAI(
        api_key=s.api_key or "no-key-needed",  # the SDK insists on a value; keyless servers ignore it
        base_url=s.base_url,
        max_retries=MAX_RETRIES,
        timeout=TIMEOUT_S,
        # openai 3 annotates http_client as an httpx2.Client and accepts an httpx.Client too (openai/_httpx2.py).
        http_client=http_client,  # ty: ignore[invalid-argument-type]
    )
    if verbose:
        print(_describe(s, record_path))
    return client, s.model


def make_async_client(provider: str | None = None, *, env_file=None, record=None, verbose: bool = True,
                      context_window: int | None = None):
    """Return `(async_client, model)`: make_client's twin for agent frameworks, which call the API with
    `openai.AsyncOpenAI` (lesson 11). Same provider choice, model, retries, timeout, recording and
    context window.

    Example:
        >>> client, model = make_async_client("offline", verbose=False)
        >>> type(client).__name__, model
        ('AsyncOpenAI', 'offline-rules-v1')
    """
    s = resolve(provider, env_file=env_file)
    _remember_preset(s)
    record_path = _record_path(s, record)
    transport = _transport_for(s, record_path, context_window)
    http_client = None
    if transport is not None:  # the offline model or a cassette: sync transports, served from a worker thread
        from helpers.offline.api.transport import ThreadedTransport

        http_client = httpx.AsyncClient(transport=ThreadedTransport(transport), timeout=TIMEOUT_S)
    # openai 3 annotates http_client as an httpx2.AsyncClient and accepts an httpx.AsyncClient too.
    client = openai.AsyncOpenAI(api_key=s.api_key or "no-key-needed", base_url=s.base_url,
                                max_retries=MAX_RETRIES, timeout=TIMEOUT_S,
                                http_client=http_client)  # ty: ignore[invalid-argument-type]
    if verbose:
        print(_describe(s, record_path))
    return client, s.model


def offline_client(faults=None, context_window: int | None = None, **kwargs):
    """An `openai.OpenAI` client on the offline model with the course FAQ's vocabulary handed in (what
    make_client gives without a key), with optional injected faults (lesson 07) and context window (lesson 15;
    default: env OFFLINE_CONTEXT_WINDOW, else 128,000 tokens). `kwargs` go to OpenAI(...).

    Example:
        >>> offline_client("never_stop", max_retries=0).models.list().data[0].id
        'offline-rules-v1'
    """
    from helpers.offline import neutral_client

    return neutral_client(faults, **_course_knowledge(context_window), **kwargs)


def async_offline_client(faults=None, context_window: int | None = None, **kwargs):
    """`offline_client`'s twin for agent frameworks: an `openai.AsyncOpenAI` client (lesson 11).

    Example:
        >>> import asyncio
        >>> async def first_model():
        ...     return (await async_offline_client().models.list()).data[0].id
        >>> asyncio.run(first_model())
        'offline-rules-v1'
    """
    from helpers.offline import async_neutral_client as neutral_client

    return neutral_client(faults, **_course_knowledge(context_window), **kwargs)


def _record_path(s: Settings, record) -> Path | None:
    record = record or _env("LLM_RECORD")
    record_path = _data_path(record) if record else None
    if record_path is not None and s.provider.name == "replay":
        raise ProviderError("Recording a replay would copy a cassette into itself. Unset LLM_RECORD (or "
                            "record=) when LLM_PROVIDER=replay.")
    return record_path


def context_window_setting(context_window: int | None = None) -> int | None:
    """The offline model's context window: the argument, else env OFFLINE_CONTEXT_WINDOW, else None (the
    model's default, 128,000 tokens). A value that is not a positive whole number is a ProviderError.

    Example:
        >>> context_window_setting(2048)
        2048
    """
    raw = context_window if context_window is not None else env.setting("OFFLINE_CONTEXT_WINDOW")
    if raw is None:
        return None
    text = str(raw).replace("_", "").replace(",", "")
    if isinstance(raw, bool) or not text.isdigit() or int(text) < 1:
        raise ProviderError(f"The offline model's context window must be a positive number of tokens, not {raw!r} "
                            "(check OFFLINE_CONTEXT_WINDOW in .env, or context_window=).")
    return int(text)


def _course_knowledge(context_window: int | None) -> dict:
    """What every offline client of the course is handed: the FAQ's words (the model knows no course) and the
    context window setting."""
    from helpers.faq.vocabulary import faq_vocabulary

    return {"vocabulary": faq_vocabulary(), "context_window": context_window_setting(context_window)}


def _transport_for(s: Settings, record_path: Path | None, context_window: int | None = None):
    """The httpx transport a provider needs (offline model, replay, recording), or None for plain HTTP."""
    transport = None
    if s.provider.name == "offline":
        try:
            from helpers.offline import OfflineTransport
        except ImportError as err:
            raise ProviderError(f"The offline model could not be loaded ({err}). Reinstall the course with "
                                "`pip install -r requirements.txt`, or set LLM_PROVIDER to a real provider.") from err
        transport = OfflineTransport(**_course_knowledge(context_window))
    elif s.provider.name == "replay":
        from helpers.apis.cassette import ReplayTransport

        transport = ReplayTransport(s.cassette or "", base_url=s.base_url)  # set for replay by resolve()
    if record_path is not None:
        from helpers.apis.cassette import RecordingTransport

        inner = transport or httpx.HTTPTransport(retries=0)
        transport = RecordingTransport(inner, record_path, base_url=s.base_url)
    return transport


def _norm(url) -> str:
    return str(url).rstrip("/")


# A preset pointed at another URL (OPENAI_BASE_URL: a proxy, a self-hosted server) by make_client, by that URL:
# provider_of then still knows which APIs it has, instead of taking it for an unknown server.
_PRESET_AT: dict[str, Provider] = {}


def _remember_preset(s: Settings) -> None:
    if _norm(s.base_url) != _norm(s.provider.base_url):
        _PRESET_AT[_norm(s.base_url)] = dataclasses.replace(s.provider, base_url=s.base_url)


def provider_of(client) -> Provider:
    """The preset a client talks to, found from its base URL; unknown servers get a generic preset.

    Example:
        >>> preset = provider_of(make_client("offline", verbose=False)[0])
        >>> preset.name, preset.local
        ('offline', True)
    """
    url = _norm(client.base_url)
    for preset in PROVIDERS.values():
        if _norm(preset.base_url) == url:
            return preset
    if url in _PRESET_AT:  # a preset that make_client pointed at OPENAI_BASE_URL
        return _PRESET_AT[url]
    # Anything else is some OpenAI-compatible server: assume both APIs and let the server decide; the rest is
    # not confirmed, so a lesson that needs it says so instead of failing on a 404.
    return Provider(name="custom", base_url=url, key_env="OPENAI_API_KEY", default_model="",
                    capabilities=caps(responses=True, stored_state=None, conversations=None, files_batch=None,
                                      hosted_tools=None, streaming=None, tool_choice=None),
                    local=_is_local_url(url))


def require_api(client, flavour: str) -> Provider:
    """Stop with a clear ProviderError if the client's provider lacks an API flavour; else return it.

    flavour: "responses" or "chat".

    Example:
        >>> require_api(make_client("offline", verbose=False)[0], "responses").name
        'offline'
        >>> import openai
        >>> require_api(openai.OpenAI(base_url=PROVIDERS["gemini"].base_url, api_key="x"), "responses")
        Traceback (most recent call last):
        helpers.setup.errors.ProviderError: This lesson calls the Responses API (client.responses.create), and Google
        Gemini has no Responses API: it offers Chat Completions only. ...
    """
    if flavour not in ("responses", "chat"):
        raise ValueError(f"flavour must be 'responses' or 'chat', not {flavour!r}")
    preset = provider_of(client)
    if flavour == "responses" and not preset.responses_api:
        # Name the API, not the model: any model of this provider would fail the same way.
        pretty = PRETTY_NAMES.get(preset.name, preset.name)
        with_responses = ", ".join(name for name, p in PROVIDERS.items() if p.responses_api and name != "replay")
        raise ProviderError(f"This lesson calls the Responses API (client.responses.create), and {pretty} has no "
                            f"Responses API: it offers Chat Completions only. Set LLM_PROVIDER to one with the "
                            f"Responses API ({with_responses}) in .env and restart the kernel, or go on with "
                            f"{CHAT_LESSON}, which uses Chat Completions.")
    return preset


def with_responses_api(client, model: str, *, verbose: bool = True, **options):
    """`(client, model)` for a lesson written with the Responses API: the same pair when the provider has it;
    else, after one line saying what is missing on which provider and what to use instead, the offline model's
    client and model, so the lesson goes on (on rules, not on your model) instead of stopping at its first cell.
    `options` go to make_client for the offline model (context_window=, as lesson 15 sets it).

    Example:
        >>> client, model = with_responses_api(*make_client("offline", verbose=False))
        >>> model
        'offline-rules-v1'
        >>> import openai
        >>> _, model = with_responses_api(openai.OpenAI(base_url=PROVIDERS["gemini"].base_url, api_key="x"), "gemini-3.8-flash")
        Google Gemini has no Responses API, which this lesson calls: it runs on the offline model instead. ...
        >>> model
        'offline-rules-v1'
    """
    preset = provider_of(client)
    if preset.responses_api:
        return client, model
    if verbose:
        pretty = PRETTY_NAMES.get(preset.name, preset.name)
        print(f"{pretty} has no Responses API, which this lesson calls: it runs on the offline model instead. "
              f"{CHAT_LESSON} does the same with Chat Completions on {pretty}.")
    return make_client("offline", verbose=False, **options)
