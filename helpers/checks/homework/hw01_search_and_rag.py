"""Homework 01 · Search and RAG: the checks of tasks 1.1-1.5 (lessons 01 and 02).

Plain Python over the FAQ data, a search index with a section filter, a RAG prompt that keeps the model to the
entries it gives, and the one model call of a fixed pipeline (watched through SpyClient, on the offline model: the verdict never
depends on the student's model, whose answer is reported beside it).
Left out on purpose: judging the answer's wording, and reading a prompt by meaning: `asks_for_grounding` reads
the common plain-English ways of saying "answer only from these entries", not every possible one.
"""

from __future__ import annotations

import re
from collections import Counter

from helpers.checks.core import CheckFailed, fail_if, run_student_code, task_check
from helpers.checks.doubles import SpyClient, judge_client, on_your_model, request_text
from helpers.tools import preview


@task_check("01-search-and-rag", "1.1")
def check_count_entries(count_entries, documents):
    """Check `count_entries(documents, course) -> int` on two courses.

    Example:
        >>> from helpers.ingest import load_faq_data
        >>> documents = load_faq_data(progress=False)
        >>> check_count_entries(lambda documents, course: sum(d['course'] == course for d in documents),
        ...     documents)
        [PASS] Task 1.1 · Count a course's entries: right for llm-zoomcamp and mlops-zoomcamp.
    """
    counts = Counter(d["course"] for d in documents)
    seen = []
    for course in ("llm-zoomcamp", "mlops-zoomcamp"):
        got = run_student_code(count_entries, documents, course)
        fail_if(not isinstance(got, int), f"count_entries(documents, {course!r}) returned a "
                f"{type(got).__name__}; return a whole number (len(...) of a list gives one).")
        fail_if(got == len(documents), f"count_entries(documents, {course!r}) counts every document in the "
                "FAQ; keep only those whose 'course' field equals the course you were given.")
        fail_if(got in seen, "count_entries gives the same count for every course; compare each document's "
                "'course' with the `course` argument, not with a fixed name.")
        seen.append(got)
        if got != counts[course]:
            side = "high" if got > counts[course] else "low"
            raise CheckFailed(f"count_entries(documents, {course!r}) = {got} is too {side}. Compare each document's "
                        f"'course' field with the argument exactly (no substring match).")
    return "right for llm-zoomcamp and mlops-zoomcamp."


@task_check("01-search-and-rag", "1.2")
def check_biggest_section(biggest_section, documents):
    """Check `biggest_section(documents, course) -> str` (the section name with the most entries).

    Example:
        >>> from helpers.ingest import load_faq_data
        >>> check_biggest_section(lambda documents, course: documents[0]['section'],
        ...     load_faq_data(progress=False))
        [FAIL] Task 1.2 · Find the biggest section: in 'llm-zoomcamp', section 'General Course-Related
        Questions' has 13 entries, but another section has more. Count every section before picking the
        largest.
    """
    for course in ("llm-zoomcamp", "data-engineering-zoomcamp"):
        sizes = Counter(d["section"] for d in documents if d["course"] == course)
        got = run_student_code(biggest_section, documents, course)
        fail_if(not isinstance(got, str), f"biggest_section(documents, {course!r}) returned a "
                f"{type(got).__name__}; return the section's name as a string (Counter.most_common(1) gives "
                "[(name, count)]).")
        fail_if(got not in sizes, f"{preview(got)!r} is not a section of {course!r}: count sections only "
                "among that course's entries.")
        fail_if(sizes[got] != max(sizes.values()), f"in {course!r}, section {got!r} has {sizes[got]} "
                "entries, but another section has more. Count every section before picking the largest.")
    return "right for two courses."


_SECTION_INDEX: dict = {}


