"""Tools and arguments: which tool a question points at, and what to pass it.

- `is_search_like`: a tool that takes one query string (the search path handles it).
- `tool_relevance`: how strongly the question's words point at a tool (its name, its description; a parameter
  the request names as a key, key_values.py; an identifier shaped like a parameter's example, id_shapes.py).
- `entities`: the names in a question (names.py; named here too, for the modules that read them with arguments).
- `fill_arguments`: one call's arguments: numbers bound by binding.py; for each other parameter the part
  of the question its schema asks for (param_values.py and its siblings: an enum or listed value, a formula, a
  date, an email, an identifier, a code beside its noun, a flag, a unit), else the names in the question, chosen
  by name_choice.py (the words before each name, a place's region); optional parameters the question gives
  nothing for are left out. An identifier of an example's shape comes first, and a value given by the
  parameter's own name ("weeks: 3", "kilnId=K1") replaces whatever the other rules guessed.
- `next_entity_call`: one call per name ("Berlin", then "Madrid"), one per turn, until all are made: the
  fallback when call_plan.py plans no call (a forced call, a tool already used), which plans them all at once.

What it leaves out on purpose: knowing what a name is. "Berlin" fills a `city` parameter because it is
capitalised, not because it is a city; a required parameter the question gives no value for gets its default.
"""
from __future__ import annotations

import re

from helpers.offline.binding import bind_numbers, numeric
from helpers.offline.conversation import Conversation, Tool, parse_json, to_json
from helpers.offline.enum_match import enum_value, enum_values
from helpers.offline.field_roles import name_words, role_scores
from helpers.offline.flags import described_default, flag_in
from helpers.offline.formulas import expression_for
from helpers.offline.id_shapes import shaped_value
from helpers.offline.key_values import keyed_values
from helpers.offline.kinds import kind_value
from helpers.offline.name_choice import (
    PLACE_PARAM,
    left_for,
    named_for,
    noun_after,
    place_aware,
    slot_before,
    with_region,
)
from helpers.offline.names import entities as entities
from helpers.offline.names import entities_for, tool_words, unwrapped
from helpers.offline.noun_phrases import cued, noun_value, phrase_for
from helpers.offline.number_mentions import number_lists, ranges
from helpers.offline.param_values import emails_in, listed_values, value_for, wants_email
from helpers.offline.statements import statement_for
from helpers.offline.string_lists import plain_items
from helpers.offline.text import content_words, stem, word_list
from helpers.offline.unit_params import is_unit_param, unit_in

NAME_WORD_WEIGHT = 2.0  # a question word in the tool's name points at it more than one in its description
DESCRIPTION_WORD_WEIGHT = 1.0
FALLBACK_QUERY_WORDS = 4  # a required text parameter with no name to fill it gets the question's first keywords

_SEARCHY = re.compile(r"search|query|find|lookup|look up|retriev|knowledge|docs|documents|articles|entries", re.IGNORECASE)


def required_string_params(tool: Tool) -> list[str]:
    """The names of a tool's required string parameters (all of them when it marks none required).

    Example:
        >>> required_string_params(Tool("search", "", {"properties": {"query": {"type": "string"}}}))
        ['query']
    """
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or list(props)
    return [p for p in required if param_type(props.get(p, {})) == "string"]


def param_type(schema: dict) -> str:
    """A parameter's JSON type, looking through ["string", "null"] and anyOf; "string" when unsaid.

    Example:
        >>> param_type({"type": ["integer", "null"]})
        'integer'
    """
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"]
        kind = next((k for k in kind if k != "null"), "string")
    if kind is None and "anyOf" in schema:
        kind = next((s.get("type") for s in schema["anyOf"] if s.get("type") not in (None, "null")), None)
    return kind or "string"


