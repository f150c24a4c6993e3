"""The BFCL data: fetched once as the pinned `bfcl-eval` wheel, checked by sha256, read from inside the zip.

The Berkeley Function Calling Leaderboard (BFCL v4, Apache 2.0) ships its test cases and their possible
answers inside the `bfcl-eval` wheel on PyPI. This module:
- `fetch_wheel`: downloads that wheel with `pip download --no-deps` into data/bfcl/ (gitignored), unless it
  is there already, and checks its sha256 against `WHEEL_SHA256`, the hash committed here;
- `load_cases(category)`: one category's cases, each with its question (the messages of its single turn),
  its functions and BFCL's possible answers, read straight from the zip (the wheel is never installed: it
  would pull in BFCL's own dependencies);
- `to_tool(function, api)`: one BFCL function as an OpenAI tool, built as BFCL builds the request of its
  OpenAI function-calling handlers (`model_handler/utils.py`: `convert_to_tool` and `_cast_to_openai_type`;
  `utils.py`: `_func_doc_language_specific_pre_processing`): the description ends with BFCL's note that the
  function is in Python 3 syntax; types are mapped by BFCL's `GORILLA_TO_OPENAPI` table (`dict` -> object,
  `float` -> number with format "float" and a sentence in the description, `tuple` -> array, `any` ->
  string, an unknown or missing type -> string), into nested properties and the items of arrays (an item's
  `float` becomes a number with no sentence, as BFCL maps items); every other key is kept as it is (enums,
  defaults, `optional`); dots in names become underscores, which the API requires.

The messages are sent as BFCL sends them (`openai_completion.py` and `openai_response.py`, `_query_FC`):
the case's first turn as it stands, with no system prompt added (its function-calling handlers add none),
a system message becoming a developer message on the Responses API (`_substitute_prompt_role`).

What it leaves out on purpose: the multi-turn, agentic, Java and JavaScript categories (the offline model
is scored on the Python single-turn ones, `CATEGORIES`), and BFCL's own runner and checker, which the
bench replaces (helpers.maint.bfcl_check).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

WHEEL_VERSION = "2026.3.23"
WHEEL_NAME = f"bfcl_eval-{WHEEL_VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a"  # computed once, 2026-12-01
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "bfcl"

NON_LIVE = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]
# The held-out categories: scored in aggregate only, never read case by case (GUIDE.md, principle 4).
LIVE = ["live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance",
        "live_relevance"]
CATEGORIES = NON_LIVE + LIVE
NO_CALL_RIGHT = {"irrelevance", "live_irrelevance"}  # right when no tool is called
SOME_CALL_RIGHT = {"live_relevance"}  # right when any tool is called (BFCL checks no arguments there)

# BFCL's types as JSON Schema types, as its OpenAI handlers map them (bfcl_eval/constants/type_mappings.py,
# GORILLA_TO_OPENAPI; the Java names are there because BFCL's table has them).
TYPE_MAP = {"integer": "integer", "number": "number", "float": "number", "string": "string", "boolean": "boolean",
            "bool": "boolean", "array": "array", "list": "array", "dict": "object", "object": "object",
            "tuple": "array", "any": "string", "byte": "integer", "short": "integer", "long": "integer",
            "double": "number", "char": "string", "ArrayList": "array", "Array": "array", "HashMap": "object",
            "Hashtable": "object", "Queue": "array", "Stack": "array", "Any": "string", "String": "string",
            "Bigint": "integer"}
# What BFCL adds to every Python function's description before it builds the request (utils.py).
PYTHON_HINT = " Note that the provided function is in Python 3 syntax."
FLOAT_NOTE = " This is a float type value."

class BfclDataError(RuntimeError):
    """The wheel could not be fetched, or it is not the one pinned here."""


@dataclass(frozen=True)
class Case:
    """One BFCL test case: its id, the messages of its one turn, its functions (BFCL's form) and the
    possible answers (a list of {function name: {parameter: [allowed values]}}; empty when no call is right)."""

    id: str
    category: str
    messages: list
    functions: list
    answers: list


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file.

    Example:
        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile() as f:
        ...     _ = f.write(b"abc"); f.flush(); sha256_of(Path(f.name))[:12]
        'ba7816bf8f01'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(data_dir: Path = DATA_DIR, downloader=None) -> Path:
    """The path of the pinned wheel in `data_dir`, downloaded first if missing; raises BfclDataError when it
    can't be fetched or its sha256 is not `WHEEL_SHA256` (a bad file is removed, so the next run fetches it
    again). `downloader(dest_dir)`: how to fetch it (default: pip download --no-deps from PyPI)."""
    wheel = data_dir / WHEEL_NAME
    if not wheel.is_file():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            (downloader or _pip_download)(data_dir)
        except (OSError, subprocess.CalledProcessError) as error:
            raise BfclDataError(f"could not download bfcl-eval=={WHEEL_VERSION} from PyPI into {data_dir} "
                                f"({error}). It is the BFCL data the bench scores on; with network access, "
                                f"run: pip download --no-deps bfcl-eval=={WHEEL_VERSION} -d {data_dir}") from None
        if not wheel.is_file():
            raise BfclDataError(f"the download left no {WHEEL_NAME} in {data_dir}")
    got = sha256_of(wheel)
    if got != WHEEL_SHA256:
        wheel.unlink()
        raise BfclDataError(f"{wheel} has sha256 {got}, not the pinned {WHEEL_SHA256}; it was removed. "
                            f"Run again to download it afresh.")
    return wheel


def _pip_download(dest: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                    f"bfcl-eval=={WHEEL_VERSION}", "-d", str(dest)], check=True, capture_output=True, text=True)


def _json_lines(archive: zipfile.ZipFile, member: str) -> list[dict]:
    with archive.open(member) as handle:
        return [json.loads(line) for line in handle.read().decode("utf-8").splitlines() if line.strip()]


def load_cases(category: str, wheel: Path | None = None) -> list[Case]:
    """Every case of one category, in BFCL's order, with its possible answers."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL category {category!r}; known: {', '.join(CATEGORIES)}")
    with zipfile.ZipFile(wheel or fetch_wheel()) as archive:
        entries = _json_lines(archive, f"bfcl_eval/data/BFCL_v4_{category}.json")
        answer_file = f"bfcl_eval/data/possible_answer/BFCL_v4_{category}.json"
        answers = {}
        if answer_file in archive.namelist():
            answers = {row["id"]: row["ground_truth"] for row in _json_lines(archive, answer_file)}
    return [Case(entry["id"], category, entry["question"][0], entry["function"], answers.get(entry["id"], []))
            for entry in entries]


