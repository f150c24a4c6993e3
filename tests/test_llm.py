"""Provider selection, presets, API-flavour checks, and the rule that a key is never shown."""

import dataclasses
import logging

import httpx
import openai
import pytest

from helpers import llm
from helpers.offline import OFFLINE_BASE_URL, OFFLINE_MODEL, OfflineTransport

KEYS = ["OPENAI_API_KEY", "GROQ_API_KEY", "GEMINI_API_KEY", "HF_TOKEN", "DEEPSEEK_API_KEY"]
RETIRED_KEY = llm.RETIRED["github"].key_env  # the only place the old provider's key is named in these tests
SETTINGS = ["LLM_PROVIDER", "LLM_MODEL", "OPENAI_BASE_URL", *KEYS, RETIRED_KEY, "LLM_RECORD", "LLM_CASSETTE",
            "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"]
SECRET = "sk-" + "test-DO-NOT-SHOW-0123456789abcdef"  # split so no scanner mistakes it for a key


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No provider settings, and a working folder with no .env above it (tmp_path, not the repo)."""
    for name in SETTINGS:
        # setenv first so monkeypatch remembers to remove whatever load_dotenv adds later.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_nothing_set_gives_offline_and_says_how_to_switch(clean_env, capsys):
    client, model = llm.make_client()
    out = capsys.readouterr().out
    assert model == OFFLINE_MODEL
    assert llm.provider_of(client).name == "offline"
    assert out.count("\n") == 1  # exactly one line
    assert "offline" in out and "OPENAI_API_KEY" in out and ".env.example" in out
    assert client.responses.create(model=model, input="hello").model == OFFLINE_MODEL


def test_openai_key_in_dotenv_selects_openai_without_showing_key(clean_env, capsys):
    (clean_env / ".env").write_text(f"OPENAI_API_KEY={SECRET}\n")
    client, model = llm.make_client()
    out = capsys.readouterr().out
    assert model == "gpt-5.4-mini"
    assert llm.provider_of(client).name == "openai"
    assert "openai" in out and SECRET not in out
    assert client.max_retries == llm.MAX_RETRIES == 3


def test_dotenv_is_found_from_a_subfolder(clean_env, monkeypatch, capsys):
    (clean_env / ".env").write_text("LLM_PROVIDER=offline\nLLM_MODEL=from-dotenv\n")
    sub = clean_env / "notebooks"
    sub.mkdir()
    monkeypatch.chdir(sub)
    _, model = llm.make_client(verbose=False)
    assert model == "from-dotenv"
    assert capsys.readouterr().out == ""  # verbose=False prints nothing


def test_shell_variables_beat_dotenv(clean_env, monkeypatch):
    (clean_env / ".env").write_text(f"LLM_PROVIDER=openai\nOPENAI_API_KEY={SECRET}\n")
    monkeypatch.setenv("LLM_PROVIDER", "offline")  # what `make test` does
    client, _ = llm.make_client(verbose=False)
    assert llm.provider_of(client).name == "offline"


def test_explicit_env_file_and_missing_env_file(clean_env, tmp_path):
    env = tmp_path / "custom.env"
    env.write_text("LLM_MODEL=custom-model\n")
    assert llm.make_client("offline", env_file=env, verbose=False)[1] == "custom-model"
    with pytest.raises(llm.ProviderError, match="does not exist"):
        llm.make_client(env_file=tmp_path / "nope.env")


def test_llm_model_and_base_url_are_honoured(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("LLM_MODEL", "gpt-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://proxy.example.com/v1/")
    client, model = llm.make_client()
    assert model == "gpt-test"
    assert str(client.base_url).rstrip("/") == "https://proxy.example.com/v1"
    assert "https://proxy.example.com/v1" in capsys.readouterr().out
    # The preset make_client chose keeps its capabilities behind the proxy; a client nobody made is "custom".
    preset = llm.provider_of(client)
    assert (preset.name, preset.base_url) == ("openai", "https://proxy.example.com/v1")
    assert llm.provider_of(openai.OpenAI(base_url="https://other.example.com/v1", api_key="x")).name == "custom"


@pytest.mark.parametrize("name,var,hint", [
    ("openai", "OPENAI_API_KEY", "platform.openai.com"),
    ("groq", "GROQ_API_KEY", "console.groq.com"),
    ("deepseek", "DEEPSEEK_API_KEY", "platform.deepseek.com"),
    ("gemini", "GEMINI_API_KEY", "aistudio.google.com"),
    ("huggingface", "HF_TOKEN", "Inference Providers"),
])
def test_missing_key_names_the_variable_and_where_to_get_it(clean_env, name, var, hint):
    with pytest.raises(llm.ProviderError) as info:
        llm.make_client(name)
    message = str(info.value)
    assert var in message and hint in message and "LLM_PROVIDER=offline" in message


def test_a_retired_provider_gets_one_message_from_make_client(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "github")
    monkeypatch.setenv(RETIRED_KEY, SECRET)  # even with its old key set
    with pytest.raises(llm.ProviderError) as info:
        llm.make_client()
    message = str(info.value)
    assert "retired on 2026-07-30" in message and "410" in message and "groq" in message
    assert "offline" in message and SECRET not in message
    # In a notebook IPython shows only this one line instead of a traceback.
    assert info.value._render_traceback_() == [f"ProviderError: {message}"]
    with pytest.raises(llm.ProviderError, match="retired on 2026-07-30"):
        llm.make_client("github", verbose=False)


def test_a_dotenv_with_only_the_retired_key_gets_the_same_message(clean_env):
    (clean_env / ".env").write_text(f"{RETIRED_KEY}={SECRET}\n")
    with pytest.raises(llm.ProviderError) as info:
        llm.make_client()
    message = str(info.value)
    assert f"sets {RETIRED_KEY} and no LLM_PROVIDER" in message and "retired on 2026-07-30" in message
    assert SECRET not in message


def test_the_retired_key_in_the_shell_alone_changes_nothing(clean_env, monkeypatch, capsys):
    # Codespaces and GitHub Actions set it in every shell: that is no sign of the old set-up.
    monkeypatch.setenv(RETIRED_KEY, SECRET)
    client, model = llm.make_client()
    assert model == OFFLINE_MODEL and "offline model" in capsys.readouterr().out
    (clean_env / ".env").write_text(f"{RETIRED_KEY}=\nLLM_PROVIDER=\n")  # .env.example's blank line, copied
    assert llm.make_client(verbose=False)[1] == OFFLINE_MODEL
    (clean_env / ".env").write_text(f"{RETIRED_KEY}={SECRET}\nOPENAI_API_KEY={SECRET}\n")
    assert llm.resolve().provider.name == "openai"  # a real key still decides


def test_unknown_provider_lists_the_choices(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "antrhopic")
    with pytest.raises(llm.ProviderError, match="openai, groq"):
        llm.make_client()


def test_presets_are_frozen_and_complete():
    assert set(llm.PROVIDERS) == {"openai", "groq", "gemini", "huggingface", "deepseek", "ollama", "offline",
                                  "replay"}
    for p in llm.PROVIDERS.values():
        assert p.base_url.startswith("http") and p.default_model
        assert p.key_env is None or p.key_help
        assert list(p.capabilities) == list(llm.CAPABILITIES)  # every preset says yes, no or "not confirmed"
        assert all(value in (True, False, None) for value in p.capabilities.values())
        assert p.free, p.name  # what it costs a student, even if "none"
    assert llm.PROVIDERS["offline"].base_url == OFFLINE_BASE_URL
    assert not llm.PROVIDERS["gemini"].responses_api  # the only Chat-Completions-only preset
    assert [n for n, p in llm.PROVIDERS.items() if not p.responses_api] == ["gemini"]
    assert llm.PROVIDERS["deepseek"].responses_api and llm.PROVIDERS["groq"].responses_api
    assert llm.PROVIDERS["offline"].local
    with pytest.raises(dataclasses.FrozenInstanceError):
        llm.PROVIDERS["openai"].base_url = "http://elsewhere"
    with pytest.raises(TypeError):
        llm.PROVIDERS["openai"].capabilities["files_batch"] = False  # ty: ignore[invalid-assignment]
    assert len(set(llm.PROVIDERS.values())) == len(llm.PROVIDERS)  # presets stay hashable


@pytest.mark.parametrize("name", ["openai", "groq", "gemini", "huggingface", "deepseek", "ollama", "offline"])
def test_provider_of_recognises_each_preset(clean_env, monkeypatch, name):
    for var in KEYS:
        monkeypatch.setenv(var, SECRET)
    client, model = llm.make_client(name, verbose=False)  # builds a client; sends nothing
    assert llm.provider_of(client) is llm.PROVIDERS[name]
    assert model == llm.PROVIDERS[name].default_model


def test_require_api_names_the_missing_api_not_the_model(clean_env, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    client, model = llm.make_client("gemini", verbose=False)
    assert llm.require_api(client, "chat").name == "gemini"
    with pytest.raises(llm.ProviderError) as info:
        llm.require_api(client, "responses")
    message = str(info.value)
    assert "Google Gemini has no Responses API" in message and "Chat Completions only" in message
    assert "offline" in message and "lesson 08" in message and "restart the kernel" in message
    assert model not in message and "LLM_MODEL" not in message  # any model would fail the same way
    # In a notebook IPython shows only this one line instead of a traceback.
    assert info.value._render_traceback_() == [f"ProviderError: {message}"]
    offline, _ = llm.make_client("offline", verbose=False)
    assert llm.require_api(offline, "responses").name == "offline"
    with pytest.raises(ValueError, match="flavour"):
        llm.require_api(offline, "completions")


def test_settings_repr_hides_the_key(clean_env, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    s = llm.resolve()
    assert SECRET not in repr(s) and "api_key=set" in repr(s)


def test_key_never_printed_logged_or_recorded(clean_env, monkeypatch, capsys, caplog, tmp_path):
    """A real-provider run (the network swapped for the offline model) must not leak the key anywhere."""
    seen_auth = []

    class Spy(OfflineTransport):
        def handle_request(self, request):
            seen_auth.append(request.headers.get("authorization"))
            return super().handle_request(request)

    # The recorder wraps httpx.HTTPTransport for real providers; hand it the offline model instead.
    monkeypatch.setattr(httpx, "HTTPTransport", lambda **kw: Spy())
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", OFFLINE_BASE_URL)
    monkeypatch.setenv("LLM_MODEL", OFFLINE_MODEL)
    monkeypatch.setenv("OPENAI_LOG", "debug")
    cassette = tmp_path / "run.jsonl"
    caplog.set_level(logging.DEBUG)
    client, model = llm.make_client(record=cassette)
    client.responses.create(model=model, input=f"hello; my key is {SECRET}")
    client.models.list()
    out, err = capsys.readouterr()
    assert seen_auth and all(SECRET in a for a in seen_auth)  # the key really was sent...
    assert SECRET not in out and SECRET not in err  # ...but never shown
    assert SECRET not in caplog.text
    text = cassette.read_text()
    assert SECRET not in text and "authorization" not in text.lower() and "[redacted]" in text


def test_deepseek_preset_follows_its_docs(clean_env, monkeypatch):
    deepseek = llm.PROVIDERS["deepseek"]
    assert deepseek.default_model == "deepseek-flash"  # deepseek-v4-flash is a legacy name now
    assert deepseek.responses_api
    assert "reasoning_content" in deepseek.notes
    monkeypatch.setenv("DEEPSEEK_API_KEY", SECRET)
    client, _ = llm.make_client("deepseek", verbose=False)
    assert llm.require_api(client, "responses") is deepseek


def test_every_preset_fact_has_a_source_and_a_date():
    for preset in [*llm.PROVIDERS.values(), *llm.RETIRED.values()]:
        for fact in preset.facts:
            assert fact.claim and fact.title, (preset.name, fact)
            assert fact.url.startswith("https://"), (preset.name, fact)
            assert fact.checked in (llm.FACTS_CHECKED, "2026-11-30"), (preset.name, fact)  # ISO dates
    assert llm.FACTS_CHECKED == "2026-12-01"
    # The providers whose claims the course relies on carry their sources.
    for name in ("openai", "groq", "gemini", "huggingface", "deepseek", "ollama"):
        assert llm.PROVIDERS[name].facts and llm.PROVIDERS[name].notes, name
    assert llm.RETIRED["github"].facts


def test_what_no_source_confirms_is_said_in_the_notes():
    for preset in llm.PROVIDERS.values():
        if None in preset.capabilities.values():
            assert "not confirmed" in preset.notes, preset.name


def test_the_defaults_follow_the_providers_pages():
    assert llm.PROVIDERS["ollama"].default_model == "qwen3"  # Ollama's tool-calling docs use the qwen3 family
    assert llm.PROVIDERS["deepseek"].default_model not in ("deepseek-chat", "deepseek-reasoner")  # retired
    assert "2026-07-24" in llm.PROVIDERS["deepseek"].notes


def test_the_openai_default_is_priced_and_the_cheaper_model_is_explained():
    from helpers.billing.prices import price_per_mtok

    openai, at = llm.PROVIDERS["openai"], "2026-12-01T12:00Z"  # the day the presets were checked
    default = price_per_mtok(openai.default_model, "openai", at=at)
    cheaper = price_per_mtok("gpt-6-luna", "openai", at=at)  # the pinned genai-prices knows both (else LookupError)
    assert (cheaper["input"], cheaper["output"]) == (0.1, 0.5)  # as OpenAI's model page says
    if cheaper["input"] < default["input"]:
        assert "gpt-6-luna" in openai.notes and "reasoning_effort" in openai.notes  # why it is not the default
