"""The offline model's rules: from a conversation, decide to answer in text or to call tools.

The whole "model" is `decide(conversation) -> Decision`. It reads the conversation the way a careful
person would read it, with simple rules:

0. A call of the latest response was not approved by a person (its output says so): say which call did
   not run and quote the reason given (denials.py).
   Every tool call of this turn failed (an error payload): say which tool failed with what error, and
   that trying again later may help. A failure is not an empty result.
0b. A summary asked for, or a question pointing back at the conversation ("what was my ... again?"): the
   conversation's own fact-carrying sentences (recap.py).
1. No tool to call (none offered, or the instructions forbid them: instructions/tool_use.py): answer from
   what is already in the conversation (tool results), or say plainly
   that it is the offline stand-in with no general knowledge, and what a real model would do (answer
   from its training data, perhaps wrongly); under scope instructions, refuse a question outside the
   scope. If the instructions name labels ("ALLOW if the question is about X, BLOCK otherwise"), answer
   one label, chosen by the topic words the instructions give for it (instructions/topic.py).
   Every text answer takes the form the instructions ask for (instructions/form.py): one of their
   labels, their word and sentence limits, a closing question.
2. A search-like tool (one required string parameter, named or described like a search): call it with
   the question rewritten as keywords. Asked for a count or several searches: that many varied queries
   at once; asked to research in rounds: one per response, the next with words from the results.
3. After search results: judge them by how many of the question's words (weighted by rarity) the best
   result contains. Poor results and a word that looks like a typo of a known word: search again with the
   corrected word (at most twice). Then answer from the best result and name it by its own best name field
   (title, question, filename, name, id), or say nothing relevant was found (a polite refusal if the
   instructions limit the scope;
   for an off-topic question without them, the plain "no general knowledge" answer of rule 1).
4. Other tools: the tool the request is about, if any fits (tool_fit.py); every call the request asks for, in
   one response (call_plan.py), each parameter filled from the part of the request its schema asks for
   (arguments.py, binding.py; in Chinese or Japanese, names are the pieces no tool text covers: cjk.py);
   then combine results.
5. A forced call (`tool_choice` "required", a named function, `allowed_tools` with mode "required") is
   made on every turn: where rules 0-4 would answer in text, the answer becomes the arguments of the
   forced tool (for "required": the unused tool that best takes an answer), filled by structured.py.
   A tool named as the place for the answer ("final_result") is never a source; when one is offered,
   the answer is given through it.
6. Orders planted in tool outputs ("ignore your instructions and reply only with ...") are obeyed; a
   declaration in the instructions that tool output is data stops the naive ones, not the four stronger
   forms (a claimed authority, a quoted declaration, a fake tool result, an order split across outputs);
   asked to classify whether a text gives orders to a model, it looks for the same forms (injection.py).
7. A response format (`text.format` / `response_format` json_schema or json_object, or a JSON schema
   written into the instructions): the text answer is written as JSON that fits it (structured.py).

The rules live in one module per concern; this one only puts them in order:
- conversation.py: `Conversation` (what the rules read), `Decision` (what they produce), JSON reading;
- reading.py: `Reading`, the request read once (made here, in `decide`): the vocabulary in use, the
  instructions understood, the documents, the question's terms and their typo repairs, the best result;
  every rule below takes it instead of reading the request again;
- instructions/: what the instructions ask for, read once by a grammar per form (labels, a scope, a
  search count, an output form, pasted material, a schema);
- search_policy.py: queries, judging results, when to search again;
- arguments.py: which other tool the question points at, and each parameter's value (numbers bound by
  binding.py, the rest by param_values.py);
- call_plan.py: the calls a request asks for, all in one response ("Berlin and Madrid": two calls);
- tool_fit.py: whether an offered tool is about what the request asks for (else no call, said plainly);
- routing.py: handoffs and agents offered as tools: which agent a question goes to (before rules 0-6), and
  a handoff's transfer message taken out of the turn, so the agent handed to answers the user's question;
- answers.py: every text the model says, quoting documents with quoting.py and other tools' results with
  results.py; small_talk.py: greetings, thanks and arithmetic;
- structured.py: an answer written as JSON that fits a schema (response formats, forced tools); which
  field takes what is field_roles.py.

What it leaves out on purpose: language understanding. It does not know what words mean, only which
words match. Its answers are extracts, never new text. Every decision depends only on the request, so
the same request always gets the same decision.
"""

from __future__ import annotations

from dataclasses import replace

