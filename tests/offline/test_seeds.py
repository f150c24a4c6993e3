"""The course's two seeds, their code rewritten here as they run it, on the offline model with no vocabulary.

- The DataTalksClub LLM Zoomcamp agents lesson (01-agentic-rag/code/agents.ipynb): a Responses API loop with
  a `developer` message and one `search` tool over the FAQ (minsearch, question boosted 3, section 0.5, the
  llm-zoomcamp course only, five results), run with the lesson's instructions and questions: the late-joining
  question, "Make multiple searches. First perform search, analyze the results and then perform more
  searches.", the scoped "what's queen gambit?" and the typo "How do I run Olama locally?".
- DeepPilot: a Chat Completions loop with `get_weather`, three questions (arithmetic, one city, two cities)
  and a MAX_ITERS bound, in English and as the seed writes it in Chinese (the question "北京今天天气怎么样",
  the tool described in Chinese).

The API calls and the prompts are the seeds' facts; the loops are written here. The offline client gets no
vocabulary: whatever the model knows of words comes from the request, as over `python -m helpers.offline serve`.
"""

import json

import pytest
from minsearch import Index

from helpers.ingest import load_faq_data
from helpers.offline import neutral_client

# --- the LLM Zoomcamp agents lesson -----------------------------------------------------------------------

SEARCH_TOOL = {
    "type": "function",
    "name": "search",
    "description": "Search the FAQ database for entries matching the given query.",
    "parameters": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Search query text to look up in the course FAQ."}},
        "required": ["query"],
        "additionalProperties": False,
    },
}
_OPENING = """
You're a course teaching assistant.
You're given a question from a course student and your task is to answer it.

If you want to look up information, use the search function.
Use as many keywords from the user question as possible when making first requests.
"""
_CLOSING = "\nAt the end, ask if there are other areas that the user wants to explore.\n"
# The lesson's instructions, line breaks included: it wraps its sentences by hand. Its last cell writes
# "perform more searchers" (sic), kept in SCOPED; ANALYZE has the word as the issue quotes it.
EXPAND = _OPENING + """
Make multiple searches.

Try to expand your search by using new keywords
based on the results you get from the search.
""" + _CLOSING
ANALYZE = _OPENING + """
Make multiple searches. First perform search, analyze the results
and then perform more searches.
""" + _CLOSING
SCOPED = _OPENING + """
Make multiple searches. First perform search, analyze the results
and then perform more searchers.

The question has to be about the course or its logistics, offtopic questions
shouldn't be answered. If the search returns nothing, it's likely an off-topic question.
If you can't answer the question using FAQ, don't do it yourself. Only use the
facts from the FAQ database.
""" + _CLOSING
LATE = "I just discovered the course. Can I join it?"


@pytest.fixture(scope="module")
def faq_search():
    index = Index(text_fields=["question", "section", "answer"], keyword_fields=["course"]).fit(load_faq_data())

    def search(query: str) -> list[dict]:
        return index.search(query, num_results=5, boost_dict={"question": 3.0, "section": 0.5},
                            filter_dict={"course": "llm-zoomcamp"})
    return search


