"""`python -m helpers doctor`: every check, its fix, exit codes, and never a key on screen."""

import os
import subprocess
import sys

import openai
import pytest

from helpers import doctor as doc
from helpers import llm
from helpers.__main__ import main as cli_main

SECRET = "gsk-" + "test-DO-NOT-SHOW-0123456789abcdef"  # split so no scanner mistakes it for a key
ROOT = llm.ROOT


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ["LLM_PROVIDER", "LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "GROQ_API_KEY",
                 "LLM_RECORD", "LLM_CASSETTE"]:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def by_name(checks):
    return {c.name: c for c in checks}


def test_offline_passes_every_check_without_network(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    (clean_env / ".env").write_text("# empty\n")
    checks = by_name(doc.doctor())
    assert all(c.status == "ok" for c in checks.values()), checks
    assert str(clean_env / ".env") in checks[".env file"].detail
    assert "in-process" in checks["reachable"].detail
    assert doc.main() == 0
    out = capsys.readouterr().out
    assert "All checks passed." in out and "offline-rules-v1 is listed" in out


def test_no_dotenv_is_only_a_warning(clean_env):
    checks = by_name(doc.doctor())
    assert checks[".env file"].status == "warn" and checks[".env file"].ok
    assert checks["provider"].detail.startswith("offline")


def test_missing_key_fails_with_the_fix(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("LLM_PROVIDER", "groq")
    checks = by_name(doc.doctor())
    assert checks["API key"].status == "fail" and "GROQ_API_KEY is missing" in checks["API key"].detail
    assert "console.groq.com" in checks["API key"].fix
    assert doc.main() == 1
    assert "fix:" in capsys.readouterr().out


def test_key_is_reported_as_set_never_shown(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("LLM_PROVIDER", "groq")
    (clean_env / ".env").write_text(f"GROQ_API_KEY={SECRET}\n")
    monkeypatch.setattr(doc, "_model_ids", lambda client, preset: ["openai/gpt-oss-20b"])  # no network
    checks = by_name(doc.doctor())
    assert checks["API key"].detail == "GROQ_API_KEY is set"
    assert all(c.ok for c in checks.values())
    doc.main()
    assert SECRET not in capsys.readouterr().out
    assert all(SECRET not in c.detail + c.fix for c in checks.values())


def test_unreachable_provider_says_what_to_do(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "ollama")

    def refuse(client, preset):
        raise openai.APIConnectionError(request=None)

    monkeypatch.setattr(doc, "_model_ids", refuse)
    reach = by_name(doc.doctor())["reachable"]
    assert reach.status == "fail" and "ollama serve" in reach.fix and "LLM_PROVIDER=offline" in reach.fix


def test_unlisted_model_suggests_listed_ones(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.setenv("LLM_MODEL", "gpt-nonexistent")
    check = by_name(doc.doctor())["model"]
    assert check.status == "fail" and "offline-rules-v1" in check.fix


def test_unknown_provider_is_a_failed_check(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "nonsense")
    check = by_name(doc.doctor())["provider"]
    assert check.status == "fail" and "offline" in check.fix


def test_old_sdk_fails_with_upgrade_command(clean_env, monkeypatch):
    monkeypatch.setattr(openai, "__version__", "1.50.0")
    check = by_name(doc.doctor())["openai SDK"]
    assert check.status == "fail" and "pip install" in check.fix and llm.MIN_OPENAI_SDK in check.detail


def test_replay_checks_the_cassette(clean_env, monkeypatch):
    path = clean_env / "run.jsonl"
    client, model = llm.make_client("offline", record=path, verbose=False)
    client.responses.create(model=model, input="hello")
    monkeypatch.setenv("LLM_PROVIDER", "replay")
    monkeypatch.setenv("LLM_CASSETTE", str(path))
    checks = by_name(doc.doctor())
    assert checks["cassette"].ok and "1 recorded" in checks["cassette"].detail
    assert all(c.ok for c in checks.values())
    monkeypatch.setenv("LLM_CASSETTE", str(clean_env / "missing.jsonl"))
    assert by_name(doc.doctor())["cassette"].status == "fail"


def test_cli_dispatch(capsys):
    assert cli_main(["--help"]) == 0
    assert cli_main(["frobnicate"]) == 2
    assert "doctor" in capsys.readouterr().err


def test_python_m_helpers_doctor_offline(clean_env):
    env = {**os.environ, "LLM_PROVIDER": "offline", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "helpers", "doctor"], check=False, cwd=clean_env,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "All checks passed." in run.stdout


def test_a_providers_notes_are_shown_with_their_date(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "groq")
    monkeypatch.setenv("GROQ_API_KEY", SECRET)
    monkeypatch.setattr(doc, "_model_ids", lambda client, preset: ["openai/gpt-oss-20b"])  # no network
    checks = by_name(doc.doctor())
    notes = checks["notes"]
    assert notes.status == "warn" and notes.ok  # worth reading, not a failure
    assert "beta" in notes.detail and "8K tokens a minute" in notes.detail and llm.FACTS_CHECKED in notes.detail
    # Long notes are wrapped, and every wrapped line stays in the detail column.
    lines = doc.format_report(list(checks.values())).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  warn  notes"))
    column = lines[first].index(notes.detail.split("\n")[0])
    wrapped = lines[first + 1:first + len(notes.detail.split("\n"))]
    assert len(wrapped) >= 2 and all(line[:column].strip() == "" and line[column] != " " for line in wrapped)
    assert all(len(line) <= column + doc.NOTES_WIDTH for line in lines[first:first + len(wrapped) + 1])


def test_offline_has_no_notes(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    assert "notes" not in by_name(doc.doctor())
