"""Homework 03 · Prompts and guardrails: the checks of tasks 3.1-3.4 (lesson 05).

Instructions that lead to several searches, an input guardrail, the guardrail measured on labelled
questions, and an agent behind the guardrail.

Two question sets for the guardrail: LABELLED_QUESTIONS is public (the notebook prints it, the student tries
a guard on it, task 3.3 measures on it); GRADED_QUESTIONS is held back (task 3.2 grades on it and no
notebook prints it), so a guard tuned to the printed questions is still graded on questions it has not seen.
Left out on purpose: exact refusal wording, and any rule about how the guard's prompt must be worded beyond
naming what is on-topic (a real model judges a prompt by meaning, so any plain wording should do).
"""

from __future__ import annotations

import json
import re

from helpers.checks.core import NotDoneYet, fail_if, run_student_code, task_check
from helpers.checks.doubles import SpyClient, judge_client, on_your_model, plain_data, request_items
from helpers.offline import OFFLINE_MODEL

# Public: labelled questions (question, is it about the course FAQ?) for the student to try a guard on.
LABELLED_QUESTIONS = [
    ("Can I still join the course after it has started?", True),
    ("How do I get a certificate for the course?", True),
    ("Where can I find the homework deadlines?", True),
    ("How do I install Ollama on my laptop?", True),
    ("Which vector database does the course use for search?", True),
    ("Do I need Docker for the first module?", True),
    ("How do I win with the queen's gambit?", False),
    ("What is a good recipe for banana bread?", False),
    ("Who won the football world cup in 2018?", False),
    ("Recommend me a movie for tonight.", False),
    ("How tall is the Eiffel tower?", False),
    ("Write a poem about the sea.", False),
]

# Held back: task 3.2 grades on these. Not printed anywhere, and the hints give counts, never a question.
GRADED_QUESTIONS = [
    ("Is there a deadline for submitting the final project?", True),
    ("Will I get a certificate if I miss one homework?", True),
    ("Which Python version should I use for the course?", True),
    ("Can I run the notebooks in GitHub Codespaces?", True),
    ("How do I register for the next cohort of the LLM Zoomcamp?", True),
    ("Where do I submit my homework answers?", True),
    ("Is Elasticsearch required or can I use another search engine?", True),
    ("Do the lectures get recorded if I miss the live session?", True),
    ("Are the course materials free?", True),
    ("Can I use a local model instead of paying for an API key?", True),
    ("How many eggs go into a pancake batter?", False),
    ("What's the best time of year to visit Japan?", False),
    ("Can you explain the rules of cricket?", False),
    ("Who painted the Mona Lisa?", False),
    ("How do I fix a flat tyre on my bike?", False),
    ("Translate 'good morning' into Italian.", False),
    ("What should I name my new puppy?", False),
    ("Which planet has the most moons?", False),
    ("Tell me a joke about penguins.", False),
    ("How do I keep my tomato plants from wilting?", False),
]
MISSES_ALLOWED = 1  # per side: a real model may misjudge one borderline question, as may the offline one

# Task 3.1's questions: ones that a single search answers well, so a second search comes from the
# instructions, not from a model retrying after poor results.
SEARCH_QUESTIONS = [
    "Can I still join the course after it has started?",
    "How do I get a certificate for the course?",
    "Which Python version should I use for the course?",
]

# What task 3.2 names as on-topic: the course and its FAQ. A guard's prompt must name it in some words.
COURSE_WORDS = re.compile(r"\b(?:courses?|zoomcamps?|datatalks(?:\.?club)?|faqs?|homeworks?|certificates?|"
                          r"lectures?|modules?|cohorts?|bootcamps?)\b", re.IGNORECASE)


def reads_as_sentence(text: str) -> bool:
    """True when the text holds at least one clause of three or more words, or a short one that ends like a
    sentence ("Search twice."): an instruction, not a bare list of keywords.

    Example:
        >>> reads_as_sentence("various keywords"), reads_as_sentence("Search twice.")
        (False, True)
    """
    for clause in re.split(r"[,;:\n/|]+", text):
        words = clause.split()
        if len(words) >= 3 or (len(words) == 2 and clause.strip()[-1] in ".!?"):
            return True
    return False


def _different_queries(tool_calls: list[dict]) -> int:
    """How many different search queries a run made, in all its responses (spacing and case ignored)."""
    queries = set()
    for call in tool_calls:
        if call["name"] != "search":
            continue
        try:
            args = json.loads(call["arguments"])
        except (TypeError, ValueError):
            args = call["arguments"]
        values = args.values() if isinstance(args, dict) else [args]
        queries.add(" ".join(" ".join(str(v) for v in values).lower().split()))
    return len(queries)


