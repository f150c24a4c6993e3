"""The finishing steps of a decision (engine.FINISH): what the rules decided, put in the form the request asks for.

- `in_form`: a text answer in the form the instructions ask for: one of their labels (or the injection
  detector's), else cut to their word and sentence limits, with a closing question if they ask for one;
- `answer_tool`: a call forced on every turn (`tool_choice` "required", a named function, `allowed_tools`
  "required"), or an offered tool that takes the final answer ("final_result"): the text answer becomes that
  call's arguments, filled by structured.py (a forced search tool gets a keyword query instead);
- `formatted`: a response format (`text.format` / `response_format` json_schema or json_object, or a JSON
  schema written into the instructions): the text answer as JSON that fits it (structured.py);
- `with_fault`: the fault modes that live in the model itself (bad arguments, an unknown tool, never stopping).

Each takes the request's Reading and the decision, and returns the decision finished. What it leaves out on
purpose: deciding anything. A step changes how an answer is given, never what it rests on.
"""

from __future__ import annotations

from dataclasses import replace

from helpers.offline.arguments import (
    answer_fit,
    entities_for,
    fill_arguments,
    is_reply_tool,
    is_search_like,
    required_string_params,
)
from helpers.offline.conversation import Conversation, Decision, Tool, to_json
from helpers.offline.injection import detected_label
from helpers.offline.instructions import fit
from helpers.offline.reading import Reading
from helpers.offline.search_policy import keyword_query, keywords
from helpers.offline.structured import Facts, SchemaError, fill, structured_text
from helpers.offline.text import words


def answer_tool(reading: Reading, decision: Decision) -> Decision:
    limits = reading.constraints
    if decision.text is not None and (limits.must_call or limits.reply_tools):
        # A call is forced on every turn, also after the tool results, and an offered tool that takes
        # the final answer is how the answer is given: the answer goes into a call.
        return _forced_call(reading.conv, decision, limits.offered if limits.must_call else limits.reply_tools)
    return decision


def formatted(reading: Reading, decision: Decision) -> Decision:
    return _as_json(reading, decision) if decision.text is not None else decision


def _as_json(reading: Reading, decision: Decision) -> Decision:
    """A text answer in the format asked for: JSON that fits the `text.format` / `response_format`
    schema, or that fits a JSON schema the instructions give ("respond with a JSON object compatible with
    this schema: ..."), which also shapes a plain `json_object` answer. Otherwise the text as it is.

    Example:
        >>> _as_json(Reading(Conversation(output_format={"type": "json_object"})), Decision(text="Yes.")).text
        '{"answer": "Yes."}'
    """
    conv, facts = reading.conv, _facts(decision)
    output_format = conv.output_format or {}
    kind = output_format.get("type")
    if kind == "json_schema":
        return replace(decision, text=structured_text(output_format, facts))
    prompted = reading.prompted_schema
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


def in_form(reading: Reading, decision: Decision) -> Decision:
    """A text answer in the form the instructions ask for (instructions/form.py): one of the labels
    they name, whatever path the answer took; else cut to their word and sentence limits, ending with a
    closing question if they ask for one. JSON comes after, in `formatted`.

    Example:
        >>> in_form(Reading(Conversation(instructions="Answer in two sentences.")),
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


# --- faults ------------------------------------------------------------------------------------------

def with_fault(reading: Reading, decision: Decision) -> Decision:
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
