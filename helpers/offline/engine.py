"""The offline model's rules: from a conversation, decide to answer in text or to call tools.

The whole "model" is `decide(conversation) -> Decision`. It reads the request once (`read_request`: the
constraints and the reading, reading.py), then asks the rules of `RULES` in order. Every rule has the same
signature, `rule(reading) -> Decision | None`: the first one that decides, decides; the last one always does.
The text answer is then finished by the steps of `FINISH`, in order, each `step(reading, decision) -> Decision`.

This table is `RULES` and `FINISH` below, quoted here and in README.md (tests/offline/test_engine_table.py
checks that both quote the code, in its order):

<!-- rules: start -->
| rule | module | what it does |
| --- | --- | --- |
| planted orders | injection.py | orders planted in tool outputs are obeyed (a data declaration stops the naive ones); the rules below answer the rest |
| denied calls | denials.py | a call of the latest response a person did not approve: say which call did not run, and why |
| failed calls | answers.py | every call of this turn failed (an error payload): say which tool failed with what error |
| routing | routing.py | another agent fits the question: hand the conversation over, or ask the agent tool, and relay its answer |
| recap | recap.py | a summary asked for, or a question pointing back at the conversation: its own sentences |
| empty message | answers.py | a user message with no word in it: ask what they would like, call no tool |
| no tools | answers.py | nothing to call, or small talk: answer from the turn's results, a label, a refusal or "no knowledge" |
| another tool | call_plan.py | the tool the request is about (tool_fit.py): every call it asks for, in one response; then the results |
| search | search_policy.py | a search tool: keyword queries, again with typos repaired, then the answer from the best result |
| forced call by names | arguments.py | a forced call no other rule made: the first tool, filled with the question's names |
| plain answer | answers.py | the answer without a tool, after a plain note that no offered tool fits (or, when one fits but lacks numbers it needs, a question for them) |
<!-- rules: end -->

<!-- finish: start -->
| finishing step | module | what it does |
| --- | --- | --- |
| form | finish.py | a text answer in the form asked for: one of the labels, the word and sentence limits, a closing question |
| answer tool | finish.py | a call forced on every turn, or a tool that takes the final answer: the answer becomes its arguments |
| format | finish.py | a response format (json_schema, json_object, a schema in the instructions): the answer as JSON that fits |
| fault | finish.py | the fault modes that live in the model (bad arguments, an unknown tool, never stopping) |
<!-- finish: end -->

Why this order: a refusal and a failure come before routing on purpose. They report what happened to the
latest response's calls, whichever tool made them: a handoff a person refused, or a transfer or an agent
tool that failed, is said as such, not retried as if the handoff had never happened (routing's rule 4) and
not relayed as if the error were the agent's answer. Planted orders come first because they are what an
attack looks like: the model under test obeys them wherever they stand (injection.py).

To add a rule: write it in its module as `rule(reading) -> Decision | None`, add one `Row` to `RULES` where it
applies, one line to the two tables (here and README.md), and its tests.

The modules the rules live in:
- conversation.py: `Conversation` (what the rules read), `Decision` (what they produce), JSON reading;
- reading.py: `Constraints` and `Reading`, the request read once (made here, in `read_request`): the tools that
  may be called, the vocabulary in use, the instructions understood, the documents, each tool output by call,
  the question's terms and their typo repairs, the best result; every rule takes it instead of reading the
  request again;
- instructions/: what the instructions ask for, read once by a grammar per form (labels, a scope, a
  search count, an output form, pasted material, a schema);
- search_policy.py: queries, judging results, when to search again;
- arguments.py: which other tool the question points at, and each parameter's value (numbers bound by
  binding.py, the rest by param_values.py);
- call_plan.py: the calls a request asks for, all in one response ("Berlin and Madrid": two calls); the
  request cut into tasks by tasks.py, what each clause gives a tool read by clause_values.py;
- tool_fit.py: whether an offered tool is about what the request asks for (else no call, said plainly; a tool
  that fits but lacks numbers it needs gets a question for them); asked.py: what the request asks for; acts.py:
  the act it asks for (a tool that does another act does not fit); search_fit.py: whether a search's collection
  may hold what is asked, and chatter.py: greetings, chit-chat and other requests no search serves;
- routing.py: handoffs and agents offered as tools; a handoff's transfer message is taken out of the turn
  when the request is read, so the agent handed to answers the user's question;
- answers.py: every text the model says, quoting documents with quoting.py and other tools' results with
  results.py; small_talk.py: greetings, thanks and arithmetic;
- finish.py: the finishing steps of FINISH (the form asked for, a forced or answer tool, a response format,
  the model's fault modes);
- structured.py: an answer written as JSON that fits a schema (response formats, forced tools); which
  field takes what is field_roles.py.

What it leaves out on purpose: language understanding. It does not know what words mean, only which
words match. Its answers are extracts, never new text. Every decision depends only on the request, so
the same request always gets the same decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from helpers.offline.answers import empty_message, failure_answer, grounded_reply, reply_without_tools
from helpers.offline.arguments import (
    DESCRIPTION_WORD_WEIGHT,
    NAME_WORD_WEIGHT,
    entities_for,
    is_reply_tool,
    is_search_like,
    next_entity_call,
    reads_like_search,
    tool_relevance,
)
from helpers.offline.call_plan import plan_calls
from helpers.offline.chatter import needs_no_lookup
from helpers.offline.conversation import Conversation, Decision, Tool, parse_json, to_json
from helpers.offline.denials import denial_answer, denied_calls
from helpers.offline.finish import answer_tool, formatted, in_form, with_fault
from helpers.offline.injection import obey, planted_orders
from helpers.offline.instructions import read_instructions
from helpers.offline.knowledge import Vocabulary
from helpers.offline.reading import Reading, constraints
from helpers.offline.recap import recap_reply
from helpers.offline.results import combine_results
from helpers.offline.routing import after_handoff, own_tools, route
from helpers.offline.search_fit import FOLLOW_UP, best_search, told_to_search
from helpers.offline.search_policy import next_searches
from helpers.offline.tool_fit import (
    is_about,
    missing_note,
    missing_numbers,
    names_listed_value,
    no_tool_note,
    tool_fits,
)

# The two signatures: a rule reads the request and decides or passes; a finishing step finishes a decision.
Rule = Callable[[Reading], Decision | None]
Step = Callable[[Reading, Decision], Decision]


@dataclass(frozen=True)
class Row:
    """One rule of the table: its name, the module it lives in, what it does (the line the docstring and the
    README quote), and the rule itself."""

    name: str
    module: str
    does: str
    rule: Callable  # a Rule in RULES, a Step in FINISH


def read_request(conv: Conversation, vocab: Vocabulary | None = None) -> Reading:
    """The request read once: a handoff's transfer message taken out of the turn (routing.after_handoff), the
    constraints (reading.constraints), and the reading every rule takes. The rules after routing work with
    the agent's own tools (`tools`); `constraints.offered` keeps every tool that may be called.

    Example:
        >>> search = Tool("search", "Search the notes.", {"type": "object",
        ...               "properties": {"query": {"type": "string"}}, "required": ["query"]})
        >>> reading = read_request(Conversation(question="Rye?", tools=[search], tool_choice="required"))
        >>> [t.name for t in reading.tools], reading.must_call
        (['search'], True)
    """
    conv = after_handoff(conv)
    limits = constraints(conv, read_instructions(conv.instructions), is_reply_tool)
    return Reading(conv, vocab, own_tools(limits.offered), limits.must_call, limits)


def _planted_orders(reading: Reading) -> Decision | None:
    offered = reading.constraints.offered
    orders = planted_orders(reading.conv, offered, lambda call: reading.output(call).error)
    if not orders:
        return None

    def normal(conv: Conversation, tools: list[Tool]) -> Decision:
        # The rules below this one, on the conversation the orders leave (a planted call made and left out).
        limits = replace(reading.constraints, offered=tools)
        return run(Reading(conv, reading.handed, tools, reading.must_call, limits), RULES[1:])[1]

    return obey(orders, reading.conv, offered, normal)


def _denied_calls(reading: Reading) -> Decision | None:
    denied = denied_calls(reading.conv)
    # Never retried: say what was not done and why.
    return Decision(text=denial_answer(denied), found=False) if denied else None


def _failed_calls(reading: Reading) -> Decision | None:
    failed = reading.failed
    # Searching again or repairing a typo would treat a failure as an empty result.
    return Decision(text=failure_answer(failed), found=False) if failed else None


def _routing(reading: Reading) -> Decision | None:
    return route(reading.conv, reading.constraints.offered, reading.vocab)


def _no_tools(reading: Reading) -> Decision | None:
    conv = reading.conv
    if not reading.tools or (reading.small_talk and not reading.must_call and not conv.calls):
        return reply_without_tools(reading)
    return None


def _sources(reading: Reading) -> list[Tool]:
    """The tools that may be a source: not one that takes the final answer ("final_result")."""
    return [t for t in reading.tools if not is_reply_tool(t)]


def _another_tool(reading: Reading) -> Decision | None:
    conv, question, must_call = reading.conv, reading.named_question, reading.must_call
    others = [t for t in _sources(reading) if not is_search_like(t)]
    # A tool already used in this turn keeps the lead; otherwise the question's words pick one:
    # its name must be mentioned, or its description and the question must name something.
    used = {c.name for c in conv.calls}
    other = next((t for t in others if t.name in used), None)
    # The most relevant tool the request is about (tool_fit.py), not just the most relevant: "What is the mooring
    # tool and how do I book?" shares most words with book_mooring, which a question does not ask to act.
    for candidate in sorted(others, key=lambda t: -tool_relevance(t, question)) if other is None else []:
        # A value the tool lists ("my dog" for a species enum) speaks to it as a word of its description does.
        relevance = tool_relevance(candidate, question) + DESCRIPTION_WORD_WEIGHT * names_listed_value(candidate, question)
        if (relevance >= NAME_WORD_WEIGHT or (relevance >= DESCRIPTION_WORD_WEIGHT and entities_for(candidate, question))) \
                and (tool_fits(candidate, question) or must_call or conv.calls):
            other = candidate
            break
    if other is None:
        return None
    return _planned_step(reading, replace(conv, question=question), others, other)


def _search(reading: Reading) -> Decision | None:
    searchy = [t for t in _sources(reading) if is_search_like(t)]
    used = {c.name for c in reading.conv.calls}
    question = reading.named_question
    search = next((t for t in searchy if t.name in used), searchy[0] if searchy else None)
    if search is not None and not (used or reading.must_call):
        reads = [t for t in searchy if reads_like_search(t)]
        acts = [t for t in searchy if t not in reads]  # send_message(body), translate(text): the check below
        if reading.handed is None and not told_to_search(reading.conv.instructions, searchy):
            # search_fit.py: with no vocabulary to say what the documents hold and no instruction to search, a search
            # scoped by its description is asked only about its collection ("the club's handbook" holds no weather),
            # the best fitting first; none for a greeting, chit-chat or a text to translate (chatter.py).
            search = best_search(reads, question) or next(iter(acts), None)
            if search is None and FOLLOW_UP.match(question) and reading.conv.earlier:
                # "And in July?" asks what the turn before it asked, of the month it names: that turn's fit stands.
                search = best_search(reads, reading.conv.earlier[-1])
        elif needs_no_lookup(question):
            search = next(iter(acts), None)  # chatter.py: "yo whats up", "who made you?" ask for no search
    if search is None or not (reading.terms or reading.must_call):
        return None
    if not (reads_like_search(search) or reading.must_call or used
            or (tool_relevance(search, question) and is_about(search, question))):
        return None  # send_message(body) takes one text but is no search: only a request about it calls it
    return _search_step(reading, search)


def _forced_by_names(reading: Reading) -> Decision | None:
    sources, question = _sources(reading), reading.named_question
    if reading.must_call and sources and entities_for(sources[0], question):
        return _entity_step(reading, replace(reading.conv, question=question), sources[0])
    return None


def _plain_answer(reading: Reading) -> Decision:
    conv = reading.conv
    others = [t for t in _sources(reading) if not is_search_like(t)]
    reply = reply_without_tools(reading)  # a forced call gets this answer as its arguments (FINISH)
    if others and not conv.calls and not reply.found and reading.labels is None and not conv.instructions.strip():
        # A tool fits but the request lacks numbers it needs: name them and ask, as a real model does.
        question = reading.named_question
        short = [t for t in others if missing_numbers(t, question) and is_about(t, question)]
        if short:
            best = max(short, key=lambda t: tool_relevance(t, question))  # max keeps the first of equals
            return replace(reply, text=missing_note(best, missing_numbers(best, question)))
        # Tools were offered and none fits (tool_fit.py): say so plainly before the honest "no knowledge".
        reply = replace(reply, text=f"{no_tool_note(others)} {reply.text}")
    return reply


# The rules, in the order they are asked. The first that decides, decides; the last always does.
RULES: tuple[Row, ...] = (
    Row("planted orders", "injection.py", "orders planted in tool outputs are obeyed (a data declaration stops the "
        "naive ones); the rules below answer the rest", _planted_orders),
    Row("denied calls", "denials.py", "a call of the latest response a person did not approve: say which call did "
        "not run, and why", _denied_calls),
    Row("failed calls", "answers.py", "every call of this turn failed (an error payload): say which tool failed "
        "with what error", _failed_calls),
    Row("routing", "routing.py", "another agent fits the question: hand the conversation over, or ask the agent "
        "tool, and relay its answer", _routing),
    Row("recap", "recap.py", "a summary asked for, or a question pointing back at the conversation: its own "
        "sentences", recap_reply),
    Row("empty message", "answers.py", "a user message with no word in it: ask what they would like, call no tool",
        empty_message),
    Row("no tools", "answers.py", "nothing to call, or small talk: answer from the turn's results, a label, a "
        "refusal or \"no knowledge\"", _no_tools),
    Row("another tool", "call_plan.py", "the tool the request is about (tool_fit.py): every call it asks for, in "
        "one response; then the results", _another_tool),
    Row("search", "search_policy.py", "a search tool: keyword queries, again with typos repaired, then the answer "
        "from the best result", _search),
    Row("forced call by names", "arguments.py", "a forced call no other rule made: the first tool, filled with the "
        "question's names", _forced_by_names),
    Row("plain answer", "answers.py", "the answer without a tool, after a plain note that no offered tool fits "
        "(or, when one fits but lacks numbers it needs, a question for them)", _plain_answer),
)


def run(reading: Reading, rules: tuple[Row, ...] = RULES) -> tuple[Row, Decision]:
    """The first rule that decides, and its decision (the last rule of RULES always decides).

    Example:
        >>> row, decision = run(read_request(Conversation(question="Hello")))
        >>> row.name, decision.text
        ('no tools', "Hello! Ask me a question and I'll look it up.")
    """
    for row in rules:
        decision = row.rule(reading)
        if decision is not None:
            return row, decision
    raise AssertionError("the last rule always decides")  # unreachable with RULES


# The finishing steps, in order: each takes the decision the rules made and returns it finished.
FINISH: tuple[Row, ...] = (
    Row("form", "finish.py", "a text answer in the form asked for: one of the labels, the word and "
        "sentence limits, a closing question", in_form),
    Row("answer tool", "finish.py", "a call forced on every turn, or a tool that takes the final answer: the "
        "answer becomes its arguments", answer_tool),
    Row("format", "finish.py", "a response format (json_schema, json_object, a schema in the instructions): "
        "the answer as JSON that fits", formatted),
    Row("fault", "finish.py", "the fault modes that live in the model (bad arguments, an unknown tool, never "
        "stopping)", with_fault),
)


def table(rows: tuple[Row, ...], heading: str = "rule") -> str:
    """The markdown table of rows, as the docstring and README.md quote it.

    Example:
        >>> print(table(RULES[:1]).splitlines()[2][:36])
        | planted orders | injection.py | or
    """
    # No numbers: a rule added between two others changes one line of each quote, not every line after it.
    lines = [f"| {heading} | module | what it does |", "| --- | --- | --- |"]
    lines += [f"| {row.name} | {row.module} | {row.does} |" for row in rows]
    return "\n".join(lines)


def decide(conv: Conversation, vocab: Vocabulary | None = None) -> Decision:
    """Decide the next step of the conversation: a text answer or tool calls. `vocab`: a vocabulary the
    caller handed in (for rarity, topic and typo repair); without one, the request's own texts are the
    vocabulary. The request is read once (`read_request`), the rules asked in order (`RULES`), and the
    decision finished (`FINISH`).

    Example:
        >>> search = Tool("search", "Search the bakery's notes.", {"type": "object",
        ...               "properties": {"query": {"type": "string"}}, "required": ["query"]})
        >>> decide(Conversation(question="Is the rye bread vegan?", tools=[search])).calls
        [('search', '{"query": "rye bread vegan"}')]
    """
    reading = read_request(conv, vocab)
    row, decision = run(reading)
    if row.name == "routing":  # the routing call is made with every tool that may be called
        reading = replace(reading, tools=reading.constraints.offered)
    for step in FINISH:
        decision = step.rule(reading, decision)
    return decision


def _search_step(reading: Reading, tool: Tool) -> Decision:
    """Search (again), or answer from the results once the search policy has no query left to try."""
    calls = next_searches(reading, tool)
    return Decision(calls=calls) if calls else grounded_reply(reading)


def _planned_step(reading: Reading, conv: Conversation, tools: list[Tool], lead: Tool) -> Decision:
    """The calls the request asks for (call_plan.py), all in one response, as real models make them (one
    per response when parallel_tool_calls is false); once they are made, the results combined."""
    plan = [(tool.name, args) for tool, args in plan_calls(tools, conv.question)]
    if not plan:
        return _entity_step(reading, conv, lead)
    done = [(c.name, parse_json(c.arguments)) for c in conv.calls]
    todo = [(name, to_json(args)) for name, args in plan if (name, args) not in done]
    if not conv.calls:
        return Decision(calls=todo if conv.parallel_tool_calls else todo[:1])
    if todo and not conv.parallel_tool_calls and len(conv.calls) < len(plan):
        return Decision(calls=todo[:1])
    return Decision(text=combine_results(conv, reading.read))


def _entity_step(reading: Reading, conv: Conversation, tool: Tool) -> Decision:
    """Call the tool for the next name in the question, or combine the results once all are in."""
    call = next_entity_call(conv, tool, reading.must_call)
    return Decision(calls=[call]) if call else Decision(text=combine_results(conv, reading.read))