@task_check("03-prompts-and-guardrails", "3.1")
def check_multi_search_instructions(instructions, client, model):
    """Check that `instructions` ask, in a sentence, for more than one search, and that the agent then
    searches at least twice with different queries (counted over the whole run: research in rounds makes
    the next search in the next response) on at least 2 of 3 course questions.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_multi_search_instructions("", neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 3.1 · Instructions for several searches: write your instructions in the string
        above.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    if instructions is None or (isinstance(instructions, str) and not instructions.strip()):
        raise NotDoneYet("write your instructions in the string above.")
    fail_if(not isinstance(instructions, str), "the instructions must be a string.")
    fail_if(not reads_as_sentence(instructions), "the instructions are a list of words, not a request. "
            "Write a sentence that asks the agent to search more than once, e.g. how many searches and "
            "with what kind of keywords.")

    def searches_per_question(client, model) -> list[int]:
        searches = []
        for question in SEARCH_QUESTIONS:
            result = agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL],
                                instructions=instructions, verbose=False)
            fail_if(result.stop_reason != "answered", f"the run for {question!r} stopped with "
                    f"{result.stop_reason!r}; the instructions should lead to an answer, not endless searching.")
            # Different searches, as a model given such a prompt makes: the same query twice finds nothing new.
            searches.append(_different_queries(result.tool_calls))
        return searches

    # The verdict comes from the offline model, which follows instructions by general rules the same way on every
    # machine; what the student's own model does with the same instructions is reported beside it.
    searches = searches_per_question(judge_client(), OFFLINE_MODEL)
    several = sum(n >= 2 for n in searches)
    fail_if(several < 2, f"only {several} of {len(SEARCH_QUESTIONS)} runs searched more than once with "
            f"different queries (different searches per run: {searches}). Ask for it plainly, e.g. how many "
            "searches and with what kind of keywords.")

    def what_your_model_did(client, model) -> str:
        theirs = searches_per_question(client, model)
        several = sum(n >= 2 for n in theirs)
        said = f"different searches per question: {theirs}"
        if several < 2:
            return (f"{said}; it searched more than once in {several} of {len(SEARCH_QUESTIONS)} runs. That is the "
                    "model's judgement, not your instructions' (they work on the course's model).")
        return said + "."

    return f"different searches per question: {searches}." + on_your_model(client, model, what_your_model_did)


def _guard_verdict(is_on_topic, client, model, question) -> bool:
    verdict = run_student_code(is_on_topic, client, model, question, what="is_on_topic(client, model, question)")
    fail_if(not isinstance(verdict, bool), f"is_on_topic returned {type(verdict).__name__}; return True "
            "(allow) or False (block). Turn the model's reply into a bool yourself.")
    return verdict


def prompt_without_question(kwargs: dict, question: str) -> str:
    """What a request sends besides the question: its instructions and every message, as text, with the
    question's own words taken out (so a question that says "course" does not count as the guard's scope).

    Example:
        >>> prompt_without_question({"instructions": "Say YES for the course.", "input": "Hi?"}, "Hi?")
        'Say YES for the course.\\n '
    """
    parts = [str(kwargs.get("instructions") or "")]
    for item in request_items(kwargs) + list(kwargs.get("messages") or []):
        parts.append(item if isinstance(item, str) else json.dumps(plain_data(item), ensure_ascii=False))
    return "\n".join(parts).replace(question, " ")


@task_check("03-prompts-and-guardrails", "3.2")
def check_is_on_topic(is_on_topic, client, model):
    """Check the guardrail `is_on_topic(client, model, question) -> bool` on held-back labelled questions.

    It must make exactly one model call per question, with no tools, whose prompt names what is on-topic
    (the course and its FAQ); let through all but one of the on-topic questions and block all but one of
    the off-topic ones.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_is_on_topic(lambda client, model, question: True, neutral_client(), OFFLINE_MODEL)
        [FAIL] Task 3.2 · An input guardrail: the guardrail made no model call. Words matched in Python only
        catch the wordings you thought of; ask the model, in one call, whether the question is on-topic.
    """
    wrong_on, wrong_off, prompts = [], [], []
    # The verdict comes from the offline model (the same on every machine); the student's model is reported beside.
    for question, on_topic in GRADED_QUESTIONS:
        spy = SpyClient(judge_client())
        verdict = _guard_verdict(is_on_topic, spy, OFFLINE_MODEL, question)
        fail_if(not spy.calls, "the guardrail made no model call. Words matched in Python only catch the "
                "wordings you thought of; ask the model, in one call, whether the question is on-topic.")
        fail_if(len(spy.calls) > 1, f"the guardrail made {len(spy.calls)} model calls for one question; a "
                "guardrail should be one cheap call.")
        fail_if(spy.calls[0][0].get("tools"), "the guardrail call offers tools; a classifier needs none, "
                "and each tool schema costs input tokens.")
        prompts.append(prompt_without_question(spy.calls[0][0], question))
        if verdict != on_topic:
            (wrong_on if on_topic else wrong_off).append(question)
    n_on = sum(on for _, on in GRADED_QUESTIONS)
    n_off = len(GRADED_QUESTIONS) - n_on
    fail_if(len(wrong_on) > MISSES_ALLOWED, f"it blocked {len(wrong_on)} of {n_on} on-topic questions "
            "(held-back questions, not the ones printed above). Check that the prompt says what the course "
            "covers, and how you read the model's reply (strip spaces, compare case-insensitively).")
    fail_if(len(wrong_off) > MISSES_ALLOWED, f"it let through {len(wrong_off)} of {n_off} off-topic "
            "questions (held-back questions, not the ones printed above). Say what the course covers and "
            "ask for exactly one word as the reply.")
    fail_if(not all(COURSE_WORDS.search(prompt) for prompt in prompts), "the guardrail's prompt never says "
            "what is on-topic: name the course and what its FAQ covers, so the model knows what to let "
            "through.")

    def what_your_model_did(client, model) -> str:
        right_on = sum(_guard_verdict(is_on_topic, client, model, q) for q, on in GRADED_QUESTIONS if on)
        right_off = sum(not _guard_verdict(is_on_topic, client, model, q) for q, on in GRADED_QUESTIONS if not on)
        said = f"{right_on}/{n_on} on-topic allowed, {right_off}/{n_off} off-topic blocked"
        if right_on < n_on - MISSES_ALLOWED or right_off < n_off - MISSES_ALLOWED:
            return (f"{said}. Your code is right (the verdict above); more misses here are that model's "
                    "judgement: try a clearer prompt or a stronger model.")
        return said + "."

    return (f"{n_on - len(wrong_on)}/{n_on} on-topic allowed, {n_off - len(wrong_off)}/{n_off} off-topic blocked "
            f"(held-back questions)." + on_your_model(client, model, what_your_model_did))


@task_check("03-prompts-and-guardrails", "3.3")
def check_measure_guardrail(measure_guardrail):
    """Check `measure_guardrail(guard, labelled) -> {"on_topic_allowed": n, "off_topic_blocked": m}`.

    Uses a deliberately simple keyword guard, so the numbers don't depend on any model.
    Example:
        >>> check_measure_guardrail(None)
        [NOT DONE YET] Task 3.3 · Measure the guardrail: define the function in the cell above, then run
        this cell again.
    """
    def keyword_guard(question: str) -> bool:
        return any(w in question.lower() for w in ("course", "docker", "movie"))

    labelled = LABELLED_QUESTIONS
    got = run_student_code(measure_guardrail, keyword_guard, labelled)
    fail_if(not isinstance(got, dict) or set(got) != {"on_topic_allowed", "off_topic_blocked"},
            "return a dict with exactly two keys: 'on_topic_allowed' and 'off_topic_blocked'.")
    allowed = sum(keyword_guard(q) for q, on in labelled if on)
    blocked = sum(not keyword_guard(q) for q, on in labelled if not on)
    fail_if(got["on_topic_allowed"] != allowed, "on_topic_allowed is off for a simple keyword guard. Count "
            "the questions labelled True for which guard(question) is True.")
    fail_if(got["off_topic_blocked"] != blocked, "off_topic_blocked is off for a simple keyword guard. "
            "Count the questions labelled False for which guard(question) is False.")
    return "counts match for a test guard."


@task_check("03-prompts-and-guardrails", "3.4")
def check_guarded_answer(guarded_answer, client, model):
    """Check `guarded_answer(client, model, question) -> str`: guardrail first, the agent loop only if allowed.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_guarded_answer(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 3.4 · Guard the agent: define the function in the cell above, then run this cell
        again.
    """
    off = "How do I win with the queen's gambit?"
    student_client, student_model = client, model
    # The verdict comes from the offline model (the same on every machine); the student's model is reported beside.
    client, model = judge_client(), OFFLINE_MODEL
    spy = SpyClient(client)
    answer = run_student_code(guarded_answer, spy, model, off)
    fail_if(not isinstance(answer, str) or not answer.strip(), "for a blocked question, return a short "
            "polite refusal (a non-empty string).")
    fail_if(spy.function_calls(), f"for {off!r} the agent still searched the FAQ; run the guardrail first "
            "and return before the loop when it says no.")
    fail_if(len(spy.calls) > 1, f"a blocked question cost {len(spy.calls)} model calls; it should cost only "
            "the guardrail's.")
    on = "Can I still join the course after it has started?"
    spy = SpyClient(client)
    answer = run_student_code(guarded_answer, spy, model, on)
    fail_if(not spy.function_calls(), f"for the on-topic question {on!r} the agent never searched: when the "
            "guardrail allows it, run agent_loop with the search tool.")
    fail_if(not isinstance(answer, str) or not answer.strip(), "for an allowed question, return the loop's "
            "answer text (result.answer).")

    def what_your_model_did(client, model) -> str:
        blocked, allowed = SpyClient(client), SpyClient(client)
        run_student_code(guarded_answer, blocked, model, off)
        run_student_code(guarded_answer, allowed, model, on)
        said = (f"the off-topic question cost {len(blocked.calls)} call(s) and "
                f"{'searched' if blocked.function_calls() else 'did not search'}; the on-topic one "
                f"{'searched' if allowed.function_calls() else 'did not search'}")
        if blocked.function_calls() or not allowed.function_calls():
            return said + ". Your code is right (the verdict above): that is how this model judged the questions."
        return said + "."

    return "blocked before the loop, answered with the loop." + on_your_model(student_client, student_model,
                                                                               what_your_model_did)
