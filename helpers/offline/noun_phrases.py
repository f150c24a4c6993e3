"""Where a text value stands in the request: after a preposition that reads like the parameter, beside the
parameter's own noun, or in the phrase the request is about.

- `cued(name, schema, question, value)`: the words before a value point at this parameter ("from Oslo" for
  `origin`);
- `noun_value(name, schema, question)`: what stands beside the parameter's noun ("docket number 123456", "a hill
  slope", "product A"; "the note C4" for `start_note`, the noun alone before a code or a quote);
- `phrase_for(name, schema, question, avoid, taken)`: the phrase a required text parameter takes when nothing
  else gives it.

What it leaves out on purpose: meaning. Each reading is by position and word form; "the door to the yard" does
not give "back".
"""

from __future__ import annotations

import re

from helpers.offline.text import STOP_WORDS, content_words, stem, words

_CUES = {"from": {"start", "origin", "source", "from", "departure", "sender", "begin", "initial"},
         "to": {"end", "destination", "target", "to", "arrival", "recipient", "final"},
         "in": {"location", "city", "place", "where", "area", "region", "country"},
         "at": {"location", "place", "where", "venue", "time"},
         "near": {"location", "city", "place", "where", "area", "region"},
         "around": {"location", "city", "place", "where", "area", "region"},
         "by": {"author", "artist", "creator", "by", "sculptor", "painter", "composer", "director", "writer"},
         "during": {"event", "period", "era", "during"}}


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


def pointed_at(name: str, question: str, value: str) -> bool:
    """A stricter `cued`: the word right before `value` (past "the", "a", "an") is the parameter's own name word or
    a preposition that reads like its name ("by Leach" for `potter`... only when the name says "by": `author`,
    `artist`; "during the Gold Rush" for `event`; "from Oslo" for `origin`). The description is not read.

    Example:
        >>> pointed_at("artist", "the bowl titled 'Moon' by Leach", "Leach"), pointed_at("title", "a bowl by Leach", "Leach")
        (True, False)
    """
    at = question.find(value)
    if at < 0:
        return False
    before = [w for w in words(question[:at])[-3:] if w not in ("the", "a", "an")][-1:]
    own = {stem(w) for w in re.split(r"[_\W]+", name.lower()) if w} - {stem(w) for w in _NOUN_FILLER}
    return any(stem(word) in own or {stem(w) for w in _CUES.get(word, ())} & own for word in before)


_NOUN_FILLER = {"name", "names", "id", "type", "kind", "value", "str", "string", "info", "data", "the", "of",
                "specific", "given", "input", "target", "desired", "preferred", "optional"}
_AFTER_NOUN = {"of", "is", "numbered", "named", "called", "titled", "as", "the", "a", "an", "no", "number", "id",
               "=", ":", "to"}  # "change size to 12x18": a code or a quote after "to" sets the noun


def noun_value(name: str, schema: dict, question: str) -> tuple[str | None, str | None]:
    """What the request writes beside the parameter's own noun: after it, a quoted text or a code ("docket
    number 123456", "movie 'Interstellar'"), and the word before it ("a hill slope"). (after, before); each None
    when the request doesn't use the noun or writes nothing that reads as a value there.

    Example:
        >>> noun_value("docket", {}, "The case docket numbered 2022/AL2562"), noun_value("slope_type", {}, "a hill slope")
        (('2022/AL2562', 'case'), (None, 'hill'))
    """
    parts = [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]
    # A name made only of filler ("data") is its own noun: "on the provided data my_data".
    core = [stem(w).lower() for w in parts if w.lower() not in _NOUN_FILLER] or (
        [stem(parts[0]).lower()] if len(parts) == 1 else [])
    if not core:
        return None, None
    for compound in re.findall(r"\b([A-Za-z]+)-([A-Za-z]+)\b", question):
        if stem(compound[1].lower()) == core[-1] and compound[0].lower() not in STOP_WORDS:
            return compound[0], None  # "a gas-fueled car" for `fuel_type`: gas
    # A quote in single quotes may hold an apostrophe between letters ('Let's meet at ten').
    tokens = list(re.finditer(r"(?<!\w)'(?:[^'\n]|(?<=\w)'(?=\w))+'(?!\w)|\"[^\"]+\"|[\w./@-]+", question))
    # "No", "No." and "Nr" before a number are "number" written short: "Case No 28473" is the case number.
    stems = [stem("number") if re.fullmatch(r"(?:no|nr)\.?", t.group(0).lower()) and i + 1 < len(tokens)
             and tokens[i + 1].group(0)[0].isdigit() else stem(t.group(0).lower().strip("'\""))
             for i, t in enumerate(tokens)]
    at = [i for i in range(len(tokens) - len(core) + 1) if stems[i:i + len(core)] == core]
    if not at and len(core) > 1:
        # "starting with the note C4" for `start_note`: the noun alone, for a quote or a code after it only.
        at = [i for i in range(len(tokens)) if stems[i] == core[-1] and _code_or_quote(tokens, i + 1) is not None]
        if at:
            return _code_or_quote(tokens, at[0] + 1), None
    for i in at:
        before = None
        after = _code_or_quote(tokens, i + len(core))
        if i > 0:
            word = tokens[i - 1].group(0)
            if word.isalpha() and word.lower() not in STOP_WORDS and content_words(word):
                before = word
        return after, before
    return None, None


def _code_or_quote(tokens: list, j: int) -> str | None:
    """The quoted text or the code that stands at token j, past words such as "of", "numbered", "the"."""
    while j < len(tokens) and tokens[j].group(0).lower() in _AFTER_NOUN and tokens[j].group(0) != "A":
        j += 1  # "number 12", "called 'Rye'"; a capital "A" after the noun is a letter naming it ("product A")
    if j >= len(tokens):
        return None
    token = tokens[j].group(0)
    if token[0] in "'\"":
        return token.strip("'\"")
    if re.search(r"\d", token) and re.search(r"[A-Za-z]", token) or re.fullmatch(r"[\d/-]{3,}", token) \
            or re.fullmatch(r"[A-Za-z]+_\w+", token.rstrip(".,")):
        return token.rstrip(".,")  # a code: "XYZ123", "2022/AL2562", "123456", "hive_log_2"
    following = tokens[j + 1].group(0) if j + 1 < len(tokens) else ""
    article = token == "A" and following.isalpha() and following.lower() not in STOP_WORDS  # "A new ..."
    if re.fullmatch(r"[A-HJ-Z]", token) and not following[:1].isupper() and not article:
        return token  # one capital letter names one of several: "product A", "plot B" ("I" is the speaker)
    return None


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
        word_ok = (token[0].isalnum() and low not in STOP_WORDS and low not in REQUEST_WORDS
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
REQUEST_WORDS = frozenset("""find get give show tell provide retrieve fetch search look calculate compute determine
identify list display check obtain help want need would could can please detail details detailed information info
me who what which when where how many much whose know including include includes using last next past current
recent latest upcoming""".split())