def api_name(name: str) -> str:
    """A BFCL function name as the API allows it: dots become underscores.

    Example:
        >>> api_name("math.hypot")
        'math_hypot'
    """
    return re.sub(r"\.", "_", name)


def _map_properties(properties: dict) -> dict:
    """BFCL's `_cast_to_openai_type`, rewritten: each property's type mapped (a float also gets its format and
    note), then the properties of an object or array, else its items: their type, and one level further (the
    items of items, or the properties of object items). Deeper levels stay as the case wrote them, as in BFCL."""
    for schema in properties.values():
        kind = schema.get("type")
        if kind == "float":
            schema["format"] = "float"
            schema["description"] = str(schema.get("description", "")) + FLOAT_NOTE
        schema["type"] = TYPE_MAP.get(kind, "string") if kind is not None else "string"
        if schema["type"] not in ("array", "object"):
            continue
        items = schema.get("items")
        if isinstance(schema.get("properties"), dict):
            _map_properties(schema["properties"])
        elif isinstance(items, dict):
            items["type"] = _mapped(items.get("type"))
            inner = items.get("items")
            if items["type"] == "array" and isinstance(inner, dict):
                inner["type"] = _mapped(inner.get("type"))
            elif items["type"] == "object" and isinstance(items.get("properties"), dict):
                _map_properties(items["properties"])
    return properties


def _mapped(kind) -> str:
    # BFCL would stop with a KeyError on an item type its table lacks; none of its Python cases has one.
    return TYPE_MAP.get(kind, "string") if isinstance(kind, str) else "string"


def to_tool(function: dict, api: str = "responses") -> dict:
    """One BFCL function as an OpenAI function tool for `api` ("responses" or "chat"), as BFCL builds it (see
    the module). The case's own function is left as it was.

    Example:
        >>> tool = to_tool({"name": "geo.distance", "description": "Distance.", "parameters": {"type": "dict",
        ...     "properties": {"km": {"type": "float", "description": "Kilometres."}}, "required": ["km"]}}, "chat")
        >>> tool["function"]["name"], tool["function"]["description"]
        ('geo_distance', 'Distance. Note that the provided function is in Python 3 syntax.')
        >>> tool["function"]["parameters"]["properties"]["km"]
        {'type': 'number', 'description': 'Kilometres. This is a float type value.', 'format': 'float'}
    """
    body = copy.deepcopy(function)
    body["name"] = api_name(body["name"])
    body["description"] = str(body.get("description", "")) + PYTHON_HINT
    parameters = body.setdefault("parameters", {})
    parameters["type"] = "object"
    parameters["properties"] = _map_properties(parameters.get("properties") or {})
    return {"type": "function", "function": body} if api == "chat" else {"type": "function", **body}
