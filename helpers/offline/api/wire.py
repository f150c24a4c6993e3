"""The OpenAI wire format: read Responses / Chat Completions requests, write their JSON responses.

What it does:
- turns a request body into an engine `Conversation` (instructions, last question, tool calls of
  this turn with their outputs, tools). The body's shape is checked first, field by field, in
  shapes.py; then this module checks what links fields together the way the real API does (same
  error messages for a tool output without its call, for instance);
- turns the engine's `Decision` into a `Response` or a `chat.completion` object that the openai SDK
  parses in strict mode and that validates against the official OpenAPI schemas;
- derives every id from a hash of the request, and uses a fixed `created` time, so the same request
  always gets byte-identical JSON back (but for `cached_tokens`, which depends on what the same client
  sent before);
- counts token usage with a real tokenizer, cached input included (`usage_counts`: tokenizer.py, prompt_cache.py);
- reads `tool_choice` (also `allowed_tools`; a tool name not offered is the real API's 400) and the
  response format (`text.format`, Chat's `response_format`, checked by structured.py), and echoes the
  format in the Response's `text`.

What it leaves out on purpose: stored state (a body with `previous_response_id` or `conversation` arrives
here already continued by stored.py, and the Response echoes them), built-in tools (web search, file
search), several choices (`n`); the last two get a clear 400 error instead.
Images, audio and files in message content are skipped: the rules read text only.
Why one module of about 450 lines: reading a request and writing its response share the ids, the usage
count and the tool-choice reading of one exchange; split in two, each half would import the other's.
"""

from __future__ import annotations

import hashlib
import json

from helpers.offline.api.body import shown
from helpers.offline.api.door import FROM_CHAT, chat_as_responses
from helpers.offline.api.errors import ApiError
from helpers.offline.api.formats import check_format
from helpers.offline.api.prompt_cache import PromptCache
from helpers.offline.api.shapes import check_responses
from helpers.offline.api.tokenizer import (
    content_text,
    count_tokens,
    cut_to_tokens,
    output_text,
    prompt_ids,
    responses_prompt,
)
from helpers.offline.compaction import summary_of
from helpers.offline.constants import OFFLINE_MODEL
from helpers.offline.conversation import Call, Conversation, Decision, Tool

# A fixed creation time (2026-01-01T00:00:00Z): a wall-clock time would make every response unique.
CREATED_AT = 1767225600
# Tool types the Responses API runs on the provider's side; their 400 says why they can't run here.
HOSTED_TOOL_TYPES = {"mcp", "web_search", "web_search_preview", "file_search", "code_interpreter",
                     "image_generation"}