def zoomcamp_loop(client, search, instructions, question, max_iterations=10):
    """The lesson's agent_loop: (last answer, the queries of each response that searched)."""
    messages = [{"role": "developer", "content": instructions}, {"role": "user", "content": question}]
    rounds = []
    for _ in range(max_iterations):
        response = client.responses.create(model="gpt-5.4-mini", input=messages, tools=[SEARCH_TOOL])
        messages.extend(response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        for call in calls:
            messages.append({"type": "function_call_output", "call_id": call.call_id,
                             "output": json.dumps(search(**json.loads(call.arguments)), indent=2)})
        if not calls:
            return response.output_text, rounds
        rounds.append([json.loads(c.arguments)["query"] for c in calls])
    raise AssertionError(f"no answer after {max_iterations} iterations: {rounds}")


@pytest.fixture(scope="module")
def client():
    return neutral_client()


@pytest.mark.parametrize("instructions", [EXPAND, ANALYZE], ids=["expand", "analyze"])
def test_the_late_joiner_gets_the_certificate_condition_and_a_closing_question(client, faq_search, instructions):
    answer, rounds = zoomcamp_loop(client, faq_search, instructions, LATE)
    assert "[74eb249bbf]" in answer and "certificate" in answer and "submit your project" in answer
    assert answer.endswith("Are there other areas that you want to explore?")  # the instruction's own words
    assert rounds


def test_analyze_the_results_gives_a_second_round_built_from_the_first(client, faq_search):
    answer, rounds = zoomcamp_loop(client, faq_search, ANALYZE, LATE)
    assert len(rounds) >= 2 and len(rounds[0]) == 1  # one search, then more in a later response
    first_results = " ".join(json.dumps(faq_search(q)) for q in rounds[0]).lower()
    new_words = set(rounds[1][0].split()) - set(rounds[0][0].split()) - set(LATE.lower().split())
    assert new_words and all(w in first_results for w in new_words)  # words the first results gave
    assert "[74eb249bbf]" in answer


def test_several_searches_without_rounds_come_at_once(client, faq_search):
    _, rounds = zoomcamp_loop(client, faq_search, EXPAND, LATE)
    assert len(rounds[0]) >= 2 and len(set(rounds[0])) == len(rounds[0])  # the negative: no rounds asked for


def test_the_scoped_queen_gambit_is_refused_in_the_scopes_own_words(client, faq_search):
    answer, rounds = zoomcamp_loop(client, faq_search, SCOPED, "what's queen gambit?")
    assert "the course" in answer and "what my instructions cover" not in answer
    assert answer.startswith("Sorry") and "According to" not in answer
    assert rounds  # it searched before refusing, as the instructions say ("if the search returns nothing")


@pytest.mark.parametrize("instructions", [EXPAND, ANALYZE, SCOPED], ids=["expand", "analyze", "scoped"])
def test_the_olama_typo_is_recovered_from_the_words_the_request_carries(client, faq_search, instructions):
    answer, rounds = zoomcamp_loop(client, faq_search, instructions, "How do I run Olama locally?")
    assert '"Ollama: How to install Ollama?" [1d0b969028]' in answer
    assert "ollama" not in " ".join(rounds[0]).split()  # the first search had the typo
    assert any("ollama" in q.split() for r in rounds[1:] for q in r)  # a later one the right spelling


# --- DeepPilot ---------------------------------------------------------------------------------------------

MAX_ITERS = 5
WEATHER = {"beijing": {"city": "Beijing", "condition": "sunny", "temperature_c": 22},
           "shanghai": {"city": "Shanghai", "condition": "light rain", "temperature_c": 18}}
WEATHER_ZH = {"北京": "北京今天晴，气温22°C，北风3级", "上海": "上海今天小雨，气温18°C，东风2级"}
LANGUAGES = {
    "en": {
        "system": "You are a helpful assistant. Use the tools when you need them.",
        "tool": {"type": "function", "function": {
            "name": "get_weather", "description": "Get the current weather for a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city"}},
                           "required": ["city"]}}},
        "weather": lambda city: json.dumps(WEATHER.get(city.lower(), {"error": f"no data for {city}"})),
        "arithmetic": ("What is 23 * 17?", "391"),
        "one": ("What's the weather like in Beijing today?", ["sunny", "22 °C"]),
        "two": ("Compare the weather in Beijing and Shanghai.", ["sunny", "22 °C", "light rain", "18 °C"]),
    },
    "zh": {
        "system": "你是一个乐于助人的助手，需要时请调用工具。",
        "tool": {"type": "function", "function": {
            "name": "get_weather", "description": "获取指定城市的当前天气",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "城市名称"}},
                           "required": ["city"]}}},
        "weather": lambda city: WEATHER_ZH.get(city, f"没有{city}的天气数据"),
        "arithmetic": ("23乘以17等于多少？", "391"),
        "one": ("北京今天天气怎么样", ["北京今天晴，气温22°C"]),
        "two": ("比较一下北京和上海的天气", ["北京今天晴，气温22°C", "上海今天小雨，气温18°C"]),
    },
}


