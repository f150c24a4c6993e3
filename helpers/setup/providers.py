"""The providers the course knows: where each lives, which key it needs, which API flavours it speaks, and why.

Each preset is a `Provider`: base URL, key variable, default model, whether it serves the Responses API or
only Chat Completions, whether it runs locally (and so costs nothing), where to get a key, and what a student
should know before using it (`notes`, which the doctor prints). The claims a preset rests on are `facts`,
each with its source and the date it was checked (FACTS_CHECKED), because providers change names, prices and
limits often, and a claim with its source can be checked again in a minute.

What it leaves out: choosing a provider and building the client (helpers.llm, which re-exports these names,
so `from helpers.llm import PROVIDERS` keeps working), and anything a source does not say.
"""

from __future__ import annotations

from dataclasses import dataclass

# The one definition of the offline model's name and address; its constants module imports nothing.
from helpers.offline.constants import OFFLINE_BASE_URL, OFFLINE_MODEL

REPLAY_BASE_URL = "http://replay.invalid/v1"  # .invalid is a reserved name: it can never reach a network
FACTS_CHECKED = "2026-11-30"  # the day the presets' facts were last checked against the sources below


@dataclass(frozen=True)
class Fact:
    """One documented fact behind a preset: the claim, where it is written, and the day it was checked.

    Providers change names, prices and limits often; a fact with its source can be checked again in a minute.
    Example:
        >>> Fact("Chat Completions only", "https://docs.github.com/en/rest/models/inference",
        ...     "GitHub Docs").checked
        '2026-11-30'
    """

    claim: str
    url: str
    title: str
    checked: str = FACTS_CHECKED


@dataclass(frozen=True)
class Provider:
    """One provider preset: where it lives, which key it needs, and which API flavours it speaks.

    `notes` is what a student should know before using it (the doctor prints it); `facts` are the documented
    claims the preset rests on, each with its source and the date it was checked.
    Example:
        >>> PROVIDERS["groq"].base_url, PROVIDERS["groq"].key_env, PROVIDERS["groq"].responses_api
        ('https://api.groq.com/openai/v1', 'GROQ_API_KEY', True)
    """

    name: str
    base_url: str
    key_env: str | None  # None: no key needed
    default_model: str
    responses_api: bool  # False: Chat Completions only
    local: bool  # True: runs on this machine, costs nothing
    key_help: str = ""  # where to get a key
    models_url: str | None = None  # where to list models, when it is not base_url + "/models"
    notes: str = ""
    facts: tuple[Fact, ...] = ()


