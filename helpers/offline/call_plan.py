"""Several calls in one response: the calls a request asks for when it coordinates several subjects or tasks.

Real models answer "Compare the weather in Berlin and Madrid" with two calls at once. `plan_calls(tools,
question)` reads the request into the calls it asks for, in order:
1. the request is cut into clauses (tasks.py): sentences, the words that start another task ("also", "then",
   "after that", ...), and again between two tools a clause names ("Invest $2000 in Google and withdraw $1000
   from Apple");
2. each clause takes the tool its words point at (`arguments.tool_relevance`); a clause that points at no
   tool is context for the next one (or the last) unless it is a question or order of its own that gives the
   next clause's tool what that clause gives again ("What was X about? Also, what was the importance of Y?"),
   and one that says to do "the same" again repeats the calls before it with what it changes ("repeat these
   for 'deletion'": each earlier call, once more); a clause that names a tool but gives it nothing of its own
   (clause_values.py) is context for the next clause about that tool ("John has two funds."), or adds nothing
   when a call of the tool is made already; a clause for the same tool as the one before is another call when
   it gives a parameter again, unless the two read together fill one call ("The first tank ... The second
   tank ..." for volume1..temperature2);
3. members of one parameter's closed set joined by "and" ("the status and trial date", "both ascending and
   descending") give one call each, with every record of the clause (member_lists.py);
   inside a clause, a list of values ("Taylor Swift and Maroon 5", "the factorial of 5, 7 and 9") that is
   longer than the parameters free to take it gives one call per item; other lists of the same length go
   with it item by item ("20 minutes and 15 minutes respectively"), and a unit said once after the last item
   goes with every bare number ("for 1, 5 and 10 years"); a list an array parameter takes, or one
   whose items fill as many parameters ("the sides 4 and 5" for x and y), stays in one call;
4. a required parameter a call's own clause gives no value for takes the value of the previous call of the
   same tool ("then repeat with 10 seconds"), else the value an earlier call of another tool gave a parameter
   of the same name ("Also compute the distance covered"), one call per value those calls took when the task
   says "those years", "both", "each"; a later call that gets no required value either
   way is not made ("What is the function and how do I use it?"); parameters alike but for an ordinal (`city_1`,
   `city_2`) the task leaves unnamed take the subjects of the calls of the tool before it, in order, when they are
   as many ("the time in Oslo and Lima and the difference between the two cities");
5. a required value an earlier call could only guess (a phrase of the request) is the one the next call of the
   same tool read from its own words: "the most played Pop song and the most played Rock song in Australia"
   says the region once, for both.
Each call's arguments come from `arguments.fill_arguments` over the call's own text.

Its size (about 460 lines) is one reason: the five steps above share the clause reading and the call list they
build, and the call-count rules of later rounds are rows of those steps; the lists themselves, the records and
the members of a closed set already live apart. The lists themselves are found by lists.py, the records ("a flight from A to B and another from B to C") by
records.py, the members of a closed set by member_lists.py.

What it leaves out on purpose: meaning. Which clause is a task is read from words and punctuation; a request
that coordinates tasks without any of them ("the capital of Australia, the population of Canada") is cut only
where two different tools are named, and which sentence of a story is a task and which is context is guessed
from the values each gives, not understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.arguments import fill_arguments, param_type, tool_relevance
from helpers.offline.clause_values import (
    ORDINAL_PART,
    adds_to,
    from_text,
    gives_values,
    names_in,
    overlaps,
    own_values,
)
from helpers.offline.conversation import Tool
from helpers.offline.lists import lists_in, number_groups, word_lists
from helpers.offline.member_lists import closed_sets, one_per_member
from helpers.offline.number_mentions import mentions
from helpers.offline.records import records
from helpers.offline.tasks import clauses, cut_between_tools
from helpers.offline.text import STOP_STEMS, stem

MIN_RELEVANCE = 1.0  # a clause points at a tool when at least one of its words is in the tool's name or description

# A clause with these words is about the subject already named ("who are they playing"): more of the same call.
_POINTS_BACK = re.compile(r"\b(?:they|them|their|it|its|he|him|his|she|her|this|these|those)\b", re.IGNORECASE)
# A clause that asks or orders something itself, not a story's statement ("What was ...", "Find ...").
_ASKS = re.compile(r"(?:what|how|who|where|when|which|whose|why|find|get|tell|show|give|calculate|compute|fetch|"
                   r"retrieve|list|search|look\s+up)\b", re.IGNORECASE)
_SAME = re.compile(r"\b(?:same|again|repeat|another|similarly|likewise|as\s+well)\b", re.IGNORECASE)



@dataclass(frozen=True)
class Piece:
    """One clause of the request and the tool it points at (None: context for the next clause)."""

    text: str
    tool: Tool | None


def _best_tool(text: str, tools: list[Tool]) -> Tool | None:
    scored = [(tool_relevance(t, text), -i, t) for i, t in enumerate(tools)]
    relevance, _, tool = max(scored, key=lambda s: (s[0], s[1]))
    return tool if relevance >= MIN_RELEVANCE else None


def _free_params(tool: Tool, kind_numeric: bool) -> int:
    """How many scalar parameters could take one item of a list of this kind. Names go one to a parameter only
    among parameters alike but for a number or an ordinal (`team1`, `team2`; `first_city`, `second_city`): a
    `country` and a `species` do not take "Bangladesh and India" between them."""
    props = (tool.parameters or {}).get("properties") or {}
    if not kind_numeric:
        alike: dict[str, int] = {}
        for name, schema in props.items():
            if isinstance(schema, dict) and param_type(schema) == "string" and not schema.get("enum"):
                base = ORDINAL_PART.sub("", name.lower()) or name.lower()
                alike[base] = alike.get(base, 0) + 1
        return max(alike.values(), default=0)
    count = 0
    for schema in props.values():
        kind = param_type(schema) if isinstance(schema, dict) else "string"
        if kind in ("array", "object", "boolean"):
            continue
        if kind_numeric and kind in ("integer", "number"):
            count += 1
        elif not kind_numeric and kind == "string" and not (isinstance(schema, dict) and schema.get("enum")):
            count += 1
    return count


def _takes_as_array(tool: Tool, text: str, spans: list[tuple[int, int]]) -> bool:
    args = fill_arguments(tool, text, None, names_in(tool, text))
    props = (tool.parameters or {}).get("properties") or {}
    values = [text[a:b] for a, b in spans]
    for name, value in args.items():
        if isinstance(value, list) and param_type(props.get(name, {})) == "array" and len(value) >= 2:
            if sum(from_text(v, " ".join(values)) for v in value) >= 2:
                return True
    return False


_RESPECTIVELY = re.compile(r"\b(?:respectively|in\s+that\s+order|in\s+turn)\b", re.IGNORECASE)
MAX_EXPANSION = 12  # calls one clause may fan out into: a cross product stops growing here


def _expand(tool: Tool, text: str, depth: int = 0) -> list[tuple[str, tuple[str, ...]]]:
    """One text per call, with the list items chosen for it: a list longer than the parameters free to take it,
    item by item (see the module).

    Lists of the same length go together item by item only when the text says "respectively"; otherwise each
    list is expanded on its own, so "Lakers and Bulls in seasons 2018 and 2020" is four calls (every pairing),
    as a request that coordinates two lists with no word pairing them asks."""
    plain = word_lists(text)
    lists = [spans for spans in lists_in(text) if not _takes_as_array(tool, text, spans)
             and not (spans in plain and _text_array(tool))]  # "tomatoes and lettuce" for `items`: one list
    for spans in lists:
        numeric = bool(re.match(r"[-−]?\$?\d", text[spans[0][0]:spans[0][1]]))
        inside = [(a, b) for other in lists for a, b in other]
        if numeric:
            outside = [m for m in mentions(text) if not m.spelled and not m.frequency
                       and not any(a < m.end and m.start < b for a, b in inside)]  # a mention may start at a space
        else:
            listed = {text[a:b].strip("'\"").lower() for a, b in inside}
            outside = [e for e in names_in(tool, text) if e.lower() not in listed]
        free = _free_params(tool, numeric) - len(outside)
        if not numeric and _free_params(tool, False) == 0:
            free = _free_params(tool, True)
        if len(spans) <= free:
            continue
        paired = bool(_RESPECTIVELY.search(text))
        partners = [other for other in lists if other is not spans and len(other) == len(spans)] if paired else []
        # plain words are pinned to their call (_pin_items); names are read as names
        texts = []
        for i in range(len(spans)):
            chosen = [(spans, i)] + [(other, i) for other in partners]
            items = tuple(text[group[i][0]:group[i][1]] for group, i in chosen if group in plain)
            texts.append((_substitute(text, chosen), items))
        if paired or depth >= 2:
            return texts
        expanded = [(t, items + more) for one, items in texts for t, more in _expand(tool, one, depth + 1)]
        return expanded if len(expanded) <= MAX_EXPANSION else texts
    return [(text, ())]


def _text_array(tool: Tool) -> str | None:
    """The tool's one parameter that takes a list of free text, if it has exactly one."""
    props = (tool.parameters or {}).get("properties") or {}
    found = [n for n, s in props.items() if isinstance(s, dict) and param_type(s) == "array"
             and isinstance(s.get("items"), dict) and s["items"].get("type", "string") == "string"
             and not s["items"].get("enum")]
    return found[0] if len(found) == 1 else None


