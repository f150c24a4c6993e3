"""The offline model's API side: HTTP and the OpenAI wire format, around the rules.

A request comes in through the in-process httpx transport (transport.py) or the HTTP server (server.py),
goes to `app.handle` (routes, faults, error answers), is read (body.py, shapes.py: bytes to a checked
JSON object; door.py: a Chat Completions body turned into the Responses shape at the door, so one pipeline
follows for both APIs; wire.py: that object to a normalised `Conversation`), decided by the model behind the
seam, `decide(conv)` (app.Decide; by default the rules' one entry point, `engine.decide(conv, vocab)`), and
rendered back in the API's own shape (wire.py; stream.py
for server-sent events), with `usage` counted as an API counts it (tokenizer.py, prompt_cache.py).
What a client or server remembers between requests is its state.ServerState: the prompt cache, stored
responses (stored.py), conversations (conversations.py) and the context window (context_window.py).

The rules (engine.py and the modules it puts in order) never import from here: they see a `Conversation`
with every wire detail already settled (tool_choice as a mode and a forced name, whichever API sent it),
and answer a `Decision`. What it leaves out: every decision about what to say or call.

Importing this package loads nothing: each module is imported where it is used.
"""
