"""What lessons 08 and 09 promise about tools, checked against the offline model.

- Lesson 08: a get_weather(city) tool asked to compare two cities takes exactly three iterations (one city per
  response, then the answer), on Chat Completions and on the Responses API, with a hand-written schema or a
  generated one; and a tool message without its assistant message gets the API's 400.
- Lesson 09: the generated schema for `search` equals lesson 03's hand-written SEARCH_TOOL, and a writing tool's
  arguments are validated before it runs.
"""

import json
from typing import Annotated

import openai
import pytest
from pydantic import Field

from helpers import offline  # an ImportError here must fail the suite, never skip it
from helpers.loop import agent_loop
from helpers.search import SEARCH_TOOL
from helpers.tools import Tools, make_chat_call, tool

WEATHER = {"madrid": {"temperature_c": 25}, "oslo": {"temperature_c": 6}, "berlin": {"temperature_c": 14}}
SYSTEM = "You answer questions about today's weather. Use the get_weather tool, once per city."
COMPARE = "Which is warmer today, Madrid or Oslo?"
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get today's weather for one city: temperature, conditions and wind.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. 'Berlin'."}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
}


def get_weather(city: str) -> dict:
    """Get today's weather for one city: temperature, conditions and wind.

    Args:
        city: City name, e.g. 'Berlin'.
    """
    found = WEATHER.get(city.strip().lower())
    return {"city": city, **found} if found else {"error": f"no weather for {city!r}"}


def chat_loop(client, question, max_iters=5):
    """Lesson 08's hand-written loop, reduced to what the test needs: (answer, iterations, cities asked)."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    cities = []
    for iteration in range(1, max_iters + 1):
        message = client.chat.completions.create(model=offline.OFFLINE_MODEL, messages=messages,
                                                 tools=[WEATHER_TOOL]).choices[0].message
        calls = message.tool_calls or []
        assistant = {"role": "assistant", "content": message.content}
        if calls:
            assistant["tool_calls"] = [c.model_dump(mode="json", exclude_none=True) for c in calls]
        messages.append(assistant)
        if not calls:
            return message.content, iteration, cities
        for call in calls:
            cities.append(json.loads(call.function.arguments)["city"])
            messages.append(make_chat_call(call, {"get_weather": get_weather}))
    return None, max_iters, cities


def test_comparing_two_cities_takes_two_iterations_by_hand():  # both calls in one response, as real models do
    answer, iterations, cities = chat_loop(offline.neutral_client(), COMPARE)
    assert iterations == 2
    assert cities == ["Madrid", "Oslo"]
    assert "Madrid" in answer and "Oslo" in answer


def test_one_city_takes_two_iterations_and_no_city_takes_one():
    client = offline.neutral_client()
    assert chat_loop(client, "Check the weather in Berlin today: do I need an umbrella?")[1:] == (2, ["Berlin"])
    assert chat_loop(client, "What does 'overcast' mean?")[1:] == (1, [])
    # Lesson 08 says so: with no word of the weather tool's, the offline model can't link umbrellas to it.
    assert chat_loop(client, "Do I need an umbrella in Berlin today?")[1:] == (1, [])


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_comparing_two_cities_takes_two_iterations_in_the_course_loop(api):
    result = agent_loop(offline.neutral_client(), offline.OFFLINE_MODEL, COMPARE, Tools(get_weather),
                        instructions=SYSTEM, api=api, verbose=False)
    assert (result.stop_reason, result.iterations) == ("answered", 2)
    assert [json.loads(c["arguments"])["city"] for c in result.tool_calls] == ["Madrid", "Oslo"]


def test_a_tool_message_without_its_assistant_message_gets_a_400():
    client = offline.neutral_client()
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Weather in Berlin?"}]
    call = client.chat.completions.create(model=offline.OFFLINE_MODEL, messages=messages,
                                          tools=[WEATHER_TOOL]).choices[0].message.tool_calls[0]
    orphan = {"role": "tool", "tool_call_id": call.id, "content": "{}"}
    with pytest.raises(openai.BadRequestError) as error:
        client.chat.completions.create(model=offline.OFFLINE_MODEL, messages=[*messages, orphan],
                                       tools=[WEATHER_TOOL])
    assert error.value.status_code == 400 and "tool_calls" in error.value.message


def test_generated_weather_schema_equals_the_hand_written_one():
    assert tool(get_weather).chat_schema() == WEATHER_TOOL


def test_generated_search_schema_equals_lesson_03():
    @tool
    def search(query: str) -> list[dict]:
        """Search the course FAQ for entries that answer a student's question.

        Args:
            query: Keywords to search the FAQ for, e.g. 'join course late certificate'.
        """
        return []

    assert search.responses_schema() == SEARCH_TOOL


def test_a_writing_tool_is_validated_before_it_writes():
    written = []

    @tool
    def add_faq_entry(question: Annotated[str, Field(min_length=10, max_length=200)],
                      answer: Annotated[str, Field(min_length=10)]) -> dict:
        """Add a new entry to the FAQ.

        Args:
            question: The question, phrased as a student would ask it.
            answer: The answer.
        """
        written.append((question, answer))
        return {"added": len(written)}

    tools = Tools(add_faq_entry)
    assert tools["add_faq_entry"].schema()["properties"]["question"]["minLength"] == 10
    refused = json.loads(tools.call("add_faq_entry", '{"question": "Discord?"}'))
    assert "question" in refused["error"] and "answer" in refused["error"] and written == []
    ok = tools.call("add_faq_entry", json.dumps({"question": "Is there a Discord server?",
                                                 "answer": "No, the course uses Slack."}))
    assert json.loads(ok) == {"added": 1} and len(written) == 1
