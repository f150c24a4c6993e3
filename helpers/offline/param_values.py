"""The part of a request that one parameter asks for, read from the parameter's own schema.

A parameter says what it wants in its name, description, type, format and examples. `value_for(name,
schema, question)` looks in the question for just that part:
- a listed value: the schema's `examples`, or values the description lists ("e.g. front, back,
  garage", "such as rye or spelt", "one of: small, large"): the one the question mentions, in any word
  form;
- the word that qualifies the parameter's own noun in the question: "unlock the *back* door" for a
  parameter `door`, "the *Leiden* station" for `station`;
- a date (`format: date`, or "date" in the name or description): an ISO date, or a day and a month
  ("12 March", "March 12th"), as written; a time ("time" in the name): "18:30", "9 am";
- a number for a numeric parameter: digits or a number word ("a table for four" -> 4);
- a path for a parameter about a path, file, folder or directory (its name, description or `format: path`):
  the path-like token of the question, quoted or not: absolute ("/srv/photos"), home ("~/notes.txt"),
  explicitly relative ("./drafts", "../x"), a Windows drive ("C:\\temp"), or a relative path with a file
  extension, a dash or underscore, or three parts ("src/app/main.py", "data/demo-repo"). URLs, dates and
  fractions ("12/03/2026", "3/4", "km/h", "and/or") are not paths.
None when the question holds no such part; arguments.py then falls back to the names in the question.

A little over 400 lines: every reading of one parameter's part of the request is here, so that their order and
their overlaps are read in one place (the flag, enum, unit and phrase readings at the end included).

What it leaves out on purpose: meaning. "the door to the yard" does not give "back", and "next Friday"
stays a phrase, not a date: the offline model has no calendar and no clock; "my photos folder" is not a path,
and a bare relative path of two plain words ("docs/notes") is not told apart from "km/h".
"""

from __future__ import annotations

import re

from helpers.offline.binding import UNIT_WORDS, mentions
from helpers.offline.instructions.numbers import NUMBER_WORDS
from helpers.offline.text import MONTHS, STOP_WORDS, content_words, stem, words

_LISTED = re.compile(r"\b(?:e\.?\s?g\.?|for example|for instance|such as|like|one of|either|options?|values?|"
                     r"choose from)\s*[:,]?\s*(?P<items>[^.;)\n]+)", re.IGNORECASE)
_MONTHS = "|".join(MONTHS)
_DATE = re.compile(rf"\b\d{{4}}[-/]\d{{1,2}}[-/]\d{{1,2}}\b|\b\d{{1,2}}[-/]\d{{1,2}}[-/]\d{{4}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b(?:\s+\d{{4}})?"
                   rf"|\b(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}})?", re.IGNORECASE)
# A date said relative to today, kept as written: the offline model has no calendar.
_RELATIVE_DATE = re.compile(r"\b(?:(?:next|last|past|this|coming)\s+(?:week(?:end)?|month|year|day|monday|tuesday|"
                            r"wednesday|thursday|friday|saturday|sunday)|today|tomorrow|yesterday|tonight)\b",
                            re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.:-])-?\d+(?:\.\d+)?(?![\w:])")
_PATH_WORDS = {"path", "paths", "file", "filename", "filepath", "folder", "dir", "directory", "repo_path"}
_POSIX_PATH = re.compile(r"(?:~|\.{1,2})?/?[\w.-]+(?:/[\w.-]*)*")
_AROUND = "\"'`()[]<>,;!?\u201c\u201d\u2018\u2019"
_WINDOWS_PATH = re.compile(r"[A-Za-z]:\\[\w.\\-]*")


def listed_values(schema: dict) -> list[str]:
    """The values a parameter lists as possible: its `examples`, else what its description lists.

    Example:
        >>> listed_values({"description": "the door, e.g. front, back, garage"})
        ['front', 'back', 'garage']
    """
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return [str(x) for x in examples if isinstance(x, str | int | float)]
    match = _LISTED.search(str(schema.get("description") or ""))
    if match is None:
        return []
    items = re.split(r"\s*(?:,|\bor\b|\band\b|/)\s*", match.group("items"))
    return [i.strip(" '\"`") for i in items if i.strip(" '\"`") and len(i.split()) <= 3]


def quoted_values(description: str) -> list[str]:
    """The values a description quotes as possible ("Can be 'list' or 'dictionary'").

    Example:
        >>> quoted_values("Can be 'list' for all factors or 'dictionary' for counts.")
        ['list', 'dictionary']
    """
    pairs = re.findall(r"'([^'\n]{1,30})'|\"([^\"\n]{1,30})\"", description)
    return [single or double for single, double in pairs]


