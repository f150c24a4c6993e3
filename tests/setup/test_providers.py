"""helpers.capabilities: a cell asks whether its provider has an API, and gets one line, not a 404, when it doesn't."""

import openai
import pytest

from helpers import llm
from helpers.capabilities import capability_table, supports
from helpers.setup.providers import CAPABILITIES, PROVIDERS


def lines_of(preset, capability, **kwargs):
    said = []
    answer = supports(preset, capability, say=said.append, **kwargs)
    return answer, said


@pytest.mark.parametrize("name", list(PROVIDERS))
@pytest.mark.parametrize("capability", list(CAPABILITIES))
def test_every_preset_answers_every_capability_in_one_line_at_most(name, capability):
    preset = PROVIDERS[name]
    answer, said = lines_of(preset, capability)
    assert answer is bool(preset.capabilities[capability])
    if answer:
        assert said == []
    else:
        (line,) = said  # what is missing, on which provider, what to use instead
        label, instead = CAPABILITIES[capability]
        assert label in line.lower() or label[0].upper() + label[1:] in line
        assert llm.PRETTY_NAMES[name] in line and instead in line and "\n" not in line
        assert ("not confirmed" in line) is (preset.capabilities[capability] is None)


def test_a_cell_can_say_what_it_does_instead():
    answer, said = lines_of(PROVIDERS["groq"], "files_batch", instead="this section runs on the offline model")
    assert answer is False
    assert said == ["The Files and Batch APIs (client.files, client.batches): not confirmed on Groq; instead, this "
                    "section runs on the offline model."]


def test_it_reads_the_preset_from_a_client_and_sends_nothing():
    def refuse(request):
        raise AssertionError("supports() sent a request")

    import httpx

    gemini = openai.OpenAI(api_key="unused", base_url=PROVIDERS["gemini"].base_url,
                           http_client=httpx.Client(transport=httpx.MockTransport(refuse)))
    said = []
    assert supports(gemini, "responses", say=said.append) is False
    assert said and "Google Gemini" in said[0] and "Chat Completions (lesson 08)" in said[0]
    offline, _ = llm.make_client("offline", verbose=False)
    assert supports(offline, "conversations") and not supports(offline, "hosted_tools", say=said.append)
    assert "the offline model" in said[-1]


def test_an_unknown_server_is_not_confirmed_except_for_the_two_apis():
    custom = openai.OpenAI(api_key="unused", base_url="http://localhost:9999/v1")
    said = []
    assert supports(custom, "chat") and supports(custom, "responses")
    assert not supports(custom, "files_batch", say=said.append)
    assert "not confirmed on this server (http://localhost:9999/v1)" in said[0]


def test_an_unknown_capability_names_the_known_ones():
    with pytest.raises(ValueError, match="files_batch"):
        supports(PROVIDERS["offline"], "batch")


def test_the_doctors_table_has_one_line_per_capability():
    table = capability_table(PROVIDERS["ollama"]).splitlines()
    assert len(table) == len(CAPABILITIES)
    assert [line.split()[0] for line in table] == ["yes", "yes", "no", "no", "no", "no", "yes", "not"]


def test_the_readme_table_matches_the_presets():
    from helpers import ROOT

    readme = (ROOT / "README.md").read_text()
    table = readme.split("| `LLM_PROVIDER` |")[1].split("\n\n")[0]
    for name, preset in PROVIDERS.items():
        if name == "replay":
            continue
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}`") or (
            name == "offline" and line.startswith("| *(unset")))
        assert f"`{preset.default_model}`" in row, name
        assert (preset.key_env or "—") in row, name
    assert "retired on 2026-07-30" in readme and "410" in readme


def test_the_readme_tells_an_offline_student_how_to_make_env_and_where_the_faq_is():
    from helpers import ROOT
    from helpers.ingest import ARCHIVE_URL

    readme = (ROOT / "README.md").read_text()
    offline = readme.split("Offline?")[1].split("## ")[0]
    assert ARCHIVE_URL in offline and "cp .env.example .env" in offline and "FAQ_ARCHIVE=" in offline
