"""Behaviour of the offline model through the real openai SDK, in-process and over HTTP.

Every test that takes `client` runs twice: against OfflineTransport (no port) and against the HTTP
server on 127.0.0.1 (started once for this module)."""

import json

import httpx
import openai
import pytest
from openai import OpenAI

from helpers.faq.vocabulary import faq_vocabulary
from helpers.offline import OFFLINE_BASE_URL, OFFLINE_MODEL, OfflineServer, OfflineTransport

SEARCH = {"type": "function", "name": "search", "description": "Search the course FAQ.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "keywords"}},
                         "required": ["query"], "additionalProperties": False}}
WEATHER = {"type": "function", "name": "get_weather", "description": "Get the current weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
GUARDRAIL = "You answer only questions about the course, using only facts from the FAQ. Politely refuse the rest."
WEATHER_DATA = {"Berlin": {"city": "Berlin", "temperature": 12, "sky": "cloudy"},
                "Madrid": {"city": "Madrid", "temperature": 24, "sky": "sunny"}}


def faq_docs(*pairs):
    return json.dumps([{"id": f"id{i}", "course": "c", "section": "s", "question": q, "answer": a}
                       for i, (q, a) in enumerate(pairs)])


JOIN_DOC = ("I just discovered the course. Can I still join?", "Yes, but submit the project in time for a certificate.")
DOCKER_DOC = ("Docker: permission denied on the socket", "Add your user to the docker group.")


@pytest.fixture(scope="module")
def server():
    with OfflineServer(fault_delay=3, vocabulary=faq_vocabulary()) as srv:  # as the course makes it
        yield srv


def make_client(kind, server, faults=None, **kwargs):
    kwargs.setdefault("max_retries", 0)
    if kind == "inproc":
        return OpenAI(api_key="offline", base_url=OFFLINE_BASE_URL, _strict_response_validation=True,
                      http_client=httpx.Client(transport=OfflineTransport(faults, faq_vocabulary())), **kwargs)
    server.set_faults(faults)  # the module's server is shared: this client's faults replace the last ones
    return OpenAI(api_key="offline", base_url=server.base_url, _strict_response_validation=True, **kwargs)


@pytest.fixture(params=["inproc", "http"])
def kind(request):
    return request.param


@pytest.fixture(scope="module")
def clients(server):
    # Building an OpenAI client takes a while; tests without faults share one per transport.
    return {kind: make_client(kind, server) for kind in ("inproc", "http")}


@pytest.fixture
def client(kind, clients, server):
    server.set_faults(None)
    return clients[kind]


def calls_of(response):
    return [item for item in response.output if item.type == "function_call"]


def run_tool(client, question, tools, execute, instructions=None, max_iterations=6):
    """A tiny Responses agent loop: returns (answer, list of per-iteration call lists)."""
    items = [{"role": "user", "content": question}]
    history = []
    for _ in range(max_iterations):
        response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=tools, instructions=instructions)
        calls = calls_of(response)
        if not calls:
            return response.output_text, history
        history.append([(c.name, json.loads(c.arguments)) for c in calls])
        items += response.output
        for call in calls:
            items.append({"type": "function_call_output", "call_id": call.call_id,
                          "output": execute(call.name, json.loads(call.arguments))})
    raise AssertionError(f"no answer after {max_iterations} iterations: {history}")


# --- rule 1: no tools ----------------------------------------------------------------------------------

def test_without_tools_it_says_it_has_no_knowledge(client):
    response = client.responses.create(model="gpt-4o-mini", input="Can I still join the course?")
    assert response.model == OFFLINE_MODEL
    assert "no general knowledge" in response.output_text and "training data" in response.output_text
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0


@pytest.mark.parametrize("question,expected", [
    ("I just found the course, can I still join?", "ALLOW"),
    ("Do I get a certificate if I finish late?", "ALLOW"),
    ("how do I submit the homework", "ALLOW"),
    ("instal olama on windows", "ALLOW"),
    ("openai.AuthenticationError: incorrect API key provided", "ALLOW"),
    ("docker compose cannot connect to elasticsearch", "ALLOW"),
    ("what is minsearch?", "ALLOW"),
    ("what's queen gambit?", "BLOCK"),
    ("Give me a recipe for lasagna", "BLOCK"),
    ("Will it rain in Paris tomorrow?", "BLOCK"),
    ("Who won the football world cup?", "BLOCK"),
    ("How old is Brad Pitt?", "BLOCK"),
    ("Recommend a good movie for tonight", "BLOCK"),
])
def test_label_classifier_for_input_guardrail(client, question, expected):
    instructions = ("Decide whether the user's message is a question about the course (its FAQ: setup, homework, "
                    "certificates, tools). Reply with exactly one word: ALLOW or BLOCK.")
    response = client.responses.create(model=OFFLINE_MODEL, instructions=instructions, input=question)
    assert response.output_text == expected