def value_for(name: str, schema: dict, question: str, qualifier: bool = True):
    """The part of the question the parameter asks for (see the module), or None. `qualifier=False`
    leaves out the weakest reading, the word before the parameter's noun (a name found in the question
    then comes first).

    Example:
        >>> value_for("door", {"type": "string", "description": "the door, e.g. front, back, garage"},
        ...           "Please unlock the back door")
        'back'
    """
    kind = schema.get("type")
    description = str(schema.get("description") or "")
    if kind in ("integer", "number"):
        return _number(question, kind)
    if kind not in (None, "string"):
        return None
    asked = {stem(w) for w in words(question)}
    for value in listed_values(schema) + quoted_values(description):
        if {stem(w) for w in words(value)} and {stem(w) for w in words(value)} <= asked:
            return value
    said = f"{name} {description}".lower()
    if schema.get("format") == "email" or re.search(r"\be-?mail|\brecipient|^to$", said):
        found = _EMAIL.search(question)
        if found:
            return found.group(0)
    if schema.get("format") in ("date", "date-time") or re.search(r"\bdate\b|\bday\b|birth|time\s+frame", said):
        found = _DATE.search(question) or _RELATIVE_DATE.search(question)
        if found:
            return found.group(0)
    if schema.get("format") == "path" or _PATH_WORDS & set(re.split(r"[_\W]+", said)):
        found_path = path_in(question)
        if found_path:
            return found_path
    if re.search(r"\btime\b", said):
        found = _TIME.search(question)
        if found:
            return found.group(0)
    return _qualifier(name, question) if qualifier else None


def path_in(text: str) -> str | None:
    """The first path-like token of `text` (see the module's list), without the quotes or the full stop
    around it; None when it holds none.

    Example:
        >>> path_in("Back up /srv/photos/2024, please."), path_in("Lint src/app/main.py"), path_in("Wind in km/h")
        ('/srv/photos/2024', 'src/app/main.py', None)
    """
    for raw in text.split():
        token = raw.lstrip(_AROUND)
        if not token.endswith(("/.", "/..")):  # "a/.." ends in dots that belong to it
            token = token.rstrip(_AROUND + ".:")  # quotes, brackets and the sentence's full stop
        if "://" in raw or token.startswith("//"):
            continue  # a URL, not a path on this machine
        if _WINDOWS_PATH.fullmatch(token):
            return token
        if "/" not in token or not _POSIX_PATH.fullmatch(token) or not re.search(r"[A-Za-z_]", token):
            continue  # no path, or only digits and slashes: a date or a fraction
        if token.startswith(("/", "~/", "./", "../")):
            return token
        parts = [part for part in token.split("/") if part]
        if len(parts) >= 3 or (len(parts) >= 2 and re.search(r"[._-]", token)):
            return token
    return None


def _qualifier(name: str, question: str) -> str | None:
    """The word just before the parameter's noun in the question: "the back door" -> "back"."""
    nouns = {stem(w) for w in re.split(r"[_\W]+", name.lower()) if w} - {"name", "id", "type", "kind"}
    tokens = re.findall(r"[\w'-]+", question)
    for i, token in enumerate(tokens):
        if i and stem(token.lower()) in nouns:
            before = tokens[i - 1]
            if before.lower() not in STOP_WORDS and content_words(before):
                return before
    return None


def _number(question: str, kind: str):
    found = _NUMBER.search(question)
    if found:
        value = float(found.group(0))
        return int(value) if kind == "integer" or value.is_integer() else value
    for word in words(question):
        if word in NUMBER_WORDS and word not in ("single", "once", "both"):
            return NUMBER_WORDS[word]
    return None


# --- enum values, formulas, flags, units and cues (the rules binding.py does not cover) -----------------

_DIGITS = {word: str(value) for word, value in NUMBER_WORDS.items() if " " not in word and word not in
           ("single", "once", "twice", "thrice", "both")}


def _canonical(text: str) -> set[str]:
    """The stems of a text, with spelled-out numbers as digits, so "six months" meets "6_months"."""
    return {_DIGITS.get(w, stem(w)) for w in re.split(r"[_\W]+", text.lower()) if w}


