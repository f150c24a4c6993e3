"""Shared code for the agent-loop course. Each module is one concept; each lesson says which it introduced.

What the lessons import, in the order they meet it:
- llm: make_client() for the chosen provider (offline, OpenAI, Groq, Ollama, ...) (lesson 00)
- doctor: `python -m helpers doctor`, which checks a student's .env, key, provider and model (lesson 00)
- ingest: load the pinned DataTalksClub FAQ (lesson 01)
- search: the minsearch index and the search tool's schema (lessons 01 and 03)
- tools: a package; tools.dispatch runs the tools a model asks for and serializes their output (lesson 04),
  tools.registry is the @tool decorator and the Tools registry (lesson 09); lessons import both from tools
- loop: agent_loop and AgentRun, the lesson-04 loop with its safety nets (lessons 04 and 07)
- cost: per-call usage records, a running meter and the run report (lesson 06)
- lean_search: a search tool that sends fewer tokens and no result twice (lesson 06)
- history: a conversation's turns, and the ways to send fewer of its tokens (lessons 06 and 15)
- trace: a JSONL trace of every request, response and error (lesson 07)
- chat: a package; a chat session and its ipywidgets view (lesson 10), with approval (13) and agents (17)
- evaluate: ground truth, hit rate, MRR, tuning by split, cited answers (lesson 12)
- batch: the Batch API: many model calls as one job, at half the price (lesson 12)
- capabilities: supports(client, "files_batch"): does this provider have an API? one line when not (lesson 12)
- approval: an agent run that pauses on a call a person must approve, saved and resumed; policies from MCP tool
  annotations, approvals bound to the arguments shown, an idempotency ledger (lesson 13)
- injection: defences against orders planted in tool outputs, and their measurement (lesson 14)
- injection_cases: the labelled clean and planted FAQ entries lesson 14 measures on (lesson 14)
- memory: a conversation played under a history policy, and facts remembered across sessions, kept from poisoning (lesson 15)
- mcp_server: the course's FAQ tools as an MCP server (lesson 16)
- mcp_tools: MCP servers' tools in the course's own loop (lesson 16)
- agents: several agents: handoffs and their input filters, agents as tools, a measure against one agent, and one
  report of who did what (lesson 17)
- capstone: one maintainer's FAQ agent from Part 2's parts (MCP, approval, a defence, memory) and one report (lesson 18)
- checks: a package; the check of every lesson's exercise and homework task, and `make homework`'s runner

What those build on (packages no lesson needs to open):
- offline: the deterministic offline model behind the real OpenAI wire format (no key, no network)
- apis: the Responses API and Chat Completions behind one interface, streaming, and HTTP cassettes
- setup: the settings of .env, the provider presets, the pinned files, the errors a student can fix
- billing: token counts and genai-prices prices, re-exported by cost
- faq: the FAQ's vocabulary, lesson 09's writing tool and a cached index with planted entries

For the course's maintainers (no lesson imports it):
- maint: nbrun, nbtidy, the homework notebook generator and the benchmarks behind `make bench*`
"""

from pathlib import Path

# The repository root, found from this file rather than the working directory: notebooks run in notebooks/,
# tests in the root, and data/ (the FAQ cache, traces, cassettes) must be the same folder for both.
ROOT = Path(__file__).resolve().parent.parent