@task_check("01-search-and-rag", "1.3")
def check_search_section(search_section, documents):
    """Check `search_section(query, section) -> list[dict]`: search one course's section, with the boosts.

    Example:
        >>> check_search_section(None, [])
        [NOT DONE YET] Task 1.3 · Search within one section: define the function in the cell above, then run
        this cell again.
    """
    from minsearch import Index

    from helpers.search import DEFAULT_COURSE, TEXT_FIELDS, ZOOMCAMP_BOOST

    cases = [("openai api key", "Module 1: Introduction"), ("run ollama", "Workshops: Agents")]
    for query, section in cases:
        got = run_student_code(search_section, query, section)
        fail_if(not isinstance(got, list) or not all(isinstance(d, dict) for d in got),
                f"search_section({query!r}, {section!r}) must return a list of FAQ documents (dicts), as "
                "index.search() does.")
        fail_if(not got, f"search_section({query!r}, {section!r}) found nothing. Is 'section' one of the "
                "index's keyword_fields, and spelled exactly like the documents' section names?")
        wrong = [d for d in got if d.get("section") != section or d.get("course") != DEFAULT_COURSE]
        if wrong:
            d = wrong[0]
            raise CheckFailed(f"a result comes from section {d.get('section')!r} of {d.get('course')!r}. Filter on "
                        f"both keyword fields: filter_dict={{'course': ..., 'section': ...}}.")
        if id(documents) not in _SECTION_INDEX:  # built once per session: fitting takes about a second
            _SECTION_INDEX.clear()
            _SECTION_INDEX[id(documents)] = Index(text_fields=TEXT_FIELDS,
                                                  keyword_fields=["course", "section"]).fit(documents)
        expected = _SECTION_INDEX[id(documents)].search(query, filter_dict={"course": DEFAULT_COURSE, "section": section},
                                    boost_dict=ZOOMCAMP_BOOST, num_results=5)
        fail_if(len(got) != len(expected), f"search_section({query!r}, {section!r}) returned {len(got)} "
                "results; return the top 5 (num_results=5), or all of them if the section has fewer "
                "matches.")
        fail_if([d["id"] for d in got] != [d["id"] for d in expected], "the right section, but a different "
                "ranking. Search the same text fields as lesson 01 (question, section, answer) with its "
                "boosts: question 3, section 0.5.")
    return "filtered on course and section, ranked with the course's boosts."


# What a RAG prompt hands the model: the words a student uses for the entries pasted into it.
_MATERIAL = (r"(?:entr(?:y|ies)|context|faqs?|results?|documents?|information|facts?|sources?|material|provided|"
             r"given|above|below|these|records?|snippets?|passages?)")
_NEGATION = r"(?:\bnot|n't|\bnever|\bno)"
_NOT_A_COUNT = r"(?!\s+(?:one|two|three|a few|\d))"  # "in only one sentence" limits the length, not the sources
# Each alternative is one plain way of keeping the model to the material; all within one sentence.
GROUNDING = re.compile(
    # "Answer only from the entries below", "Use only the context", "based solely on these FAQ entries";
    rf"\b(?:only|solely|exclusively|strictly|just|nothing but)\b{_NOT_A_COUNT}[^.!?\n,;]{{0,50}}?\b{_MATERIAL}\b"
    # "Use the context alone", "the entries and nothing else"
    rf"|\b{_MATERIAL}\b[^.!?\n,;]{{0,30}}?\b(?:alone|only|nothing else)\b{_NOT_A_COUNT}"
    # "Don't use outside knowledge", "without using your own knowledge"
    rf"|(?:{_NEGATION}|\bwithout)\b[^.!?\n]{{0,30}}?\b(?:outside|other|own|prior|general|external|additional|"
    r"background)\s+(?:knowledge|information|sources?|facts)"
    # "If the answer is not in the entries, say so"
    rf"|{_NEGATION}\s+(?:in|from|covered by|contained in|found in|part of|mentioned in|answered by)\b"
    rf"[^.!?\n]{{0,20}}?\b{_MATERIAL}\b"
    # "If you can't find the answer in the entries, say you don't know"
    rf"|{_NEGATION}\s+(?:find|see|know)\b[^.!?\n]{{0,30}}?\b(?:in|from)\s+(?:the\s+|these\s+)?{_MATERIAL}\b"
    # "If the context doesn't contain the answer, say so"
    rf"|\b{_MATERIAL}\b[^.!?\n]{{0,30}}?{_NEGATION}\s+(?:contain|include|cover|answer|have|mention|say|hold|give)",
    re.IGNORECASE)


