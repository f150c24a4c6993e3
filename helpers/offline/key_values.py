"""Values a request gives by the parameter's own name: `kilnId=K1`, `weeks: 3`, `format = "vtt"`.

People who know an API type its parameters as key=value fragments ("video_id=vid_19ab target_language=de") or as
a form ("member_id: CLB-04410, weeks: 3"). Such a fragment says which parameter a value is for, so it outranks
every guess from the value's neighbouring words. `keyed_values(properties, text)` gives each parameter named so
its value, as the schema's type wants it:
- the key must be the parameter's name as the schema writes it, in any case style (`cents_flat`, `centsFlat`,
  `CENTS-FLAT`), followed by `=` or `:`; a key before `:` must start a field (the text's start, after a comma,
  a semicolon, a bracket, a line break or another colon) or be written as code (`member_id`), since a colon in
  prose opens a list ("about the NBA league: the record for ...");
- after `=` the value is one token, or a quoted text (`address="4 Bank St, Perth"`); after `:` it runs to the
  next comma, semicolon or key (`customer_name: Priya Raman, garment: shirt`);
- an integer, number or boolean parameter takes it only when it reads as one ("3", "12.5", "true"/"no"); an
  enum takes only one of its members (any case, `_` for a space); text is taken as written.

What it leaves out on purpose: keys that are not the schema's names ("qty=3" for `quantity`: a synonym, which
only meaning would bridge), nested objects and arrays (`location.lat=55.9`, `tags=[a, b]`), and JSON pasted
whole. A lone word before a colon that happens to be a parameter's name ("Note: ...") is read as that parameter.

Example:
    >>> props = {"video_id": {"type": "string"}, "languages": {"type": "integer"}}
    >>> keyed_values(props, "order subs video_id=vid_19ab languages=3 pls")
    {'video_id': 'vid_19ab', 'languages': 3}
"""

from __future__ import annotations

import re

from helpers.offline.field_roles import name_words

# A key and what follows it: a word of letters, digits, _ and -, then = or :, then the value's start. The key
# must start a word, and ":" must not be part of a time or a URL ("18:30", "https://").
_KEY = re.compile(r"(?<![\w/-])([A-Za-z][\w-]*)\s*(=|:(?!//|\d{2}\b))\s*")
_QUOTED = re.compile(r"\"([^\"]*)\"|'([^']*)'|“([^”]*)”")
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


def _same_name(key: str, name: str) -> bool:
    """A key that is the parameter's name in another case style: `kilnid`, `kiln_id` and `kilnId` for `kilnId`."""
    return name_words(key) == name_words(name) or key.lower() == name.lower()


def _field_start(text: str, match: re.Match) -> bool:
    """A `key:` that starts a field: at the text's start or after a comma, semicolon, bracket, line break or
    another colon, or a key written as code (`member_id`, `kilnId`). "about the NBA league: the record for ..."
    is prose, whose colon opens a list, not a value."""
    key = match.group(1)
    return bool(re.search(r"(?:^|[,;(\n:])\s*$", text[:match.start()])) or "_" in key or bool(
        re.search(r"[a-z][A-Z]", key))


def _raw_values(text: str, names: list[str]) -> dict[str, str]:
    """The text each named parameter is given, as written (see the module for where a value ends)."""
    keys = [(m, next((n for n in names if _same_name(m.group(1), n)), None)) for m in _KEY.finditer(text)]
    keys = [(m, n) for m, n in keys if n is not None and (m.group(2) == "=" or _field_start(text, m))]
    found: dict[str, str] = {}
    for k, (match, name) in enumerate(keys):
        rest = text[match.end(): keys[k + 1][0].start() if k + 1 < len(keys) else len(text)]
        quoted = _QUOTED.match(rest)
        if quoted:
            value = next(g for g in quoted.groups() if g is not None)
        elif match.group(2) == "=":
            value = rest.split()[0] if rest.split() else ""
        else:
            value = re.split(r"[,;\n]", rest)[0]
        value = value.strip().rstrip(".,;!?")
        if value and name not in found:
            found[name] = value
    return found


def _typed(value: str, schema: dict):
    """The value as the schema's type wants it, or None when it does not read as one."""
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    enum = schema.get("enum")
    if enum:
        wanted = value.lower().replace(" ", "_")
        return next((e for e in enum if str(e).lower().replace(" ", "_") == wanted), None)
    if kind == "integer":
        return int(value) if re.fullmatch(r"[+-]?\d+", value) else None
    if kind == "number":
        return float(value) if re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)", value) else None
    if kind == "boolean":
        return True if value.lower() in _TRUE else False if value.lower() in _FALSE else None
    if kind in (None, "string"):
        return value
    return None  # arrays and objects: left to the other rules


def keyed_values(properties: dict, text: str) -> dict:
    """Each parameter the request gives as `name=value` or `name: value`, typed (see the module)."""
    schemas = {n: s for n, s in properties.items() if isinstance(s, dict)}
    given = {}
    for name, raw in _raw_values(text, list(schemas)).items():
        value = _typed(raw, schemas[name])
        if value is not None:
            given[name] = value
    return given
