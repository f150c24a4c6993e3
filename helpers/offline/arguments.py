"""Tools, entities and arguments: which tool a question points at, and what to pass it.

- `is_search_like`: a tool that takes one query string (the search path handles it).
- `tool_relevance`: how strongly the question's words point at a tool (its name, its description).
- `entities`: the names in a question: quoted text, capitalised words, or the words after "in", "for".
- `fill_arguments`: one call's arguments: numbers bound by binding.py; for each other parameter the part
  of the question its schema asks for (param_values.py: an enum or listed value, a formula, a date, an
  email, a code beside its noun, a flag, a unit), else the names in the question; optional parameters the
  question gives nothing for are left out.
- `next_entity_call`: one call per name ("Berlin", then "Madrid"), one per turn, until all are made: the
  fallback when call_plan.py plans no call (a forced call, a tool already used), which plans them all at once.

What it leaves out on purpose: knowing what a name is. "Berlin" fills a `city` parameter because it is
capitalised, not because it is a city; a required parameter the question gives no value for gets its default.
A little over 300 lines: the argument rules are read together when a value looks wrong.
"""

from __future__ import annotations

import re

from helpers.offline.binding import bind_numbers, number_lists, numeric, ranges
from helpers.offline.conversation import Conversation, Tool, parse_json, to_json
from helpers.offline.enum_match import enum_value, enum_values
from helpers.offline.field_roles import name_words, role_scores
from helpers.offline.flags import described_default, flag_in
from helpers.offline.formulas import expression_for
from helpers.offline.noun_phrases import cued, noun_value, phrase_for
from helpers.offline.param_values import emails_in, value_for, wants_email
from helpers.offline.statements import statement_for
from helpers.offline.text import STOP_WORDS, content_words, stem, word_list
from helpers.offline.unit_params import is_unit_name, is_unit_param, unit_in

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
    if _QUERY_PARAM.search(name) or _QUERY_PARAM.search(description):
        return True
    # A tool that reads like a lookup takes what the request is about in a parameter that says nothing of itself
    # ("plant", no description); a parameter described as one thing ("The human gene of interest", "Title of the
    # movie") asks for that thing, which fill_arguments reads from the request, not for a keyword query.
    return bool(_SEARCHY.search(f"{tool.name} {tool.description}")) and not _ENTITY_PARAM.search(name) \
        and not description.strip()


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


def _tool_words(tool: Tool) -> tuple[set[str], set[str]]:
    name_words = {stem(w) for w in re.split(r"[_\W]+", tool.name.lower()) if w and w not in STOP_WORDS}
    desc_words = {stem(w) for w in content_words(tool.description)}
    return name_words - {"get", "set"}, desc_words


def tool_relevance(tool: Tool, question: str) -> float:
    """How strongly a question points at a tool: 2 per question word in the tool's name, 1 per word in its
    description (word forms matched by stem).

    Example:
        >>> tool_relevance(Tool("get_weather", "Current weather for a city"), "Weather in Berlin?")
        3.0
    """
    name_words, desc_words = _tool_words(tool)
    q = {stem(w) for w in content_words(question)}
    # Word forms the crude stemmer leaves apart ("projected", "projection") meet on a long shared start.
    named = {w for w in q if w in name_words or any(len(w) >= 5 and len(n) >= 5 and (n.startswith(w) or w.startswith(n))
                                                    for n in name_words)}
    return NAME_WORD_WEIGHT * len(named) + DESCRIPTION_WORD_WEIGHT * len(q & desc_words)


# --- entities: the names in a question ---------------------------------------------------------------

_SENTENCE_START_VERBS = frozenset(word_list("""
compare tell show give find check look search list send book call create make add set turn please let
help explain describe calculate convert translate fetch get what which who where when how is are can
could would should do does did will shall may might i what's whats and or but also then compute
provide analyze analyse retrieve estimate predict identify locate train generate determine obtain display
return run build plan record open close start stop update delete remove order buy sell reserve schedule
include including
"""))
# A quote in single quotes may hold an apostrophe between letters ('It's fresh'): the quote ends at a ' no letter
# follows. Up to 300 characters: a review or a message to analyse is quoted whole.
_QUOTED = re.compile(r"\"([^\"]{1,300})\"|(?<!\w)'((?:[^'\n]|(?<=\w)'(?=\w)){1,300})'(?!\w)|\u201c([^\u201d]{1,300})\u201d")
_CAPITALISED = re.compile(r"\b[A-Z][\w.-]*(?:\s+(?:of|de|la|del|von|van|da)?\s*[A-Z][\w.-]*)*"
                          r"(?:\s\d{1,2}(?=[,.;:!?]|\s+and\b|$))?")  # a name may end in a number: "Maroon 5"
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def unwrapped(question: str) -> str:
    """The request without quotes around the whole of it: a request pasted in quotes is a request, not a quote.

    Example:
        >>> unwrapped('"Find the tide times for Oban."'), unwrapped("Say 'hi' to 'Ana'")
        ('Find the tide times for Oban.', "Say 'hi' to 'Ana'")
    """
    text = question.strip()
    for left, right in (('"', '"'), ("'", "'"), ("\u201c", "\u201d")):
        if len(text) > 2 and text.startswith(left) and text.endswith(right) and left not in text[1:-1] \
                and right not in text[1:-1]:
            return text[1:-1].strip()
    return question