def test_label_classifier_yes_no_in_chat(client):
    messages = [{"role": "system", "content": "Is the question about the course? Answer yes or no."},
                {"role": "user", "content": "How do I get the certificate?"}]
    reply = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages)
    assert reply.choices[0].message.content == "yes"


# --- rules 2-6: search ---------------------------------------------------------------------------------

def test_first_response_is_a_keyword_search_not_the_question(client):
    question = "How do I run Olama locally?"
    response = client.responses.create(model=OFFLINE_MODEL, input=question, tools=[SEARCH])
    (call,) = calls_of(response)
    query = json.loads(call.arguments)["query"]
    assert call.name == "search" and call.call_id.startswith("call_")
    assert query != question and "how" not in query.split() and "olama" in query
    assert "local" in query.split()  # a close word added


def test_asked_for_several_searches_it_searches_in_parallel(client):
    response = client.responses.create(
        model=OFFLINE_MODEL, input="Can I get a certificate if I join late?", tools=[SEARCH],
        instructions="Make at least 3 searches with different keywords before answering.")
    queries = [json.loads(c.arguments)["query"] for c in calls_of(response)]
    assert len(queries) == 3 and len(set(queries)) == 3


def test_several_searches_across_iterations_without_parallel_calls(client):
    seen = []

    def execute(name, args):
        seen.append(args["query"])
        return faq_docs(JOIN_DOC)

    items = [{"role": "user", "content": "Can I still join the course?"}]
    for _ in range(4):
        response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH],
                                           parallel_tool_calls=False,
                                           instructions="Search several times with various queries.")
        calls = calls_of(response)
        if not calls:
            break
        assert len(calls) == 1
        items += response.output
        items += [{"type": "function_call_output", "call_id": c.call_id,
                   "output": execute(c.name, json.loads(c.arguments))} for c in calls]
    assert len(set(seen)) >= 2 and "Can I still join" in response.output_text


def test_answer_is_grounded_and_names_the_faq_entry(client):
    answer, history = run_tool(client, "I discovered the course late, can I join?", [SEARCH],
                               lambda name, args: faq_docs(DOCKER_DOC, JOIN_DOC))
    assert len(history) == 1
    assert '"I just discovered the course. Can I still join?"' in answer and "submit the project" in answer


def test_follow_up_question_when_asked(client):
    answer, _ = run_tool(client, "Can I still join?", [SEARCH], lambda n, a: faq_docs(JOIN_DOC),
                         instructions="Answer from the FAQ. End with a follow-up question.")
    assert answer.rstrip().endswith("?") and "Can I still join?" in answer


def test_typo_is_corrected_from_tool_output_vocabulary(client):
    queries = []

    def execute(name, args):
        queries.append(args["query"])
        if "frobnicator" in args["query"]:
            return faq_docs(("Frobnicator: how to configure it?", "Edit frob.yaml and restart."))
        return faq_docs(("Configure logging", "Set the log level. The frobnicator has its own page."))

    answer, _ = run_tool(client, "how do I configure the frobnicater", [SEARCH], execute)
    assert len(queries) == 2 and "frobnicater" in queries[0] and "frobnicator" in queries[1]
    assert "Frobnicator: how to configure it?" in answer and "frob.yaml" in answer


def test_typo_is_corrected_from_faq_vocabulary(client):
    queries = []

    def execute(name, args):
        queries.append(args["query"])
        if "kubernetes" in args["query"]:
            return faq_docs(("Kubernetes: how to deploy?", "Use kubectl apply with the manifest."))
        return faq_docs(("Deploy with docker compose", "See the deployment module."))

    answer, _ = run_tool(client, "how to deploy on kubrnetes", [SEARCH], execute)
    assert len(queries) == 2 and "kubernetes" in queries[1]
    assert "Kubernetes: how to deploy?" in answer


def test_retries_are_bounded_and_then_it_says_nothing_was_found(client):
    answer, history = run_tool(client, "How do I frobnicate the quux?", [SEARCH], lambda n, a: "[]")
    assert 1 <= len(history) <= 3
    assert "found nothing relevant" in answer