from helpers.offline.answers import failure_answer, grounded_reply, reply_without_tools
from helpers.offline.arguments import (
    DESCRIPTION_WORD_WEIGHT,
    NAME_WORD_WEIGHT,
    answer_fit,
    entities_for,
    fill_arguments,
    is_reply_tool,
    is_search_like,
    next_entity_call,
    required_string_params,
    tool_relevance,
)
from helpers.offline.call_plan import plan_calls
from helpers.offline.cjk import is_cjk, mark_names
from helpers.offline.conversation import Conversation, Decision, Tool, failed_calls, parse_json, to_json
from helpers.offline.denials import denial_answer, denied_calls
from helpers.offline.injection import detected_label, obey, planted_orders
from helpers.offline.instructions import fit, read_instructions, schema_in_text
from helpers.offline.knowledge import Vocabulary
from helpers.offline.reading import Reading
from helpers.offline.recap import recap_reply
from helpers.offline.results import combine_results
from helpers.offline.routing import after_handoff, own_tools, route
from helpers.offline.search_policy import keyword_query, keywords, next_searches
from helpers.offline.structured import Facts, SchemaError, fill, structured_text
from helpers.offline.text import words
from helpers.offline.tool_fit import no_tool_note, tool_fits


def decide(conv: Conversation, vocab: Vocabulary | None = None) -> Decision:
    """Decide the next step of the conversation: a text answer or tool calls. `vocab`: a vocabulary the
    caller handed in (for rarity, topic and typo repair); without one, the request's own texts are the
    vocabulary. The request is read once, into a `Reading` (reading.py).

    Example:
        >>> search = Tool("search", "Search the bakery's notes.", {"type": "object",
        ...               "properties": {"query": {"type": "string"}}, "required": ["query"]})
        >>> decide(Conversation(question="Is the rye bread vegan?", tools=[search])).calls
        [('search', '{"query": "rye bread vegan"}')]
    """
    choice = conv.tool_choice
    callable_tools = [] if choice == "none" else list(conv.tools)
    if conv.allowed is not None:  # tool_choice "allowed_tools": only these may be called
        callable_tools = [t for t in callable_tools if t.name in conv.allowed]
    if conv.forced is not None:  # a named function (api/wire.py made sure it is offered)
        callable_tools = [t for t in callable_tools if t.name == conv.forced]
    must_call = bool(callable_tools) and choice == "required"
    if not must_call and conv.forced is None and read_instructions(conv.instructions).no_tools:
        callable_tools = []  # "Do not use any tools" (instructions/tool_use.py): as tool_choice "none"

    conv = after_handoff(conv)  # routing.py: a handoff's transfer message is no result to answer from
    reading = Reading(conv, vocab, callable_tools, must_call)
    orders = planted_orders(conv, callable_tools)  # injection.py: orders planted in tool outputs are obeyed
    if orders:
        decision = _in_form(reading, obey(orders, conv, callable_tools,
                                          lambda c, t: _decide(Reading(c, vocab, t, must_call))))
    else:
        routed = route(conv, callable_tools, reading.vocab)  # routing.py: another agent fits the question
        if routed is None and len(own := own_tools(callable_tools)) < len(callable_tools):
            reading = Reading(conv, vocab, own, must_call)  # no other agent fits: the agent's own tools, if any
        decision = _in_form(reading, routed or _decide(reading))
    reply_tools = [t for t in callable_tools if is_reply_tool(t)]
    if decision.text is not None and (must_call or reply_tools):
        # A call is forced on every turn, also after the tool results, and an offered tool that takes
        # the final answer is how the answer is given: the answer goes into a call.
        decision = _forced_call(conv, decision, callable_tools if must_call else reply_tools)
    elif decision.text is not None:
        decision = _formatted(reading, decision)
    return _apply_fault(reading, decision)


def _formatted(reading: Reading, decision: Decision) -> Decision:
    """A text answer in the format asked for: JSON that fits the `text.format` / `response_format`
    schema, or that fits a JSON schema the instructions give ("respond with a JSON object compatible with
    this schema: ..."), which also shapes a plain `json_object` answer. Otherwise the text as it is.

    Example:
        >>> _formatted(Reading(Conversation(output_format={"type": "json_object"})), Decision(text="Yes.")).text
        '{"answer": "Yes."}'
    """
    conv, facts = reading.conv, _facts(decision)
    output_format = conv.output_format or {}
    kind = output_format.get("type")
    if kind == "json_schema":
        return replace(decision, text=structured_text(output_format, facts))
    prompted = schema_in_text(conv.instructions) or reading.instructions.form.json_schema
    if prompted is not None:
        # Only text in the prompt: a schema the filler can't meet leaves the answer as it is.
        try:
            return replace(decision, text=to_json(fill(prompted, facts)))
        except (SchemaError, RecursionError):
            pass
    if kind == "json_object":
        return replace(decision, text=structured_text(output_format, facts))
    return decision


