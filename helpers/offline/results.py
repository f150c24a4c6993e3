"""Answering from other tools' results (not search results): what they say, in plain sentences.

- `combine_results`: every result in a sentence, units read from the key names ("temperature_c" -> "°C"),
  a direct yes or no when a result says so in so many words, and which result has the higher value of a
  number they all report;
- `field_phrase` / `name_and_value`: one field of a result as words. A key that is one past participle
  ("added", "deleted", "sent") reports an action, so it reads as one: {"added": "agent-1"} is "agent-1 was
  added", not "the added is agent-1";
- each result is named by the call's first text argument when that is a name ("Berlin: ..."), else by the
  tool ("From add_note: ..."): an argument that is a sentence or a long text is no name to put before a colon.

What it leaves out on purpose: conclusions. It repeats what the tools returned; judging from those facts
("so take an umbrella") needs knowledge the rules don't have.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from helpers.offline.cjk import is_cjk
from helpers.offline.conversation import Conversation, first_string_arg, read_output, tool_error
from helpers.offline.text import STOP_STEMS, number_text, stems

SUMMARY_CHARS = 200  # longest summary of one tool result: a line, not a dump
SUMMARY_ITEMS = 5  # items of a list result summarised; the rest would only repeat the pattern

# Units read from the end of a key name ("temperature_c", "wind_kmh"): the suffix after the last "_".
# A rule about how people name fields, not about any one tool.
UNITS = {"c": "°C", "f": "°F", "k": "K", "kmh": "km/h", "kph": "km/h", "mph": "mph", "mps": "m/s",
         "pct": "%", "percent": "%", "mm": "mm", "cm": "cm", "m": "m", "km": "km", "kg": "kg", "g": "g",
         "ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s", "min": "min", "mins": "min",
         "minutes": "min", "h": "h", "hours": "h", "days": "days", "usd": "USD", "eur": "EUR", "gbp": "GBP",
         "kb": "KB", "mb": "MB", "gb": "GB", "hpa": "hPa", "ppm": "ppm"}
# A single-word key that reports an action done: a regular past participle ("added", "queued", "agreed"; not
# the nouns and adjectives that also end in "-ed", such as "speed", "feed" or "red"), or one of the common
# irregular ones. Ambiguous words ("read", "set") stay nouns. A rule about English, not about any tool.
_PARTICIPLE = re.compile(r"^[a-z]{2,}ed$")
NOT_PARTICIPLES = frozenset({"speed", "feed", "seed", "need", "breed", "weed", "deed", "reed", "creed", "greed",
                             "steed", "bleed", "embed", "shed", "sled", "bred", "hundred", "sacred", "naked",
                             "wicked", "bed", "red", "fed", "led", "wed"})
IRREGULAR_PARTICIPLES = frozenset({"sent", "done", "made", "written", "paid", "built", "sold", "taken", "given",
                                   "shown", "found", "kept", "lost", "won", "bought", "held", "spent", "drawn",
                                   "chosen", "begun", "frozen", "hidden", "sung", "sunk", "spun", "thrown"})
LABEL_WORDS = 4  # an argument of at most this many words, not ending a sentence, names a result ("New York")
# A question that starts with an auxiliary verb asks for yes or no ("Do I need ...?", "Is it ...?").
_YES_NO = re.compile(r"^\s*(?:and\s+|so\s+|but\s+)?(?:do|does|did|is|are|was|were|am|can|could|will|would|should|"
                     r"shall|has|have|had|may|might|must)\b", re.IGNORECASE)
# ... or asks it last, after a task or a colon: "Check the weather in Oslo today: do I need a coat?".
_LATE_YES_NO = re.compile(r"[:;.!?]\s+(?:and\s+|so\s+|but\s+)?(?:do|does|did|is|are|was|were|am|can|could|will|"
                          r"would|should|shall|has|have|had|may|might|must)\b[^.!?:;]*\?\s*$", re.IGNORECASE)


def asks_yes_or_no(question: str) -> bool:
    """Whether the request asks a yes/no question, first or last.

    Example:
        >>> asks_yes_or_no("Do I need a coat?"), asks_yes_or_no("Check Oslo's weather: do I need a coat?")
        (True, True)
        >>> asks_yes_or_no("Check Oslo's weather. What should I wear?")
        False
    """
    return bool(_YES_NO.match(question) or _LATE_YES_NO.search(question))


def field_phrase(key: str, value) -> str:
    """One field of a result as words: the key's unit suffix becomes the value's unit; a key that is a past
    participle reads as the action it reports.

    Example:
        >>> field_phrase("temperature_c", 14)
        'the temperature is 14 °C'
        >>> field_phrase("added", "agent-1"), field_phrase("deleted", True), field_phrase("sent", 3)
        ('agent-1 was added', 'it was deleted', '3 were sent')
    """
    name, shown = name_and_value(key, value)
    if is_participle(name):
        if isinstance(value, bool):
            return f"it was {'' if value else 'not '}{name}"
        plural = isinstance(value, int | float) and value != 1
        return f"{shown} {'were' if plural else 'was'} {name}"
    if isinstance(value, bool):
        return f"{name}: {shown}"
    return f"the {name} {'are' if _plural(name) else 'is'} {shown}"


def is_participle(name: str) -> bool:
    """Whether a field's name (one word) is a past participle, the report of an action done.

    Example:
        >>> [is_participle(w) for w in ("added", "sent", "speed", "status", "last updated")]
        [True, True, False, False, False]
    """
    word = name.lower()
    return word in IRREGULAR_PARTICIPLES or bool(_PARTICIPLE.match(word)) and word not in NOT_PARTICIPLES


def _plural(name: str) -> bool:
    """An English plural by its ending: "days", "items"; not "status", "address", "analysis", "bus"."""
    last = name.split()[-1].lower() if name.split() else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def name_and_value(key: str, value) -> tuple[str, str]:
    """A field's name in words and its value with the unit its key names.

    Example:
        >>> name_and_value("wind_kmh", 18)
        ('wind', '18 km/h')
    """
    name, _, suffix = key.rpartition("_")
    unit = UNITS.get(suffix.lower()) if name else None
    name = (name if unit else key).replace("_", " ").strip()
    if isinstance(value, bool):
        value = "yes" if value else "no"
    elif isinstance(value, int | float):
        value = number_text(float(value))
    return name, f"{value}{unit}" if unit == "%" else f"{value} {unit}" if unit else str(value)


def _sentence(label: str, data: dict) -> str:
    """A dict result in one sentence; fields that only repeat the label (city: Berlin) are left out.

    Example:
        >>> _sentence("From add_note", {"added": "n-7"})
        'From add_note: n-7 was added'
    """
    phrases = [field_phrase(k, v) for k, v in data.items()
               if not isinstance(v, dict | list) and v is not None and str(v).lower() != label.lower()]
    if not phrases:
        return f"{label}: no details"
    listed = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return f"{label}: {listed}"[:SUMMARY_CHARS]


def _summarise_output(output: str, data, error: str | None, label: str = "") -> str:
    """A tool output in a sentence; `data` and `error` are the output as read_output and tool_error read it
    (the caller reads them once, and needs them too)."""
    if error is not None:
        return f"{label}: the tool failed with the error \"{error}\"".lstrip(": ")
    if isinstance(data, dict):
        return _sentence(label or "the result", data)
    if isinstance(data, list):
        items = [_sentence(label or "the result", x) if isinstance(x, dict) else str(x) for x in data[:SUMMARY_ITEMS]]
        # An empty list is a result too ("nothing matched"): say so rather than leave an empty sentence.
        return "; ".join(items)[:SUMMARY_CHARS] or f"{label or 'the tool'} returned nothing"
    text = ' '.join((output or '').split())[:SUMMARY_CHARS]
    return f"{label}: {text}".lstrip(": ") if text else f"{label or 'the tool'} returned nothing"


def _yes_or_no(question: str, results: list[tuple[str, dict]]) -> str | None:
    """"Yes, ..." or "No, ..." when a result answers a yes/no question in so many words: a true/false
    field named like a word of the question, or a text value that holds a word of the question. None
    when the results hold no such direct answer (judging needs knowledge the rules don't have).

    Example:
        >>> _yes_or_no("Is it raining in Oslo?", [("Oslo", {"conditions": "light rain"})])
        'Yes: for Oslo, the conditions are light rain.'
    """
    if not asks_yes_or_no(question):
        return None
    asked = stems(question) - STOP_STEMS
    for label, data in results:
        asked_here = asked - stems(label)
        for key, value in data.items():
            if isinstance(value, bool) and stems(key.replace("_", " ")) & asked_here:
                return f"{'Yes' if value else 'No'}: for {label}, {field_phrase(key, value)}."
            if isinstance(value, str) and stems(value) & asked_here:
                return f"Yes: for {label}, {field_phrase(key, value)}."
    return None


def result_label(call) -> str:
    """What names a call's result in the answer: its first text argument when that reads as a name (at most
    LABEL_WORDS words, not a sentence), else "From <tool>".

    Example:
        >>> from helpers.offline.conversation import Call
        >>> result_label(Call("get_weather", '{"city": "New York"}', "c1", 0))
        'New York'
        >>> result_label(Call("add_note", '{"text": "Call the plumber about the leak on Monday."}', "c2", 0))
        'From add_note'
    """
    argument = " ".join((first_string_arg(call) or "").split())
    if argument and len(argument.split()) <= LABEL_WORDS and not argument.endswith((".", "?", "!", ":")):
        return argument
    return f"From {call.name}"


def _read(call) -> tuple[object, str | None]:
    """A call's output as data and the error it reports, read here (a caller with a Reading passes its own)."""
    return read_output(call.output), tool_error(call.output)


