"""Homework task 8.2, "Hand over and hand back": `handoff_loop(client, model, question, triage) -> (answer, name)`.

Lesson 17's handoff, in the two situations its lesson leaves out. The student writes a whole loop on the
Responses API for `triage` (a helpers.agents.Agent): run the tools the model asks for, and on a
`transfer_to_<agent>` call hand the conversation to that agent (one of the current agent's `handoffs`), keeping the
history. Two situations a loop that handles one transfer at a time gets wrong:
- a transfer and a tool call in one response: every call of a response gets an output (the API refuses a
  history with a call left unanswered), each run with the tools of the agent that made it, and only then does the
  next agent take over;
- handing back: the specialist's own `handoffs` hold the triage agent, and a transfer back makes triage carry on
  with its own instructions and tools and the whole history.
It returns the final answer and the name of the agent that gave it.

The check plays the model with a scripted double that knows which agent is talking from each request's
instructions and makes exactly these calls, so it judges the loop, not a model's choices (a real model may or may
not combine a transfer with a tool call). At each request it checks the instructions, the tools offered, that every
earlier call has its output, and that each tool's output is the one its agent's tool returns.

Left out on purpose: Chat Completions, two transfers in one response (which agent wins is a design choice), the
wording of the transfer output, and helpers.agents.run_agents, which does all this and is not the student's loop.
"""

from __future__ import annotations

import json

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import plain_data, request_items, scripted_response
from helpers.tools import Tools, preview

FAQ_ENTRY = {"id": "f7", "question": "I joined late. Can I still take part?",
             "answer": "Yes: the videos stay online, and late joiners can still submit the project."}
CERTIFICATE = {"id": "cert", "title": "Certificate rules",
               "text": "You get a certificate when you pass the final project and review three peers."}
INSTALL = {"id": "f9", "question": "What do I install before the course?",
           "answer": "Install Python 3.11 and Docker before the first module."}


def desks():
    """The check's agents: a triage agent with a FAQ search, and a certificates agent that can hand back to it.

    Example:
        >>> triage = desks()
        >>> triage.tool_names(), triage.handoffs[0].tool_names()
        (['search_faq', 'transfer_to_certificates_agent'], ['certificate_rules', 'transfer_to_triage'])
    """
    from helpers.agents import Agent

    def search_faq(query: str) -> list:
        """Search the course FAQ for entries that match a query."""
        return [INSTALL] if "install" in query.lower() else [FAQ_ENTRY]

    def certificate_rules(query: str) -> list:
        """Search the rules for getting the course certificate."""
        return [CERTIFICATE]

    certificates = Agent("Certificates agent", "Answer questions about certificates from the rules. Hand anything "
                         "else back to triage.", Tools(certificate_rules),
                         "Knows how to get a certificate: project and peer reviews.")
    triage = Agent("Triage", "Answer from the FAQ, or hand the conversation to the agent that knows.",
                   Tools(search_faq), "Routes questions, and answers general ones from the FAQ.",
                   handoffs=[certificates])
    certificates.handoffs.append(triage)  # the way back
    return triage


# Each scenario: (question, the agent that answers last, the steps). A step: (the agent that should be talking,
# the calls it makes, or None for its final answer). Agents are named; the check maps names to its agents.
SCENARIOS = [
    ("I joined late: can I still get a certificate?", "Certificates agent", [
        ("Triage", [("transfer_to_certificates_agent", {}), ("search_faq", {"query": "joined late"})]),
        ("Certificates agent", [("certificate_rules", {"query": "late joiners"})]),
        ("Certificates agent", None),
    ]),
    ("How do I get the certificate, and what do I install first?", "Triage", [
        ("Triage", [("transfer_to_certificates_agent", {})]),
        ("Certificates agent", [("certificate_rules", {"query": "certificate"})]),
        ("Certificates agent", [("transfer_to_triage", {})]),
        ("Triage", [("search_faq", {"query": "install"})]),
        ("Triage", None),
    ]),
]
# What each tool call's output must contain, so a call run with the wrong agent's tools shows.
EXPECTED_OUTPUT = {("search_faq", "joined late"): FAQ_ENTRY["answer"], ("search_faq", "install"): INSTALL["answer"],
                   ("certificate_rules", "late joiners"): CERTIFICATE["text"],
                   ("certificate_rules", "certificate"): CERTIFICATE["text"]}


def final_text(agent_name: str, step: int) -> str:
    """The scripted model's final answer for an agent.

    Example:
        >>> final_text("Triage", 5)
        'Triage answers (step 5).'
    """
    return f"{agent_name} answers (step {step})."


