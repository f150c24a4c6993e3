"""Homework task 8.2, "A two-agent handoff": `handoff_loop(client, model, question, triage) -> (answer, name)`.

The student writes a whole loop on the Responses API: run `triage` (a helpers.agents.Agent), run the tools the
model asks for, and when it calls a `transfer_to_<agent>` tool, hand the conversation to that agent (one of
`triage.handoffs`): answer the transfer call, swap in the agent's instructions and tool schemas, keep the history.
It returns the final answer and the name of the agent that gave it. The check runs it on the offline model through
a spy that records every request, with three questions: one for each specialist (a FAQ agent, a certificates
agent with a tool of its own) and one that no specialist fits, which the triage agent answers itself. A spy
that refuses more than MAX_CALLS model calls stops a loop that never ends.

Left out on purpose: Chat Completions, agents as tools (lesson 17 shows them; the handoff is the part a student
writes), and the wording of the transfer output.
"""

from __future__ import annotations

import json

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_student_code, task_check
from helpers.tools import Tools, preview

MAX_CALLS = 8  # model calls one question may take before the check calls it a loop
FAQ_ENTRY = {"id": "f7", "question": "Do I need to install anything before the course starts?",
             "answer": "Install Python 3.11 and Docker before the first module."}
CERTIFICATE = {"id": "cert", "title": "Certificate rules",
               "text": "You get a certificate when you pass the final project and review three peers."}
QUESTIONS = [("What do I need to install before the course starts?", "FAQ agent", FAQ_ENTRY["answer"]),
             ("How do I get a certificate?", "Certificates agent", CERTIFICATE["text"]),
             ("Hello there!", "Triage", None)]


class TooManyCalls(Exception):
    """The loop under check made more than MAX_CALLS model calls for one question."""


class _Guard:
    """A Responses API that records each request and refuses the call after MAX_CALLS."""

    def __init__(self, responses, requests: list):
        self._responses, self.requests = responses, requests

    def create(self, **kwargs):
        self.requests.append(kwargs)
        if len(self.requests) > MAX_CALLS:
            raise TooManyCalls(f"more than {MAX_CALLS} model calls")
        return self._responses.create(**kwargs)


class GuardedClient:
    """A client whose `responses.create` is recorded and capped (the rest passes through).

    Example:
        >>> from helpers.checks.doubles import offline_double
        >>> client = GuardedClient(offline_double())
        >>> _ = client.responses.create(model="offline-rules-v1", input="Hi")
        >>> len(client.requests)
        1
    """

    def __init__(self, client):
        self._client, self.requests = client, []
        self.responses = _Guard(client.responses, self.requests)

    def __getattr__(self, name):
        return getattr(self._client, name)


def two_desks():
    """The check's triage agent and its two specialists (helpers.agents.Agent records).

    Example:
        >>> [a.name for a in two_desks().handoffs]
        ['FAQ agent', 'Certificates agent']
    """
    from helpers.agents import Agent

    def search_faq(query: str) -> list:
        """Search the course FAQ for entries that match a query."""
        return [FAQ_ENTRY]

    def certificate_rules(query: str) -> list:
        """Search the rules for getting the course certificate."""
        return [CERTIFICATE]

    faq = Agent("FAQ agent", "Answer from the course FAQ. Search it first.", Tools(search_faq),
                "Answers questions about the course from its FAQ: installing, setup, joining.")
    certificates = Agent("Certificates agent", "Answer questions about certificates from the rules.",
                         Tools(certificate_rules), "Knows how to get a certificate: project and peer reviews.")
    return Agent("Triage", "Hand the conversation over to the agent that can answer it.",
                 handoffs=[faq, certificates])


def _names(request: dict) -> list[str]:
    return sorted(t.get("name", "") for t in request.get("tools") or [] if isinstance(t, dict))


@task_check("08-tools-and-agents", "8.2", title="A two-agent handoff")
def check_handoff_loop(handoff_loop):
    """Check `handoff_loop(client, model, question, triage) -> (answer, agent name)` on three questions.

    Example:
        >>> def handoff_loop(client, model, question, triage):
        ...     raise NotImplementedError
        >>> check_handoff_loop(handoff_loop)
        [NOT DONE YET] Task 8.2 · A two-agent handoff: replace `raise NotImplementedError` with your code.
    """
    from helpers.checks.doubles import offline_double
    from helpers.offline import OFFLINE_MODEL

    if handoff_loop is None:
        raise NotDoneYet("define handoff_loop in the cell above, then run this cell again.")
    for question, name, expected in QUESTIONS:
        triage = two_desks()
        client = GuardedClient(offline_double())
        try:
            got = run_student_code(handoff_loop, client, OFFLINE_MODEL, question, triage, what="handoff_loop")
        except CheckFailed as failed:
            if "TooManyCalls" in str(failed):
                raise CheckFailed(f"on {question!r} your loop made more than {MAX_CALLS} model calls: after the "
                                  "transfer the model kept being offered what made it transfer. What does each "
                                  "request after a handoff offer?") from None
            if "BadRequestError" in str(failed):
                raise CheckFailed(f"on {question!r} the API refused a request (400). {str(failed)[:160]} Read the "
                                  "message: which item of your history is it about?") from None
            raise
        fail_if(not (isinstance(got, tuple | list) and len(got) == 2), f"handoff_loop returned "
                f"{preview(repr(got), 60)}; return two things: the answer text and the name of the agent that gave it.")
        answer, who = got
        requests = client.requests
        first = requests[0]
        fail_if(first.get("instructions") != triage.instructions or _names(first) != sorted(triage.tool_names()),
                "the first request must come from the triage agent: its instructions and its transfer tools.")
        if name == "Triage":
            fail_if(who != "Triage", f"on {question!r}, which no specialist fits, the triage agent answered itself, "
                    f"but your loop says {who!r} did.")
            continue
        target = next(a for a in triage.handoffs if a.name == name)
        after = [r for r in requests if r.get("instructions") == target.instructions]
        later = requests[1:]
        fail_if(later and all(r.get("instructions") == triage.instructions for r in later),
                f"on {question!r} every request after the transfer still carries the triage agent's instructions. "
                "A handoff changes who is talking to the model.")
        fail_if(not after, f"on {question!r} no request carries the {name}'s instructions after the transfer.")
        fail_if(_names(after[0]) != sorted(target.tool_names()), f"after the transfer to the {name}, the model is "
                f"offered {_names(after[0])}, not that agent's own tools.")
        history = json.dumps(after[0].get("input"), default=str)
        fail_if(question not in history or target.transfer_name() not in history, f"the {name}'s first request "
                "doesn't carry the whole conversation: the user's question and the transfer call must stay in it.")
        fail_if(not isinstance(answer, str) or expected not in answer, f"on {question!r} your loop returned "
                f"{preview(str(answer), 80)!r}, not the {name}'s answer from its tool.")
        fail_if(who != name, f"on {question!r} the {name} answered, but your loop says {who!r} did. Return the "
                "agent that had the conversation at the end.")
    return "each question reached the right agent with the whole history, and the unmatched one stayed with triage."