def entities(question: str, tool: Tool | None = None) -> list[str]:
    """Names in a question: quoted strings, then capitalised words and phrases that are not just a
    sentence-initial "What"/"Compare", or words from the tool's own name. Without capitals, the words
    after "in", "for", "at", "of" (and after a following "and").

    Example:
        >>> entities("Compare the weather in Berlin and Madrid")
        ['Berlin', 'Madrid']
    """
    question = unwrapped(question)
    tool_stems = set().union(*_tool_words(tool)) if tool else set()
    found: list[str] = []
    for groups in _QUOTED.findall(question):
        value = next(g for g in groups if g)
        if value not in found:
            found.append(value)
    unquoted = _QUOTED.sub(" ", question)
    glosses = _glosses(unquoted)
    for match in _CAPITALISED.finditer(unquoted):
        phrase = match.group(0).strip(" .-")
        first = phrase.split()[0]
        start = match.start()
        at_sentence_start = start == 0 or re.search(r"[.!?:]\s*$", unquoted[:start]) is not None
        if at_sentence_start and first.lower().strip("'") in _SENTENCE_START_VERBS | STOP_WORDS:
            phrase = " ".join(phrase.split()[1:])
            if not phrase:
                continue
        # A request verb at either end of a phrase starts the next sentence, whose stop was lost ("by Liverpool
        # F.C. Include its statistics", "the neutron Give me the details"): it is no part of the name.
        parts = phrase.split()
        while parts and parts[-1].lower() in _SENTENCE_START_VERBS and len(parts) > 1:
            parts.pop()
        if len(parts) == 1 and parts[0].lower() in _SENTENCE_START_VERBS:
            continue
        phrase = re.sub(r"(?<=[a-z]{2})\.$", "", " ".join(parts))  # "Leith." ends a sentence; "F.C." keeps its dot
        if phrase.lower() in STOP_WORDS or stem(phrase.lower()) in tool_stems or phrase == "I":
            continue
        lead = phrase.split()
        own = next((i for i, w in enumerate(lead) if stem(w.lower()) not in tool_stems), len(lead))
        if own >= 2 and own + 1 < len(lead) and lead[own] == "of":
            phrase = " ".join(lead[own + 1:])  # "the Glaze Viscosity of Tenmoku": the tool's two words, then the name
        if all(stem(w.lower()) in tool_stems for w in phrase.split()) or phrase in glosses:
            continue  # "the Population Density" for a density tool; "SNP (Single Nucleotide Polymorphism)"
        if " " not in phrase and is_unit_name(phrase):
            continue  # "(in Joules)": a unit, not a name
        if phrase not in found:
            found.append(phrase)
    if not found:
        tail = re.findall(r"\b(?:in|for|at|of|about|from|to)\s+([a-z][\w-]+)((?:\s*(?:,|and)\s*[a-z][\w-]+)*)",
                          unquoted.lower())
        for head, rest in tail:
            for word in [head] + re.findall(r"[a-z][\w-]+", rest):
                if word not in STOP_WORDS and word != "and" and stem(word) not in tool_stems and not is_unit_name(word):
                    value = word.title()
                    if value not in found:
                        found.append(value)
    return found


def _glosses(text: str) -> set[str]:
    """The phrases in brackets that spell out, or abbreviate, the word just before them: "SNP (Single Nucleotide
    Polymorphism)", "Body Mass Index (BMI)". They say the same thing again, so they are no name of their own."""
    found = set()
    for match in re.finditer(r"\b([A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)*)\s*\(([^()]{2,60})\)", text):
        before, inside = match.group(1), match.group(2).strip()
        initials = "".join(w[0] for w in re.split(r"[\s-]+", inside) if w).upper()
        if re.fullmatch(r"[A-Z0-9]{2,}", before.split()[-1]) and initials == before.split()[-1].upper():
            found.add(inside)  # an abbreviation, then what it stands for
        elif re.fullmatch(r"[A-Z0-9]{2,}", inside) and "".join(w[0] for w in before.split()[-len(inside):]).upper() == inside:
            found.add(inside)  # the words, then their abbreviation
    return found


