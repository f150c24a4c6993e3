"""Fetching the BFCL wheel: a wrong file is refused and removed, a failed download says what to run. Building
the requests: a made-up function and conversation become the tools and messages BFCL's OpenAI handlers send."""

import json
import subprocess
from types import SimpleNamespace

import pytest

from helpers.maint.bench_offline import ask
from helpers.maint.bfcl_data import WHEEL_NAME, BfclDataError, Case, fetch_wheel, to_tool


def test_a_wheel_with_another_hash_is_refused_and_removed(tmp_path):
    def downloader(dest):
        (dest / WHEEL_NAME).write_bytes(b"not the pinned wheel")

    with pytest.raises(BfclDataError, match="not the pinned"):
        fetch_wheel(tmp_path, downloader)
    assert not (tmp_path / WHEEL_NAME).exists()


def test_a_failed_download_says_how_to_fetch_it(tmp_path):
    def downloader(dest):
        raise subprocess.CalledProcessError(1, ["pip", "download"])

    with pytest.raises(BfclDataError, match="pip download --no-deps bfcl-eval=="):
        fetch_wheel(tmp_path, downloader)


def test_a_download_that_leaves_no_wheel_is_an_error(tmp_path):
    with pytest.raises(BfclDataError, match="left no"):
        fetch_wheel(tmp_path, lambda dest: None)


# A made-up function in BFCL's form: a greenhouse controller, with every kind of type BFCL's Python cases use.
GREENHOUSE = {"name": "glass.house.vent", "description": "Open the greenhouse vents.", "parameters": {
    "type": "dict", "required": ["angle"], "properties": {
        "angle": {"type": "float", "description": "Opening angle in degrees."},
        "zones": {"type": "array", "items": {"type": "float"}, "description": "Zone temperatures."},
        "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
        "beds": {"type": "array", "items": {"type": "dict", "properties": {"crop": {"type": "any"},
                                                                            "depth": {"type": "float"}}}},
        "pair": {"type": "tuple", "items": {"type": "integer"}, "description": "Two vents."},
        "plan": {"type": "dict", "description": "Schedule.", "properties": {"hour": {"type": "integer"},
                                                                           "mist": {"type": "bool"}}},
        "mode": {"type": "string", "enum": ["auto", "manual"], "default": "auto", "description": "Mode."},
        "note": {"description": "Free text, no type given."},
        "count": {"type": "long", "description": "A Java name BFCL's table also maps."}}}}


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_a_function_becomes_the_tool_bfcls_openai_handler_sends(api):
    tool = to_tool(GREENHOUSE, api)
    body = tool["function"] if api == "chat" else tool
    assert tool["type"] == "function" and body["name"] == "glass_house_vent"
    assert body["description"] == "Open the greenhouse vents. Note that the provided function is in Python 3 syntax."
    params = body["parameters"]
    props = params["properties"]
    assert params["type"] == "object" and params["required"] == ["angle"]
    assert props["angle"] == {"type": "number", "format": "float",
                              "description": "Opening angle in degrees. This is a float type value."}
    assert props["zones"]["items"] == {"type": "number"}  # BFCL maps an item's type only, with no note
    assert props["grid"]["items"] == {"type": "array", "items": {"type": "integer"}}
    assert props["beds"]["items"]["type"] == "object"
    assert props["beds"]["items"]["properties"]["crop"] == {"type": "string"}
    assert props["beds"]["items"]["properties"]["depth"]["format"] == "float"
    assert props["pair"]["type"] == "array" and props["pair"]["items"] == {"type": "integer"}
    assert props["plan"]["type"] == "object" and props["plan"]["properties"]["mist"] == {"type": "boolean"}
    assert props["mode"] == {"type": "string", "enum": ["auto", "manual"], "default": "auto", "description": "Mode."}
    assert props["note"]["type"] == "string" and props["count"]["type"] == "integer"


def test_the_cases_own_function_is_left_as_it_was():
    before = json.dumps(GREENHOUSE, sort_keys=True)
    to_tool(GREENHOUSE, "chat"), to_tool(GREENHOUSE, "responses")
    assert json.dumps(GREENHOUSE, sort_keys=True) == before


class _Recorder:
    """A client that records what the bench sends and answers with no call (no network, no model)."""

    def __init__(self):
        self.sent = {}
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._chat))
        self.responses = SimpleNamespace(create=self._responses)

    def _chat(self, **kwargs):
        self.sent["chat"] = kwargs
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(tool_calls=None))])

    def _responses(self, **kwargs):
        self.sent["responses"] = kwargs
        return SimpleNamespace(output=[])


def test_messages_are_sent_as_bfcl_sends_them_system_prompt_kept_as_a_message():
    messages = [{"role": "system", "content": "You water plants."}, {"role": "user", "content": "Vent at 30 degrees"},
                {"role": "assistant", "content": "Which zone?"}, {"role": "user", "content": "The north one."}]
    case = Case("g", "simple_python", messages, [GREENHOUSE], [])
    client = _Recorder()
    for api in ("chat", "responses"):
        assert ask(client, case, api) == []
    assert client.sent["chat"]["messages"] == messages  # as they stand: not flattened, no prompt added
    assert client.sent["responses"]["input"] == [{"role": "developer", "content": "You water plants."}] + messages[1:]
    assert case.messages[0]["role"] == "system"  # the case itself is unchanged
    assert client.sent["chat"]["tools"] == [to_tool(GREENHOUSE, "chat")]
    assert client.sent["responses"]["tools"] == [to_tool(GREENHOUSE, "responses")]