_QUERY_PARAM = re.compile(r"query|keyword|search|question|text|term|prompt|^q$|^input$", re.IGNORECASE)
_ADDRESS_PARAM = re.compile(r"url|uri|link|endpoint|path|file|dir|folder|email|phone", re.IGNORECASE)
_ENTITY_PARAM = re.compile(r"name|id$|city|user|email|country|location|date|place|code", re.IGNORECASE)


def is_search_like(tool: Tool) -> bool:
    """A tool with exactly one (required) string parameter that takes a query: the parameter is named or
    described like one ("query", "keywords"), or the tool reads like a search and the parameter is neither
    a name of something ("city", "username") nor described as some one thing.

    Example:
        >>> is_search_like(Tool("search", "Search the recipes", {"properties": {"query": {"type": "string"}},
        ...                                                      "required": ["query"]}))
        True
    """
    required = required_string_params(tool)
    params = (tool.parameters or {}).get("properties") or {}
    all_required = (tool.parameters or {}).get("required") or list(params)
    if len(required) != 1 or len(all_required) != 1:
        return False
    name = required[0]
    description = str(params.get(name, {}).get("description", ""))
    if _ADDRESS_PARAM.search(name):
        return False  # a URL, a path or an address is where to act, never a query: "url" of requests_get
    if _QUERY_PARAM.search(name) or _QUERY_PARAM.search(description):
        return True
    # A tool that reads like a lookup takes what the request is about in a parameter that says nothing of itself
    # ("plant", no description); a parameter described as one thing ("The human gene of interest", "Title of the
    # movie") asks for that thing, which fill_arguments reads from the request, not for a keyword query.
    return bool(_SEARCHY.search(f"{tool.name} {tool.description}")) and not _ENTITY_PARAM.search(name) \
        and not description.strip()


_QUERY_NAMED = re.compile(r"query|keyword|search|question|^q$", re.IGNORECASE)


def reads_like_search(tool: Tool) -> bool:
    """Whether a search-like tool (`is_search_like`) is a search for any question, not a tool that acts on one text.

    Its parameter is named like a query ("query", "keywords", "question"), or the tool reads like a search
    ("Search the recipes", "Look up ..."). A parameter named or described only as a text, a term, a prompt or an
    input ("The text of the message") is what an action acts on: `send_message(body)` sends, `translate(text)`
    translates, and neither is asked every question.

    Example:
        >>> reads_like_search(Tool("lookup", "", {"properties": {"q": {"type": "string"}}, "required": ["q"]}))
        True
        >>> reads_like_search(Tool("send_message", "Send a message to the team.", {"properties": {"body":
        ...     {"type": "string", "description": "The text of the message."}}, "required": ["body"]}))
        False
    """
    params = (tool.parameters or {}).get("properties") or {}
    name = next(iter(required_string_params(tool)), "")
    description = str((params.get(name) or {}).get("description", ""))
    return bool(_QUERY_NAMED.search(name) or re.search(r"query|keyword|search", description, re.I)
                or _SEARCHY.search(f"{tool.name} {tool.description}"))


# A tool named like this is where an answer is delivered ("final_result", "submit_answer", "respond"),
# not a source of information: general English for "the end of the conversation". "answer" counts only
# in a name that doesn't read like a search ("search_answers" looks answers up).
_REPLY_TOOL_WORDS = frozenset(stem(w) for w in word_list("final respond reply submit finish conclude"))
_ANSWER_NOUNS = frozenset(stem(w) for w in word_list("result answer response output tool the an a to user"))


def is_reply_tool(tool: Tool) -> bool:
    """True for a tool whose name says it takes the final answer (PydanticAI's `final_result`).

    Example:
        >>> is_reply_tool(Tool("final_result", "The final response which ends this conversation"))
        True
    """
    said = {stem(w) for w in name_words(tool.name)}
    # Every word of the name must be about giving the answer: "final_result" is, "final_velocity" is not.
    if said - _REPLY_TOOL_WORDS - _ANSWER_NOUNS:
        return False
    return bool(said & _REPLY_TOOL_WORDS) or (stem("answer") in said and not _SEARCHY.search(tool.name))