def _listed_words(tool: Tool, text: str, args: dict) -> None:
    """A list of plain words the call keeps whole goes to the tool's one free-text list parameter."""
    name = _text_array(tool)
    lists = word_lists(text)
    if name and lists:
        args[name] = [text[a:b] for a, b in lists[0]]


def _pin_items(tool: Tool, calls: list[dict], items: list[tuple[str, ...]], guesses: list[set[str]]) -> None:
    """Each list item in its call: an item no argument holds goes to the text parameter whose value is the same in
    every call of the fan-out (the one the other rules read from the shared words), else to the first free one."""
    props = (tool.parameters or {}).get("properties") or {}
    texts = [n for n, s in props.items() if isinstance(s, dict) and param_type(s) == "string" and not s.get("enum")]
    if len(calls) < 2 or not texts:
        return
    shared = [n for n in texts if all(n in c for c in calls) and len({str(c[n]) for c in calls}) == 1]
    for args, chosen, guessed in zip(calls, items, guesses, strict=True):
        for item in chosen:
            if re.match(r"[-−]?\$?\d", item) or any(item.lower() in str(v).lower() for n, v in args.items()
                                                      if n not in texts):
                continue  # an enum or a flag took it
            # The parameter that read the item, or part of it, or words around it, holds the item as written.
            held = next((n for n in texts if args.get(n) and (str(args[n]).lower() in item.lower()
                                                               or item.lower() in str(args[n]).lower())), None)
            target = held or next((n for n in shared), None) or next((n for n in texts if n not in args), None)
            if target is not None:
                args[target] = item
                guessed.discard(target)  # the item is this call's own value, not a guess