# Base URLs and API support checked against each provider's own documentation; each preset's `facts` name the
# source and the date (FACTS_CHECKED). Only what a source says is written here.
PROVIDERS: dict[str, Provider] = {
    p.name: p
    for p in [
        Provider(name="openai", base_url="https://api.openai.com/v1", key_env="OPENAI_API_KEY",
                 default_model="gpt-5.4-mini", responses_api=True, local=False,
                 key_help="create one at https://platform.openai.com/api-keys (needs a paid balance)"),
        Provider(
            name="groq", base_url="https://api.groq.com/openai/v1", key_env="GROQ_API_KEY",
            default_model="openai/gpt-oss-20b", responses_api=True, local=False,
            key_help="create a free one at https://console.groq.com/keys",
            notes=("Responses API in beta, stateless (the lessons send the whole history anyway); free tier on "
                   "openai/gpt-oss-20b: 30 requests and 8K tokens a minute, 1K requests and 200K tokens a day, so "
                   "a loop that re-sends a growing history can hit the per-minute limit: the SDK waits and retries, "
                   "and if a run still stops on a rate limit, wait a minute and run it again"),
            facts=(
                Fact("the Responses API is in beta and doesn't keep conversation state",
                     "https://console.groq.com/docs/responses-api", "GroqDocs: Responses API"),
                Fact("Free Plan, openai/gpt-oss-20b: 30 RPM, 1K RPD, 8K TPM, 200K TPD",
                     "https://console.groq.com/docs/rate-limits", "GroqDocs: Rate Limits (its table as copied in "
                     "github.com/hassankhan2510/redditautomation, reference.md)"),
            ),
        ),
        Provider(
            name="deepseek", base_url="https://api.deepseek.com", key_env="DEEPSEEK_API_KEY",
            default_model="deepseek-flash",
            responses_api=True,  # stateless; the lessons send the whole history anyway
            local=False, key_help="create one at https://platform.deepseek.com/api_keys (needs a small top-up)",
            notes=("thinking mode is on by default: on Chat Completions an assistant message with tool_calls must "
                   "go back with its reasoning_content, or the next call fails with 400 (helpers.loop and lesson "
                   "08's loop keep it); deepseek-v4-flash and deepseek-chat are old names, and genai-prices still "
                   "prices deepseek-chat at the old V3 rates, so use deepseek-flash"),
            facts=(
                Fact("model name deepseek-flash; deepseek-v4-flash is a legacy name served by the same model",
                     "https://api-docs.deepseek.com/quick_start/your_first_api_call",
                     "DeepSeek API Docs: Your First API Call"),
                Fact("the Responses API is supported at https://api.deepseek.com; its output items include "
                     "function_call", "https://api-docs.deepseek.com/guides/responses_api",
                     "DeepSeek API Docs: Using the Responses API"),
                Fact("DeepSeek's Responses API is stateless: store, previous_response_id and retrieval are not "
                     "supported", "https://docs.rs/openai-interface/0.12.0/openai_interface/responses/index.html",
                     "openai-interface (Rust crate) docs, summarising DeepSeek's guide"),
                Fact("thinking mode is enabled by default; after a tool call, reasoning_content must be passed back "
                     "in every later request, or the API answers 400",
                     "https://api-docs.deepseek.com/guides/thinking_mode", "DeepSeek API Docs: Thinking Mode"),
                Fact("genai-prices 0.2.3 prices deepseek-chat at $0.27/$1.10 per million tokens (the V3 rates) and "
                     "knows deepseek-flash", "https://pypi.org/project/genai-prices/",
                     "genai-prices 0.2.3 (its bundled price data, read with calc_price)"),
            ),
        ),
        Provider(
            name="github", base_url="https://models.github.ai/inference", key_env="GITHUB_TOKEN",
            default_model="openai/gpt-4.1-mini", responses_api=False, local=False,
            key_help=("on GitHub open Settings > Developer settings > Personal access tokens > Fine-grained "
                      "tokens > Generate new token, and under Account permissions set 'Models' to Read-only "
                      "(https://github.com/settings/personal-access-tokens/new); free, with daily rate limits"),
            models_url="https://models.github.ai/catalog/models",
            notes=("Chat Completions only: lessons 08 to 10 and homework 05's first two tasks run on it; lessons "
                   "02 to 07 need the Responses API. OpenAI's own API retires gpt-4.1-mini on 2027-01-14; GitHub "
                   "Models has its own schedule: once the model is no longer listed, set LLM_MODEL to one that is"),
            facts=(
                Fact("the inference API is POST /inference/chat/completions (no Responses API)",
                     "https://docs.github.com/en/rest/models/inference", "GitHub Docs: REST API endpoints for models "
                     "inference"),
                Fact("third-party copies of OpenAI's deprecations page give 2027-01-14 as the API shutdown of "
                     "gpt-4o-mini and gpt-4.1-mini (the official page could not be read that far; recheck it)",
                     "https://developers.openai.com/api/docs/deprecations", "OpenAI API: Deprecations, as copied "
                     "by codersera.com/blog/gpt-4o-gpt-4-1-api-shutdown-migration-2026"),
            ),
        ),
        Provider(
            name="ollama", base_url="http://localhost:11434/v1", key_env=None, default_model="llama3.2",
            # Ollama serves a stateless /v1/responses since v0.13.3; the lessons send the whole
            # conversation every turn, so stateless is all they need.
            responses_api=True,
            local=True,
            key_help="no key needed: install Ollama from https://ollama.com, then `ollama pull llama3.2`",
            notes="needs Ollama 0.13.3 or newer for the Responses API",
            facts=(
                Fact("/v1/responses is supported, stateless only", "https://docs.ollama.com/api/openai-compatibility",
                     "Ollama docs: OpenAI compatibility"),
                Fact("/v1/responses arrived in v0.13.3 (older versions answer 404)",
                     "https://github.com/ollama/ollama/issues/13595", "ollama/ollama issue 13595"),
            ),
        ),
        Provider(name="offline", base_url=OFFLINE_BASE_URL, key_env=None, default_model=OFFLINE_MODEL,
                 responses_api=True, local=True,
                 key_help="no key needed: a rule-based stand-in that runs inside Python"),
        Provider(name="replay", base_url=REPLAY_BASE_URL, key_env=None, default_model="replay",
                 responses_api=True, local=True,
                 key_help="no key needed: serves a cassette recorded earlier (set LLM_CASSETTE=path)"),
    ]
}

PRETTY_NAMES = {"openai": "OpenAI", "groq": "Groq", "deepseek": "DeepSeek", "github": "GitHub Models",
                "ollama": "Ollama", "offline": "the offline model", "replay": "replay"}