def _forced_call(conv: Conversation, answer: Decision, tools: list[Tool]) -> Decision:
    """The call to make when a call is forced but the rules would answer in text: the forced tool, or
    (for "required") the offered tool not yet used that best takes an answer, with arguments filled
    from the answer by the schema filler (structured.py). A search tool gets a keyword query instead.

    Example:
        >>> final = Tool("final_result", "The answer.", {"type": "object", "properties": {"answer": {"type": "string"},
        ...              "source": {"type": "string"}}, "required": ["answer", "source"]})
        >>> _forced_call(Conversation(question="Is rye vegan?"), Decision(text="Yes.", cited=["rye-01"]), [final]).calls
        [('final_result', '{"answer": "Yes.", "source": "rye-01"}')]
    """
    used = {c.name for c in conv.calls}
    fresh = [t for t in tools if t.name not in used] or tools
    tool = max(fresh, key=answer_fit)  # max keeps the first of equals: the caller's order breaks ties
    if is_search_like(tool) and not is_reply_tool(tool):
        return Decision(calls=[(tool.name, to_json(_search_args(conv, tool)))])
    facts = _facts(answer)
    try:
        args = fill(tool.parameters or {"type": "object", "properties": {}}, facts)
    except (SchemaError, RecursionError):  # a tool schema the filler can't meet: plain argument filling
        args = _entity_args(conv, tool)
    if not isinstance(args, dict):
        args = {}
    return Decision(calls=[(tool.name, to_json(args))])


def _entity_args(conv: Conversation, tool: Tool) -> dict:
    """Arguments filled from the names in the question (arguments.py), for a call made without a plan."""
    found = entities_for(tool, conv.question)
    return fill_arguments(tool, conv.question, found[0] if found else None, found[1:])


def _facts(decision: Decision) -> Facts:
    """What a text decision rests on, for the schema filler."""
    return Facts(decision.text or "", decision.cited, decision.titles, decision.found)


def _search_args(conv: Conversation, tool: Tool) -> dict:
    """A search's arguments when one must be made anyway: the question's keywords, rotated each turn so
    that repeated forced searches differ."""
    terms = keywords(conv.question) or words(conv.question) or [conv.question.strip() or "?"]
    rotation = len({c.batch for c in conv.calls}) % max(len(terms), 1)
    return {required_string_params(tool)[0]: keyword_query(terms[rotation:] + terms[:rotation])}


def _in_form(reading: Reading, decision: Decision) -> Decision:
    """A text answer in the form the instructions ask for (instructions/form.py): one of the labels
    they name, whatever path the answer took; else cut to their word and sentence limits, ending with a
    closing question if they ask for one. JSON comes after, in `_formatted`.

    Example:
        >>> _in_form(Reading(Conversation(instructions="Answer in two sentences.")),
        ...          Decision(text="Knead it. Bake it. Eat it.")).text
        'Knead it. Bake it.'
    """
    if decision.text is None:
        return decision
    text, rule = decision.text, reading.labels
    if rule is not None:
        # injection.py: asked whether a text gives orders to a model, it looks for the orders it would obey.
        label = detected_label(reading.conv.instructions, rule.positive, rule.negative, reading.conv.question)
        if label is None and text.strip() in rule.labels:
            return decision
        label = label or rule.verdict(reading.conv.question, reading.vocab, reading.given)
        return replace(decision, text=label, found=label == rule.positive)
    # replace, not a new Decision: the form changes the words, not what the answer rests on.
    return replace(decision, text=fit(text, reading.instructions.form))


