"""Provider selection, presets, API-flavour checks, and the rule that a key is never shown."""

import dataclasses
import logging

import httpx
import openai
import pytest

from helpers import llm
from helpers.offline import OFFLINE_BASE_URL, OFFLINE_MODEL, OfflineTransport

SETTINGS = ["LLM_PROVIDER", "LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "GROQ_API_KEY", "DEEPSEEK_API_KEY",
            "GITHUB_TOKEN", "LLM_RECORD", "LLM_CASSETTE", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"]
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
    ("github", "GITHUB_TOKEN", "Models"),
])
def test_missing_key_names_the_variable_and_where_to_get_it(clean_env, name, var, hint):
    with pytest.raises(llm.ProviderError) as info:
        llm.make_client(name)
    message = str(info.value)
    assert var in message and hint in message and "LLM_PROVIDER=offline" in message


def test_github_key_help_explains_the_token():
    help_text = llm.PROVIDERS["github"].key_help
    assert "Fine-grained" in help_text and "'Models'" in help_text and "Read-only" in help_text


def test_unknown_provider_lists_the_choices(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "antrhopic")
    with pytest.raises(llm.ProviderError, match="openai, groq"):
        llm.make_client()


def test_presets_are_frozen_and_complete():
    assert set(llm.PROVIDERS) == {"openai", "groq", "deepseek", "github", "ollama", "offline", "replay"}
    for p in llm.PROVIDERS.values():
        assert p.base_url.startswith("http") and p.default_model
        assert p.key_env is None or p.key_help
    assert llm.PROVIDERS["offline"].base_url == OFFLINE_BASE_URL
    assert not llm.PROVIDERS["github"].responses_api  # the only Chat-Completions-only preset
    assert llm.PROVIDERS["deepseek"].responses_api and llm.PROVIDERS["groq"].responses_api
    assert llm.PROVIDERS["offline"].local
    with pytest.raises(dataclasses.FrozenInstanceError):
        llm.PROVIDERS["openai"].base_url = "http://elsewhere"


@pytest.mark.parametrize("name", ["openai", "groq", "deepseek", "github", "ollama", "offline"])
def test_provider_of_recognises_each_preset(clean_env, monkeypatch, name):
    for var in ("OPENAI_API_KEY", "GROQ_API_KEY", "DEEPSEEK_API_KEY", "GITHUB_TOKEN"):
        monkeypatch.setenv(var, SECRET)
    client, model = llm.make_client(name, verbose=False)  # builds a client; sends nothing
    assert llm.provider_of(client) is llm.PROVIDERS[name]
    assert model == llm.PROVIDERS[name].default_model


def test_require_api_names_the_missing_api_not_the_model(clean_env, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", SECRET)
    client, model = llm.make_client("github", verbose=False)
    assert llm.require_api(client, "chat").name == "github"
    with pytest.raises(llm.ProviderError) as info:
        llm.require_api(client, "responses")
    message = str(info.value)
    assert "GitHub Models has no Responses API" in message and "Chat Completions only" in message
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
    for preset in llm.PROVIDERS.values():
        for fact in preset.facts:
            assert fact.claim and fact.title, (preset.name, fact)
            assert fact.url.startswith("https://"), (preset.name, fact)
            assert fact.checked == llm.FACTS_CHECKED == "2026-11-30"
    # The providers whose claims the course relies on carry their sources.
    for name in ("groq", "deepseek", "github", "ollama"):
        assert llm.PROVIDERS[name].facts and llm.PROVIDERS[name].notes, name