def _by_group(tool: Tool, text: str) -> list[str]:
    """One text per group of numbers, when each group is what one call takes: a numeric array parameter's list, or
    as many numbers as the tool's required numeric parameters ("the gcd of (45, 60) and (81, 27)": two calls)."""
    groups = number_groups(text)
    if not groups:
        return [text]
    props = (tool.parameters or {}).get("properties") or {}
    required = (tool.parameters or {}).get("required") or []
    arrays = [n for n, s in props.items() if isinstance(s, dict) and param_type(s) == "array"
              and isinstance(s.get("items"), dict) and s["items"].get("type") in ("integer", "number")]
    scalars = [n for n in required if isinstance(props.get(n), dict) and param_type(props[n]) in ("integer", "number")]
    size = groups[0][2]
    if not (len(arrays) == 1 or (not arrays and len(scalars) == size)):
        return [text]
    first, last = groups[0][0], groups[-1][1]
    inner = text[first:last]
    if re.search(r"[.;!?]\s", inner):
        return [text]  # groups in different sentences are the sentences' business
    return [text[:first] + text[a:b] + text[last:] for a, b, _ in groups]


def _substitute(text: str, chosen: list[tuple[list[tuple[int, int]], int]]) -> str:
    """The text with each list replaced by its chosen item, a bare number taking the unit said once after the last
    one ("for 1, 5 and 10 years": "for 5 years"), so the number still reads as what the unit says."""
    edits = sorted(((spans[0][0], spans[-1][1], _item_with_unit(text, spans, i)) for spans, i in chosen), reverse=True)
    for start, end, item in edits:
        text = text[:start] + item + text[end:]
    return text


