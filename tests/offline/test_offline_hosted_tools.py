"""The offline model refuses hosted tool types with a 400 that says why (they run on a provider's servers)."""

from __future__ import annotations

import openai
import pytest

from helpers.offline import OFFLINE_MODEL, neutral_client

HOSTED = [
    {"type": "mcp", "server_label": "tides", "server_url": "https://tides.example/mcp", "require_approval": "never"},
    {"type": "web_search"},
    {"type": "file_search", "vector_store_ids": ["vs_1"]},
]


@pytest.mark.parametrize("tool", HOSTED, ids=[t["type"] for t in HOSTED])
def test_hosted_tool_type_is_a_clear_400(tool):
    with pytest.raises(openai.BadRequestError) as raised:
        neutral_client().responses.create(model=OFFLINE_MODEL, input="When is high tide in Brest?",
                                          tools=[{"type": "function", "name": "noop", "parameters": {}}, tool])
    error = raised.value
    assert error.status_code == 400 and error.body["param"] == "tools[1].type"
    assert f"type '{tool['type']}'" in error.message and "provider's servers" in error.message
    assert "function tool" in error.message
    assert ("remote MCP server" in error.message) == (tool["type"] == "mcp")


def test_an_unknown_type_gets_no_hosted_note():
    with pytest.raises(openai.BadRequestError) as raised:
        neutral_client().responses.create(model=OFFLINE_MODEL, input="Hi", tools=[{"type": "telepathy"}])
    assert "provider's servers" not in raised.value.message