def answer_fit(tool: Tool) -> float:
    """How well a tool takes an answer: its name says so, and its parameters read like an answer or
    its source. Used to choose the tool to call when a call is forced and the rules would answer in text.

    Example:
        >>> answer_fit(Tool("final_result", "", {"properties": {"answer": {"type": "string"}}}))
        13.0
    """
    props = (tool.parameters or {}).get("properties") or {}
    fit = 10.0 if is_reply_tool(tool) else 0.0
    for name, schema in props.items():
        scores = role_scores(name, str(schema.get("description") or "") if isinstance(schema, dict) else "")
        fit += scores["answer"] + scores["source"]
    return fit


def tool_relevance(tool: Tool, question: str) -> float:
    """How strongly a question points at a tool: 2 per question word in the tool's name, 1 per word in its
    description (word forms matched by stem).

    Example:
        >>> tool_relevance(Tool("get_weather", "Current weather for a city"), "Weather in Berlin?")
        3.0
    """
    name_words, desc_words = tool_words(tool)
    q = {stem(w) for w in content_words(question)}
    # Word forms the crude stemmer leaves apart ("projected", "projection") meet on a long shared start.
    named = {w for w in q if w in name_words or any(len(w) >= 5 and len(n) >= 5 and (n.startswith(w) or w.startswith(n))
                                                    for n in name_words)}
    # A parameter named as a key ("cents_flat=12.5") points at the tool as a word of its name does; an identifier
    # shaped like a parameter's example ("T-4471" for "e.g. 'T-5002'") as a word of its description does.
    props = (tool.parameters or {}).get("properties") or {}
    keyed = keyed_values(props, question)
    shaped = [n for n, s in props.items() if isinstance(s, dict) and shaped_value(s, question)]
    return NAME_WORD_WEIGHT * (len(named) + len(keyed)) + DESCRIPTION_WORD_WEIGHT * (len(q & desc_words) + len(shaped))