def enum_value(enum: list, question: str, taken: frozenset | set = frozenset()):
    """The enum member the question mentions, by its words in any form (numbers spelled out or not), the
    member with the most words winning, then the one the question says first; a member in `taken` (given
    to another parameter already) only when no other is mentioned; None when none is mentioned.

    Example:
        >>> enum_value(["one_month", "six_months", "one_year"], "Forecast the next six months, please")
        'six_months'
    """
    asked, lowered = _canonical(question), question.lower()
    found = []  # (member, how many of its words, where the question says it)
    for member in enum:
        if isinstance(member, bool) or member is None:
            continue
        if isinstance(member, int | float):
            if re.search(rf"(?<![\w.]){re.escape(str(member))}(?![\w.])", question):
                found.append((member, 1, question.find(str(member))))
            continue
        own = _canonical(str(member)) - {stem(w) for w in STOP_WORDS}
        if own and own <= asked:
            where = lowered.find(str(member).lower())
            found.append((member, len(own), where if where >= 0 else len(question)))
    fresh = [f for f in found if f[0] not in taken] or found
    return max(fresh, key=lambda f: (f[1], -f[2]))[0] if fresh else None


def enum_values(enum: list, question: str) -> list:
    """Every enum member the question says as a phrase (its words in a row, in any form), in the question's order:
    what an array of enum members takes ("avoiding highways and toll roads" -> ["highways", "tolls"]).

    Example:
        >>> enum_values(["Pottery Classes", "Glaze Classes", "Kilns"], "a kiln shop that offers glaze classes")
        ['Kilns', 'Glaze Classes']
    """
    tokens = [_DIGITS.get(w, stem(w)) for w in re.split(r"[_\W]+", question.lower()) if w]
    found = []
    for member in enum:
        if not isinstance(member, str) or not member.strip():
            continue
        own = [_DIGITS.get(w, stem(w)) for w in re.split(r"[_\W]+", member.lower()) if w]
        at = next((i for i in range(len(tokens) - len(own) + 1) if tokens[i:i + len(own)] == own), None)
        if own and at is not None:
            found.append((at, member))
    return [member for _, member in sorted(found, key=lambda f: f[0])]


_FORMULA_PARAM = re.compile(r"\b(?:function|equation|expression|formula|polynomial|integrand)\b", re.IGNORECASE)
_TERM = r"(?:\d+(?:\.\d+)?\s*\*?\s*)?(?<![A-Za-z])[a-z](?![A-Za-z])(?:\s*(?:\^|\*\*)\s*\d+)?|\d+(?:\.\d+)?"
_FORMULA = re.compile(rf"(?:(?<![A-Za-z])[a-z](?:\([a-z]\))?\s*=\s*)?[-+]?\s*(?:{_TERM})(?:\s*[-+*/]\s*(?:{_TERM}))*")


def expression_for(name: str, schema: dict, question: str) -> str | None:
    """A formula the question writes, for a parameter that asks for a function or an equation, with ^ written
    as Python's ** ("3x^2 + 2x - 1" -> "3x**2 + 2x - 1"); None when the parameter asks for none or the
    question writes none (a term with a power or a coefficient on a variable).

    Example:
        >>> expression_for("function", {"description": "The function to integrate."}, "Integrate y=x^2 from 1 to 3")
        'x**2'
    """
    if not _FORMULA_PARAM.search(f"{name.replace('_', ' ')} {schema.get('description') or ''}"):
        return None
    for match in _FORMULA.finditer(question):
        text = match.group(0).strip()
        if re.search(r"\^|\*\*|\d\s*\*?\s*[a-z](?![A-Za-z])", text) and re.search(r"(?<![A-Za-z])[a-z](?![A-Za-z])", text):
            text = re.sub(r"^(?<![A-Za-z])[a-z](?:\([a-z]\))?\s*=\s*", "", text)
            return re.sub(r"\s*\^\s*", "**", text).strip()
    return None


_FLAG_FILLER = {stem(w) for w in "include includes is has have show with get use enable return flag should whether "
                "want need do add fetch details detail info information".split()}


def flag_in(name: str, schema: dict, question: str) -> bool | None:
    """A yes/no parameter the question names: True when its words appear ("their history" for
    `include_history`), False when a negation comes just before them ("without history"); None when the
    question doesn't name it.

    Example:
        >>> flag_in("include_history", {}, "Show the case with its history"), flag_in("dark_mode", {}, "Hi")
        (True, None)
    """
    named = [stem(w).lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]
    # "include_history" is about "history"; a flag named only by a filler ("detailed") is about that word.
    own = [w for w in named if w not in _FLAG_FILLER] or named
    if not own:
        return None
    tokens = [stem(w) for w in words(question)]
    negations = {"without", "no", "not", "exclude", "dont", "never", "skip"}
    for i, token in enumerate(tokens):
        if token == own[0] and tokens[i:i + len(own)] == own or (len(own) == 1 and token == own[0]):
            return not negations & set(tokens[max(0, i - 3):i])
    if len(own) == 2 and set(own) <= set(tokens):  # "with toll roads avoided" for avoid_tolls
        first = min(tokens.index(w) for w in own)
        return not negations & set(tokens[max(0, first - 3):first])
    return None


