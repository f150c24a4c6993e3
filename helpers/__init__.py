"""Shared code for the agent-loop course. Each module is one concept; each lesson says which it introduced."""
