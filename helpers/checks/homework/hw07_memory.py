"""Homework 7.3 · A memory policy within a budget: the check of the student's `fit_budget(items, budget)`.

The student writes a memory policy: given the conversation so far (a Responses input list) and a budget in
tokens, return a list that the API accepts, whose tokens (counted as the offline model bills them,
helpers.cost.request_tokens) are within the budget, and from which a follow-up question about something the
user said at the start can still be answered. The check plays a conversation of its own on the offline model
(a member of a seed library who says who they are, then asks about seeds, each answer searched in long
notes), with the policy applied before every question, through helpers.memory.run_conversation; then it asks
the follow-up. Any policy passes that meets the three criteria: trimming, dropping old tool outputs,
summarising with a model call, or a mix.

Left out on purpose: the dollars (lesson 15's table has them) and the prompt cache (a policy that trims on
every turn pays for it there, not here); the tokens of the question being asked and of this turn's tool calls,
which no policy can trim.
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_student_code, task_check

BUDGET = 900  # tokens of the history handed to each new question
FACT = "shelf B7"
OPENING = "Hello, I'm Ines. I volunteer at the seed library on Thursdays and my locker is shelf B7."
QUESTIONS = ["Which tomato seeds do you have?", "How should I store bean seeds?", "Do you lend squash seeds?",
             "How long do pepper seeds keep?", "Can I return seeds from my own garden?",
             "Which lettuce seeds grow in shade?"]
FOLLOW_UP = "Which shelf did I say my locker is on again?"
NOTES_TOOL = {"type": "function", "name": "search_notes", "description": "Search the seed library's notes.",
              "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def notes(query: str) -> list[dict]:
    """The seed library's notes for a query: three long records, the same for the same words.

    Example:
        >>> [n["title"] for n in notes("bean seeds")]
        ['Bean seeds', 'Bean seeds: storing', 'Bean seeds: lending']
    """
    topic = " ".join(w for w in query.split() if len(w) > 3).strip("?") or "seeds"
    topic = topic[0].upper() + topic[1:]
    filler = (f"Members borrow {topic.lower()} in spring and return seeds saved from their harvest in autumn. "
              "Label each packet with the variety, the year and where it grew. Keep packets dry, cool and dark; "
              "a sealed jar with a spoon of dried rice keeps the damp out. Germination falls each year, so test "
              "ten seeds on damp paper before a big sowing. ")
    return [{"title": t, "text": filler * 2} for t in (topic, f"{topic}: storing", f"{topic}: lending")]


def _tokens(items: list) -> int:
    from helpers.billing.tokens import request_tokens  # the offline model's own count

    return request_tokens({"input": items})


@task_check("07-the-loop-under-control", "7.3", title="A memory policy within a budget")
def check_fit_budget(fit_budget):
    """Check `fit_budget(items, budget)`: every history it returns fits the budget, the API accepts it, and the
    follow-up about the user's first message is still answered right.

    Example:
        >>> def fit_budget(items, budget):
        ...     raise NotImplementedError
        >>> check_fit_budget(fit_budget)
        [NOT DONE YET] Task 7.3 · A memory policy within a budget: replace `raise NotImplementedError` with your code.
    """
    from helpers.memory import run_conversation
    from helpers.offline import neutral_client

    if fit_budget is None:
        raise NotDoneYet("define fit_budget in the cell above, then run this cell again.")
    sizes: list[int] = []

    def policy(items):
        kept = run_student_code(fit_budget, list(items), BUDGET, what="fit_budget")
        if not isinstance(kept, list):
            raise CheckFailed(f"fit_budget returned a {type(kept).__name__}; return the list of items to send.")
        sizes.append(_tokens(kept) if kept else 0)
        return kept

    client = neutral_client()
    run = run_conversation(client, "offline-rules-v1", [OPENING, *QUESTIONS, FOLLOW_UP], {"search_notes": notes},
                           schemas=[NOTES_TOOL], policy=policy)
    fail_if(run.error is not None, f"the API refused a history fit_budget returned ({run.error}). A tool call and "
            "its output must stay together, and what you keep must still be a valid conversation.")
    over = [(i + 1, size) for i, size in enumerate(sizes) if size > BUDGET]
    fail_if(bool(over), f"over the budget of {BUDGET} tokens before question {over[0][0] if over else 0} "
            f"({over[0][1] if over else 0} tokens). Count with helpers.cost.request_tokens and shorten until it "
            "fits.")
    answer = run.answers[-1] if len(run.answers) == len(QUESTIONS) + 2 else ""
    fail_if(FACT.lower() not in answer.lower(), f"every history fits, but the follow-up ({FOLLOW_UP!r}) was not "
            "answered from the conversation: what the user said in the first turn was lost. Keep it, or keep a "
            "summary of it, while the tool outputs go.")
    return f"largest history {max(sizes)} tokens of {BUDGET}; the follow-up answered right"
