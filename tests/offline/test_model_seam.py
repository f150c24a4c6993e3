"""The model seam (helpers/offline/api/app.py's `Decide`): the in-process transport and the HTTP server take any
`decide(conversation) -> Decision`, so a scripted double speaks the same wire as the offline model: shape checks,
ids, usage and streaming come from the wire, whichever API the client uses."""

import json

import httpx
import openai
import pytest
from openai import OpenAI

from helpers.offline import OFFLINE_MODEL, OfflineServer, OfflineTransport, neutral_client
from helpers.offline.conversation import Conversation, Decision

FERRY = {"type": "object", "properties": {"port": {"type": "string"}}, "required": ["port"]}


class Script:
    """Decisions in order, and the conversations the wire read for each."""

    def __init__(self, *decisions: Decision):
        self.decisions, self.seen = list(decisions), []

    def __call__(self, conv: Conversation) -> Decision:
        self.seen.append(conv)
        return self.decisions.pop(0)


def test_a_scripted_model_answers_the_responses_api_through_the_wire():
    script = Script(Decision(calls=[("ferry_times", '{"port": "Oban"}'), ("ferry_times", '{"port": "Mallaig"}')]),
                    Decision(text="Both ferries leave at noon."))
    client = neutral_client(decide=script)
    tools = [{"type": "function", "name": "ferry_times", "description": "Ferry times from a port.",
              "parameters": FERRY}]
    first = client.responses.create(model=OFFLINE_MODEL, input="Ferries from Oban and Mallaig?", tools=tools)
    calls = [item for item in first.output if item.type == "function_call"]
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("ferry_times", {"port": "Oban"}),
                                                                  ("ferry_times", {"port": "Mallaig"})]
    assert first.usage.input_tokens > 0 and len({c.call_id for c in calls}) == 2
    outputs = [{"type": "function_call_output", "call_id": c.call_id, "output": "12:00"} for c in calls]
    second = client.responses.create(model=OFFLINE_MODEL, tools=tools, input=[
        {"role": "user", "content": "Ferries from Oban and Mallaig?"}, *[c.model_dump(exclude_none=True) for c in calls],
        *outputs])
    assert second.output_text == "Both ferries leave at noon."
    # The wire read the request into a Conversation once, for the scripted model as for the rules.
    assert script.seen[1].question == "Ferries from Oban and Mallaig?"
    assert [c.output for c in script.seen[1].calls] == ["12:00", "12:00"]


def test_the_same_script_answers_chat_completions_and_streams():
    client = neutral_client(decide=Script(Decision(calls=[("ferry_times", '{"port": "Oban"}')]),
                                          Decision(text="At noon.")))
    tools = [{"type": "function", "function": {"name": "ferry_times", "parameters": FERRY}}]
    first = client.chat.completions.create(model=OFFLINE_MODEL, tools=tools,
                                           messages=[{"role": "user", "content": "Ferry from Oban?"}])
    assert first.choices[0].finish_reason == "tool_calls"
    assert first.choices[0].message.tool_calls[0].function.name == "ferry_times"
    stream = client.chat.completions.create(model=OFFLINE_MODEL, stream=True,
                                            messages=[{"role": "user", "content": "Ferry from Oban?"}])
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == "At noon."


def test_the_wires_checks_still_stand_in_front_of_a_scripted_model():
    script = Script(Decision(text="never asked"))
    client = neutral_client(decide=script, max_retries=0)
    with pytest.raises(openai.BadRequestError):
        client.responses.create(model=OFFLINE_MODEL, input=[{"type": "function_call_output", "call_id": "x",
                                                             "output": "no call before it"}])
    assert script.seen == []  # refused at the door: the model never saw it


def test_the_http_server_takes_a_decide_too():
    with OfflineServer(decide=lambda conv: Decision(text=f"You said: {conv.question}")) as server:
        client = OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        reply = client.responses.create(model=OFFLINE_MODEL, input="Tide at Oban?")
    assert reply.output_text == "You said: Tide at Oban?"


def test_a_decide_that_raises_gets_the_json_500():
    def broken(conv):
        raise ValueError("script ran out")

    response = httpx.Client(transport=OfflineTransport(decide=broken)).post(
        "http://x/v1/responses", json={"model": OFFLINE_MODEL, "input": "Hi"})
    assert response.status_code == 500 and "script ran out" in response.json()["error"]["message"]
