"""The providers the course knows: where each lives, which key it needs, which APIs it has, and why we think so.

Each preset is a `Provider`: base URL, key variable, default model, its capabilities (which of the APIs the
lessons use it serves: CAPABILITIES), whether it runs locally (and so costs nothing), where to get a key, its
free limits, and what a student should know before using it (`notes`, which the doctor prints). The claims a
preset rests on are `facts`, each with its source and the day it was read, because providers change names,
prices and limits often, and a claim with its source can be checked again in a minute. A capability is True
(the provider's documentation says it is served), False (it says it is not, or the provider has no such API),
or None: not confirmed by any page we could read; a lesson treats None as missing and says "not confirmed".

RETIRED names the providers the course once listed and that are gone (GitHub Models): choosing one is a clear
ProviderError with the date, the status code and the presets to use instead (`retired_message`).

What it leaves out: choosing a provider and building the client (helpers.llm, which re-exports these names, so
`from helpers.llm import PROVIDERS` keeps working), asking "does this client have X?" in a lesson
(helpers.capabilities), and anything a source does not say. The file is longer than most modules because it is
data: one preset per provider with its dated sources, which belong next to the values they justify.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# The one definition of the offline model's name and address; its constants module imports nothing.
from helpers.offline.constants import OFFLINE_BASE_URL, OFFLINE_MODEL

REPLAY_BASE_URL = "http://replay.invalid/v1"  # .invalid is a reserved name: it can never reach a network
FACTS_CHECKED = "2026-12-01"  # the day the presets were last checked; a fact not read again that day keeps its own
EARLIER = "2026-11-30"  # the previous check, for the facts that were not read again on FACTS_CHECKED

# What a capability is called in a message, and what a lesson can do without it. The order is the doctor's table.
CAPABILITIES: dict[str, tuple[str, str]] = {
    "responses": ("the Responses API (client.responses)",
                  "Chat Completions (lesson 08), or a provider with the Responses API"),
    "chat": ("Chat Completions (client.chat.completions)", "the Responses API (lessons 02 to 07)"),
    "stored_state": ("stored responses (store=True, previous_response_id)",
                     "send the whole history with each request, as the loop of lesson 04 does"),
    "conversations": ("the Conversations API (client.conversations)",
                      "keep the history in your own list (lesson 15's memory policies)"),
    "files_batch": ("the Files and Batch APIs (client.files, client.batches)",
                    "send the requests one by one with the loop, at the ordinary price"),
    "hosted_tools": ("hosted tools (web_search, file_search, code_interpreter)",
                     "function tools that run on your machine (lesson 03)"),
    "streaming": ("streaming (stream=True)", "a call without stream=True, printed when it is done"),
    "tool_choice": ("tool_choice (auto, none, required, one function)",
                    "leave tool_choice out and say in the instructions when to call a tool"),
}


def caps(*, responses: bool | None, chat: bool | None = True, stored_state: bool | None = False,
         conversations: bool | None = False, files_batch: bool | None = False, hosted_tools: bool | None = False,
         streaming: bool | None = True, tool_choice: bool | None = True) -> Mapping[str, bool | None]:
    """A preset's capabilities by name (CAPABILITIES' keys); the defaults are what a stateless compatible API has.

    Example:
        >>> caps(responses=False)["chat"], caps(responses=False)["files_batch"]
        (True, False)
    """
    found = {"responses": responses, "chat": chat, "stored_state": stored_state, "conversations": conversations,
             "files_batch": files_batch, "hosted_tools": hosted_tools, "streaming": streaming,
             "tool_choice": tool_choice}
    assert list(found) == list(CAPABILITIES)  # one list of names, in the table's order
    return MappingProxyType(found)  # read-only, like the frozen preset that holds it


@dataclass(frozen=True)
class Fact:
    """One documented fact behind a preset: the claim, where it is written, and the day it was read there.

    Example:
        >>> Fact("Chat Completions with tools", "https://ai.google.dev/gemini-api/docs/openai",
        ...      "Gemini API: OpenAI compatibility").checked
        '2026-12-01'
    """

    claim: str
    url: str
    title: str
    checked: str = FACTS_CHECKED


@dataclass(frozen=True)
class Provider:
    """One provider preset: where it lives, which key it needs, and which APIs it has (`capabilities`).

    `notes` is what a student should know before using it and `free` its free limits (the doctor prints both);
    `facts` are the documented claims the preset rests on, each with its source and the day it was read.
    Example:
        >>> p = PROVIDERS["groq"]
        >>> p.base_url, p.key_env, p.responses_api, p.capabilities["stored_state"]
        ('https://api.groq.com/openai/v1', 'GROQ_API_KEY', True, False)
    """

    name: str
    base_url: str
    key_env: str | None  # None: no key needed
    default_model: str
    capabilities: Mapping[str, bool | None] = field(hash=False)  # a mapping can't be hashed; the name can
    local: bool  # True: runs on this machine, costs nothing
    key_help: str = ""  # where to get a key
    models_url: str | None = None  # where to list models, when it is not base_url + "/models"
    free: str = ""  # the free limits, as its sources state them
    notes: str = ""
    facts: tuple[Fact, ...] = ()

    @property
    def responses_api(self) -> bool:
        """True when the Responses API is served (False: Chat Completions only, or not confirmed)."""
        return bool(self.capabilities.get("responses"))

    def has(self, capability: str) -> bool | None:
        """True, False, or None (not confirmed) for one of CAPABILITIES; an unknown name is a ValueError.

        Example:
            >>> PROVIDERS["gemini"].has("responses"), PROVIDERS["offline"].has("hosted_tools")
            (False, False)
        """
        if capability not in CAPABILITIES:
            raise ValueError(f"Unknown capability {capability!r}. Use one of: {', '.join(CAPABILITIES)}.")
        return self.capabilities.get(capability)


@dataclass(frozen=True)
class Retired:
    """A provider the course used to list that no longer serves requests: when it went, and how it answers now."""

    name: str
    pretty: str
    key_env: str
    retired_on: str
    answers: str  # what a request gets now
    facts: tuple[Fact, ...] = ()


RETIRED: dict[str, Retired] = {
    "github": Retired(
        name="github", pretty="GitHub Models", key_env="GITHUB_TOKEN", retired_on="2026-07-30",
        answers="every endpoint under models.github.ai answers HTTP 410 Gone",
        facts=(
            Fact("GitHub Models, the inference service behind Spark's llm(), retired on July 30, 2026",
                 "https://github.com/orgs/community/discussions/203602",
                 "GitHub Community announcement: Upcoming deprecation of GitHub Spark"),
            Fact("the playground, catalog, inference API and BYOK endpoints stop for all customers on 2026-07-30",
                 "https://dev.to/zephyrelabs369/github-models-retires-on-july-30-six-places-to-check-before-your-"
                 "api-breaks-5d9m", "DEV Community, quoting GitHub's notice (third party)"),
            Fact("410 Gone with github_models_retirement_brownout in the body: what the course's issue 27 saw on "
                 "2026-12-01; no GitHub page read here states the status code", "https://models.github.ai/inference",
                 "observed on the endpoint (issue 27 of this repository), not documented"),
        ),
    ),
}


# Only what a source says is written here; "not confirmed" where no page we could read says it.
PROVIDERS: dict[str, Provider] = {
    p.name: p
    for p in [
        Provider(
            name="openai", base_url="https://api.openai.com/v1", key_env="OPENAI_API_KEY",
            default_model="gpt-5.4-mini",
            capabilities=caps(responses=True, stored_state=True, conversations=True, files_batch=True,
                              hosted_tools=True),
            local=False, key_help="create one at https://platform.openai.com/api-keys (needs a paid balance)",
            free="none: pay-as-you-go",
            notes=("gpt-6-luna is cheaper ($0.10 in / $0.50 out per million tokens, against gpt-5.4-mini's $0.75 / "
                   "$4.50; the pinned genai-prices 0.2.3 prices both), but OpenAI's page says Chat Completions "
                   "calls tools on it only with reasoning_effort='none', which lessons 08 to 10 don't send; so the "
                   "default stays gpt-5.4-mini. LLM_MODEL=gpt-6-luna works for the Responses API lessons"),
            facts=(
                Fact("gpt-6-luna: $0.10 input, $0.01 cached, $0.50 output per 1M tokens; built-in tools and "
                     "function calling on the Responses API; Chat Completions supports function calling only with "
                     "reasoning_effort none", "https://developers.openai.com/api/docs/models/gpt-6-luna",
                     "OpenAI API: GPT-6 Luna (read in its ja-JP version)"),
                Fact("gpt-5.4-mini $0.75 input per 1M tokens; gpt-5-nano is deprecated",
                     "https://developers.openai.com/api/docs/models/gpt-5-nano", "OpenAI API: GPT-5 nano"),
                Fact("genai-prices 0.2.3 prices gpt-6-luna at $0.10/$0.50 (below 272K input tokens) and "
                     "gpt-5.4-mini at $0.75/$4.50", "https://pypi.org/project/genai-prices/0.2.3/",
                     "genai-prices 0.2.3 (its bundled data, read with calc_price in .venv)"),
                Fact("the Batch API: a JSONL file, 24h window, 50% of the synchronous price",
                     "https://developers.openai.com/api/docs/guides/batch",
                     "OpenAI API: Batch, as summarised in the course's Part 2 API facts (checked 2026-12-01)"),
            ),
        ),
        Provider(
            name="groq", base_url="https://api.groq.com/openai/v1", key_env="GROQ_API_KEY",
            default_model="openai/gpt-oss-20b",
            capabilities=caps(responses=True, files_batch=None, hosted_tools=None, tool_choice=None),
            local=False, key_help="create a free one at https://console.groq.com/keys (no card needed)",
            free=("Free Plan, openai/gpt-oss-20b: 30 requests and 8K tokens a minute, 1K requests and 200K "
                  "tokens a day; cached tokens don't count"),
            notes=("Responses API in beta and stateless (the lessons send the whole history anyway); function "
                   "calling on both APIs; a loop that re-sends a growing history can reach the per-minute token "
                   "limit: the SDK waits and retries, and if a run still stops on a rate limit, wait a minute. "
                   "Whether the Free Plan has the Batch API and hosted tools, and which tool_choice values it "
                   "honours, is not confirmed"),
            facts=(
                Fact("the Responses API is in beta and doesn't keep conversation state (no previous_response_id, "
                     "no store)", "https://console.groq.com/docs/responses-api", "GroqDocs: Responses API", EARLIER),
                Fact("Free Plan, openai/gpt-oss-20b: 30 RPM, 1K RPD, 8K TPM, 200K TPD",
                     "https://console.groq.com/docs/rate-limits", "GroqDocs: Rate Limits (its table as copied in "
                     "github.com/hassankhan2510/redditautomation, reference.md)", EARLIER),
                Fact("limits apply per organization, whichever is reached first; cached tokens don't count",
                     "https://console.groq.com/docs/rate-limits", "GroqDocs: Rate Limits"),
                Fact("30 RPM and 1,000 requests a day for gpt-oss-20b, as published on 2026-07-25",
                     "https://github.com/xyzs996/free-llm-api/discussions/3", "free-llm-api discussion (third party)"),
            ),
        ),
        Provider(
            name="gemini", base_url="https://generativelanguage.googleapis.com/v1beta/openai",
            key_env="GEMINI_API_KEY", default_model="gemini-3.8-flash",
            capabilities=caps(responses=False, files_batch=None, tool_choice=None),
            local=False, key_help="create a free one in Google AI Studio: https://aistudio.google.com/apikey",
            free=("a free tier exists; Google publishes no single figure (the limits of your project are in AI "
                  "Studio): not confirmed here"),
            notes=("Chat Completions only, through Google's OpenAI-compatible endpoint (in beta): lessons 08 to 10 "
                   "are written for it; lessons 02 to 07 and 12 need the Responses API and stop with a message "
                   "saying so. Whether its batch endpoint takes the OpenAI SDK's files.create/batches.create, and "
                   "whether tool_choice is honoured, is not confirmed"),
            facts=(
                Fact("base URL https://generativelanguage.googleapis.com/v1beta/openai/, key GEMINI_API_KEY, "
                     "client.chat.completions.create; the example model is gemini-3.8-flash",
                     "https://ai.google.dev/gemini-api/docs/openai", "Gemini API: OpenAI compatibility (read in "
                     "its ar, hi and vi versions; the en copy read shows an older model)"),
                Fact("the OpenAI-compatible layer lists chat/completions, embeddings, images, videos, batches and "
                     "models (no /responses); OpenAI library support is in beta",
                     "https://www.developersdigest.tech/reference/api-compatibility/google",
                     "developersdigest.tech API compatibility, from Google's docs (third party)"),
                Fact("genai-prices 0.2.3 knows gemini-3.8-flash (gemini-flash-latest resolves to it)",
                     "https://pypi.org/project/genai-prices/0.2.3/", "genai-prices 0.2.3 (its bundled data)"),
            ),
        ),
        Provider(
            name="huggingface", base_url="https://router.huggingface.co/v1", key_env="HF_TOKEN",
            default_model="openai/gpt-oss-20b",
            capabilities=caps(responses=True, stored_state=None, hosted_tools=None, tool_choice=None),
            local=False,
            key_help=("create a fine-grained token with the 'Make calls to Inference Providers' permission at "
                      "https://huggingface.co/settings/tokens"),
            free=("small and changing: free accounts got less than $0.10 of credits a month; the current pricing "
                  "page lists none for free users (PRO: $2.00 a month)"),
            notes=("Hugging Face's router to many inference providers; its Responses API is in beta, and its "
                   "stored state, hosted tools and tool_choice are not confirmed (the lessons send the whole "
                   "history anyway); that the router lists openai/gpt-oss-20b is not confirmed either: the doctor "
                   "checks the model against its GET /models. genai-prices "
                   "has no 'huggingface' provider, so the course can't price its calls"),
            facts=(
                Fact("Responses API (beta) on Inference Providers, with the OpenAI SDKs; needs HF_TOKEN with the "
                     "'Make calls to Inference Providers' permission",
                     "https://huggingface.co/docs/inference-providers/guides/responses-api",
                     "Inference Providers: Responses API (beta)"),
                Fact("monthly credits: free users 'subject to change, less than $0.10' (older page); 'None' with "
                     "credits purchase required (hub-docs main); PRO $2.00",
                     "https://huggingface.co/docs/inference-providers/pricing",
                     "Inference Providers: Pricing and Billing (and hub-docs main, docs/inference-providers/"
                     "pricing.md)"),
            ),
        ),
        Provider(
            name="deepseek", base_url="https://api.deepseek.com", key_env="DEEPSEEK_API_KEY",
            default_model="deepseek-flash",
            capabilities=caps(responses=True, files_batch=None, tool_choice=None),
            local=False, key_help="create one at https://platform.deepseek.com/api_keys (needs a small top-up)",
            free="none: pay-as-you-go",
            notes=("deepseek-chat and deepseek-reasoner were retired on 2026-07-24 (calls with them get 400): use "
                   "deepseek-flash (DeepSeek-V4.1-Flash; deepseek-v4-flash is an older name for it). Thinking "
                   "mode is on by default: on Chat Completions an assistant message with tool_calls must go back "
                   "with its reasoning_content, or the next call fails with 400 (helpers.loop and lesson 08's "
                   "loop keep it). Its Responses API is stateless; a Batch API (not in its docs) and tool_choice are not "
                   "confirmed"),
            facts=(
                Fact("deepseek-chat and deepseek-reasoner are unavailable after 2026-07-24 15:59 UTC; the V4 names "
                     "replace them", "https://api-docs.deepseek.com/news/news260424",
                     "DeepSeek API news 2026-04-24, as cited in github.com/Open-Less/openless issue 132"),
                Fact("model id deepseek-flash (DeepSeek-V4.1-Flash, GA 2026-09-10); deepseek-v4-flash still "
                     "resolves to it", "https://api-docs.deepseek.com/quick_start/pricing",
                     "DeepSeek Models & Pricing, as summarised by apidog.com/blog/how-to-use-deepseek-v4-1-flash-api "
                     "(third party)"),
                Fact("the Responses API is supported at https://api.deepseek.com; store, previous_response_id and "
                     "retrieval are not", "https://api-docs.deepseek.com/guides/responses_api",
                     "DeepSeek API Docs: Using the Responses API (statelessness as summarised by the openai-interface "
                     "crate's docs)", EARLIER),
                Fact("thinking mode is enabled by default; after a tool call, reasoning_content must be passed back "
                     "in every later request, or the API answers 400",
                     "https://api-docs.deepseek.com/guides/thinking_mode", "DeepSeek API Docs: Thinking Mode", EARLIER),
                Fact("genai-prices 0.2.3 prices deepseek-flash at $0.15/$0.60 per 1M tokens",
                     "https://pypi.org/project/genai-prices/0.2.3/", "genai-prices 0.2.3 (its bundled data)"),
            ),
        ),
        Provider(
            name="ollama", base_url="http://localhost:11434/v1", key_env=None, default_model="qwen3",
            # Ollama serves a stateless /v1/responses since v0.13.3; the lessons send the whole conversation.
            capabilities=caps(responses=True, tool_choice=None),
            local=True,
            key_help="no key needed: install Ollama from https://ollama.com, then `ollama pull qwen3`",
            free="free: it runs on your machine (a model of the qwen3 family needs a few GB of memory)",
            notes=("needs Ollama 0.13.3 or newer for the Responses API. Ollama's own tool-calling docs use the "
                   "qwen3 family; llama3.2 is reported to write tool calls as plain text. Whether tool_choice is "
                   "honoured is not confirmed"),
            facts=(
                Fact("tool calling, single, parallel and in an agent loop, shown with model qwen3",
                     "https://docs.ollama.com/capabilities/tool-calling", "Ollama docs: Tool calling (read in copies "
                     "of docs/capabilities/tool-calling.mdx, Ollama 0.23.1)"),
                Fact("/v1/responses is supported, stateless only", "https://docs.ollama.com/api/openai-compatibility",
                     "Ollama docs: OpenAI compatibility", EARLIER),
                Fact("/v1/responses arrived in v0.13.3 (older versions answer 404)",
                     "https://github.com/ollama/ollama/issues/13595", "ollama/ollama issue 13595", EARLIER),
            ),
        ),
        Provider(
            name="offline", base_url=OFFLINE_BASE_URL, key_env=None, default_model=OFFLINE_MODEL,
            # Everything it serves is in helpers/offline/README.md; built-in tools need a real service.
            capabilities=caps(responses=True, stored_state=True, conversations=True, files_batch=True,
                              hosted_tools=False),
            local=True, key_help="no key needed: a rule-based stand-in that runs inside Python",
            free="free, no network",  # its one "no", hosted tools, is in the doctor's capability table
        ),
        Provider(
            name="replay", base_url=REPLAY_BASE_URL, key_env=None, default_model="replay",
            # A cassette answers what was recorded, whatever that was; an unrecorded request fails.
            capabilities=caps(responses=True, stored_state=True, conversations=True, files_batch=True,
                              hosted_tools=True),
            local=True, key_help="no key needed: serves a cassette recorded earlier (set LLM_CASSETTE=path)",
            free="free, no network",
        ),
    ]
}

PRETTY_NAMES = {"openai": "OpenAI", "groq": "Groq", "gemini": "Google Gemini", "huggingface": "Hugging Face",
                "deepseek": "DeepSeek", "ollama": "Ollama", "offline": "the offline model", "replay": "replay"}

# The presets a student can switch to, for messages: real providers first, the offline model last.
CHOICES = [name for name in PROVIDERS if name != "replay"]


def retired_message(name: str) -> str:
    """The one message for a retired provider: when it went, what it answers now, and what to use instead.

    Example:
        >>> print(retired_message("github"))  # doctest: +ELLIPSIS
        GitHub Models was retired on 2026-07-30: every endpoint under models.github.ai answers HTTP 410 Gone, ...
    """
    r = RETIRED[name]
    return (f"{r.pretty} was retired on {r.retired_on}: {r.answers}, so the course no longer lists it, and "
            f"{r.key_env} is not used any more. Set LLM_PROVIDER to one of: {', '.join(CHOICES)} in .env (see "
            ".env.example; groq and gemini have free tiers, ollama and offline need no key) and restart the kernel.")