def request_hash(route: str, body: dict, fault: str | None = None) -> str:
    """A hex digest of the route, the canonical JSON of the body and the fault: the seed of every id.

    Example:
        >>> request_hash("/v1/responses", {"model": "m", "input": "hi"})[:8]
        '2f6efbb1'
    """
    canonical = json.dumps([route, body, fault], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _sub_id(seed: str, *parts: object) -> str:
    return hashlib.sha256("/".join([seed, *map(str, parts)]).encode()).hexdigest()[:24]


# ---------------------------------------------------------------------------------------------------
# Usage

def usage_counts(segments: list[tuple[str, str]], produced: list[str], cache: PromptCache | None,
                 cut_at: int | None = None) -> tuple[int, int, int]:
    """(input tokens, cached input tokens, output tokens) of one exchange, counted with the real tokenizer
    (tokenizer.py). The prompt is also remembered by `cache` (None: no cache, nothing cached). An answer cut
    by a token limit (`cut_at`) used exactly that many output tokens.

    Example:
        >>> usage_counts([("user", "Is the rye bread vegan?")], ["Yes, it is."], None)
        (14, 0, 5)
    """
    ids = prompt_ids(segments)
    cached = cache.cached(ids) if cache is not None else 0
    output = cut_at if cut_at is not None else sum(count_tokens(text) for text in produced)
    return len(ids), cached, output


# ---------------------------------------------------------------------------------------------------
# Responses API

def parse_responses(body: dict, fault: str | None = None) -> tuple[Conversation, list[dict]]:
    """Read a /v1/responses body into (conversation, normalised tools).
    The body's shape is checked first (shapes.check_responses), so everything below may trust it.

    Example:
        >>> parse_responses({"model": "m", "input": "Hi"})[0].question
        'Hi'
    """
    from_chat = bool(body.get(FROM_CHAT))  # through Chat's door: its shape checked as Chat's, tools in its shape
    if not from_chat:
        check_responses(body)
    instructions = body.get("instructions")
    raw_input = body["input"]
    items: list = [{"type": "message", "role": "user", "content": raw_input}] if isinstance(raw_input, str) \
        else raw_input

    raw_tools = body.get("tools") or []
    tools = _function_tools(raw_tools, (lambda tool: tool["function"]) if from_chat else (lambda tool: tool))
    normalised = [{"type": "function", "name": tool.name, "description": raw.get("description"),
                   "parameters": tool.parameters, "strict": raw.get("strict")}
                  for tool, raw in zip(tools, raw_tools, strict=True)]
    choice, forced, allowed = _tool_choice(body.get("tool_choice"), tools)
    output_format = (body.get("text") or {}).get("format")
    if output_format and not from_chat:  # the door checked Chat's response_format, naming its place
        check_format(output_format, "text.format", str(output_format.get("name", "")))
    conv = Conversation(instructions=instructions or "", tools=tools, fault=fault, tool_choice=choice, forced=forced,
                        allowed=allowed, output_format=output_format,
                        parallel_tool_calls=body.get("parallel_tool_calls") is not False)
    calls: dict[str, Call] = {}  # this turn's calls, by call_id
    called: set[str] = set()  # call_ids of every function_call so far, in any turn
    batch, previous_type = 0, None
    for index, item in enumerate(items):
        kind = item.get("type") or "message"  # shapes.py made sure a message without "type" has a "role"
        if kind == "message":
            _take_message(conv, item["role"], content_text(item["content"]))
            calls = {} if item["role"] == "user" else calls
        elif kind == "function_call":
            if previous_type != "function_call":
                batch += 1
            call = Call(name=item["name"], arguments=item["arguments"], call_id=item["call_id"], batch=batch)
            calls[call.call_id] = call
            called.add(call.call_id)
            conv.calls.append(call)
        elif kind == "function_call_output":
            call_id = item["call_id"]
            output = output_text(item["output"])
            conv.transcript.append(("tool", output))
            if call_id not in called:
                raise ApiError(400, f"No tool call found for function call output with call_id {call_id}.",
                               param="input")
            if call_id in calls:
                calls[call_id].output = output
        elif kind == "compaction":  # the note it stands for (compaction.py)
            _take_message(conv, "developer", summary_of(item))
        elif kind == "reasoning":
            pass  # other models' reasoning items carry nothing the rules use
        else:
            raise ApiError(400, f"The offline model does not support input items of type {shown(kind)} "
                                f"(input[{index}]). Use messages, function_call and function_call_output.",
                           param=f"input[{index}].type", code="unsupported_value")
        previous_type = kind
    answered = {item["call_id"] for item in items if item.get("type") == "function_call_output"}
    for item in items:  # the real API refuses a call whose output is missing
        if item.get("type") == "function_call" and item["call_id"] not in answered:
            raise ApiError(400, f"No tool output found for function call {item['call_id']}.", param="input")
    return conv, normalised


def _function_tools(raw: list, spec) -> list[Tool]:
    """The function tools of either API (`spec` finds a tool's name, description and parameters); any other
    type of tool gets a 400."""
    tools = []
    for i, tool in enumerate(raw):
        if tool["type"] != "function":
            raise ApiError(400, f"The offline model supports only tools of type 'function'; tools[{i}] has "
                                f"type {shown(tool['type'])}.{_hosted_note(tool['type'])}",
                           param=f"tools[{i}].type", code="unsupported_value")
        function = spec(tool)
        tools.append(Tool(name=function["name"], description=str(function.get("description") or ""),
                          parameters=function.get("parameters") or {"type": "object", "properties": {}}))
    return tools


def _hosted_note(kind) -> str:
    """Why a hosted tool type can't run here: the provider's servers run it, and this model has no network.

    Example:
        >>> _hosted_note("mcp")[:60]
        " A hosted tool runs on the provider's servers (for 'mcp', th"
    """
    if kind not in HOSTED_TOOL_TYPES:
        return ""
    remote = " (for 'mcp', they would connect to the remote MCP server you name)" if kind == "mcp" else ""
    return (f" A hosted tool runs on the provider's servers{remote}, and the offline model has no network and "
            "no such servers. Offer the tool as a function tool and run it yourself.")


def _take_message(conv: Conversation, role: str, text: str) -> None:
    """A message's text into the conversation (either API): a user message starts a new turn."""
    if text:
        conv.transcript.append((role, text))
    if role == "user":
        conv.earlier = conv.earlier + [conv.question] if conv.question else conv.earlier
        conv.question, conv.calls = text, []
    elif role in ("system", "developer"):
        conv.instructions = f"{conv.instructions}\n{text}".strip()
    elif role == "assistant" and text:
        conv.said.append(text)


def _cut(text: str, limit: int | None) -> tuple[str, int | None]:
    """The text cut to a positive integer token limit, and the limit if it cut; else (text, None)."""
    cut = cut_to_tokens(text, limit) if isinstance(limit, int) and limit > 0 else None
    return (text, None) if cut is None else (cut, limit)


def _tool_choice(choice: str | dict | None, tools: list[Tool]) -> tuple[str, str | None, list[str] | None]:
    """tool_choice in either API's shape, normalised for the rules: (mode, forced, allowed). `mode` is "auto",
    "none" or "required"; `forced` the one function a named choice forces (its mode "required"); `allowed`
    the names an "allowed_tools" choice allows (its mode as given). A choice naming a tool that is not
    offered gets the real API's 400. The shape was checked before (shapes.py).

    Example:
        >>> search = Tool("search", "Search the notes", {"properties": {"query": {"type": "string"}}})
        >>> _tool_choice({"type": "function", "name": "search"}, [search])
        ('required', 'search', None)
        >>> _tool_choice({"type": "function", "function": {"name": "search"}}, [search])  # Chat's shape
        ('required', 'search', None)
        >>> _tool_choice({"type": "function", "name": "serch"}, [search])
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Tool choice 'serch' not found in 'tools' parameter.
    """
    if choice is None:
        return "auto", None, None
    if isinstance(choice, str):
        return choice, None, None
    offered = {t.name for t in tools}
    if choice["type"] == "allowed_tools":
        spec = choice.get("allowed_tools") or choice  # Chat nests it; Responses doesn't
        names = [t.get("name") or (t.get("function") or {}).get("name") for t in spec["tools"]]
        for name in names:
            _offered(name, offered)
        return spec["mode"], None, [n for n in names if n]
    name = choice.get("name") or choice["function"]["name"]  # Responses' shape, or Chat's
    _offered(name, offered)
    return "required", name, None


def _offered(name: str | None, offered: set[str]) -> None:
    if name not in offered:
        raise ApiError(400, f"Tool choice '{name}' not found in 'tools' parameter.", param="tool_choice",
                       code="invalid_value")


def render_response(body: dict, conv: Conversation, decision: Decision, tools: list[dict], seed: str,
                    cache: PromptCache | None = None) -> dict:
    """The `Response` object for a decision. Its usage counts the request's prompt, of which `cache` says
    how much is cached (and remembers it).

    Example:
        >>> body = {"model": "offline-rules-v1", "input": "Hello"}
        >>> conv, tools = parse_responses(body)
        >>> render_response(body, conv, Decision(text="Hi"), tools, "s1")["output"][0]["content"][0]["text"]
        'Hi'
    """
    output, produced = [], []
    status, incomplete, cut_at = "completed", None, None
    if decision.calls:
        for i, (name, arguments) in enumerate(decision.calls):
            output.append({"id": f"fc_{_sub_id(seed, 'fc', i)}", "type": "function_call", "status": "completed",
                           "arguments": arguments, "call_id": f"call_{_sub_id(seed, 'call', i)}", "name": name})
            produced.append(name + arguments)
    else:
        text, cut_at = _cut(decision.text or "", body.get("max_output_tokens"))
        if cut_at is not None:
            status, incomplete = "incomplete", {"reason": "max_output_tokens"}
        output.append({"id": f"msg_{_sub_id(seed, 'msg')}", "type": "message", "status": status,
                       "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}],
                       "role": "assistant"})
        produced.append(text)
    tokens_in, cached, tokens_out = usage_counts(responses_prompt(body), produced, cache, cut_at)
    choice = body.get("tool_choice") or "auto"
    metadata = given if isinstance(given := body.get("metadata"), dict) else {}
    return {
        "id": f"resp_{seed[:24]}",
        "object": "response",
        "created_at": CREATED_AT,
        "status": status,
        "background": False,
        "completed_at": CREATED_AT if status == "completed" else None,
        "error": None,
        "incomplete_details": incomplete,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "max_tool_calls": None,
        "model": OFFLINE_MODEL,
        "output": output,
        "parallel_tool_calls": conv.parallel_tool_calls,
        "previous_response_id": body.get("previous_response_id"),
        "reasoning": None,
        "service_tier": "default",
        "store": body.get("store") is not False,
        "temperature": body.get("temperature", 1.0),
        "text": {"format": (body.get("text") or {}).get("format") or {"type": "text"},
                 "verbosity": (body.get("text") or {}).get("verbosity") or "medium"},
        "tool_choice": choice,
        "tools": tools,
        "top_p": body.get("top_p", 1.0),
        "truncation": body.get("truncation") or "disabled",
        "usage": {"input_tokens": tokens_in, "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
                  "output_tokens": tokens_out, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": tokens_in + tokens_out},
        "metadata": {**metadata, "offline_model": "rule-based stand-in; usage counted with cl100k_base"},
        **({"conversation": body["conversation"]} if isinstance(body.get("conversation"), dict) else {}),
    }


# ---------------------------------------------------------------------------------------------------
# Chat Completions API

def parse_chat(body: dict, fault: str | None = None) -> Conversation:
    """Read a /v1/chat/completions body into the conversation the rules read: through the door (door.py), then
    as a Responses body (`parse_responses`), so both APIs are read by one pipeline.

    Example:
        >>> parse_chat({"model": "m", "messages": [{"role": "user", "content": "Hi"}]}).question
        'Hi'
    """
    return parse_responses(chat_as_responses(body), fault)[0]


def render_chat(body: dict, decision: Decision, seed: str, cache: PromptCache | None = None,
                converted: dict | None = None) -> dict:
    """The `chat.completion` object for a decision. Its usage counts the request's prompt as the door turned it
    (`converted`, door.chat_as_responses; made here when not given), of which `cache` says how much is cached
    (and remembers it).

    Example:
        >>> body = {"model": "offline-rules-v1", "messages": [{"role": "user", "content": "Hello"}]}
        >>> render_chat(body, Decision(text="Hi"), "s1")["choices"][0]["message"]["content"]
        'Hi'
    """
    message: dict = {"role": "assistant", "content": None, "refusal": None, "annotations": []}
    produced = []
    finish, cut_at = "stop", None
    if decision.calls:
        message["tool_calls"] = [
            {"id": f"call_{_sub_id(seed, 'call', i)}", "type": "function",
             "function": {"name": name, "arguments": arguments}}
            for i, (name, arguments) in enumerate(decision.calls)]
        produced = [name + arguments for name, arguments in decision.calls]
        # As OpenAI does: a call the request forced by naming the function ends with "stop", not
        # "tool_calls", so code that trusts finish_reason alone misses it (read message.tool_calls).
        forced = isinstance(body.get("tool_choice"), dict) and body["tool_choice"].get("type") == "function"
        finish = "stop" if forced else "tool_calls"
    else:
        text, cut_at = _cut(decision.text or "", body.get("max_completion_tokens") or body.get("max_tokens"))
        finish = "stop" if cut_at is None else "length"
        message["content"] = text
        produced = [text]
    prompt = responses_prompt(converted if converted is not None else chat_as_responses(body))
    tokens_in, cached, tokens_out = usage_counts(prompt, produced, cache, cut_at)
    return {
        "id": f"chatcmpl-{seed[:24]}",
        "object": "chat.completion",
        "created": CREATED_AT,
        "model": OFFLINE_MODEL,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out, "total_tokens": tokens_in + tokens_out,
                  "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                                "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}},
        "service_tier": "default",
    }


# ---------------------------------------------------------------------------------------------------
# Models

def model_object() -> dict:
    """The one model the offline server lists.

    Example:
        >>> model_object()["id"]
        'offline-rules-v1'
    """
    return {"id": OFFLINE_MODEL, "object": "model", "created": CREATED_AT, "owned_by": "offline"}


def models_list() -> dict:
    """The body of GET /v1/models.

    Example:
        >>> models_list()["data"][0]["id"]
        'offline-rules-v1'
    """
    return {"object": "list", "data": [model_object()]}
