"""Check a student's LLM setup and say how to fix each problem: `python -m helpers doctor`.

Checks, in order: the `.env` file (found, and where), the chosen provider (a retired one gets one message
saying when it went and what to use instead), the APIs it has (the capability table of
helpers.setup.providers), its free limits and notes, its key (shown only as "set" or "missing"), whether the provider
answers `GET /models` within a few seconds, whether the model is in that list, the course FAQ (FAQ_ARCHIVE, the
cache in data/, or where it will be downloaded from), and the openai SDK version. The offline model is checked
through its in-process transport, so the whole report works with no network.

What it leaves out on purpose: sending a real prompt (that costs money and quota), and fixing anything
itself. It only reports; every failure comes with the one thing to do next.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import openai

from helpers import llm
from helpers.capabilities import capability_table

PING_TIMEOUT_S = 5.0  # a healthy API answers GET /models in well under a second
MAX_MODELS_SHOWN = 8
NOTES_WIDTH = 96  # a provider's notes are wrapped to this width under their check


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report. status is "ok", "warn" (works, but note this) or "fail".

    Example:
        >>> Check("openai SDK", "ok", "3.57.0 (course needs >= 3.0)").ok, Check("model", "fail",
        ...     "not listed").ok
        (True, False)
    """

    name: str
    status: str
    detail: str
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.status != "fail"