def described_default(schema: dict) -> bool:
    """The default a yes/no parameter's description states ("Default is true"), else False.

    Example:
        >>> described_default({"description": "Return a string if true. Default is true."})
        True
    """
    found = re.search(r"default(?:s)?(?:\s+value)?(?:\s+is|\s+to|:)?\s*['\"]?(true|false)", str(
        schema.get("description") or ""), re.IGNORECASE)
    return bool(found) and found.group(1).lower() == "true"


def is_unit_param(name: str) -> bool:
    """A parameter that takes a unit of measure ("unit", "units", "length_unit").

    Example:
        >>> is_unit_param("length_unit"), is_unit_param("community")
        (True, False)
    """
    return any(w in ("unit", "units") for w in re.split(r"[_\W]+", name.lower()))


def unit_in(question: str, numbers: dict | None = None) -> str | None:
    """The unit written after the question's first number that has one ("4 inches" -> "inches").

    Example:
        >>> unit_in("a radius of 4 inches")
        'inches'
    """
    for mention in mentions(question):
        if mention.spelled or not mention.unit or not re.fullmatch(r"[A-Za-z]+", mention.unit):
            continue  # "four circles", "two right-angled triangles": a count of things, not a measure
        if is_unit_word(mention.unit):
            return mention.unit
    return None


# Units of measure by name: the short forms binding.py reads, their names, and the everyday ones beside them.
_UNIT_NAMES = {stem(w) for w in (set(UNIT_WORDS) | set(UNIT_WORDS.values()) | set("""inch inches foot mile yard acre
hectare degree degrees celsius fahrenheit kelvin unit units ounce oz ton tonne gallon pint quart cup teaspoon
tablespoon day week month year hour minute second byte kb mb gb tb pixel px dpi meters metres kilometers kilometres
centimeters millimeters grams kilograms pounds liters litres miles inches yards feet watts volts amperes hertz
joules newtons pascals calories kcal kwh""".split()))}


def is_unit_word(word: str) -> bool:
    """Whether a word names a unit of measure ("inches", "kg", "metres"), not a thing counted ("circles").

    Example:
        >>> is_unit_word("inches"), is_unit_word("km"), is_unit_word("circles")
        (True, True, False)
    """
    low = word.lower()
    return stem(low) in _UNIT_NAMES or low in UNIT_WORDS or (len(low) > 1 and low[0] in "kcmµμun" and low[1:] in UNIT_WORDS)


# Prepositions and the parameter words they point at: general English for where a value stands.
_CUES = {"from": {"start", "origin", "source", "from", "departure", "sender", "begin", "initial"},
         "to": {"end", "destination", "target", "to", "arrival", "recipient", "final"},
         "in": {"location", "city", "place", "where", "area", "region", "country"},
         "at": {"location", "place", "where", "venue", "time"},
         "near": {"location", "city", "place", "where", "area", "region"},
         "around": {"location", "city", "place", "where", "area", "region"},
         "by": {"author", "artist", "creator", "by"}}


def cued(name: str, schema: dict, question: str, value: str) -> bool:
    """Whether the words just before `value` in the question point at this parameter: its own words, or a
    preposition that reads like it ("from Oslo" for `origin`, "to Bergen" for `destination`).

    Example:
        >>> cued("destination", {}, "Trains from Oslo to Bergen", "Bergen"), cued("destination", {}, "Trains from Oslo", "Oslo")
        (True, False)
    """
    at = question.find(value)
    if at < 0:
        return False
    before = words(question[:at])[-3:]
    own = {stem(w) for w in re.split(r"[_\W]+", name.lower()) if w}
    own |= {stem(w) for w in content_words(str(schema.get("description") or ""))[:4]}
    return any(stem(word) in own or {stem(w) for w in _CUES.get(word, ())} & own for word in before)


_NOUN_FILLER = {"name", "names", "id", "type", "kind", "value", "str", "string", "info", "data", "the", "of",
                "specific", "given", "input", "target", "desired", "preferred", "optional"}
_AFTER_NOUN = {"of", "is", "numbered", "named", "called", "titled", "as", "the", "a", "an", "no", "number", "id",
               "=", ":"}


