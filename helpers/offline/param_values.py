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
- a year for a text parameter named for a year or a season: "in 2022" -> "2022", "the 2020-2021 season"; a
  month's name, as written, for one named for a month ("in December");
- a path for a parameter about a path, file, folder or directory (its name, description or `format: path`):
  the path-like token of the question, quoted or not: absolute ("/srv/photos"), home ("~/notes.txt"),
  explicitly relative ("./drafts", "../x"), a Windows drive ("C:\\temp"), or a relative path with a file
  extension, a dash or underscore, or three parts ("src/app/main.py", "data/demo-repo"). URLs, dates and
  fractions ("12/03/2026", "3/4", "km/h", "and/or") are not paths.
None when the question holds no such part; arguments.py then falls back to the names in the question.

The other readings of a parameter's part live beside it, one concept each: enum members (enum_match.py),
formulas (formulas.py), flags (flags.py), units (unit_params.py), and the value beside a noun or the phrase a
request is about (noun_phrases.py).

What it leaves out on purpose: meaning. "the door to the yard" does not give "back", and "next Friday"
stays a phrase, not a date: the offline model has no calendar and no clock; "my photos folder" is not a path,
and a bare relative path of two plain words ("docs/notes") is not told apart from "km/h".
"""

from __future__ import annotations

import re

from helpers.offline.dates import date_for
from helpers.offline.instructions.numbers import NUMBER_WORDS
from helpers.offline.text import STOP_WORDS, content_words, stem, words

# "i.e." too: descriptions write it where they mean "e.g." ("i.e., victim, accused, verdict etc.").
# The cue ends a word: "Optional" is no "option", so "Optional parameter to choose between ..." lists nothing
# from "al parameter"; "choose between", "choices are" cue a list as "one of" does.
_LISTED = re.compile(r"\b(?:e\.?\s?g\.?|i\.?\s?e\.?|for example|for instance|such as|like|one of|either|options?|"
                     r"values?|choose from|choose between|choices?(?:\s+are|\s+is)?)(?!\w)\s*[:,]?\s*"
                     r"(?P<items>[^.;)\n]+)", re.IGNORECASE)
# With no cue, words in brackets joined by "or" are the choices too: "the format (percentage or fraction)".
_BRACKETED = re.compile(r"\((?P<items>[\w-]+(?:\s*,\s*[\w-]+)*\s+or\s+[\w-]+)\)")
# A date said relative to today, kept as written: the offline model has no calendar.
_RELATIVE_DATE = re.compile(r"\b(?:(?:next|last|past|this|coming)\s+(?:week(?:end)?|month|year|day|monday|tuesday|"
                            r"wednesday|thursday|friday|saturday|sunday)|today|tomorrow|yesterday|tonight)\b",
                            re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A parameter that takes an address: named for one ("to", "cc", "recipient", "email"), or described as one. "The
# subject of the email" is about an email, not an address.
_ADDRESS_PARAM = re.compile(r"e-?mail|recipient|^(?:to|cc|bcc|from|sender)$", re.IGNORECASE)
_ADDRESS_DESCRIPTION = re.compile(r"\be-?mail\s+address|\baddress\s+of\s+the\s+recipient|\brecipient", re.IGNORECASE)
# An identifier: a token with a digit, or a snake_case name, after the word "ID" (or "identifier", "number", "no.").
_ID_WORD = r"(?:id|ID|Id|identifier|number|no\.|#)"
_CODE = r"(?P<code>[A-Za-z][\w-]*\d[\w/-]*|\d[\w/-]*|[A-Za-z]+_\w+)"
_MONTH_NAME = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
                         r"December)\b")  # capitalised: "may" is a verb
_YEAR = re.compile(r"(?<![\w.,])(?:1[0-9]|20|21)\d{2}(?:[-/–](?:\d{4}|\d{2}))?(?![\w.,]\d)")
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.:-])-?\d+(?:\.\d+)?(?![\w:])")
_PATH_WORDS = {"path", "paths", "file", "filename", "filepath", "folder", "dir", "directory", "repo_path"}
_POSIX_PATH = re.compile(r"(?:~|\.{1,2})?/?[\w.-]+(?:/[\w.-]*)*")
_ITEM_MARKS = " '\"`[]()"  # the quotes and brackets around a listed item: "Eg: ['I', 'V']", "(cups or grams)"
_AROUND = "\"'`()[]<>,;!?\u201c\u201d\u2018\u2019"
_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/][\w.\\/-]*")  # "C:\\temp\\x.txt", "C:/data/x.csv"


def listed_values(schema: dict) -> list[str]:
    """The values a parameter lists as possible: its `examples`, else what its description lists.

    Example:
        >>> listed_values({"description": "the door, e.g. front, back, garage"})
        ['front', 'back', 'garage']
        >>> listed_values({"description": "The part wanted, i.e., stem, petal, root etc."})
        ['stem', 'petal', 'root']
        >>> listed_values({"description": "Optional: choose between 'loose' and 'bagged' leaves."})
        ['loose', 'bagged']
    """
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return [str(x) for x in examples if isinstance(x, str | int | float)]
    match = _LISTED.search(str(schema.get("description") or "")) or _BRACKETED.search(
        str(schema.get("description") or ""))
    if match is None:
        return []
    quoted = quoted_values(match.group("items"))
    if len(quoted) >= 2:
        return quoted  # "between 'imperial' and 'metric' systems": the quoted words are the values
    items = re.split(r"\s*(?:,|\bor\b|\band\b|/)\s*", match.group("items"))
    # "verdict etc": the list's closing "etc" is no part of its last item.
    items = [re.sub(r"\s*\betc\b\.?$", "", i.strip(_ITEM_MARKS)).strip(_ITEM_MARKS) for i in items]
    return [i for i in items if i and i.lower() != "etc" and len(i.split()) <= 3]


def quoted_values(description: str) -> list[str]:
    """The values a description quotes as possible ("Can be 'list' or 'dictionary'").

    Example:
        >>> quoted_values("Can be 'list' for all factors or 'dictionary' for counts.")
        ['list', 'dictionary']
    """
    pairs = re.findall(r"'([^'\n]{1,30})'|\"([^\"\n]{1,30})\"", description)
    return [single or double for single, double in pairs]


def value_for(name: str, schema: dict, question: str, qualifier: bool = True, taken: frozenset | set = frozenset()):
    """The part of the question the parameter asks for (see the module), or None. `qualifier=False`
    leaves out the weakest reading, the word before the parameter's noun (a name found in the question
    then comes first). `taken`: values other parameters have; a date among them gives way to the next date.

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
    # A hyphenated word says each of its parts too: "a gas-powered car" mentions the listed value 'gas'.
    asked = {stem(part) for w in words(question) for part in {w, *w.split("-")} if part}
    for value in listed_values(schema) + quoted_values(description):
        if {stem(w) for w in words(value)} and {stem(w) for w in words(value)} <= asked:
            return value
    said = f"{name} {description}".lower()
    if wants_email(name, schema):
        found = _EMAIL.search(question)
        if found:
            return found.group(0)
    if schema.get("format") in ("date", "date-time") or re.search(r"\bdate\b|\bday\b|birth|time\s+frame", said):
        written = date_for(description, question, taken)  # in the form asked for; a date taken already gives way
        if written:
            return written
        found = _RELATIVE_DATE.search(question)
        if found:
            return found.group(0)
    name_parts = {w.lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name)}  # `startMonth`: start, month
    if "month" in name_parts:
        found = _MONTH_NAME.search(question)  # "in December" for a `month`
        if found:
            return found.group(0)
    if {"year", "season"} & name_parts:
        found = _YEAR.search(question)  # a year written as text: "in 2022", "the 2020-2021 season"
        if found:
            return found.group(0)
    if (code := identifier_in(name, description, question)) is not None:
        return code
    if schema.get("format") == "path" or _PATH_WORDS & set(re.split(r"[_\W]+", said)):
        found_path = path_in(question)
        if found_path:
            return found_path
    if re.search(r"\btime\b(?!\s*zone)", said):  # a time zone is a place, not a time
        found = _TIME.search(question)
        if found:
            return found.group(0)
    return _qualifier(name, question) if qualifier else None


