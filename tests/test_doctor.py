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
RETIRED_KEY = llm.RETIRED["github"].key_env
FAQ_ZIP = os.environ.get("FAQ_ARCHIVE")  # the pinned archive, as .ci/run sets it


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ["LLM_PROVIDER", "LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "GROQ_API_KEY",
                 "GEMINI_API_KEY", RETIRED_KEY, "LLM_RECORD", "LLM_CASSETTE"]:
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
    assert "notes" not in by_name(doc.doctor())  # its one limit is in the capability table


def test_a_retired_provider_is_one_failed_check_with_what_to_use(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("LLM_PROVIDER", "github")
    checks = by_name(doc.doctor())
    provider = checks["provider"]
    assert provider.status == "fail"
    assert "retired on 2026-07-30" in provider.detail and "410" in provider.detail
    assert "groq" in provider.detail and "LLM_PROVIDER=offline" in provider.fix
    assert "API key" not in checks  # nothing else about a provider that is gone
    assert doc.main() == 1
    assert "Traceback" not in capsys.readouterr().out


def test_a_dotenv_with_only_the_retired_key_fails_the_same_way(clean_env):
    (clean_env / ".env").write_text(f"{RETIRED_KEY}={SECRET}\n")
    provider = by_name(doc.doctor())["provider"]
    assert provider.status == "fail" and f"sets {RETIRED_KEY}" in provider.detail
    assert SECRET not in provider.detail + provider.fix


def test_the_capability_table_of_the_chosen_provider(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "gemini")
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    monkeypatch.setattr(doc, "_model_ids", lambda client, preset: ["gemini-3.8-flash"])  # no network
    checks = by_name(doc.doctor())
    table = checks["capabilities"].detail.splitlines()
    assert len(table) == len(llm.CAPABILITIES)
    assert table[0].startswith("no") and "Responses API" in table[0]
    assert any(line.startswith("not confirmed") and "Batch" in line for line in table)
    assert "free:" in checks["notes"].detail
    report = doc.format_report(list(checks.values()))
    assert "Chat Completions (client.chat.completions)" in report


def test_the_offline_model_reports_its_own_limit(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    table = by_name(doc.doctor())["capabilities"].detail
    assert next(line for line in table.splitlines() if "hosted tools" in line).startswith("no")


@pytest.mark.skipif(not FAQ_ZIP, reason="needs FAQ_ARCHIVE, the pinned archive (as .ci/run sets it)")
def test_the_faq_archive_is_checked(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.setenv("FAQ_ARCHIVE", FAQ_ZIP)
    check = by_name(doc.doctor())["FAQ"]
    assert check.status == "ok" and "pinned archive" in check.detail


def test_a_missing_faq_archive_fails_clearly(clean_env, monkeypatch):
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.setenv("FAQ_ARCHIVE", "/nonexistent.zip")
    check = by_name(doc.doctor())["FAQ"]
    assert check.status == "fail" and "/nonexistent.zip" in check.detail and "not a file" in check.detail
    assert "github.com/DataTalksClub/faq/archive/" in check.fix and "FAQ_ARCHIVE=" in check.fix
    assert doc.main() == 1


def test_an_archive_of_another_commit_fails(clean_env, monkeypatch):
    import io
    import zipfile

    other = clean_env / "faq-main.zip"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("faq-main/README.md", "not the pinned commit")
    other.write_bytes(buf.getvalue())
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.setenv("FAQ_ARCHIVE", str(other))
    check = by_name(doc.doctor())["FAQ"]
    assert check.status == "fail" and "faq-main.zip" in check.detail


def test_no_faq_yet_is_a_warning_with_the_download_address(clean_env, monkeypatch, tmp_path):
    import helpers.ingest

    monkeypatch.setenv("LLM_PROVIDER", "offline")
    monkeypatch.delenv("FAQ_ARCHIVE", raising=False)
    monkeypatch.setattr(helpers.ingest, "CACHE_PATH", tmp_path / "no-cache.json")
    check = by_name(doc.doctor())["FAQ"]
    assert check.status == "warn" and check.ok
    assert helpers.ingest.ARCHIVE_URL in check.fix


def test_python_m_helpers_doctor_on_the_retired_provider_prints_no_traceback(clean_env):
    env = {**os.environ, "LLM_PROVIDER": "github", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "helpers", "doctor"], check=False, cwd=clean_env,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert "retired on 2026-07-30" in run.stdout and "Traceback" not in run.stdout + run.stderr