class HandoffModel:
    """A scripted Responses API model that plays a scenario's steps and checks each request against it.

    Example:
        >>> triage = desks()
        >>> model = HandoffModel(SCENARIOS[0], triage)
        >>> first = model.responses.create(model="m", instructions=triage.instructions, input=SCENARIOS[0][0],
        ...                                tools=triage.schemas())
        >>> [item.name for item in first.output]
        ['transfer_to_certificates_agent', 'search_faq']
    """

    def __init__(self, scenario, triage):
        self.question, self.last, self.steps = scenario
        self.agents = {triage.name: triage, **{a.name: a for a in triage.handoffs}}
        self.step = 0
        self.responses = self

    def with_options(self, **options):
        return self

    def create(self, **request):
        if self.step >= len(self.steps):
            raise CheckFailed(f"on {self.question!r} your loop called the model again after the "
                              f"{self.steps[-1][0]} had answered in plain text; stop at a response with no calls.")
        who, calls = self.steps[self.step]
        self.step += 1
        agent = self.agents[who]
        self._check_request(request, agent)
        if calls is None:
            return scripted_response(text=final_text(who, self.step), n=self.step)
        return scripted_response(*calls, n=self.step)

    def _check_request(self, request: dict, agent) -> None:
        where = f"on {self.question!r}, request {self.step}"
        if self.step > 1:
            before, _ = self.steps[self.step - 2]
            now = agent.name
            moved = "after the transfer" if before != now else "here"
            fail_if(request.get("instructions") != agent.instructions, f"{where}: the {now} should be talking "
                    f"{moved}, but the request carries other instructions. Who has the conversation now?")
        else:
            fail_if(request.get("instructions") != agent.instructions, f"{where}: the first request must carry the "
                                                                       "triage agent's instructions.")
        offered = sorted(str(read_field(t, "name")) for t in request.get("tools") or [])
        fail_if(offered != sorted(agent.tool_names()), f"{where}: the model is offered {offered}, not the "
                f"{agent.name}'s own tools and transfers.")
        items = [plain_data(item) for item in request_items(request)]
        fail_if(self.question not in json.dumps(items, ensure_ascii=False), f"{where}: the user's question is no "
                                                                           "longer in the history.")
        outputs = {item.get("call_id"): str(item.get("output")) for item in items if isinstance(item, dict)
                   and item.get("type") == "function_call_output"}
        calls = [item for item in items if isinstance(item, dict) and item.get("type") == "function_call"]
        for step in range(1, self.step):
            made = self.steps[step - 1][1] or []
            for index, (name, arguments) in enumerate(made):
                call_id = f"call_{step}_{index}"
                fail_if(not any(c.get("call_id") == call_id for c in calls), f"{where}: the call to {name} "
                        f"from request {step} is missing from the history; keep every item of each response.")
                fail_if(call_id not in outputs, f"{where}: the call to {name} from request {step} has no "
                        "function_call_output. The API refuses that (400): every call of a response gets an "
                        "output, the transfer and the others beside it.")
                wanted = EXPECTED_OUTPUT.get((name, arguments.get("query", "")))
                fail_if(wanted is not None and wanted not in outputs[call_id], f"{where}: the output of {name} "
                        f"from request {step} is {preview(outputs[call_id], 90)!r}, not what that tool returns. "
                        "Which agent's tools should run a call?")


@task_check("08-tools-and-agents", "8.2", title="Hand over and hand back")
def check_handoff_loop(handoff_loop):
    """Check `handoff_loop(client, model, question, triage) -> (answer, agent name)` on two scripted scenarios.

    Example:
        >>> def handoff_loop(client, model, question, triage):
        ...     raise NotImplementedError
        >>> check_handoff_loop(handoff_loop)
        [NOT DONE YET] Task 8.2 · Hand over and hand back: replace `raise NotImplementedError` with your code.
    """
    if handoff_loop is None:
        raise NotDoneYet("define handoff_loop in the cell above, then run this cell again.")
    for scenario in SCENARIOS:
        question, last, steps = scenario
        triage = desks()
        model = HandoffModel(scenario, triage)
        got = run_student_code(handoff_loop, model, "scripted", question, triage, what="handoff_loop")
        fail_if(not (isinstance(got, tuple | list) and len(got) == 2), f"handoff_loop returned "
                f"{preview(repr(got), 60)}; return two things: the answer text and the name of the agent that gave it.")
        fail_if(model.step < len(steps), f"on {question!r} your loop stopped after {model.step} model calls, before "
                                         "any agent had answered in plain text.")
        answer, who = got
        fail_if(answer != final_text(last, len(steps)), f"on {question!r} your loop returned "
                f"{preview(str(answer), 80)!r}, not the last agent's final answer.")
        fail_if(who != last, f"on {question!r} the {last} answered last, but your loop says {who!r} did. Return the "
                             "agent that had the conversation at the end.")
    return "a transfer beside a tool call and a hand back both kept every call answered and the right agent talking."