def asks_for_grounding(text: str) -> bool:
    """True when a prompt tells the model, in a plain sentence, to answer only from the material it gives.

    Example:
        >>> asks_for_grounding("Answer only from the entries below."), asks_for_grounding("Use only the context")
        (True, True)
        >>> asks_for_grounding("If the context doesn't contain the answer, say so.")
        True
        >>> asks_for_grounding("Answer the question using the entries below, in only one sentence.")
        False
    """
    return bool(GROUNDING.search(text))


@task_check("01-search-and-rag", "1.4")
def check_build_prompt(build_prompt):
    """Check `build_prompt(question, results) -> str`: the question, every result's question and answer, and a
    sentence telling the model to answer only from those entries.

    Example:
        >>> check_build_prompt(None)
        [NOT DONE YET] Task 1.4 · Build a RAG prompt: define the function in the cell above, then run this
        cell again.
    """
    from helpers.search import search

    question = "How do I run Ollama locally?"
    results = search("Ollama", num_results=3)
    prompt = run_student_code(build_prompt, question, results)
    fail_if(not isinstance(prompt, str), f"build_prompt returned a {type(prompt).__name__}; return one "
            "string the model can read.")
    fail_if(question not in prompt, "the prompt doesn't contain the student's question word for word; put "
            "it in.")
    for i, doc in enumerate(results, 1):
        fail_if(doc["question"] not in prompt, f"result {i}'s FAQ question is missing from the prompt; "
                "include each entry's 'question' so the model knows what the answer is about.")
        fail_if(doc["answer"].strip() not in prompt, f"result {i}'s answer is missing (or changed) in the "
                "prompt; include each entry's 'answer' text in full.")
    # The student's own words: what the prompt says besides the question and the entries it pastes in.
    own = prompt
    for text in [question] + [str(doc[key]).strip() for doc in results for key in ("question", "answer")]:
        own = own.replace(text, "\n")
    fail_if(not asks_for_grounding(own), "the prompt never tells the model to answer only from these entries; "
            "without that sentence it fills gaps from its own memory. Add one, in your own words.")
    no_results = run_student_code(build_prompt, question, [], what="build_prompt(question, [])")
    fail_if(not isinstance(no_results, str) or question not in no_results, "with no search results, "
            "build_prompt should still return a prompt containing the question.")
    return "question and every result are in the prompt, with a sentence keeping the model to them."


@task_check("01-search-and-rag", "1.5")
def check_rag(rag, client, model):
    """Check `rag(client, model, question) -> str`: search, build a prompt, make exactly one model call.

    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> check_rag(None, neutral_client(), OFFLINE_MODEL)
        [NOT DONE YET] Task 1.5 · One-call RAG: define the function in the cell above, then run this cell
        again.
    """
    from helpers.offline import OFFLINE_MODEL
    from helpers.search import search

    question = "How do I install Ollama?"
    # The verdict comes from the offline model, whatever model the student uses: what is judged is the request
    # their code builds, and a model that answers with an empty text (a reasoning model out of tokens) would
    # otherwise fail right code. Their own model's answer is reported beside the PASS.
    spy = SpyClient(judge_client())
    answer = run_student_code(rag, spy, OFFLINE_MODEL, question)
    fail_if(not spy.calls, "rag() made no model call through the client it was given; use "
            "client.responses.create(model=model, input=...) with the `client` argument.")
    fail_if(len(spy.calls) > 1, f"rag() made {len(spy.calls)} model calls; a fixed RAG pipeline makes "
            "exactly one.")
    fail_if(not isinstance(answer, str) or not answer.strip(), "rag() must return the answer text "
            "(response.output_text), not the response object.")
    sent = request_text(spy.calls[0][0])
    top = search(question)[0]
    fail_if(question not in sent, "the request doesn't contain the question; build the prompt from it.")
    fail_if(top["answer"].strip()[:60] not in sent, "the request doesn't contain the best search result "
            "for the question: search with the question first, then put the results into the prompt.")
    def what_your_model_did(client, model) -> str:
        seen = run_student_code(rag, client, model, question)
        return f"it answered: {preview(str(seen), 100)!r}."

    return "one call, with the question and the search results in it." + on_your_model(client, model,
                                                                                          what_your_model_did)