def noun_value(name: str, schema: dict, question: str) -> tuple[str | None, str | None]:
    """What the request writes beside the parameter's own noun: after it, a quoted text or a code ("docket
    number 123456", "movie 'Interstellar'"), and the word before it ("a hill slope"). (after, before); each None
    when the request doesn't use the noun or writes nothing that reads as a value there.

    Example:
        >>> noun_value("docket", {}, "The case docket numbered 2022/AL2562"), noun_value("slope_type", {}, "a hill slope")
        (('2022/AL2562', 'case'), (None, 'hill'))
    """
    core = [stem(w) for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w and w.lower() not in _NOUN_FILLER]
    core = [w.lower() for w in core]
    if not core:
        return None, None
    tokens = list(re.finditer(r"'[^']+'|\"[^\"]+\"|[\w./@-]+", question))
    stems = [stem(t.group(0).lower().strip("'\"")) for t in tokens]
    for i in range(len(tokens) - len(core) + 1):
        if stems[i:i + len(core)] != core:
            continue
        after, before = None, None
        j = i + len(core)
        while j < len(tokens) and tokens[j].group(0).lower() in _AFTER_NOUN:
            j += 1
        if j < len(tokens):
            token = tokens[j].group(0)
            if token[0] in "'\"":
                after = token.strip("'\"")
            elif re.search(r"\d", token) and re.search(r"[A-Za-z]", token) or re.fullmatch(r"[\d/-]{3,}", token):
                after = token.rstrip(".,")  # a code: "XYZ123", "2022/AL2562", "123456"
        if i > 0:
            word = tokens[i - 1].group(0)
            if word.isalpha() and word.lower() not in STOP_WORDS and content_words(word):
                before = word
        return after, before
    return None, None


# --- the phrase a text parameter asks for, when no name, quote or listed value gives it ------------------

_LEADS = frozenset("of in for about on at like with from to into under between named called titled".split())
def phrase_for(name: str, schema: dict, question: str, avoid: set[str], taken: set[str]) -> str | None:
    """The phrase of the request a required text parameter asks for when no name, quote or listed value gives it:
    the words right after the parameter's own noun ("the crime of theft" -> "theft"), else the last run of words
    a preposition leads ("proteins in the plasma membrane" -> "plasma membrane"), else the last run of words.
    A run is made of words that are neither stop words, nor request verbs, nor words of the tool's own name and
    description (`avoid`, stems): those say what the tool does, not what this call is about. None when no run is
    left (`taken` holds values other parameters have).

    Example:
        >>> avoid = {stem(w) for w in "bee hive inspect record".split()}
        >>> phrase_for("disease", {}, "Inspect the hive record for the disease of chalkbrood", avoid, set())
        'chalkbrood'
        >>> phrase_for("site", {}, "Inspect the hive records kept in the north meadow", avoid, set())
        'north meadow'
    """
    tokens = re.findall(r"[A-Za-z](?:[\w-]|'(?=\w))*|\d[\w.,/-]*|[^\w\s]", question)  # "James'" ends at "s"
    runs: list[tuple[int, list[str]]] = []  # (index where the run starts, its words)
    current: list[str] = []
    start = 0
    for i, token in enumerate(tokens + ["."]):
        low = token.lower()
        word_ok = (token[0].isalnum() and low not in STOP_WORDS and low not in _REQUEST_WORDS
                   and stem(low) not in avoid and not re.fullmatch(r"[\d.,/-]+", token))
        if word_ok:
            if not current:
                start = i
            current.append(token)
        else:
            if current:
                runs.append((start, current))
            current = []
    runs = [(i, r) for i, r in runs if " ".join(r).lower() not in {t.lower() for t in taken}]
    if not runs:
        return None
    own = {stem(w) for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w} - {stem(w) for w in _NOUN_FILLER}
    for i, run in runs:
        j = i - 1
        while j >= 0 and tokens[j].lower() in STOP_WORDS | _LEADS and tokens[j].lower() not in ("and", "or"):
            j -= 1
        if j >= 0 and stem(tokens[j].lower()) in own and j < i - 1:
            return " ".join(run)  # "the crime of theft": the words after the parameter's noun
    led = [r for i, r in runs if i > 0 and (tokens[i - 1].lower() in _LEADS or (
        i > 1 and tokens[i - 1].lower() in ("the", "a", "an") and tokens[i - 2].lower() in _LEADS))]
    return " ".join((led or [r for _, r in runs])[-1])


# Verbs and fillers a request is worded with, not what it is about: general English.
_REQUEST_WORDS = frozenset("""find get give show tell provide retrieve fetch search look calculate compute determine
identify list display check obtain help want need would could can please detail details detailed information info
me who what which when where how many much whose know including include includes using last next past current
recent latest upcoming""".split())
