"""Shared code for the agent-loop course. Each module is one concept; each lesson says which it introduced."""

from pathlib import Path

# The repository root, found from this file rather than the working directory: notebooks run in notebooks/,
# tests in the root, and data/ (the FAQ cache, traces, cassettes) must be the same folder for both.
ROOT = Path(__file__).resolve().parent.parent