def test_guardrail_instructions_give_a_polite_refusal(client):
    answer, _ = run_tool(client, "what's queen gambit?", [SEARCH], lambda n, a: faq_docs(DOCKER_DOC),
                         instructions=GUARDRAIL)
    assert answer.startswith("Sorry, I can only help with questions about the course")


def test_plain_text_and_odd_json_tool_outputs_are_read(client):
    answer, _ = run_tool(client, "How do I reset the database password?", [SEARCH],
                         lambda n, a: "To reset the database password, run the reset script.")
    assert "reset script" in answer
    answer, _ = run_tool(client, "How do I reset the database password?", [SEARCH],
                         lambda n, a: json.dumps({"results": [{"title": "Reset database password",
                                                               "text": "Run the reset script."}]}))
    assert "Reset database password" in answer


def test_tool_choice_none_answers_from_results_already_in_history(client):
    items = [{"role": "user", "content": "Can I still join the course?"},
             {"type": "function_call", "call_id": "c1", "name": "search", "arguments": '{"query": "join course"}'},
             {"type": "function_call_output", "call_id": "c1", "output": faq_docs(JOIN_DOC)}]
    response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH], tool_choice="none")
    assert not calls_of(response) and "Can I still join?" in response.output_text
    without_tools = client.responses.create(model=OFFLINE_MODEL, input=items)  # tools left out entirely
    assert "Can I still join?" in without_tools.output_text


def test_sdk_output_items_can_be_passed_back(client):
    first = client.responses.create(model=OFFLINE_MODEL, input="Can I still join?", tools=[SEARCH])
    items = [{"role": "user", "content": "Can I still join?"}, *[i.model_dump() for i in first.output]]
    items.append({"type": "function_call_output", "call_id": first.output[0].call_id, "output": faq_docs(JOIN_DOC)})
    second = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH])
    assert "Can I still join?" in second.output_text


# --- rule 7: other tools -------------------------------------------------------------------------------

def test_weather_comparison_makes_both_calls_in_one_response(client):
    # Issue 26: two subjects, two calls at once, as real models make them; then the comparison.
    answer, history = run_tool(client, "Compare the weather in Berlin and Madrid", [WEATHER],
                               lambda name, args: json.dumps(WEATHER_DATA[args["city"]]))
    assert history == [[("get_weather", {"city": "Berlin"}), ("get_weather", {"city": "Madrid"})]]
    assert "Berlin" in answer and "Madrid" in answer and "12" in answer and "24" in answer


@pytest.mark.parametrize("question", ["What is 2+2?", "Hello!"])
def test_no_call_when_the_question_needs_no_tool(client, question):
    response = client.responses.create(model=OFFLINE_MODEL, input=question, tools=[WEATHER])
    assert not calls_of(response)
    if "2+2" in question:
        assert "4" in response.output_text


def test_entities_fill_enum_and_numeric_parameters(client):
    tool = {"type": "function", "name": "convert_currency", "description": "Convert money between currencies.",
            "parameters": {"type": "object", "required": ["amount", "source", "target"], "properties": {
                "amount": {"type": "number"}, "source": {"type": "string", "enum": ["USD", "EUR", "GBP"]},
                "target": {"type": "string", "enum": ["USD", "EUR", "GBP"]}}}}
    response = client.responses.create(model=OFFLINE_MODEL, input="Convert 250 USD to EUR please",
                                       tools=[tool])
    (call,) = calls_of(response)
    args = json.loads(call.arguments)
    assert args["amount"] == 250 and args["source"] == "USD"


def test_quoted_strings_are_entities(client):
    tool = {"type": "function", "name": "lookup_user", "description": "Look up a user account by name.",
            "parameters": {"type": "object", "properties": {"username": {"type": "string"}},
                           "required": ["username"]}}
    response = client.responses.create(model=OFFLINE_MODEL, input='Look up the user "ada_l" for me', tools=[tool])
    assert json.loads(calls_of(response)[0].arguments) == {"username": "ada_l"}


# --- rule 9: Chat Completions ------------------------------------------------------------------------------

def chat_tool(tool):
    return {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}


