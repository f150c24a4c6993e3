"""Yes/no parameters: whether the request names the flag, and the default a description states.

- `flag_in(name, schema, question)`: True when the flag's own words appear ("with its history" for
  `include_history`), False after a negation ("without history"), None when the request doesn't name it;
- `described_default(schema)`: the default a description writes ("Default is true").
A flag its name does not name may be named by its description's action: "Whether to account for terrain" is set
by "accounting for terrain" (the action's verb and its last word, both said).

What it leaves out on purpose: meaning. A flag is named by its own words or its described action only; "show me everything" does not
set `include_details`.
"""

from __future__ import annotations

import re

from helpers.offline.text import stem, words

_FLAG_FILLER = {stem(w) for w in "include includes is has have show with get use enable return flag should whether "
                "want need do add fetch details detail info information status state".split()}


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
    said = words(question)
    tokens = [stem(w) for w in said]
    # "Case No 28473, their history": "No" before a number is "number" written short, no negation.
    tokens = ["number" if t == "no" and i + 1 < len(said) and said[i + 1][:1].isdigit() else t
              for i, t in enumerate(tokens)]
    negations = {"without", "no", "not", "exclude", "dont", "never", "skip"}
    for i, token in enumerate(tokens):
        if token == own[0] and tokens[i:i + len(own)] == own or (len(own) == 1 and token == own[0]):
            return not negations & set(tokens[max(0, i - 3):i])
        if len(own) == 1 and "-" in said[i] and stem(said[i].replace("-", "")) == own[0]:
            return not negations & set(tokens[max(0, i - 3):i])  # "multi-player" for `multiplayer`
    if len(own) == 2 and set(own) <= set(tokens):  # "with toll roads avoided" for avoid_tolls
        first = min(tokens.index(w) for w in own)
        return not negations & set(tokens[max(0, first - 3):first])
    return _described_action(schema, tokens, negations)


# What a flag's description says it does: "Whether to account for terrain ...", "If true, include match statistics
# like ...". The phrase ends at a comma, a full stop, "like"/"such as", or a preposition after its object.
_ACTION = re.compile(r"\b(?:whether\s+to|if\s+(?:set\s+to\s+)?true,?)\s+(?P<phrase>[a-z][a-z ]*?)"
                     r"(?=\s+(?:like|such|e\.g|etc|in|on|of|when|if|from|with|by|and|or)\b|[,.;(]|$)", re.IGNORECASE)


def _described_action(schema: dict, tokens: list[str], negations: set[str]) -> bool | None:
    """True when the request says the action the description gives the flag: its verb and its last word
    ("accounting for terrain" for "Whether to account for terrain in distance calculation"); None otherwise.

    Example:
        >>> _described_action({"description": "Whether to account for tides in the crossing."},
        ...                   [stem(w) for w in words("Plan the crossing, accounting for tides")], set())
        True
    """
    found = _ACTION.search(str(schema.get("description") or ""))
    if not found:
        return None
    phrase = [stem(w) for w in words(found.group("phrase"))]
    if len(phrase) < 2 or phrase[0] not in tokens or phrase[-1] not in tokens:
        return None
    at = tokens.index(phrase[0])
    return not negations & set(tokens[max(0, at - 3):at])


def described_default(schema: dict) -> bool:
    """The default a yes/no parameter's description states ("Default is true"), else False.

    Example:
        >>> described_default({"description": "Return a string if true. Default is true."})
        True
    """
    found = re.search(r"default(?:s)?(?:\s+value)?(?:\s+is|\s+to|:)?\s*['\"]?(true|false)", str(
        schema.get("description") or ""), re.IGNORECASE)
    return bool(found) and found.group(1).lower() == "true"