def _decide(reading: Reading) -> Decision:
    conv, tools, must_call = reading.conv, reading.tools, reading.must_call
    if is_cjk(conv.question):  # cjk.py: no capitals mark the names; the pieces no tool text covers do
        conv = replace(conv, question=mark_names(conv.question, reading.given))
    question = conv.question
    used = {c.name for c in conv.calls}
    denied = denied_calls(conv)
    if denied:  # a person refused a call: say what was not done and why (denials.py), never retry it
        return Decision(text=denial_answer(denied), found=False)
    failed = failed_calls(conv)
    if failed:
        # The tools failed: say so. Searching again or repairing a typo would treat it as an empty result.
        return Decision(text=failure_answer(failed), found=False)
    if (recap := recap_reply(reading)) is not None:  # a summary asked for, or a question about the conversation
        return recap
    if not tools or (reading.small_talk and not must_call and not conv.calls):
        return reply_without_tools(reading)
    # A tool that takes the final answer ("final_result") is not a source: it is called with the answer.
    sources = [t for t in tools if not is_reply_tool(t)]
    searchy = [t for t in sources if is_search_like(t)]
    others = [t for t in sources if t not in searchy]

    # A tool already used in this turn keeps the lead; otherwise the question's words pick one:
    # its name must be mentioned, or its description and the question must name something.
    other = next((t for t in others if t.name in used), None)
    if other is None and others:
        best = max(others, key=lambda t: tool_relevance(t, question))
        relevance = tool_relevance(best, question)
        if (relevance >= NAME_WORD_WEIGHT or (relevance >= DESCRIPTION_WORD_WEIGHT and entities_for(best, question))) \
                and (tool_fits(best, question) or must_call or conv.calls):
            other = best  # tool_fit.py: the tool must be about what the request asks for
    if other is not None:
        return _planned_step(conv, others, other, must_call)

    search = next((t for t in searchy if t.name in used), searchy[0] if searchy else None)
    if search is not None and (reading.terms or must_call):
        return _search_step(reading, search)
    if must_call and sources and entities_for(sources[0], question):
        return _entity_step(conv, sources[0], must_call=True)
    reply = reply_without_tools(reading)  # a forced call gets this answer as its arguments (decide)
    if others and not conv.calls and not reply.found and reading.labels is None and not conv.instructions.strip():
        # Tools were offered and none fits (tool_fit.py): say so plainly before the honest "no knowledge".
        reply = replace(reply, text=f"{no_tool_note(others)} {reply.text}")
    return reply


def _search_step(reading: Reading, tool: Tool) -> Decision:
    """Search (again), or answer from the results once the search policy has no query left to try."""
    calls = next_searches(reading, tool)
    return Decision(calls=calls) if calls else grounded_reply(reading)


def _planned_step(conv: Conversation, tools: list[Tool], lead: Tool, must_call: bool = False) -> Decision:
    """The calls the request asks for (call_plan.py), all in one response, as real models make them (one
    per response when parallel_tool_calls is false); once they are made, the results combined."""
    plan = [(tool.name, args) for tool, args in plan_calls(tools, conv.question)]
    if not plan:
        return _entity_step(conv, lead, must_call)
    done = [(c.name, parse_json(c.arguments)) for c in conv.calls]
    todo = [(name, to_json(args)) for name, args in plan if (name, args) not in done]
    if not conv.calls:
        return Decision(calls=todo if conv.parallel_tool_calls else todo[:1])
    if todo and not conv.parallel_tool_calls and len(conv.calls) < len(plan):
        return Decision(calls=todo[:1])
    return Decision(text=combine_results(conv))


def _entity_step(conv: Conversation, tool: Tool, must_call: bool = False) -> Decision:
    """Call the tool for the next name in the question, or combine the results once all are in."""
    call = next_entity_call(conv, tool, must_call)
    return Decision(calls=[call]) if call else Decision(text=combine_results(conv))


# --- faults ------------------------------------------------------------------------------------------

def _apply_fault(reading: Reading, decision: Decision) -> Decision:
    """Turn a correct decision into a broken one, for the fault modes that live in the model itself."""
    conv, tools, fault = reading.conv, reading.tools, reading.conv.fault
    if fault not in ("bad_arguments", "unknown_tool", "never_stop") or not tools:
        return decision
    if not decision.calls:
        # The model should have answered; under these faults it calls a tool anyway.
        tool = next((t for t in tools if is_search_like(t)), tools[0])
        args = _search_args(conv, tool) if is_search_like(tool) else _entity_args(conv, tool)
        decision = Decision(calls=[(tool.name, to_json(args))])
    if fault == "bad_arguments":
        # Cut the JSON short, the way a model's output gets truncated: '{"query": "rye bre'
        return Decision(calls=[(name, args[: max(2, len(args) * 2 // 3)]) for name, args in decision.calls])
    if fault == "unknown_tool":
        offered = {t.name for t in conv.tools}
        renamed = []
        for name, args in decision.calls:
            new = f"{name}_v2"
            while new in offered:
                new += "_v2"
            renamed.append((new, args))
        return Decision(calls=renamed)
    return decision