def test_chat_completions_make_the_same_decisions(client):
    messages = [{"role": "user", "content": "Compare the weather in Berlin and Madrid"}]
    reply = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(WEATHER)])
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    calls = choice.message.tool_calls
    assert [json.loads(c.function.arguments) for c in calls] == [{"city": "Berlin"}, {"city": "Madrid"}]
    messages.append(choice.message.model_dump(exclude_none=True))
    for call in calls:
        city = json.loads(call.function.arguments)["city"]
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(WEATHER_DATA[city])})
    final = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(WEATHER)])
    assert final.choices[0].finish_reason == "stop"
    assert "Berlin" in final.choices[0].message.content and "Madrid" in final.choices[0].message.content


def test_without_parallel_calls_the_comparison_takes_one_call_per_response(client):
    messages = [{"role": "user", "content": "Compare the weather in Berlin and Madrid"}]
    for expected in ("Berlin", "Madrid"):
        reply = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(WEATHER)],
                                               parallel_tool_calls=False)
        (tool_call,) = reply.choices[0].message.tool_calls
        assert json.loads(tool_call.function.arguments) == {"city": expected}
        messages.append(reply.choices[0].message.model_dump(exclude_none=True))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(WEATHER_DATA[expected])})
    final = client.chat.completions.create(model=OFFLINE_MODEL, messages=messages, tools=[chat_tool(WEATHER)],
                                           parallel_tool_calls=False)
    assert final.choices[0].finish_reason == "stop"


def test_chat_tool_message_without_its_call_is_the_real_400(client):
    messages = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "call_x", "content": "1"}]
    with pytest.raises(openai.BadRequestError) as err:
        client.chat.completions.create(model=OFFLINE_MODEL, messages=messages)
    assert err.value.status_code == 400
    assert err.value.body["message"] == ("Invalid parameter: messages with role 'tool' must be a response to a "
                                         "preceeding message with 'tool_calls'.")
    assert err.value.body["param"] == "messages.[1].role" and err.value.body["code"] is None
    assert err.value.body["type"] == "invalid_request_error"


def test_responses_output_without_its_call_is_the_real_400(client):
    items = [{"role": "user", "content": "hi"}, {"type": "function_call_output", "call_id": "call_x", "output": "1"}]
    with pytest.raises(openai.BadRequestError) as err:
        client.responses.create(model=OFFLINE_MODEL, input=items)
    assert err.value.body["message"] == "No tool call found for function call output with call_id call_x."
    assert err.value.body["param"] == "input"


def test_responses_call_without_its_output_is_a_400(client):
    items = [{"role": "user", "content": "hi"},
             {"type": "function_call", "call_id": "call_y", "name": "search", "arguments": "{}"}]
    with pytest.raises(openai.BadRequestError, match="No tool output found for function call call_y"):
        client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH])


# --- errors ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,param", [
    ({"input": "hi"}, "model"),
    ({"model": OFFLINE_MODEL}, "input"),
    ({"model": OFFLINE_MODEL, "input": "hi", "previous_response_id": "resp_1"}, "previous_response_id"),
    ({"model": OFFLINE_MODEL, "input": "hi", "stream": "yes"}, "stream"),  # streaming is honoured; a bad type isn't
    ({"model": OFFLINE_MODEL, "input": "hi", "tools": [{"type": "function", "name": "search"}],
      "tool_choice": {"type": "function", "name": "lookup"}}, "tool_choice"),
    ({"model": OFFLINE_MODEL, "input": "hi", "tools": [{"type": "web_search"}]}, "tools[0].type"),
])
def test_request_errors_name_the_parameter(kind, server, kwargs, param):
    client = make_client(kind, server)
    with pytest.raises(openai.BadRequestError) as err:
        client.post("/responses", body=kwargs, cast_to=object)
    assert err.value.body["param"] == param and err.value.body["type"] == "invalid_request_error"


def test_http_level_errors(server):
    with httpx.Client(base_url=server.base_url) as http:
        missing = http.post("/nowhere", json={})
        wrong_method = http.get("/responses")
        malformed = http.post("/responses", content=b"{oops", headers={"content-type": "application/json"})
        chat_without_messages = http.post("/chat/completions", json={"model": "m"})
    assert missing.status_code == 404 and "Invalid URL" in missing.json()["error"]["message"]
    assert wrong_method.status_code == 405
    assert malformed.status_code == 400 and "could not parse the JSON body" in malformed.json()["error"]["message"]
    assert chat_without_messages.json()["error"]["param"] == "messages"
    for response in (missing, wrong_method, malformed, chat_without_messages):
        assert set(response.json()["error"]) == {"message", "type", "param", "code"}


