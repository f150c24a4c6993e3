"""The two API shapes the course speaks, and what travels over them: machinery the lesson modules build on.

- adapter: the Responses API and Chat Completions behind one interface (requests, items, tool calls, text);
- streaming: one model call, streamed, its text handed to a callback as it arrives (lesson 10's widget);
- cassette: record a real run's HTTP traffic to a JSONL file and replay it later with no key and no network.

No lesson imports these directly: helpers.loop, helpers.llm and the chat widget do.
"""