def _version_tuple(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _model_ids(client, preset: llm.Provider) -> list[str]:
    fast = client.with_options(timeout=PING_TIMEOUT_S, max_retries=0)
    if preset.models_url:
        # A provider whose catalog lives outside its inference base URL, maybe as a plain JSON list.
        data = fast.get(preset.models_url, cast_to=object)
        items = data.get("data", []) if isinstance(data, dict) else data
        return [m.get("id", "") for m in items if isinstance(m, dict)]
    return [m.id for m in fast.models.list().data]


def _sdk_check() -> Check:
    have = openai.__version__
    if _version_tuple(have) >= _version_tuple(llm.MIN_OPENAI_SDK):
        return Check("openai SDK", "ok", f"{have} (course needs >= {llm.MIN_OPENAI_SDK})")
    return Check("openai SDK", "fail", f"{have} is older than the course needs ({llm.MIN_OPENAI_SDK})",
                 f"run: pip install -U 'openai>={llm.MIN_OPENAI_SDK}'  (or: pip install -r requirements.txt)")


def _replay_checks(s: llm.Settings) -> list[Check]:
    from helpers.apis.cassette import CassetteError, load_cassette

    try:
        entries = load_cassette(s.cassette or "")  # resolve() sets it for the replay provider
    except CassetteError as err:
        return [Check("cassette", "fail", str(err).split(". ")[0], "fix LLM_CASSETTE, or record a run first "
                      "with LLM_RECORD=path on a real provider")]
    models = sorted({e["request"]["body"]["model"] for e in entries
                     if isinstance(e["request"].get("body"), dict) and "model" in e["request"]["body"]})
    checks = [Check("cassette", "ok", f"{s.cassette}: {len(entries)} recorded requests")]
    if s.model in models or not models:
        checks.append(Check("model", "ok", f"{s.model} (as recorded)"))
    else:
        checks.append(Check("model", "fail", f"{s.model} was never used in this cassette (it has: "
                            f"{', '.join(models)})", f"unset LLM_MODEL, or set LLM_MODEL={models[0]}"))
    return checks


def _faq_check() -> Check:
    """Where the course FAQ will come from: FAQ_ARCHIVE (checked now: a file of the pinned commit), the cache in
    data/, or a download on first use."""
    from helpers.ingest import ARCHIVE_URL, CACHE_PATH, FaqDataError, parse_archive
    from helpers.setup.env import repo_path, setting

    get = f"download {ARCHIVE_URL} (on any machine with internet), then set FAQ_ARCHIVE=/path/to/that.zip in .env"
    archive = setting("FAQ_ARCHIVE")
    if archive:
        try:
            documents = parse_archive(repo_path(archive))
        except FaqDataError as err:
            return Check("FAQ", "fail", textwrap.fill(f"FAQ_ARCHIVE={archive}: " + str(err).split(". ")[0] + ".",
                                                      NOTES_WIDTH), f"{get}, or unset FAQ_ARCHIVE")
        return Check("FAQ", "ok", f"FAQ_ARCHIVE={archive}: the pinned archive, {len(documents)} entries")
    if CACHE_PATH.exists():
        return Check("FAQ", "ok", f"cached in {CACHE_PATH.relative_to(llm.ROOT)}")
    return Check("FAQ", "warn", "not downloaded yet: the first lesson downloads it once (needs internet)",
                 f"offline? {get}")


def doctor(env_file=None) -> list[Check]:
    """Run every check and return the results, failures included (it never raises for setup problems).

    Example: (on the offline model, as `make test` runs it; the first check, .env, depends on your folder)
        >>> [(c.name, c.status) for c in doctor()][1:]  # doctest: +NORMALIZE_WHITESPACE
        [('provider', 'ok'), ('capabilities', 'ok'), ('API key', 'ok'), ('reachable', 'ok'), ('model', 'ok'),
         ('FAQ', 'ok'), ('openai SDK', 'ok')]
    """
    # The FAQ and SDK checks come last, whatever stopped the others: neither depends on the provider.
    return _setup_checks(env_file) + [_faq_check(), _sdk_check()]


def _setup_checks(env_file) -> list[Check]:
    checks = []
    try:
        env_path = llm.load_env(env_file)
    except llm.ProviderError as err:
        return [Check(".env file", "fail", str(err).split(". ")[0] + ".", "copy .env.example to .env")]
    if env_path:
        checks.append(Check(".env file", "ok", f"found at {env_path}"))
    else:
        checks.append(Check(".env file", "warn", "none found in this folder or its parents (fine for the "
                            "offline model)", "to use a real provider: cp .env.example .env, then edit it"))

    try:
        s = llm.resolve(env_file=env_file, require_key=False)
    except llm.ProviderError as err:
        if "was retired on" in str(err):  # the whole message is the point: when, what it answers, what instead
            old_keys = " and ".join(r.key_env for r in llm.RETIRED.values())
            return checks + [Check("provider", "fail", textwrap.fill(str(err), NOTES_WIDTH),
                                   "set LLM_PROVIDER=offline (no key), groq or gemini (free keys) in .env, and "
                                   f"delete {old_keys} from it")]
        return checks + [Check("provider", "fail", str(err).split(". ")[0] + ".",
                               "set LLM_PROVIDER to one of: " + ", ".join(llm.CHOICES))]
    p = s.provider
    apis = "Responses API and Chat Completions" if p.responses_api else "Chat Completions only"
    checks.append(Check("provider", "ok", f"{p.name}, model {s.model} (chosen because {s.reason}); {apis}"))
    # What a lesson may use on this provider; a cell that needs a missing one says so and goes on.
    checks.append(Check("capabilities", "ok", capability_table(p)))
    if p.notes:
        # What the preset's sources say a student should know (free limits, beta APIs, old model names).
        notes = textwrap.fill(" ".join(part for part in (f"free: {p.free}." if p.free else "", p.notes) if part),
                              NOTES_WIDTH)
        if p.facts:
            dates = sorted({fact.checked for fact in p.facts})
            when = dates[-1] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
            notes += "\n" + textwrap.fill(f"(checked {when}; sources in helpers/setup/providers.py, "
                                          f"PROVIDERS[{p.name!r}].facts)", NOTES_WIDTH)
        checks.append(Check("notes", "warn", notes))
    if not p.key_env:
        checks.append(Check("API key", "ok", f"not needed for {p.name}"))
    elif s.api_key:
        # Only ever say whether the key is set; its value must never reach the screen.
        checks.append(Check("API key", "ok", f"{p.key_env} is set"))
    else:
        where = s.env_path or ".env (cp .env.example .env)"
        return checks + [Check("API key", "fail", f"{p.key_env} is missing",
                               f"{p.key_help}; then add {p.key_env}=... to {where}")]

    if p.name == "replay":
        return checks + _replay_checks(s)

    try:
        client, model = llm.make_client(env_file=env_file, verbose=False)
        ids = _model_ids(client, p)
    except openai.AuthenticationError:
        return checks + [Check("reachable", "fail", f"{s.base_url} refused the key in {p.key_env} (401)",
                               f"the key is wrong or revoked: {p.key_help}")]
    except openai.APIStatusError as err:
        return checks + [Check("reachable", "fail", f"{s.base_url} answered GET /models with HTTP "
                               f"{err.status_code}", "check OPENAI_BASE_URL and the provider's status page; "
                               "or set LLM_PROVIDER=offline")]
    except llm.ProviderError as err:  # e.g. the offline model failed to load
        return checks + [Check("reachable", "fail", str(err).split(". ")[0] + ".", str(err))]
    except openai.APIConnectionError as err:
        hint = ("start it with `ollama serve`" if p.name == "ollama"
                else "check your internet connection, proxy and OPENAI_BASE_URL")
        return checks + [Check("reachable", "fail", f"no answer from {s.base_url} within "
                               f"{PING_TIMEOUT_S:.0f}s ({type(err).__name__})",
                               f"{hint}; or set LLM_PROVIDER=offline")]
    how = "in-process, no network" if p.name == "offline" else f"{len(ids)} models"
    checks.append(Check("reachable", "ok", f"{s.base_url} answered GET /models ({how})"))
    if model in ids:
        checks.append(Check("model", "ok", f"{model} is listed"))
    else:
        shown = ", ".join(ids[:MAX_MODELS_SHOWN]) + (", ..." if len(ids) > MAX_MODELS_SHOWN else "")
        fix = f"set LLM_MODEL to one of: {shown}" if ids else "set LLM_MODEL to a model your account can use"
        if p.name == "ollama":
            fix = f"run `ollama pull {model}`, or {fix}"
        checks.append(Check("model", "fail", f"{model} is not in the provider's model list", fix))
    return checks


def format_report(checks: list[Check]) -> str:
    """The checks as aligned text, one line each, with a "fix:" line under each problem.

    Example:
        >>> print(format_report([Check("API key", "ok", "not needed for offline"),
        ...                      Check("model", "fail", "gpt-9 is not listed", "set LLM_MODEL=gpt-5.4-mini")]))
          ok    API key  not needed for offline
          FAIL  model    gpt-9 is not listed
                         fix: set LLM_MODEL=gpt-5.4-mini
        1 problem(s): model.
    """
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        first, *more = c.detail.split("\n")  # a long detail comes wrapped; its lines stay in the column
        lines.append(f"  {c.status.upper() if c.status == 'fail' else c.status:<5} {c.name:<{width}}  {first}")
        lines += [f"        {'':<{width}}  {line}" for line in more]
        if c.fix and c.status != "ok":
            lines.append(f"        {'':<{width}}  fix: {c.fix}")
    failed = [c.name for c in checks if not c.ok]
    lines.append("All checks passed." if not failed else f"{len(failed)} problem(s): {', '.join(failed)}.")
    return "\n".join(lines)


def main() -> int:
    """Print the report; return 0 when every check passed, else 1.

    Example: (on the offline model)
        >>> main()
        LLM setup check (python -m helpers doctor)
        ...
        All checks passed.
        0
    """
    checks = doctor()
    print("LLM setup check (python -m helpers doctor)")
    print(format_report(checks))
    return 0 if all(c.ok for c in checks) else 1
