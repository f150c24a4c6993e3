"""The checks of the lessons' exercises, one module per lesson: each lesson imports its own check from here.

- lesson03: E03, the item that carries a function call's result back to the model;
- lesson04: E04, the agent loop around the lesson's `make_call`;
- lesson05: E05, measuring a guard prompt on labelled questions, failing closed;
- lesson06: E06, the price of one call from its usage, cached tokens included;
- lesson07: E07, an iteration cap and a safe API call;
- lesson08: E08, pairing Chat Completions' tool_call_ids;
- lesson09: E09, `my_tool`, a decorator that makes a tool schema from a typed function;
- lesson10: E10, `collect_text(events)`, the text of a streamed answer;
- lesson11: E11, a framework's `max_turns` handler;
- lesson12: E12, hit rate and MRR, and E12b, a judge;
- lesson13: E13, a loop that pauses on a call, saved and resumed in a fresh process;
- lesson14: E14, fencing a tool output as data;
- lesson15: E15, `keep_last_turns(items, n)`, trimming by whole user turns;
- lesson16: E16, a small MCP server (schemas, structured output, annotations), read back over HTTP;
- lesson17: E17, `hand_over(...)`, the handoff in your own loop;
- lesson18: E18, `my_policy(tool)`, an approval policy from a tool's MCP annotations.

Each check runs the student's function on scripted doubles (helpers.checks.doubles) and prints PASS, FAIL with
a hint, or NOT DONE YET (helpers.checks.core). The lessons' solution notebooks hold the reference answers.
"""