def entities_for(tool: Tool, question: str) -> list[str]:
    """The names in the question that could fill the tool's parameters; none for a tool without any.

    Example:
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...                {"properties": {"city": {"type": "string"},
        ...                                "units": {"type": "string", "enum": ["metric", "imperial"]}},
        ...                 "required": ["city"]})
        >>> entities_for(weather, "Weather in Berlin and Madrid?")
        ['Berlin', 'Madrid']
    """
    if not required_string_params(tool) and not (tool.parameters or {}).get("properties"):
        return []
    return entities(question, tool)


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
        elif kind == "string" and (said := statement_for(name, schema, question)) is not None:
            args[name] = said  # a fact or note to keep: the user's statement itself (statements.py)
        elif kind == "string" and (said := expression_for(name, schema, question, {v for v in args.values() if isinstance(v, str)})) is not None:
            args[name] = said  # a formula the parameter asks for, written as Python writes it
        elif kind == "string" and (asked := value_for(name, schema, question, qualifier=False)) is not None and (
                name in required or asked not in args.values()):  # an optional `cc` does not repeat the `to` address
            args[name] = asked  # the part of the request this parameter's schema asks for: a listed value, a date
            pool = [e for e in pool if e != asked]
            args[name], pool = _with_region(name, schema, question, asked, pool, props, args)
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
            if pool and (name in required or cued(name, schema, question, pool[0])):
                open_place = any(_PLACE_PARAM.search(n) and n not in args and n != name for n in props)
                args[name] = _place_aware(name, question, pool, open_place)
                pool.remove(args[name])
                args[name], pool = _with_region(name, schema, question, args[name], pool, props, args)
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
                taken = {v for v in args.values() if isinstance(v, str)}
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
                if lists:
                    # Several list parameters take several lists in order: "Group A [3, 4] and Group B [7, 8]".
                    chosen = lists[lists_given] if lists_given < len(lists) else lists[0]
                    lists_given += 1
                    args[name] = [int(v) if items.get("type") == "integer" and float(v).is_integer() else v for v in chosen]
                elif name in required:
                    args[name] = [v for v in numbers.values()]
            elif isinstance(items.get("enum"), list) and (members := enum_values(items["enum"], question)):
                args[name] = members  # the listed members the request says: "avoiding highways and toll roads"
            elif name in required or (pool and cued(name, schema, question, pool[0])):
                args[name] = list(pool)
                pool = []
    return args


def _numeric_words(props: dict) -> str:
    """The names and descriptions of a tool's numeric parameters: the units they fix for their numbers."""
    return " ".join(f"{n}: {s.get('description') or ''}" for n, s in props.items() if isinstance(s, dict) and numeric(s))


_PLACE_PARAM = re.compile(r"location|city|place|area|region|country|state|address|town", re.IGNORECASE)
_AT_PLACE = re.compile(r"\b(?:in|near|around)\s+$", re.IGNORECASE)


# A description that asks for a place with its region: "The city and state", "format it as City, State", an
# example written "Austin, TX".
_WANTS_REGION = re.compile(r"\bcity\s+and\s+(?:the\s+)?(?:state|country|province|region)\b|\bcity,\s*(?:state|country)\b|"
                           r"\b(?:e\.g\.|for example|such as|like)\s*,?\s*'?[A-Z][\w.]*(?:\s[A-Z][\w.]*)*,\s*[A-Z]",
                           re.IGNORECASE)


def _with_region(name: str, schema: dict, question: str, place: str, pool: list[str], props: dict,
                 args: dict) -> tuple[str, list[str]]:
    """A place parameter's value with the region the request writes after it ("Boston, Massachusetts"), and the
    names left. The region is no value of its own ("from Paris, France to Rome, Italy": the end is Rome); it joins
    the place when the description asks for a city with its state or country. A parameter left open for a country
    or a state keeps it ("Tokyo, Japan" for `city` and `country`)."""
    if not isinstance(place, str) or not _PLACE_PARAM.search(name):
        return place, pool
    if any(_REGION_PARAM.search(n) and n not in args and n != name for n in props):
        return place, pool
    region = _region_of(question, place)
    if region is None:
        return place, pool
    pool = [e for e in pool if e != region]
    return (f"{place}, {region}" if _WANTS_REGION.search(str(schema.get("description") or "")) else place), pool


_REGION_PARAM = re.compile(r"country|state|province|region|county", re.IGNORECASE)


def _region_of(question: str, place: str) -> str | None:
    """The region the request writes right after a place, after a comma ("Boston, Massachusetts", "Paris, France");
    None when it writes none, or when the comma runs a list ("Oban, Mallaig and Tobermory", "Oban, Mallaig, Tobermory")."""
    for match in re.finditer(re.escape(place) + r",\s*([A-Z][\w.]*(?:\s+[A-Z][\w.]*)*)", question):
        region = match.group(1).rstrip(".")
        if not re.match(r"\s*(?:,|\band\b|\bor\b|&)", question[match.end():]):
            return region
    return None


def _place_aware(name: str, question: str, pool: list[str], open_place: bool) -> str:
    """The name a place parameter takes from the pool: the first name set right after "in", "near" or "around"
    ("the best sushi restaurant in Boston"), else the first name. Another parameter takes the first name, leaving
    the placed ones to a place parameter still open ("a tea room in Pitlochry serving Darjeeling")."""
    placed = [e for e in pool if (at := question.find(e)) > 0 and _AT_PLACE.search(question[:at])]
    if _PLACE_PARAM.search(name):
        return placed[0] if placed else pool[0]
    if open_place:
        return next((e for e in pool if e not in placed), pool[0])
    return pool[0]


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
