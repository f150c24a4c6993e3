"""Homework 03 · Prompts and guardrails: the checks of tasks 3.1-3.4 (lesson 05).

Instructions that lead to several searches, an input guardrail measured on a small labelled question set
(LABELLED_QUESTIONS, also imported by the notebook), and an agent behind the guardrail. Left out on purpose:
exact refusal wording.
"""

from __future__ import annotations

from helpers.homework.core import CheckFailed, NotDoneYet, run_student_code, task_check
from helpers.homework.doubles import SpyClient

# A small labelled question set for the guardrail tasks: (question, is it about the course FAQ?).
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


@task_check("03-prompts-and-guardrails", "3.1")
def check_multi_search_instructions(instructions, client, model):
    """Check that `instructions` make the agent search at least twice, with different queries, before
    answering (2 of 3 questions): what a real model does when a prompt asks for more searches.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, offline_client
        >>> check_multi_search_instructions("", offline_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 3.1 · Instructions for several searches: write your instructions in the string
        above.
    """
    from helpers.loop import agent_loop
    from helpers.search import SEARCH_TOOL, search

    if instructions is None or (isinstance(instructions, str) and not instructions.strip()):
        raise NotDoneYet("write your instructions in the string above.")
    if not isinstance(instructions, str):
        raise CheckFailed("the instructions must be a string.")
    questions = [q for q, on_topic in LABELLED_QUESTIONS if on_topic][:3]
    searches = []
    for question in questions:
        result = agent_loop(client, model, question, {"search": search}, schemas=[SEARCH_TOOL],
                            instructions=instructions, verbose=False)
        if result.stop_reason != "answered":
            raise CheckFailed(f"the run for {question!r} stopped with {result.stop_reason!r}; the instructions "
                        f"should lead to an answer, not endless searching.")
        # Different searches, as a real model given such a prompt makes: the same query twice finds nothing new.
        queries = {c["arguments"] for c in result.tool_calls if c["name"] == "search"}
        searches.append(len(queries))
    several = sum(n >= 2 for n in searches)
    if several < 2:
        raise CheckFailed(f"only {several} of {len(questions)} runs searched more than once with different queries "
                    f"(different searches per run: {searches}). Ask for it plainly, e.g. how many searches and "
                    f"with what kind of keywords.")
    return f"different searches per question: {searches}."


def _guard_verdict(is_on_topic, client, model, question) -> bool:
    verdict = run_student_code(is_on_topic, client, model, question, what=f"is_on_topic(..., {question!r})")
    if not isinstance(verdict, bool):
        raise CheckFailed(f"is_on_topic returned {type(verdict).__name__}; return True (allow) or False (block). "
                    f"Turn the model's reply into a bool yourself.")
    return verdict


@task_check("03-prompts-and-guardrails", "3.2")
def check_is_on_topic(is_on_topic, client, model):
    """Check the guardrail `is_on_topic(client, model, question) -> bool` on the labelled set.

    It must let through at least 5 of 6 on-topic questions, block at least 5 of 6 off-topic ones, and
    cost at most one model call per question, with no tools.
    Example:
        >>> from helpers.offline import OFFLINE_MODEL, offline_client
        >>> check_is_on_topic(lambda client, model, question: True, offline_client(), OFFLINE_MODEL)
        [FAIL] Task 3.2 · An input guardrail: it let through 6 of 6 off-topic questions, e.g. "How do I win
        with the queen's gambit?". Say what the course covers and ask for exactly one word as the reply.
    """
    wrong_on, wrong_off = [], []
    for question, on_topic in LABELLED_QUESTIONS:
        spy = SpyClient(client)
        verdict = _guard_verdict(is_on_topic, spy, model, question)
        if len(spy.calls) > 1:
            raise CheckFailed(f"the guardrail made {len(spy.calls)} model calls for one question; a guardrail should "
                        f"be one cheap call (or none).")
        if spy.calls and spy.calls[0][0].get("tools"):
            raise CheckFailed("the guardrail call offers tools; a classifier needs none, and each tool schema costs "
                        "input tokens.")
        if verdict != on_topic:
            (wrong_on if on_topic else wrong_off).append(question)
    if len(wrong_on) > 1:
        raise CheckFailed(f"it blocked {len(wrong_on)} of 6 on-topic questions, e.g. {wrong_on[0]!r}. Check how you "
                    f"read the model's reply (strip spaces, compare case-insensitively).")
    if len(wrong_off) > 1:
        raise CheckFailed(f"it let through {len(wrong_off)} of 6 off-topic questions, e.g. {wrong_off[0]!r}. Say "
                    f"what the course covers and ask for exactly one word as the reply.")
    return f"{6 - len(wrong_on)}/6 on-topic allowed, {6 - len(wrong_off)}/6 off-topic blocked."


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
    if not isinstance(got, dict) or set(got) != {"on_topic_allowed", "off_topic_blocked"}:
        raise CheckFailed("return a dict with exactly two keys: 'on_topic_allowed' and 'off_topic_blocked'.")
    allowed = sum(keyword_guard(q) for q, on in labelled if on)
    blocked = sum(not keyword_guard(q) for q, on in labelled if not on)
    if got["on_topic_allowed"] != allowed:
        raise CheckFailed("on_topic_allowed is off for a simple keyword guard. Count the questions labelled True "
                    "for which guard(question) is True.")
    if got["off_topic_blocked"] != blocked:
        raise CheckFailed("off_topic_blocked is off for a simple keyword guard. Count the questions labelled False "
                    "for which guard(question) is False.")
    return "counts match for a test guard."


@task_check("03-prompts-and-guardrails", "3.4")
def check_guarded_answer(guarded_answer, client, model):
    """Check `guarded_answer(client, model, question) -> str`: guardrail first, the agent loop only if allowed.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, offline_client
        >>> check_guarded_answer(None, offline_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 3.4 · Guard the agent: define the function in the cell above, then run this cell
        again.
    """
    off = "How do I win with the queen's gambit?"
    spy = SpyClient(client)
    answer = run_student_code(guarded_answer, spy, model, off)
    if not isinstance(answer, str) or not answer.strip():
        raise CheckFailed("for a blocked question, return a short polite refusal (a non-empty string).")
    if spy.function_calls():
        raise CheckFailed(f"for {off!r} the agent still searched the FAQ; run the guardrail first and return before "
                    f"the loop when it says no.")
    if len(spy.calls) > 1:
        raise CheckFailed(f"a blocked question cost {len(spy.calls)} model calls; it should cost only the guardrail's.")
    on = "Can I still join the course after it has started?"
    spy = SpyClient(client)
    answer = run_student_code(guarded_answer, spy, model, on)
    if not spy.function_calls():
        raise CheckFailed(f"for the on-topic question {on!r} the agent never searched: when the guardrail allows it, "
                    f"run agent_loop with the search tool.")
    if not isinstance(answer, str) or not answer.strip():
        raise CheckFailed("for an allowed question, return the loop's answer text (result.answer).")
    return "blocked before the loop, answered with the loop."
