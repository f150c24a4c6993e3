"""helpers.setup.env: every variable of .env.example works from .env alone, the shell wins, paths start at the root."""

import os
import re
from pathlib import Path

import pytest

from helpers import ROOT, llm
from helpers.setup import env

ENV_EXAMPLE = ROOT / ".env.example"


@pytest.fixture
def folder(tmp_path, monkeypatch, restore_environ):
    """A working folder with no .env above it, and none of .env.example's variables in the shell."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for name in documented_variables():
        os.environ.pop(name, None)
    return work


def documented_variables() -> list[str]:
    return re.findall(r"^([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), re.M)


def test_setting_reads_dotenv_without_a_client(folder):
    (folder / ".env").write_text("FAQ_ARCHIVE=faq.zip\nLLM_MODEL=  \n")
    assert env.setting("FAQ_ARCHIVE") == "faq.zip"
    assert env.setting("LLM_MODEL") is None  # blank counts as unset
    assert env.setting("NOT_IN_ANY_FILE") is None


def test_the_shell_wins_over_dotenv(folder):
    (folder / ".env").write_text("FAQ_ARCHIVE=from-dotenv.zip\n")
    os.environ["FAQ_ARCHIVE"] = "from-shell.zip"
    assert env.setting("FAQ_ARCHIVE") == "from-shell.zip"


def test_a_variable_set_empty_in_the_shell_stays_unset(folder):
    # How `make test` forces the offline model: LLM_MODEL= on the command line beats .env.
    (folder / ".env").write_text("LLM_MODEL=gpt-from-dotenv\n")
    os.environ["LLM_MODEL"] = ""
    assert env.setting("LLM_MODEL") is None


def test_dotenv_is_found_from_a_subfolder_like_notebooks(folder, monkeypatch):
    (folder / ".env").write_text("FAQ_ARCHIVE=x.zip\n")
    (folder / "notebooks").mkdir()
    monkeypatch.chdir(folder / "notebooks")
    assert env.load_env() == str((folder / ".env").resolve())
    assert env.setting("FAQ_ARCHIVE") == "x.zip"


def test_a_named_env_file_must_exist(folder):
    with pytest.raises(FileNotFoundError, match="does not exist. Copy .env.example"):
        env.load_env(folder / "nope.env")
    with pytest.raises(llm.ProviderError, match="does not exist"):  # the same message, as a setup error
        llm.load_env(folder / "nope.env")


def test_repo_path_takes_relative_paths_from_the_root_and_expands_tilde(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert env.repo_path("data/x.zip") == ROOT / "data" / "x.zip"
    assert env.repo_path("~/x.zip") == tmp_path / "x.zip"
    assert env.repo_path(tmp_path / "abs.zip") == tmp_path / "abs.zip"


def test_llm_record_and_llm_cassette_work_from_dotenv_alone(folder, capsys):
    cassette = folder / "cassettes" / "run.jsonl"
    (folder / ".env").write_text(f"LLM_PROVIDER=offline\nLLM_RECORD={cassette}\n")
    client, model = llm.make_client()
    recorded = client.responses.create(model=model, input="How do I run Ollama locally?").output_text
    assert f"recording to {cassette}" in capsys.readouterr().out
    assert len(cassette.read_text().splitlines()) == 1

    # A new session: only .env changes, to replay what was recorded.
    for name in documented_variables():
        os.environ.pop(name, None)
    (folder / ".env").write_text(f"LLM_PROVIDER=replay\nLLM_CASSETTE={cassette}\n")
    client, model = llm.make_client(verbose=False)
    assert llm.provider_of(client).name == "replay"
    assert client.responses.create(model=model, input="How do I run Ollama locally?").output_text == recorded


def test_no_helper_reads_a_documented_variable_straight_from_os_environ():
    """A direct os.environ read misses a value that is only in .env (unless a client happened to load it
    first): every helper goes through helpers.setup.env.setting, or llm's resolve(), which loads .env itself."""
    names = "|".join(documented_variables())
    direct = re.compile(rf"""(os\.environ\.get|os\.getenv|os\.environ\[)\(?\s*["']({names})["']""")
    offenders = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in sorted((ROOT / "helpers").rglob("*.py"))
                 for m in direct.finditer(p.read_text())]
    assert not offenders, offenders


def test_env_module_imports_without_the_sdk():
    # ingest (lesson 01) reads FAQ_ARCHIVE through helpers.setup.env; that must not drag in openai.
    import subprocess
    import sys

    code = "import sys, helpers.setup.env; sys.exit('openai' in sys.modules or 'dotenv' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_paths_from_env_helpers_are_absolute():
    assert Path(llm._data_path("data/cassettes/a.jsonl")).is_absolute()


def test_env_example_names_every_presets_key_and_no_retired_one():
    documented = set(documented_variables())
    keys = {p.key_env for p in llm.PROVIDERS.values() if p.key_env}
    assert keys <= documented, keys - documented
    assert not {r.key_env for r in llm.RETIRED.values()} & documented  # a retired provider's key is not a setting
    text = ENV_EXAMPLE.read_text()
    for name, preset in llm.PROVIDERS.items():
        if name != "replay":
            assert name in text.split("LLM_PROVIDER=")[0], name  # listed among the choices
        if preset.key_env:
            assert f"{name}: {preset.default_model}" in text, name  # the defaults line matches the presets


def test_env_example_gives_the_faq_archives_address():
    from helpers.ingest import ARCHIVE_URL

    assert ARCHIVE_URL in ENV_EXAMPLE.read_text()