def _item_with_unit(text: str, spans: list[tuple[int, int]], index: int) -> str:
    """One item of a list as written, or, for a bare number when only the last item has a unit word after it, the
    number with that unit."""
    item = text[spans[index][0]:spans[index][1]]
    last = re.fullmatch(r"[-−]?\$?[\d.,]+%?\s?([A-Za-z]+)", text[spans[-1][0]:spans[-1][1]])
    bare = [re.fullmatch(r"[-−]?\$?[\d.,]+%?", text[a:b]) for a, b in spans[:-1]]
    if index < len(bare) and last and all(bare):
        return f"{item} {last.group(1)}"
    return item


def plan_calls(tools: list[Tool], question: str) -> list[tuple[Tool, dict]]:
    """The calls the request asks for, in order, each with its arguments (see the module); empty when no
    clause points at any of the tools.

    Example:
        >>> weather = Tool("get_weather", "The weather now in a city", {"type": "object",
        ...                "properties": {"city": {"type": "string"}}, "required": ["city"]})
        >>> [args for _, args in plan_calls([weather], "Compare the weather in Berlin and Madrid")]
        [{'city': 'Berlin'}, {'city': 'Madrid'}]
    """
    pieces: list[Piece] = []
    for clause in clauses(question):
        for part in cut_between_tools(clause, tools):
            pieces.append(Piece(part, _best_tool(part, tools)))
    if not any(p.tool for p in pieces):
        return []
    # A clause that points at no tool is context: it goes with the next clause that does (or the last one).
    groups: list[list] = []  # [tool, text, repeats_previous]
    pending = ""
    for index, piece in enumerate(pieces):
        if piece.tool is None:
            # "..., then from Los Angeles to Miami": a clause that names no tool but gives the previous call's
            # parameters new values (or says "the same") is that tool again, with what it changes.
            if groups and gives_values(groups[-1][0], piece.text) and (_SAME.search(piece.text) or (
                    not _POINTS_BACK.search(piece.text) and overlaps(groups[-1][0], groups[-1][1], piece.text))):
                groups.append([groups[-1][0], piece.text, True])
            elif groups and not pending and adds_to(groups[-1][0], groups[-1][1], piece.text):
                groups[-1][1] = f"{groups[-1][1]}. {piece.text}"  # "..., and then round off the result to 3 places"
            else:
                pending = f"{pending}. {piece.text}" if pending else piece.text
            continue
        if not own_values(piece.tool, piece.text) and any(p.tool is piece.tool for p in pieces[index + 1:]):
            # "John has two funds." before the funds' figures: a clause that names the tool and gives it nothing
            # of its own is context for the next clause about it, not a call.
            pending = f"{pending}. {piece.text}" if pending else piece.text
            continue
        if pending and _ASKS.match(pending) and overlaps(piece.tool, pending, piece.text):
            # "What was the Treaty of Ghent about? Also, what was the importance of ...?": a question of its own
            # that gives the tool what the next task gives again is a call of its own, not context.
            groups.append([piece.tool, pending, False])
            pending = ""
        text = f"{pending}. {piece.text}" if pending else piece.text  # context and task stay sentences apart
        pending = ""
        if groups and not gives_values(piece.tool, piece.text) and any(g[0] is piece.tool for g in groups):
            continue  # "What is the displacement of this car?" after the car's figures: nothing new
        repeats = bool(groups and groups[-1][0] is piece.tool and _SAME.search(piece.text))
        # A call that said "the same" with what it changes is whole: a clause giving its values again is the next.
        if groups and groups[-1][0] is piece.tool and not repeats and not overlaps(piece.tool, groups[-1][1], text,
                                                                                  together=not groups[-1][2]):
            groups[-1][1] = f"{groups[-1][1]}. {text}"  # more about the same call: "Also sort by rating"
            continue
        groups.append([piece.tool, text, repeats])
    if pending and groups:
        groups[-1][1] = f"{groups[-1][1]} {pending}"
    calls: list[tuple[Tool, dict]] = []
    guessed_of: dict[int, set[str]] = {}
    for tool, text, repeats in groups:
        # "the status and trial date for case A and case B": each member goes with every record the clause holds.
        for record, member_of, member in [(piece, name, member) for one, name, member in one_per_member(tool, text)
                                          for grouped in _by_group(tool, one) for piece in records(tool, grouped)]:
            fanned = _expand(tool, record)
            guesses: list[set[str]] = [set() for _ in fanned]
            filled = [fill_arguments(tool, t, None, names_in(tool, t), g) for (t, _), g in zip(fanned, guesses, strict=True)]
            if member_of is not None:  # "in both ascending and descending order": this call's member, as listed
                for args, guessed in zip(filled, guesses, strict=True):
                    args[member_of] = member
                    guessed.discard(member_of)
            _pin_items(tool, filled, [items for _, items in fanned], guesses)
            for (call_text, _), args in zip(fanned, filled, strict=True):
                _listed_words(tool, call_text, args)
            _add_calls(calls, tool, [t for t, _ in fanned], filled, repeats, guesses,
                       frozenset() if member_of is None else {member_of}, guessed_of)
    _fill_back(calls, guessed_of)
    return calls


