"""The offline model's server-side state through the real openai SDK: stored responses and `previous_response_id`,
the Conversations API, the context window and `truncation`. Domains no lesson uses: a ferry timetable, an
apiary logbook, a violin workshop, tide tables."""

import asyncio
import json

import openai
import pytest

from helpers.offline import OfflineServer, async_neutral_client, neutral_client
from helpers.offline.api.context_window import DEFAULT_CONTEXT_WINDOW

M = "offline-rules-v1"
TIMETABLE = ("Here is the ferry timetable:\n- The first ferry to Vallo leaves the harbour at 06:40.\n"
             "- The last ferry to Vallo leaves at 22:15.\n- Bicycles travel free on every crossing.")
LOGBOOK = {"type": "function", "name": "lookup_hive_notes", "description": "Search the apiary logbook.",
           "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
HIVE_NOTES = json.dumps([{"id": "h7", "title": "Hive 7", "text": "Hive 7 swarmed on 12 May after the queen cells "
                                                               "hatched."}])


def _manual(call) -> dict:
    return call.model_dump(exclude_none=True)


def _output_for(call, text=HIVE_NOTES) -> dict:
    return {"type": "function_call_output", "call_id": call.call_id, "output": text}


# --- stored responses and previous_response_id ---------------------------------------------------------------

def test_a_follow_up_through_previous_response_id_reads_the_earlier_turn():
    client = neutral_client()
    first = client.responses.create(model=M, input=TIMETABLE)
    follow = client.responses.create(model=M, input="When does the last ferry to Vallo leave?",
                                     previous_response_id=first.id)
    alone = client.responses.create(model=M, input="When does the last ferry to Vallo leave?")
    assert "22:15" in follow.output_text and "22:15" not in alone.output_text
    assert follow.previous_response_id == first.id and first.store is True


def test_a_tool_turn_continued_by_id_equals_sending_the_whole_history():
    client = neutral_client()
    asked = client.responses.create(model=M, input="Which hive swarmed in May?", tools=[LOGBOOK])
    call = asked.output[0]
    assert call.type == "function_call"
    chained = client.responses.create(model=M, input=[_output_for(call)], tools=[LOGBOOK], previous_response_id=asked.id)
    manual = neutral_client().responses.create(
        model=M, tools=[LOGBOOK], input=[{"role": "user", "content": "Which hive swarmed in May?"}, _manual(call),
                                         _output_for(call)])
    assert "12 May" in chained.output_text and chained.output_text == manual.output_text
    # The whole chain is read, and billed, again: the same input tokens as the manual history, more than turn 1.
    assert chained.usage.input_tokens == manual.usage.input_tokens > asked.usage.input_tokens


def test_a_long_chain_is_billed_whole_every_turn_and_its_prefix_is_cached():
    client = neutral_client()
    notes = " ".join(f"Crossing {n} runs at {6 + n % 12}:{n % 6}0 and carries {n} cars." for n in range(120))
    first = client.responses.create(model=M, input=f"Here is the ferry timetable:\n{notes}")
    second = client.responses.create(model=M, input="Which crossing carries 7 cars?", previous_response_id=first.id)
    assert first.usage.input_tokens > 1024 and first.usage.input_tokens_details.cached_tokens == 0
    assert second.usage.input_tokens > first.usage.input_tokens
    cached = second.usage.input_tokens_details.cached_tokens
    assert 1024 <= cached <= first.usage.input_tokens and cached % 128 == 0


def test_instructions_are_not_carried_over_by_previous_response_id():
    client = neutral_client()
    first = client.responses.create(model=M, input=TIMETABLE, instructions="Answer in at most five words.")
    follow = client.responses.create(model=M, input="When does the last ferry leave?", previous_response_id=first.id)
    assert follow.instructions is None
    texts = [part.text for item in client.responses.input_items.list(follow.id) for part in item.content]
    assert not any("five words" in text for text in texts)


def test_retrieve_delete_and_input_items_of_a_stored_response():
    client = neutral_client()
    first = client.responses.create(model=M, input=TIMETABLE, metadata={"desk": "harbour"})
    follow = client.responses.create(model=M, input="When does the first ferry leave?", previous_response_id=first.id)
    assert client.responses.retrieve(follow.id).model_dump() == follow.model_dump()
    newest_first = [item.role for item in client.responses.input_items.list(follow.id)]
    assert newest_first == ["user", "assistant", "user"]
    page = client.responses.input_items.list(follow.id, order="asc", limit=1)
    assert len(page.data) == 1 and page.has_more
    assert [item.role for item in page.iter_pages().__iter__().__next__().data] == ["user"]
    assert [item.role for item in client.responses.input_items.list(follow.id, order="asc", limit=1)] == \
        ["user", "assistant", "user"]  # the SDK follows `after` through every page
    assert client.responses.delete(first.id) is None
    with pytest.raises(openai.NotFoundError, match="not found"):
        client.responses.retrieve(first.id)
    with pytest.raises(openai.BadRequestError) as missing:
        client.responses.create(model=M, input="And the last?", previous_response_id=first.id)
    assert missing.value.code == "previous_response_not_found" and missing.value.param == "previous_response_id"


def test_store_false_keeps_nothing():
    client = neutral_client()
    unstored = client.responses.create(model=M, input=TIMETABLE, store=False)
    assert unstored.store is False
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(unstored.id)
    with pytest.raises(openai.BadRequestError, match="not found"):
        client.responses.create(model=M, input="When?", previous_response_id=unstored.id)


def test_re_sending_the_previous_output_is_a_duplicate_item():
    client = neutral_client()
    asked = client.responses.create(model=M, input="Which hive swarmed in May?", tools=[LOGBOOK])
    with pytest.raises(openai.BadRequestError, match="Duplicate item found"):
        client.responses.create(model=M, input=[_manual(asked.output[0]), _output_for(asked.output[0])],
                                tools=[LOGBOOK], previous_response_id=asked.id)


def test_previous_response_id_and_conversation_together_are_a_400():
    client = neutral_client()
    first = client.responses.create(model=M, input=TIMETABLE)
    chat = client.conversations.create()
    with pytest.raises(openai.BadRequestError, match="Mutually exclusive"):
        client.responses.create(model=M, input="When?", previous_response_id=first.id, conversation=chat.id)


def test_each_client_has_its_own_store_and_ids_are_the_same_on_every_run():
    def run(client):
        first = client.responses.create(model=M, input=TIMETABLE)
        chat = client.conversations.create(items=[{"role": "user", "content": TIMETABLE}])
        turn = client.responses.create(model=M, input="When does the last ferry leave?", conversation=chat.id)
        return first.id, chat.id, turn.id, [item.id for item in client.conversations.items.list(chat.id)]

    one, two = neutral_client(), neutral_client()
    assert run(one) == run(two)  # no clock, no randomness: stored notebook outputs stay the same
    first_id, chat_id = run(one)[:2]
    with pytest.raises(openai.NotFoundError):
        neutral_client().responses.retrieve(first_id)  # a fresh client is a fresh account
    with pytest.raises(openai.NotFoundError):
        neutral_client().conversations.retrieve(chat_id)


# --- conversations -------------------------------------------------------------------------------------------

def test_a_conversation_collects_every_turn_and_answers_from_its_items():
    client = neutral_client()
    chat = client.conversations.create(metadata={"desk": "workshop"}, items=[
        {"type": "message", "role": "user", "content": "Here is the workshop price list:\n- A bridge refit costs 90 "
                                                        "euros.\n- New strings cost 35 euros.\n- A bow rehair costs "
                                                        "70 euros."}])
    first = client.responses.create(model=M, input="How much is a bow rehair?", conversation=chat.id)
    assert "70 euros" in first.output_text and first.conversation.id == chat.id
    second = client.responses.create(model=M, input="How much is a bow rehair?", conversation={"id": chat.id})
    assert second.id != first.id  # the same words to a longer conversation are a new response
    assert second.usage.input_tokens > first.usage.input_tokens  # the conversation is read whole each time
    items = list(client.conversations.items.list(chat.id, order="asc"))
    assert [(item.type, item.role) for item in items] == [("message", "user")] + [("message", "user"),
                                                                                 ("message", "assistant")] * 2
    assert len({item.id for item in items}) == len(items)
    assert items[-1].id == second.output[0].id  # output items keep their ids in the conversation


def test_conversation_routes_through_the_sdk():
    client = neutral_client()
    chat = client.conversations.create(items=[{"role": "user", "content": f"Tide note {n}."} for n in range(20)])
    assert client.conversations.retrieve(chat.id).model_dump() == chat.model_dump()
    assert client.conversations.update(chat.id, metadata={"port": "Kessock"}).metadata == {"port": "Kessock"}
    added = client.conversations.items.create(chat.id, items=[{"role": "user", "content": "High water at 14:02."}])
    assert added.data[0].content[0].text == "High water at 14:02."
    assert client.conversations.items.retrieve(added.data[0].id, conversation_id=chat.id).id == added.data[0].id
    assert len(list(client.conversations.items.list(chat.id, limit=7))) == 21  # paged by `after`
    after_delete = client.conversations.items.delete(added.data[0].id, conversation_id=chat.id)
    assert after_delete.id == chat.id
    with pytest.raises(openai.NotFoundError):
        client.conversations.items.retrieve(added.data[0].id, conversation_id=chat.id)
    deleted = client.conversations.delete(chat.id)
    assert deleted.deleted and deleted.id == chat.id
    with pytest.raises(openai.NotFoundError):
        client.conversations.retrieve(chat.id)
    with pytest.raises(openai.NotFoundError):
        client.responses.create(model=M, input="Next tide?", conversation=chat.id)


def test_conversation_limits_and_bad_requests():
    client = neutral_client()
    with pytest.raises(openai.BadRequestError, match="maximum length 20"):
        client.conversations.create(items=[{"role": "user", "content": "x"}] * 21)
    chat = client.conversations.create()
    with pytest.raises(openai.BadRequestError) as bad:
        client.conversations.items.create(chat.id, items=[{"role": "captain", "content": "x"}])
    assert bad.value.param == "items[0].role"
    with pytest.raises(openai.BadRequestError) as bad:
        client.responses.create(model=M, input="x", extra_body={"conversation": {"name": "c"}})
    assert bad.value.param == "conversation"
    with pytest.raises(openai.BadRequestError) as bad:
        client.conversations.items.list(chat.id, limit=500)
    assert bad.value.param == "limit"


def test_two_clients_of_one_server_share_its_conversations():
    with OfflineServer() as server:
        alice = openai.OpenAI(base_url=server.base_url, api_key="x")
        bob = openai.OpenAI(base_url=server.base_url, api_key="y")
        chat = alice.conversations.create(items=[{"role": "user", "content": TIMETABLE}])
        first = alice.responses.create(model=M, input="When does the first ferry leave?", conversation=chat.id)
        answer = bob.responses.create(model=M, input="And the last ferry to Vallo?", conversation=chat.id)
        assert "22:15" in answer.output_text
        assert bob.responses.retrieve(first.id).id == first.id
        assert len(bob.conversations.items.list(chat.id).data) == 5
        assert len(list(bob.conversations.items.list(chat.id, limit=2, order="asc"))) == 5  # query over HTTP


def test_the_async_client_has_conversations_too():
    async def run():
        client = async_neutral_client()
        chat = await client.conversations.create(items=[{"role": "user", "content": TIMETABLE}])
        reply = await client.responses.create(model=M, input="When does the last ferry leave?", conversation=chat.id)
        return reply.output_text

    assert "22:15" in asyncio.run(run())


# --- the context window ---------------------------------------------------------------------------------------

def test_a_request_over_the_window_gets_the_real_400_in_both_apis():
    client = neutral_client(context_window=60, max_retries=0)
    long_text = "The tide turns at the sandbar twice a day. " * 10
    with pytest.raises(openai.BadRequestError) as responses_error:
        client.responses.create(model=M, input=long_text)
    with pytest.raises(openai.BadRequestError) as chat_error:
        client.chat.completions.create(model=M, messages=[{"role": "user", "content": long_text}])
    assert responses_error.value.code == chat_error.value.code == "context_length_exceeded"
    assert responses_error.value.param == "input" and chat_error.value.param == "messages"
    assert "exceeds the context window" in responses_error.value.message
    assert "maximum context length is 60 tokens" in chat_error.value.message
    assert client.responses.create(model=M, input="Hello").usage.input_tokens <= 60


def test_truncation_auto_drops_the_oldest_items_and_keeps_a_call_with_its_output():
    history = [{"role": "user", "content": "Log entry: the east apiary was inspected on a windy morning. " * 6},
               {"role": "user", "content": "Which hive swarmed in May?"},
               {"type": "function_call", "call_id": "c1", "name": "lookup_hive_notes", "arguments": '{"query": "May"}'},
               {"type": "function_call_output", "call_id": "c1", "output": HIVE_NOTES}]
    full = neutral_client().responses.create(model=M, input=history, tools=[LOGBOOK]).usage.input_tokens
    window = full - 40  # the first item alone is more than 40 tokens
    client = neutral_client(context_window=window)
    with pytest.raises(openai.BadRequestError, match="exceeds the context window"):
        client.responses.create(model=M, input=history, tools=[LOGBOOK])  # truncation "disabled" by default
    fitted = client.responses.create(model=M, input=history, tools=[LOGBOOK], truncation="auto")
    assert fitted.truncation == "auto" and fitted.usage.input_tokens <= window
    assert "12 May" in fitted.output_text  # the call and its output stayed together
    # A window that only a last message fits: the call leaves with its output, never alone (that would be a 400).
    thanks = [*history, {"role": "user", "content": "Thank you."}]
    tight = neutral_client(context_window=100).responses.create(model=M, input=thanks, tools=[LOGBOOK],
                                                                truncation="auto")
    assert tight.usage.input_tokens <= 100


def test_truncation_auto_still_fails_when_nothing_can_go():
    client = neutral_client(context_window=30)
    with pytest.raises(openai.BadRequestError) as error:
        client.responses.create(model=M, input="The tide tables for the whole of March, please. " * 5,
                                truncation="auto")
    assert error.value.code == "context_length_exceeded"


def test_the_window_is_set_per_transport_server_and_course_client(monkeypatch):
    from helpers.llm import make_client

    assert neutral_client().responses.create(model=M, input="x " * 3000).status == "completed"
    with OfflineServer(context_window=50) as server:
        small = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        with pytest.raises(openai.BadRequestError, match="context window"):
            small.responses.create(model=M, input="x " * 100)
    client, model = make_client("offline", verbose=False, context_window=50)
    with pytest.raises(openai.BadRequestError, match="context window"):
        client.responses.create(model=model, input="x " * 100)
    monkeypatch.setenv("OFFLINE_CONTEXT_WINDOW", "50")
    client, model = make_client("offline", verbose=False)
    with pytest.raises(openai.BadRequestError, match="context window"):
        client.responses.create(model=model, input="x " * 100)
    with pytest.raises(ValueError, match="positive"):
        neutral_client(context_window=-5)
    assert DEFAULT_CONTEXT_WINDOW == 128_000


def test_the_agents_sdk_keeps_state_on_the_offline_model_three_ways():
    from agents import Agent, OpenAIResponsesModel, Runner, set_tracing_disabled
    from agents.memory import OpenAIConversationsSession

    set_tracing_disabled(True)
    client = async_neutral_client()
    desk = Agent(name="desk", instructions="Answer from the material given.",
                 model=OpenAIResponsesModel(M, client))
    question = "When does the last ferry to Vallo leave?"

    async def run():
        session = OpenAIConversationsSession(openai_client=client)  # the Conversations API underneath
        await Runner.run(desk, TIMETABLE, session=session)
        by_session = await Runner.run(desk, question, session=session)
        first = await Runner.run(desk, TIMETABLE)
        by_id = await Runner.run(desk, question, previous_response_id=first.last_response_id)
        chat = await client.conversations.create()
        await Runner.run(desk, TIMETABLE, conversation_id=chat.id)
        by_conversation = await Runner.run(desk, question, conversation_id=chat.id)
        return [by_session.final_output, by_id.final_output, by_conversation.final_output], len(
            await session.get_items())

    answers, kept = asyncio.run(run())
    assert all("22:15" in answer for answer in answers) and kept == 4


def test_an_item_id_that_is_not_a_string_is_a_400_naming_it():
    # Found by the deep fuzz profile: a reasoning item's id given as a list reached the stored-items check (a 500).
    from helpers.offline.api.app import handle
    body = {"model": "m", "input": [{"role": "user", "content": "Hi"}, {"type": "reasoning", "id": ["rs_1"],
                                                                        "summary": []}]}
    status, _, content = handle("POST", "/v1/responses", {}, json.dumps(body).encode())
    error = json.loads(content)["error"]
    assert status == 400 and error["param"] == "input[1].id" and "expected a string" in error["message"]
