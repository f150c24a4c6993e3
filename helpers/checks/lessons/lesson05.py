"""Lesson 05's exercise: measure a guard prompt on labelled questions, reading every reply so that it fails closed.

The student writes `measure_guard(client, model, guard, labelled) -> dict`: one model call per `(question,
on_topic)` pair, with the guard prompt and no tools; a reply lets the question through only when it says ALLOW
(an empty, unsure or mixed reply blocks it); the result counts `{"on_topic_allowed": n,
"off_topic_let_through": m}`. The check runs it twice: on a scripted model whose replies are the awkward ones
(lower case, a full stop, empty, unsure, both words), so the counts show how the replies were read; then on the
offline model with held-back questions that no notebook prints, so the guard prompt itself is measured the same
way on every machine; what the student's own model makes of the prompt is reported beside the verdict.

Homework 03 asks for the guardrail as a function (task 3.2) and for counts from a guard *function* (task 3.3);
this exercise is the step between them, a guard *prompt* measured with real calls. Its scope rule (the prompt
must name the course) and the misses allowed per label are homework 03's, imported from there.
Left out on purpose: the guard prompt's wording beyond naming the course (a real model judges by meaning), and
the questions the student measures on in the lesson (the check brings its own).
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import SpyClient, judge_client, on_your_model, request_text, scripted_response
from helpers.checks.homework.hw03_prompts_and_guardrails import (
    COURSE_WORDS,
    MISSES_ALLOWED,
    prompt_without_question,
)
from helpers.offline import OFFLINE_MODEL

KEYS = {"on_topic_allowed", "off_topic_let_through"}

# Scripted: (question, label, the reply the scripted model gives). Only a plain ALLOW, in any case, with spaces
# or a full stop around it, lets a question through; the other replies are ones a real model gives now and then.
SCRIPTED = [
    ("Can I join the course late?", True, "ALLOW"),
    ("Where are the homework forms?", True, "allow"),
    ("Is the course free?", True, " Allow.\n"),
    ("Do I need Docker for module 1?", True, "ALLOW."),
    ("Which laptop should I buy for the course?", True, "BLOCK"),
    ("What is the capital of Peru?", False, "BLOCK"),
    ("How do I bake sourdough?", False, ""),
    ("Who is the best tennis player ever?", False, "I'm not sure."),
    ("Should I learn the violin?", False, "ALLOW or BLOCK? I can't tell from the question."),
    ("What's a good name for a boat?", False, "ALLOW"),
    ("How far away is the moon?", False, "BLOCK."),
]

# Held back: the guard prompt is measured on these. No notebook prints them, and no hint names one.
HELD_BACK = [
    ("When is the deadline for the course project?", True),
    ("Do I get a certificate if I finish only the project?", True),
    ("Which Python version do the course notebooks need?", True),
    ("How do I submit my homework for module 2?", True),
    ("Docker says permission denied when I start Elasticsearch", True),
    ("Can I take the course without a credit card for the API?", True),
    ("Are the lectures recorded if I miss the live stream?", True),
    ("Is there a Slack channel for course questions?", True),
    ("Where do I see my homework scores on the leaderboard?", True),
    ("How many tablespoons are in a cup?", False),
    ("Who wrote Pride and Prejudice?", False),
    ("What is the best beach in Portugal?", False),
    ("Which wine goes well with salmon?", False),
    ("How do I change a car tyre?", False),
    ("What is the tallest mountain in Africa?", False),
    ("Tell me a joke about giraffes", False),
    ("Which team won the 1998 Tour de France?", False),
    ("How many legs does a spider have?", False),
]


def allows(reply) -> bool:
    """The fail-closed reading of a guard's reply: True only for ALLOW (any case, spaces and a full stop
    around it); an empty, unsure or mixed reply, or no text at all, blocks.

    Example:
        >>> [allows(reply) for reply in ["ALLOW", " Allow.\\n", "", "I'm not sure.", "ALLOW or BLOCK?", None]]
        [True, True, False, False, False, False]
    """
    return isinstance(reply, str) and reply.strip().strip(".").upper() == "ALLOW"


def counts(labelled, allowed) -> dict:
    """The two counts for labelled questions, given which questions were let through.

    Example:
        >>> counts([("Is the course free?", True), ("Who painted it?", False)], {"Is the course free?"})
        {'on_topic_allowed': 1, 'off_topic_let_through': 0}
    """
    return {"on_topic_allowed": sum(q in allowed for q, on in labelled if on),
            "off_topic_let_through": sum(q in allowed for q, on in labelled if not on)}


class ReplyByQuestion:
    """A fake client whose Responses API replies with the text scripted for the question a request holds, in
    whatever order the questions come, and records each request.

    Example:
        >>> fake = ReplyByQuestion({"Is the course free?": "ALLOW"})
        >>> fake.responses.create(model="m", instructions="Screen.", input="Is the course free?").output_text
        'ALLOW'
    """

    def __init__(self, replies: dict[str, str]):
        self.replies, self.calls = replies, []
        self.responses = self

    def create(self, **kwargs):
        text = request_text(kwargs)
        # The longest question first, so one that contains another is still told apart.
        question = next((q for q in sorted(self.replies, key=len, reverse=True) if q in text), None)
        if question is None:
            raise CheckFailed("a guard call did not contain the question; send the question itself as the input.")
        response = scripted_response(text=self.replies[question], n=len(self.calls) + 1)
        self.calls.append((kwargs, response))
        return response


def _question_of(request: dict, labelled) -> str | None:
    text = request_text(request)
    return next((q for q, _ in sorted(labelled, key=lambda pair: -len(pair[0])) if q in text), None)


def _measured(measure_guard, client, model, guard, labelled, where: str) -> dict:
    """Run the student's function, check its calls and the shape of its result; return the result."""
    got = run_student_code(measure_guard, client, model, guard, list(labelled),
                           what="measure_guard(client, model, guard, labelled)")
    fail_if(not isinstance(got, dict) or set(got) != KEYS, "return a dict with exactly two keys: "
            "'on_topic_allowed' and 'off_topic_let_through'.")
    fail_if(not all(isinstance(v, int) and not isinstance(v, bool) for v in got.values()),
            "both counts must be whole numbers (int).")
    calls = client.calls
    fail_if(len(calls) != len(labelled), f"{where} it made {len(calls)} model calls for {len(labelled)} questions; "
            "make exactly one guard call per question.")
    fail_if(any(request.get("tools") for request, _ in calls), "the guard calls offer tools; a classifier needs "
            "none, and each tool schema costs input tokens.")
    asked = [_question_of(request, labelled) for request, _ in calls]
    fail_if(sorted(map(str, asked)) != sorted(q for q, _ in labelled), f"{where} the calls did not ask about each "
            "labelled question once; loop over `labelled` and send each question as the input.")
    return got