def combine_results(conv: Conversation, read: Callable = _read) -> str:
    """The answer from other tools' results, in plain sentences (units read from key names), a direct
    yes or no when the results answer a yes/no question in so many words, and, for a number that every
    result has ("temperature_c"), which one is higher.

    Example:
        >>> from helpers.offline.conversation import Call, Tool
        >>> weather = Tool("get_weather", "The weather now in a city",
        ...     {"properties": {"city": {"type": "string"}}})
        >>> conv = Conversation(question="Is it warmer in Berlin or Madrid?", tools=[weather], calls=[
        ...     Call("get_weather", '{"city": "Berlin"}', "c1", 0, '{"temperature_c": 14, "conditions": "light rain"}'),
        ...     Call("get_weather", '{"city": "Madrid"}', "c2", 0, '{"temperature_c": 24, "conditions": "sunny"}')])
        >>> print(combine_results(conv))
        The results don't say yes or no to that in so many words, so here is what they say. Berlin: the
        temperature is 14 °C and the conditions are light rain. Madrid: the temperature is 24 °C and the
        conditions are sunny. A real model would draw the conclusion from these facts; I only repeat them.
        Madrid has the higher temperature (24 °C vs 14 °C for Berlin).

    `read(call) -> (data, error)` reads a call's output: the rules pass their Reading's (reading.Reading.output),
    so an output read once for the request is not read again here.
    """
    parts = []
    results: list[tuple[str, dict]] = []
    numeric: dict[str, list[tuple[str, float]]] = {}
    for call in conv.calls:
        label = result_label(call)
        if call.output is None:
            continue
        data, error = read(call)
        parts.append(_summarise_output(call.output, data, error, label))
        # Inside a sentence ("Yes: for ...", "... has the higher ...") a result is named without "From".
        named = call.name if label == f"From {call.name}" else label
        if isinstance(data, dict) and error is None:
            results.append((named, data))
            for key, value in data.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    numeric.setdefault(key, []).append((named, float(value)))
    if not parts:
        return "I could not get any results from the tools, so I have no answer."
    if is_cjk(conv.question):  # asked in Chinese or Japanese: the results quoted with that punctuation
        return _cjk_answer(conv, numeric, len(parts), read)
    facts = ". ".join(p[0].upper() + p[1:] for p in parts) + "."
    verdict = _yes_or_no(conv.question, results)
    if verdict:
        text = f"{verdict} {facts}"
    elif asks_yes_or_no(conv.question):
        text = (f"The results don't say yes or no to that in so many words, so here is what they say. {facts} "
                f"A real model would draw the conclusion from these facts; I only repeat them.")
    else:
        text = facts
    if len(parts) > 1:
        for key, values in numeric.items():
            if len(values) == len(parts) and len({label for label, _ in values}) > 1:
                top = max(values, key=lambda lv: lv[1])
                low = min(values, key=lambda lv: lv[1])
                if top[1] != low[1]:
                    name, high = name_and_value(key, top[1])
                    text += f" {top[0]} has the higher {name} ({high} vs {name_and_value(key, low[1])[1]} for {low[0]})."
    return text


