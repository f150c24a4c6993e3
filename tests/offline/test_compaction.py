"""The offline model's compaction (helpers/offline/compaction.py): `responses.compact` and `context_management`,
through the real openai SDK, in domains no lesson uses (a beekeeper, a ferry booking, a piano tuner)."""

import base64

import pytest

from helpers.offline import neutral_client
from helpers.offline.compaction import ENCODED, UNREADABLE, after_compaction, compact_turn, summary_of

BEES = [
    {"role": "user", "content": "Hi, I'm Tomás and I keep 14 hives near Girona."},
    {"role": "assistant", "content": "Hello Tomás. How can I help with your hives?"},
    {"role": "user", "content": "When should I treat for varroa?"},
    {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"query": "varroa treatment"}'},
    {"type": "function_call_output", "call_id": "c1",
     "output": '{"treatment": "oxalic acid in December", "dose_ml": 5}'},
    {"role": "assistant", "content": "Treat with oxalic acid in December, 5 ml per colony."},
]


def _dicts(items):
    return [item.model_dump(exclude_none=True, warnings=False) for item in items]


def test_compact_returns_the_user_messages_then_one_compaction_item():
    compacted = neutral_client().responses.compact(model="gpt-5.4-mini", input=BEES)
    assert compacted.object == "response.compaction"
    assert [(o.type, getattr(o, "role", None)) for o in compacted.output] == [
        ("message", "user"), ("message", "user"), ("compaction", None)]
    assert compacted.output[-1].encrypted_content.startswith(ENCODED)
    assert compacted.usage.input_tokens > 0 and compacted.usage.output_tokens > 0


def test_the_item_keeps_the_facts_of_what_it_replaced_and_not_the_user_messages():
    item = neutral_client().responses.compact(model="m", input=BEES).output[-1]
    summary = summary_of(item.model_dump())
    assert "oxalic acid in December" in summary and "5" in summary
    assert "Tomás and I keep 14 hives" not in summary  # the user's own messages are kept whole, not summarised
    assert "not a model's summary" in summary  # it says what it is


def test_a_later_request_reads_the_compaction_item_and_is_shorter():
    client = neutral_client()
    question = {"role": "user", "content": "What did you say the dose was again?"}
    full = client.responses.create(model="m", input=[*BEES, question])
    compacted = client.responses.compact(model="m", input=BEES)
    short = client.responses.create(model="m", input=[*_dicts(compacted.output), question])
    assert "5 ml" in short.output_text or "5" in short.output_text
    assert short.usage.input_tokens < full.usage.input_tokens


def test_compact_continues_a_stored_response():
    client = neutral_client()
    first = client.responses.create(model="m", input="I'm Ines and my ferry to Hvar is booked for 07:30 on 3 May.")
    compacted = client.responses.compact(model="m", previous_response_id=first.id)
    assert compacted.output[0].content[0].text.startswith("I'm Ines")
    assert compacted.output[-1].type == "compaction"


def test_context_management_compacts_past_the_threshold_at_the_start_of_a_turn():
    client = neutral_client()
    padding = [{"role": "assistant", "content": f"Note {i}: the tuner checked string {i} at 440 Hz."} for i in range(60)]
    items = [{"role": "user", "content": "My upright piano is a 1968 Petrof."}, *padding,
             {"role": "user", "content": "What piano did I say I have again?"}]
    plain = client.responses.create(model="m", input=items)
    managed = client.responses.create(model="m", input=items,
                                      context_management=[{"type": "compaction", "compact_threshold": 1000}])
    assert [o.type for o in plain.output] == ["message"]
    assert managed.output[0].type == "compaction" and managed.output[1].type == "message"
    assert "Petrof" in managed.output_text
    assert managed.usage.input_tokens < plain.usage.input_tokens
    # Under the threshold nothing changes.
    under = client.responses.create(model="m", input=items[-1:], context_management=[{"type": "compaction",
                                                                                       "compact_threshold": 1000}])
    assert [o.type for o in under.output] == ["message"]


def test_items_before_the_latest_compaction_item_are_not_read_again_but_user_messages_stay():
    _, item = compact_turn([*BEES, {"role": "user", "content": "Thanks!"}], "cmp_x")
    assert item is not None
    kept = after_compaction([*BEES, item, {"role": "user", "content": "And in spring?"}])
    assert [k.get("role") or k["type"] for k in kept] == ["user", "user", "compaction", "user"]


def test_mid_turn_nothing_is_compacted():
    items, item = compact_turn(BEES[:5], "cmp_y")  # the last item is a tool output: a turn under way
    assert item is None and items == BEES[:5]


@pytest.mark.parametrize("content", ["gAAAAABencrypted-by-someone-else", ENCODED + "%%%not base64",
                                     ENCODED + base64.b64encode(b"\xff\xfe").decode()])
def test_a_compaction_item_it_cannot_read_is_an_empty_note_not_a_crash(content):
    assert summary_of({"type": "compaction", "encrypted_content": content}) == UNREADABLE
    answer = neutral_client().responses.create(model="m", input=[
        {"type": "compaction", "encrypted_content": content}, {"role": "user", "content": "Hello"}])
    assert answer.output_text


def test_the_http_server_compacts_too():
    from openai import OpenAI

    from helpers.offline import OfflineServer

    with OfflineServer() as srv:
        client = OpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        compacted = client.responses.compact(model="m", input=BEES)
    assert compacted.object == "response.compaction" and compacted.output[-1].type == "compaction"


def test_a_get_on_the_compact_url_is_not_mistaken_for_a_stored_response():
    import openai

    with pytest.raises(openai.APIStatusError) as raised:
        neutral_client().get("/responses/compact", cast_to=object)
    assert raised.value.status_code in (400, 404, 405)