def test_server_and_transport_give_identical_bodies(server):
    body = {"model": "m", "input": "Compare the weather in Berlin and Madrid", "tools": [WEATHER]}
    with httpx.Client(base_url=server.base_url) as http:
        over_http = http.post("/responses", json=body).content
    in_process = httpx.Client(transport=OfflineTransport()).post(f"{OFFLINE_BASE_URL}/responses", json=body).content
    assert over_http == in_process


# --- rule 10: faults -----------------------------------------------------------------------------------

def test_rate_limit_then_success_on_sdk_retry(kind, server):
    client = make_client(kind, server, faults=["rate_limit"], max_retries=2)
    response = client.responses.create(model=OFFLINE_MODEL, input="hi")
    assert response.output_text  # the SDK retried after Retry-After and got an answer


def test_rate_limit_error_carries_retry_after(kind, server):
    client = make_client(kind, server, faults="rate_limit")
    with pytest.raises(openai.RateLimitError) as err:
        client.responses.create(model=OFFLINE_MODEL, input="hi")
    assert err.value.response.headers["retry-after"] and err.value.body["code"] == "rate_limit_exceeded"


def test_insufficient_quota_is_not_retried(kind, server):
    client = make_client(kind, server, faults=["insufficient_quota", None], max_retries=2)
    with pytest.raises(openai.RateLimitError) as err:
        client.responses.create(model=OFFLINE_MODEL, input="hi")
    assert err.value.body["code"] == "insufficient_quota"


def test_server_error_per_request_header(client):
    with pytest.raises(openai.InternalServerError) as err:
        client.responses.create(model=OFFLINE_MODEL, input="hi", extra_headers={"X-Offline-Fault": "server_error"})
    assert err.value.status_code == 500
    assert client.responses.create(model=OFFLINE_MODEL, input="hi").output_text  # next request is fine


def test_unknown_fault_header_is_a_clear_400(client):
    with pytest.raises(openai.BadRequestError, match="Unknown X-Offline-Fault mode"):
        client.responses.create(model=OFFLINE_MODEL, input="hi", extra_headers={"X-Offline-Fault": "explode"})


def test_timeout_fault(kind, server):
    client = make_client(kind, server, faults="timeout", timeout=0.3)
    with pytest.raises(openai.APITimeoutError):
        client.responses.create(model=OFFLINE_MODEL, input="hi")


def test_bad_arguments_fault(kind, server):
    client = make_client(kind, server, faults=["bad_arguments"])
    (call,) = calls_of(client.responses.create(model=OFFLINE_MODEL, input="Can I join?", tools=[SEARCH]))
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.arguments)


def test_unknown_tool_fault(kind, server):
    client = make_client(kind, server, faults=["unknown_tool"])
    (call,) = calls_of(client.responses.create(model=OFFLINE_MODEL, input="Can I join?", tools=[SEARCH]))
    assert call.name != "search"


def test_never_stop_fault(kind, server):
    client = make_client(kind, server, faults="never_stop")
    items = [{"role": "user", "content": "Can I still join?"}]
    for _ in range(4):
        response = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH])
        (call,) = calls_of(response)
        items += response.output
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": faq_docs(JOIN_DOC)})
    # With tools switched off it still answers, so a loop's final "answer now" call works.
    final = client.responses.create(model=OFFLINE_MODEL, input=items, tools=[SEARCH], tool_choice="none")
    assert "Can I still join?" in final.output_text


def test_a_call_forced_by_name_ends_with_stop_as_openai_answers():
    # OpenAI's Chat Completions say finish_reason "stop" when tool_choice names the function; "tool_calls"
    # only when the model chose to call. Code must read message.tool_calls (lesson 08).
    from helpers.offline import neutral_client

    tool = {"type": "function", "function": {"name": "find_train", "description": "Find a train by its number.",
                                             "parameters": {"type": "object", "properties": {
                                                 "number": {"type": "string"}}, "required": ["number"]}}}
    client = neutral_client()
    messages = [{"role": "user", "content": "Where is train IC 572 now?"}]
    forced = client.chat.completions.create(model="m", messages=messages, tools=[tool],
                                            tool_choice={"type": "function", "function": {"name": "find_train"}})
    chosen = client.chat.completions.create(model="m", messages=messages, tools=[tool], tool_choice="required")
    assert forced.choices[0].message.tool_calls and forced.choices[0].finish_reason == "stop"
    assert chosen.choices[0].message.tool_calls and chosen.choices[0].finish_reason == "tool_calls"
