"""The offline model answers from reference material pasted into the prompt (a RAG prompt), and reads
label instructions written as "X if ..., Y otherwise"."""

import pytest

from helpers.llm import offline_client
from helpers.offline.instructions import label_choice, split_context
from helpers.search import search


@pytest.fixture(scope="module")
def client():
    return offline_client()


def rag_prompt(question, results, style="fields"):
    if style == "fields":
        context = "\n\n".join(f"section: {d['section']}\nquestion: {d['question']}\nanswer: {d['answer']}"
                              for d in results)
    else:
        import json
        context = json.dumps([{"question": d["question"], "answer": d["answer"]} for d in results])
    return f"Answer the QUESTION from the CONTEXT only.\n\nQUESTION: {question}\n\nCONTEXT:\n{context}"


@pytest.mark.parametrize("style", ["fields", "json"])
@pytest.mark.parametrize("question, entry", [
    ("I just discovered the course. Can I join it?", "I just discovered the course. Can I still join?"),
    ("Can I get a certificate if I follow the course at my own pace?", "self-paced mode"),
    ("how much will i spend on the openai api", "How much will I have to spend"),
])
def test_rag_prompt_is_answered_from_its_context(client, question, entry, style):
    answer = client.responses.create(model="m", input=rag_prompt(question, search(question), style)).output_text
    assert entry in answer and answer.startswith('According to "')  # named by its own question


def test_rag_prompt_whose_context_does_not_answer_says_so(client):
    question = "what's queen gambit?"
    unrelated = search("docker postgres", course="data-engineering-zoomcamp")
    answer = client.responses.create(model="m", input=rag_prompt(question, unrelated)).output_text
    assert "doesn't answer" in answer


def test_chat_completions_rag_prompt(client):
    question = "I just discovered the course. Can I join it?"
    reply = client.chat.completions.create(model="m", messages=[
        {"role": "user", "content": rag_prompt(question, search(question))}])
    assert "Can I still join?" in reply.choices[0].message.content


def test_plain_question_without_context_still_admits_no_knowledge(client):
    answer = client.responses.create(model="m", input="Can I still join the course?").output_text
    assert "no general knowledge" in answer and "search tool" in answer  # on topic: says what would fix it


def test_split_context_finds_question_and_records():
    text = "QUESTION: Can I join?\n\nCONTEXT:\nquestion: Join late?\nanswer: Yes.\nMore text.\n\nquestion: Cert?\nanswer: No."
    question, docs = split_context(text)
    assert question == "Can I join?"
    assert [d["question"] for d in docs] == ["Join late?", "Cert?"]
    assert docs[0]["answer"] == "Yes.\nMore text."


def test_split_context_none_without_material():
    assert split_context("How do I install Ollama?") is None


@pytest.mark.parametrize("text, labels", [
    ("Reply with exactly one word: ALLOW if it is about the course, BLOCK otherwise.", ("ALLOW", "BLOCK")),
    ("Answer with one word only: OFF_TOPIC when unrelated, ON_TOPIC when it is about the course.",
     ("ON_TOPIC", "OFF_TOPIC")),
    ("Reply with exactly one word: YES or NO.", ("YES", "NO")),
])
def test_label_choice_reads_capitalised_labels(text, labels):
    assert label_choice(text) == labels


def test_guard_classifies_unseen_questions(client):
    guard = ("You screen questions for a course assistant. Reply with exactly one word: "
             "PASS if the question is about the courses or their tools, STOP otherwise.")
    verdict = {q: client.responses.create(model="m", instructions=guard, input=q).output_text
               for q in ["How do I submit my homework late?", "Best pizza toppings?"]}
    assert verdict == {"How do I submit my homework late?": "PASS", "Best pizza toppings?": "STOP"}


def test_follow_up_question_borrows_the_topic_of_the_previous_one(client):
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL

    tools = {"search": lambda query: search(query)}
    first = agent_loop(client, "m", "How do I run Olama locally?", tools, schemas=[SEARCH_TOOL], verbose=False)
    follow = agent_loop(client, "m", "How do I run a different model?", tools, schemas=[SEARCH_TOOL],
                        messages=first.messages, verbose=False)
    assert "ollama" in follow.tool_calls[0]["arguments"].lower()
    assert "Ollama: How to install Ollama?" in follow.answer
    alone = agent_loop(client, "m", "How do I run a different model?", tools, schemas=[SEARCH_TOOL], verbose=False)
    assert "ollama" not in alone.tool_calls[0]["arguments"].lower()


def test_a_question_that_stands_on_its_own_keeps_its_own_words(client):
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL

    tools = {"search": lambda query: search(query)}
    first = agent_loop(client, "m", "How do I run Olama locally?", tools, schemas=[SEARCH_TOOL], verbose=False)
    second = agent_loop(client, "m", "Can I still join the course?", tools, schemas=[SEARCH_TOOL],
                        messages=first.messages, verbose=False)
    assert "ollama" not in second.tool_calls[0]["arguments"].lower()
    assert "Can I still join?" in second.answer


def test_no_tools_off_course_question_gets_a_plain_admission(client):
    answer = client.responses.create(model="m", input="What does 'overcast' mean?").output_text
    assert "no general knowledge" in answer and "training data" in answer and "course" not in answer


def test_a_weak_match_without_the_questions_key_word_is_not_an_answer(client):
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL

    tools = {"search": lambda query: search(query)}  # the LLM course has no entry about Kafka
    result = agent_loop(client, "m", "kafka consumer not receiving messages", tools, schemas=[SEARCH_TOOL],
                        verbose=False)
    assert "found nothing relevant" in result.answer