def deeppilot(client, language, question):
    """The seed's loop: at most MAX_ITERS model calls. (answer, iterations, the cities asked for)."""
    seed = LANGUAGES[language]
    messages = [{"role": "system", "content": seed["system"]}, {"role": "user", "content": question}]
    cities = []
    for iteration in range(1, MAX_ITERS + 1):
        message = client.chat.completions.create(model="deepseek-chat", messages=messages,
                                                 tools=[seed["tool"]]).choices[0].message
        if not message.tool_calls:
            return message.content, iteration, cities
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            city = json.loads(call.function.arguments)["city"]
            cities.append(city)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": seed["weather"](city)})
    raise AssertionError(f"MAX_ITERS reached: {cities}")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_deeppilot_arithmetic_takes_one_iteration_and_no_tool(client, language):
    question, result = LANGUAGES[language]["arithmetic"]
    answer, iterations, cities = deeppilot(client, language, question)
    assert (iterations, cities) == (1, []) and result in answer


@pytest.mark.parametrize("language", ["en", "zh"])
def test_deeppilot_one_city_takes_two_iterations_with_the_tools_data(client, language):
    question, facts = LANGUAGES[language]["one"]
    answer, iterations, cities = deeppilot(client, language, question)
    assert iterations == 2 and cities == (["Beijing"] if language == "en" else ["北京"])
    assert all(fact in answer for fact in facts)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_deeppilot_two_cities_take_two_or_three_iterations_with_both_cities_data(client, language):
    question, facts = LANGUAGES[language]["two"]
    answer, iterations, cities = deeppilot(client, language, question)
    assert iterations in (2, 3) and len(cities) == 2 and len(set(cities)) == 2
    assert all(fact in answer for fact in facts)


def test_an_answer_to_a_chinese_question_is_in_chinese(client):
    answer, _, _ = deeppilot(client, "zh", "北京今天天气怎么样")
    assert answer.startswith("北京：") and "the " not in answer  # no English frame around the quoted result


def test_a_japanese_question_finds_the_tool_and_the_city():
    client = neutral_client()
    tool = {"type": "function", "function": {"name": "get_weather", "description": "都市の現在の天気を取得する",
                                             "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                            "required": ["city"]}}}
    messages = [{"role": "user", "content": "東京の天気はどうですか？"}]
    first = client.chat.completions.create(model="m", messages=messages, tools=[tool]).choices[0].message
    assert json.loads(first.tool_calls[0].function.arguments) == {"city": "東京"}
    messages += [first.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": '{"天気": "晴れ", "気温_c": 20}'}]
    answer = client.chat.completions.create(model="m", messages=messages, tools=[tool]).choices[0].message.content
    assert answer == "東京：晴れ、20 °C。"


def test_a_chinese_question_no_tool_fits_gets_no_call(client):
    # The negative: the weather tool's words are not in a question about train tickets.
    message = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "去上海的火车票多少钱？"}],
                                             tools=[LANGUAGES["zh"]["tool"]]).choices[0].message
    assert not message.tool_calls


def test_a_chinese_search_is_answered_in_chinese(client):
    # Any language: a library's FAQ written in Chinese, searched with the question's pieces.
    tool = {"type": "function", "name": "search_faq", "description": "搜索图书馆常见问题",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
    faq = [{"id": "l1", "question": "如何续借图书？", "answer": "您可以在网上续借两次，每次三周。"},
           {"id": "l2", "question": "图书馆几点开门？", "answer": "周一至周五早上九点开门。"}]
    items = [{"role": "user", "content": "我怎么续借图书？"}]
    call = client.responses.create(model="m", input=items, tools=[tool]).output[0]
    query = json.loads(call.arguments)["query"]
    assert "续借" in query.split()
    found = [d for d in faq if any(w in d["question"] + d["answer"] for w in query.split())]
    items += [call, {"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(found)}]
    answer = client.responses.create(model="m", input=items, tools=[tool]).output_text
    assert answer == "根据“如何续借图书？”[l1]：您可以在网上续借两次，每次三周。"