def fill_arguments(tool: Tool, question: str, entity: str | None, others: list[str],
                   guessed: set[str] | None = None) -> dict:
    """Arguments for one call: numbers bound by their neighbouring words (binding.py), enum and listed values
    the question mentions, the entity in the first free string parameter, lists for array parameters, flags
    the question names. An optional parameter the question gives nothing for is left out.

    Example:
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...                {"properties": {"city": {"type": "string"},
        ...                                "units": {"type": "string", "enum": ["metric", "imperial"]}},
        ...                 "required": ["city"]})
        >>> fill_arguments(weather, "Weather in Berlin, imperial please?", "Berlin", [])
        {'city': 'Berlin', 'units': 'imperial'}

    `guessed`, when given, collects the parameters filled by the last resort (a phrase of the request, a default):
    a later call of a plan takes those from the call before it instead (call_plan.py).
    """
    question = unwrapped(question)
    props = (tool.parameters or {}).get("properties") or {}
    required = set((tool.parameters or {}).get("required") or [])
    numbers = bind_numbers(props, required, question)
    pool = ([entity] if entity else []) + [e for e in others if e != entity]
    args: dict = {}
    lists_given = 0
    for name, schema in props.items():
        if not isinstance(schema, dict):
            continue
        kind = param_type(schema)
        enum = schema.get("enum")
        if enum:
            mentioned = enum_value(enum, question, {v for v in args.values() if isinstance(v, str)})
            if mentioned is not None:
                args[name] = mentioned
            elif name in required:
                args[name] = schema.get("default", enum[0])
        elif kind == "string" and (shaped := shaped_value(schema, question, {v for v in args.values() if isinstance(v, str)})) is not None:
            args[name] = shaped  # an identifier shaped like the parameter's example: "T-4471" for "e.g. 'T-5002'"
            pool = [e for e in pool if e != shaped]
        elif kind == "string" and (said := statement_for(name, schema, question)) is not None:
            args[name] = said  # a fact or note to keep: the user's statement itself (statements.py)
        elif kind == "string" and (said := expression_for(name, schema, question, {v for v in args.values() if isinstance(v, str)})) is not None:
            args[name] = said  # a formula the parameter asks for, written as Python writes it
        elif kind == "string" and (asked := value_for(name, schema, question, qualifier=False,
                                                      taken={v for v in args.values() if isinstance(v, str)})) is not None and (
                name in required or asked not in args.values()):  # an optional `cc` does not repeat the `to` address
            args[name] = asked  # the part of the request this parameter's schema asks for: a listed value, a date
            pool = [e for e in pool if e != asked]
            args[name], pool = with_region(name, schema, question, asked, pool, props, args)
        elif kind == "string" and (sort := kind_value(name, schema, question)) is not None and sort not in args.values():
            args[name] = sort  # the kind written before the parameter's thing: "a single room" -> room_type
            pool = [e for e in pool if e != sort]
        elif kind == "string" and is_unit_param(name) and (unit := unit_in(question, numbers, _numeric_words(props))) is not None:
            args[name] = unit  # the unit the request writes after its numbers: "4 inches"
        elif kind == "string" and (beside := noun_value(name, schema, question))[0] is not None:
            args[name] = beside[0]  # "docket number 123456", "the crime of theft"
            pool = [e for e in pool if e != beside[0]]
        elif kind == "string" and name not in required and wants_email(name, schema):
            # An optional address takes an address no other parameter took ("copy bo@..."); a name is not an address.
            fresh = [e for e in emails_in(question) if e not in args.values()]
            if fresh:
                args[name] = fresh[0]
        elif kind == "string":
            # A name inside a value given already is used ("AL2562" of the docket "2022/AL2562").
            pool = [e for e in pool if not any(isinstance(v, str) and e in v and e != v for v in args.values())]
            others = [n for n, s in props.items() if n != name and n not in args and isinstance(s, dict)
                      and param_type(s) == "string" and not s.get("enum")]
            mine, theirs = left_for(name, question, pool, others)
            if mine and (name in required or cued(name, schema, question, mine[0]) or named_for(name, mine[0])
                         or noun_after(name, question, mine[0])
                         or slot_before(schema, question, mine[0])):
                open_place = any(PLACE_PARAM.search(n) and n not in args and n != name for n in props)
                args[name] = place_aware(name, question, mine, open_place)
                pool.remove(args[name])
                args[name], pool = with_region(name, schema, question, args[name], pool, props, args)
                if args[name] not in question:  # a word after "in"/"for", capitalised: the whole phrase, as written
                    avoid = {stem(w) for w in name_words(tool.name)} | {stem(w) for w in content_words(tool.description)}
                    phrase = phrase_for(name, schema, question, avoid, set())
                    if phrase and args[name].lower() in phrase.lower():
                        args[name] = phrase
            elif (qualified := value_for(name, schema, question)) is not None and (
                    name in required or not re.search(r"\d", qualified)):
                if name in required or cued(name, schema, question, qualified):
                    args[name] = qualified  # "unlock the back door" -> door: "back"
            elif name in required:
                avoid = {stem(w) for w in name_words(tool.name)} | {stem(w) for w in content_words(tool.description)}
                taken = {v for v in args.values() if isinstance(v, str)} | theirs  # "in China" is the country's
                phrase = phrase_for(name, schema, question, avoid, taken)
                fallback = phrase or " ".join(content_words(question)[:FALLBACK_QUERY_WORDS]) or question
                args[name] = schema.get("default") or fallback
                if guessed is not None:
                    guessed.add(name)
        elif kind in ("number", "integer"):
            if name in numbers:
                args[name] = numbers[name]
            elif name in required:
                args[name] = schema.get("default", 1)
        elif kind == "boolean":
            flag = flag_in(name, schema, question)
            if flag is not None:
                args[name] = flag
            elif name in required:
                args[name] = bool(schema.get("default", described_default(schema)))
        elif kind == "array":
            items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
            if numeric(items or {}):
                lists = number_lists(question) or ([] if name not in required else ranges(question))
                if lists and (name in required or lists_given < len(lists)):
                    # Several list parameters take several lists in order: "Group A [3, 4] and Group B [7, 8]"; an
                    # optional one takes only a list no other parameter took (no "years" copied from "cash_flows").
                    chosen = lists[lists_given] if lists_given < len(lists) else lists[0]
                    lists_given += 1
                    args[name] = _typed(chosen, items)
                elif name in required:
                    args[name] = [v for v in numbers.values()]
            elif numeric(inner := _dict_or_empty(items.get("items"))) and items.get("type") == "array" and \
                    (rows := number_lists(question)):
                args[name] = [_typed(row, inner) for row in rows]  # a table of rows: "[[10, 20], [30, 40]]"
            elif isinstance(items.get("enum"), list) and (members := enum_values(items["enum"], question)):
                args[name] = members  # the listed members the request says: "avoiding highways and toll roads"
            elif members := enum_values(listed_values(schema), question):
                args[name] = members  # the values a description lists, as the request says them: "e.g. vegan, halal"
            elif name in required and not any(e in question for e in pool) and items.get("type", "string") == "string" and \
                    (plain := plain_items(question)):
                args[name] = plain  # no names: the things the request lists in lower case ("chicken and mushrooms")
            elif name in required or (pool and cued(name, schema, question, pool[0])):
                args[name] = list(pool)
                pool = []
    # A value given by the parameter's own name ("weeks: 3", "kilnId=K1") says where it goes: it outranks the guesses.
    args.update(keyed_values(props, question))
    return {name: args[name] for name in props if name in args}