def _fill_back(calls: list[tuple[Tool, dict]], guessed_of: dict[int, set[str]]) -> None:
    """A required value an earlier call only guessed takes the value the next call of the same tool read from its
    own words: "the most played Pop song and the most played Rock song in Australia" says the region once, at the
    end, for both tasks."""
    for index, (tool, args) in enumerate(calls):
        for name in sorted(guessed_of.get(id(args), ())):
            later = next((a for t, a in calls[index + 1:] if t is tool and name in a
                          and name not in guessed_of.get(id(a), ())), None)
            if later is not None:
                args[name] = later[name]


def _add_calls(calls: list[tuple[Tool, dict]], tool: Tool, texts: list[str], filled: list[dict],
               repeats: bool, guesses: list[set[str]], pinned: frozenset | set = frozenset(),
               guessed_of: dict[int, set[str]] | None = None) -> None:
    """The calls of one fan-out added in order, each taking what its own text leaves out (or only guesses) from
    the previous call of the same tool; a call made already is not made twice. `pinned`: the parameters the call's
    member run set (member_lists.py), which nothing carried over replaces. A clause that says to repeat ("repeat
    these calculations for ...", "the same analysis for ...") repeats every call of the tool made before it, each
    with what it changes."""
    before: list[dict] = []
    for t, a in calls:
        if t is tool and a not in before:
            before.append(a)
    for call_text, args, guessed in zip(texts, filled, guesses, strict=True):
        still = set(guessed)
        for name in guessed:
            # A task that only points back ("the leaders involved during the war", "his discovery") takes the
            # value the call before it gave a parameter of the same name, whatever the tool.
            earlier = next((a[name] for _, a in reversed(calls) if name in a), None)
            if earlier is not None:
                args[name] = earlier
                still.discard(name)
        borrowed = _twins_from_subjects(tool, args, guessed, calls)
        still -= borrowed
        required = (tool.parameters or {}).get("required") or []
        own = own_values(tool, call_text, args, guessed - borrowed) | (set(pinned) & set(args))
        carried = set(borrowed)
        variants: list[dict] = []
        previous = next((a for t, a in reversed(calls) if t is tool), None)
        if previous is not None:
            for name in required:
                if name in previous and name not in pinned and (name not in args or name in guessed
                                                                or not from_text(args[name], call_text)):
                    args[name] = previous[name]  # "the same city", "repeat with 10 seconds"
                    carried.add(name)
            if repeats:
                changes = {k: v for k, v in args.items() if (from_text(v, call_text) or k in pinned)
                           and not _member_echo(tool, args, k)}
                # Every call before it, each with the changes; calls that then differ only in what the clause
                # changes are one call ("Then do the same for Tiree" after Oban and Mallaig: one more).
                bases = before if len(before) >= 2 else [previous]
                variants = [{**base, **changes} for base in bases]
                args = variants[-1]
                carried |= set(previous)
        fan: tuple[str, list] | None = None
        for name in required:
            if name in own or name in carried:
                continue
            # "Also, compute the total distance covered": a value the task's own words leave out is the one an
            # earlier call of another tool gave a parameter of the same name (the same object, the same shares).
            source = next((t for t, a in reversed(calls) if t is not tool and name in a), None)
            if source is None:
                continue
            given = []
            for t, a in calls:
                if t is source and name in a and a[name] not in given:
                    given.append(a[name])
            args[name] = given[-1]
            carried.add(name)
            if fan is None and len(given) >= 2 and _EACH.search(call_text):
                fan = (name, given)  # "... the GDP in those same years": one call per year the earlier calls took
        if calls and required and not (own | carried) & set(required):
            continue  # a later task that gives the tool nothing, and no call before fills: not a call of its own
        for variant in variants[:-1] + [args]:
            for one in ([{**variant, fan[0]: value} for value in fan[1]] if fan else [variant]):
                if (tool, one) not in calls:
                    calls.append((tool, one))
                    if guessed_of is not None:  # what this call still only guesses (_fill_back)
                        guessed_of[id(one)] = still - carried