@task_check("05-instructions-and-guardrails", "E05", title="Measure a guard prompt")
def check_measure_guard(measure_guard, guard, client, model):
    """Check `measure_guard(client, model, guard, labelled) -> {"on_topic_allowed": n, "off_topic_let_through":
    m}` on a scripted model with awkward replies, then measure `guard` with it on held-back questions.

    Passes when the counts match the replies read failing closed, every question cost one call without tools,
    the prompt sent names the course, and the guard misses at most one held-back question per label.
    Example:
        >>> from helpers.offline import OFFLINE_MODEL, neutral_client
        >>> def stub(client, model, guard, labelled):
        ...     raise NotImplementedError
        >>> check_measure_guard(stub, "Reply ALLOW for questions about the course, else BLOCK.", neutral_client(),
        ...     OFFLINE_MODEL)
        [NOT DONE YET] Task E05 · Measure a guard prompt: replace `raise NotImplementedError` with your code.
    """
    fail_if(not isinstance(guard, str), "pass the guard prompt (a string, such as GUARD) as the second argument.")
    if not guard.strip():
        raise NotDoneYet("the guard prompt is empty; pass GUARD or a prompt of your own.")
    # 1. How the replies are read: a scripted model gives the awkward ones.
    fake = ReplyByQuestion({q: reply for q, _, reply in SCRIPTED})
    labelled = [(q, on) for q, on, _ in SCRIPTED]
    got = _measured(measure_guard, fake, "scripted", guard, labelled, "On a scripted model")
    want = counts(labelled, {q for q, _, reply in SCRIPTED if allows(reply)})
    on_ok = got["on_topic_allowed"] == want["on_topic_allowed"]
    off_ok = got["off_topic_let_through"] == want["off_topic_let_through"]
    swapped = {"on_topic_allowed": want["off_topic_let_through"], "off_topic_let_through": want["on_topic_allowed"]}
    fail_if(got == swapped, "the two counts are swapped: on_topic_allowed is about the questions labelled True, "
            "off_topic_let_through about those labelled False.")
    fail_if(on_ok and got["off_topic_let_through"] > want["off_topic_let_through"], "on a scripted model, an off-topic "
            "question was let through by a reply that is not a clear ALLOW (an empty reply, 'I'm not sure.', or one "
            "naming both words). Fail closed: only the reply that means allow opens the gate.")
    fail_if(off_ok and got["on_topic_allowed"] < want["on_topic_allowed"], "on a scripted model, an on-topic question "
            "was blocked although the reply meant ALLOW: it was written in another case or with spaces or a full "
            "stop around it. Read the reply the way the lesson's check_question does.")
    fail_if(not (on_ok and off_ok), f"on a scripted model the counts are {got}; they should count, per label, the "
            "questions whose reply let them through. Check which label each count is for, and how you read a reply.")
    # 2. The guard prompt itself, measured on questions the student has not seen, on the offline model: it follows
    # the prompt by general rules, the same on every machine. The student's own model is reported beside it.
    n_on = sum(on for _, on in HELD_BACK)
    n_off = len(HELD_BACK) - n_on

    def measured_on(client, model, where: str) -> tuple[dict, dict]:
        spy = SpyClient(client)
        got = _measured(measure_guard, spy, model, guard, HELD_BACK, where)
        fail_if(not all(COURSE_WORDS.search(prompt_without_question(request, str(_question_of(request, HELD_BACK))))
                        for request, _ in spy.calls),
                "the guard's prompt never says what is on-topic: name the course and what its FAQ covers, so the "
                "model knows what to let through.")
        replies = {_question_of(request, HELD_BACK): read_field(response, "output_text")
                   for request, response in spy.calls}
        return got, counts(HELD_BACK, {q for q, reply in replies.items() if allows(reply)})

    got, want = measured_on(judge_client(), OFFLINE_MODEL, "On the held-back questions")
    fail_if(got != want, f"on the held-back questions your counts are {got}, but the model's replies, read failing "
            f"closed, give {want}. Count what the replies say, per label.")
    fail_if(want["on_topic_allowed"] < n_on - MISSES_ALLOWED, f"your counts are right, but the guard blocked "
            f"{n_on - want['on_topic_allowed']} of {n_on} on-topic held-back questions: say in the prompt what the "
            "course covers (homework, projects, certificates, tools, setup).")
    fail_if(want["off_topic_let_through"] > MISSES_ALLOWED, f"your counts are right, but the guard let through "
            f"{want['off_topic_let_through']} of {n_off} off-topic held-back questions: say what the course covers, "
            "that anything else is BLOCK, and ask for one word.")

    def what_your_model_did(client, model) -> str:
        theirs, replies = measured_on(client, model, "On your model,")
        said = (f"the guard allowed {replies['on_topic_allowed']}/{n_on} on-topic and let through "
                f"{replies['off_topic_let_through']}/{n_off} off-topic held-back questions")
        if theirs != replies:
            return said + f", and your counts were {theirs}."
        if replies["on_topic_allowed"] < n_on - MISSES_ALLOWED or replies["off_topic_let_through"] > MISSES_ALLOWED:
            return said + ": more misses than allowed, from this model's judgement of the same prompt, not your code."
        return said + "."

    return (f"right counts on awkward replies; the guard allowed {want['on_topic_allowed']}/{n_on} on-topic and let "
            f"through {want['off_topic_let_through']}/{n_off} off-topic held-back questions."
            + on_your_model(client, model, what_your_model_did))