def emails_in(text: str) -> list[str]:
    """Every email address of a text, in order.

    Example:
        >>> emails_in("to ana@choir.example, copy bo@choir.example.")
        ['ana@choir.example', 'bo@choir.example']
    """
    return [found.rstrip(".") for found in _EMAIL.findall(text)]


def wants_email(name: str, schema: dict) -> bool:
    """Whether a parameter takes an email address: `format: email`, a name such as "to", "cc" or "recipient_email",
    or a description that says "email address".

    Example:
        >>> wants_email("cc", {}), wants_email("subject", {"description": "The subject of the email."})
        (True, False)
    """
    description = str(schema.get("description") or "")
    return schema.get("format") == "email" or bool(_ADDRESS_PARAM.search(name) or _ADDRESS_DESCRIPTION.search(description))


def identifier_in(name: str, description: str, question: str) -> str | None:
    """The code an identifier parameter takes: the token after "ID" (or "identifier", "number", "no.") in the
    request, one with a digit or a snake_case name, for a parameter named or described as an identifier
    ("order_id", "snp_id", "The patient identifier."). The word before "ID" that names the parameter wins when the
    request holds several ("user id 7, order id 12" -> 12 for `order_id`).

    Example:
        >>> identifier_in("tag_id", "", "Read the tag with ID rf-20931 now"), identifier_in("tag_id", "", "Read tag 5")
        ('rf-20931', None)
    """
    words_of_name = [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]
    if not words_of_name or not (words_of_name[-1].lower() in ("id", "identifier")
                                 or re.search(r"\bidentifier\b|\bID\b", description)):
        return None
    found = list(re.finditer(rf"(?:\b(?P<before>\w+)\s+)?\b{_ID_WORD}\s*(?:of|is|:|=|\s)\s*{_CODE}", question))
    if not found:
        return None
    own = {stem(w.lower()) for w in words_of_name[:-1]}
    named = [m for m in found if m.group("before") and stem(m.group("before").lower()) in own]
    return (named or found)[0].group("code").rstrip(".,")


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