def _cjk_answer(conv: Conversation, numeric: dict[str, list[tuple[str, float]]], n_results: int,
                read: Callable = _read) -> str:
    """The results for a question asked in Chinese or Japanese: each result's values, quoted as the tool
    gave them (with the units its keys name), after what it is about, in that script's punctuation. The
    keys are left out: they are the tool's identifiers, not words of the request's language, and the rules
    cannot translate them. For a number every result has, the highest is named.

    Example:
        >>> from helpers.offline.conversation import Call
        >>> conv = Conversation(question="北京和上海哪里更热？", calls=[
        ...     Call("get_weather", '{"city": "北京"}', "c1", 0, '{"condition": "晴", "temperature_c": 22}'),
        ...     Call("get_weather", '{"city": "上海"}', "c2", 0, '{"condition": "小雨", "temperature_c": 18}')])
        >>> print(combine_results(conv))
        北京：晴，22 °C。上海：小雨，18 °C。北京最高：22 °C（上海 18 °C）。
    """
    comma = "、" if re.search(r"[\u3040-\u30ff]", conv.question) else "，"  # kana: Japanese
    lines = []
    for call in conv.calls:
        if call.output is None:
            continue
        label = first_string_arg(call) or call.name
        data, error = read(call)
        if error is not None:
            lines.append(f"{label}：{call.name} 失败（{error}）")
            continue
        values = []
        if not isinstance(data, dict | list):  # plain text: quoted as it is
            values.append(" ".join(str(call.output).split())[:SUMMARY_CHARS])
        for item in (data if isinstance(data, list) else [data] if isinstance(data, dict) else [])[:SUMMARY_ITEMS]:
            if isinstance(item, dict):
                values += [name_and_value(k, v)[1] for k, v in item.items() if not isinstance(v, dict | list)
                           and v is not None and str(v).lower() != label.lower()]
            elif item is not None:
                values.append(str(item))
        lines.append(f"{label}：{comma.join(values)[:SUMMARY_CHARS]}" if values else label)
    text = "".join(f"{line}。" for line in lines)
    if n_results > 1:
        for key, found in numeric.items():
            if len(found) == n_results and len({lab for lab, _ in found}) > 1:
                top, rest = max(found, key=lambda lv: lv[1]), [lv for lv in found if lv != max(found, key=lambda x: x[1])]
                if rest and top[1] != min(v for _, v in found):
                    others = comma.join(f"{lab} {name_and_value(key, v)[1]}" for lab, v in rest)
                    text += f"{top[0]}最高：{name_and_value(key, top[1])[1]}（{others}）。"
                break
    return text