def _twins_from_subjects(tool: Tool, args: dict, guessed: set[str], calls: list[tuple[Tool, dict]]) -> set[str]:
    """Parameters alike but for an ordinal (`city_1`, `city_2`) that the call's own words leave unnamed (guessed,
    or all one value: "the time difference between two cities" is no call of a city with itself) take, in order,
    the subjects the calls of the tool before it took, when there are as many of them as twins ("the current time
    in Oslo and Lima and the time difference between the two cities"). The names it filled."""
    props = (tool.parameters or {}).get("properties") or {}
    twins: dict[str, list[str]] = {}
    for name, schema in props.items():
        if isinstance(schema, dict) and param_type(schema) == "string" and not schema.get("enum") \
                and ORDINAL_PART.search(name):
            twins.setdefault(ORDINAL_PART.sub("", name.lower()), []).append(name)
    others = [(t, a) for t, a in calls if t is not tool]
    if not others:
        return set()
    source = others[-1][0]
    required = (source.parameters or {}).get("required") or []
    subjects: list[str] = []
    for t, a in calls:
        value = next((a[n] for n in required if isinstance(a.get(n), str)), None) if t is source else None
        if value is not None and value not in subjects:
            subjects.append(value)
    filled: set[str] = set()
    for group in twins.values():
        unnamed = all(n in guessed for n in group) or (all(n in args for n in group)
                                                        and len({str(args[n]) for n in group}) == 1)
        if len(group) >= 2 and unnamed and len(subjects) == len(group):
            for name, value in zip(group, subjects, strict=True):
                args[name] = value
            filled |= set(group)
    return filled


def _member_echo(tool: Tool, args: dict, name: str) -> bool:
    """Whether a text argument only echoes the member another parameter of the call took from its closed set
    ("repeat for 'deletion'": `mutation_type` is 'deletion', so `sequence` is not): no change of its own."""
    value = args.get(name)
    sets = closed_sets(tool)
    if not isinstance(value, str) or name in sets:
        return False
    props = (tool.parameters or {}).get("properties") or {}
    for other in sets:
        member = args.get(other)
        if other == name or not isinstance(member, str):
            continue
        # The member alone, or with the other parameter's own words ("heavy brine" for `brine`='heavy').
        own = {stem(w) for w in re.findall(r"[a-z]+", f"{other} {(props.get(other) or {}).get('description') or ''}"
                                                          .lower())} | STOP_STEMS
        rest = {stem(w) for w in re.findall(r"[a-z]+", value.lower())} - {
            stem(w) for w in re.findall(r"[a-z]+", member.lower())}
        if member.lower() in value.lower() and rest <= own:
            return True
    return False


# A task that says it is for every subject the calls before it took: "these years", "both religions", "each city".
_EACH = re.compile(r"\b(?:these|those|both|each|all|every)\b", re.IGNORECASE)