def _dict_or_empty(value) -> dict:
    return value if isinstance(value, dict) else {}


def _typed(values: list, items: dict) -> list:
    """Numbers as an array's items want them: whole numbers as int for integer items.

    Example:
        >>> _typed([3.0, 4.5], {"type": "integer"}), _typed([3.0], {"type": "number"})
        ([3, 4.5], [3.0])
    """
    return [int(v) if items.get("type") == "integer" and float(v).is_integer() else v for v in values]


def _numeric_words(props: dict) -> str:
    """The names and descriptions of a tool's numeric parameters: the units they fix for their numbers."""
    return " ".join(f"{n}: {s.get('description') or ''}" for n, s in props.items() if isinstance(s, dict) and numeric(s))


def next_entity_call(conv: Conversation, tool: Tool, must_call: bool = False) -> tuple[str, str] | None:
    """The next call of a tool that takes names: one per name in the question, one per turn, each
    only once. None when every planned call has been made (time to combine their results).

    Example:
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...                {"properties": {"city": {"type": "string"},
        ...                                "units": {"type": "string", "enum": ["metric", "imperial"]}},
        ...                 "required": ["city"]})
        >>> next_entity_call(Conversation(question="Weather in Berlin and Madrid?", tools=[weather]), weather)
        ('get_weather', '{"city": "Berlin"}')
    """
    found = entities_for(tool, conv.question)
    string_params = [p for p, s in ((tool.parameters or {}).get("properties") or {}).items()
                     if param_type(s) == "string" and not s.get("enum")]
    mine = [c for c in conv.calls if c.name == tool.name]
    if len(string_params) >= 2 or len(found) <= 1:
        plan = [fill_arguments(tool, conv.question, found[0] if found else None, found[1:])]
    else:  # one string parameter, several names: one call per name
        plan = [fill_arguments(tool, conv.question, e, []) for e in found]
    done = [parse_json(c.arguments) for c in mine]
    for args in plan:
        if args not in done:
            return (tool.name, to_json(args))
    if must_call and not mine:
        return (tool.name, to_json(plan[0]))
    return None
