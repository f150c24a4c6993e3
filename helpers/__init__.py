"""Shared code for the agent-loop course. Each module is one concept; each lesson says which it introduced.

What the lessons import, in the order they meet it:
- llm: make_client() for the chosen provider (offline, OpenAI, Groq, Ollama, ...) (lesson 00)
- providers: each provider's preset and the documented facts behind it, re-exported by llm (lesson 00)
- capabilities: supports(client, "files_batch"): does this provider have an API? one line when not (lesson 12)
- ingest: load the pinned DataTalksClub FAQ (lesson 01)
- search: the minsearch index and the search tool's schema (lessons 01 and 03)
- tools: a package; tools.dispatch runs the tools a model asks for and serializes their output (lesson 04),
  tools.registry is the @tool decorator and the Tools registry (lesson 09); lessons import both from tools
- loop: agent_loop and AgentRun, the lesson-04 loop with its safety nets (lessons 04 and 07)
- cost: per-call usage records, a running meter and the run report (lesson 06)
- prices: genai-prices prices at an explicit moment, re-exported by cost (lesson 06)
- context: send less (a lean search tool, dropped stale tool outputs) (lesson 06)
- trace: a JSONL trace of every request, response and error (lesson 07)
- chat_ui: a chat session and its ipywidgets view (lesson 10)
- evaluate: ground truth, hit rate, MRR, tuning by split, cited answers (lesson 12)
- homework: the checks of the homework notebooks, one module per homework, and `make homework`'s runner

What those build on:
- offline: the deterministic offline model behind the real OpenAI wire format (no key, no network)
- env: the settings of .env.example, read the same way everywhere
- errors: ProviderError, the setup problem a student can fix, shared by llm and cassette
- pinned: single files pinned to one commit (the ground truth, the OpenAI spec), fetched once
- tokens: BPE token counts of a request and a provider's prompt cache
- cassette: record a real run's HTTP traffic and replay it without a key
- doctor: `python -m helpers doctor`, which checks a student's .env, key, provider and model

For the course's maintainers (no lesson imports it):
- maint: nbrun, nbtidy, the homework notebook generator and the benchmarks behind `make bench*`
"""

from pathlib import Path

# The repository root, found from this file rather than the working directory: notebooks run in notebooks/,
# tests in the root, and data/ (the FAQ cache, traces, cassettes) must be the same folder for both.
ROOT = Path(__file__).resolve().parent.parent
