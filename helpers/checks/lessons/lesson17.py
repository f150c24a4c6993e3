"""Lesson 17's exercise: `hand_over(messages, call_id, current, target)`, the handoff in your own loop.

The model has just called a `transfer_to_<agent>` tool; its call is the last item of `messages`. The student
returns `(messages, instructions, tools)` for the next request: the whole history kept, the transfer call
answered with an output, and the instructions and tool schemas of `target` (a helpers.agents.Agent) instead
of those of `current`. The check runs a small loop of its own on the offline model, calling `hand_over` when
the model transfers, for two questions that go to two different specialists (a FAQ agent with a search, a
schedule agent with its own tool), and checks each request after the handoff and the answer the run ends with.

Left out on purpose: Chat Completions (the same swap, with the system message replaced), agents handing back
to the triage agent, and the text of the transfer output (any text will do: the model only needs an output).
"""

from __future__ import annotations

import json

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_student_code, task_check
from helpers.tools import Tools, preview, run_tool

MAX_CALLS = 6  # model calls the check's loop makes before it calls it a loop
# Fixed documents, so the check needs no index and its answers never change.
FAQ_ENTRY = {"id": "c1", "question": "Can I still join the course after the start date?",
             "answer": "Yes, you can join at any time; only the deadlines for the homework stay fixed."}
SCHEDULE_ROW = {"id": "hw3", "title": "Homework 3 deadline", "text": "Homework 3 is due on 7 July at 23:59 CET."}
QUESTIONS = {"FAQ agent": ("I just found out about the course. Can I still join?", FAQ_ENTRY["answer"]),
             "Schedule agent": ("When is the homework 3 deadline?", SCHEDULE_ROW["text"])}


def course_agents():
    """The check's triage agent and its two specialists (helpers.agents.Agent records).

    Example:
        >>> triage = course_agents()
        >>> triage.tool_names()
        ['transfer_to_faq_agent', 'transfer_to_schedule_agent']
    """
    from helpers.agents import Agent

    def search_faq(query: str) -> list:
        """Search the course FAQ for entries that match a query."""
        return [FAQ_ENTRY]

    def search_schedule(query: str) -> list:
        """Search the course schedule: modules, homework and their deadlines."""
        return [SCHEDULE_ROW]

    faq = Agent("FAQ agent", "Answer questions about the course from its FAQ. Search before answering.",
                Tools(search_faq), "Answers questions about the course from its FAQ: joining, setup, certificates.")
    schedule = Agent("Schedule agent", "Answer questions about dates with the schedule search.",
                     Tools(search_schedule), "Knows the schedule: modules, homework and project deadlines.")
    return Agent("Triage", "Hand the conversation over to the agent that can answer it. Do not answer yourself.",
                 handoffs=[faq, schedule])


def run_with(hand_over, client, model: str, question: str, triage):
    """The check's loop: Responses API calls, tools run, `hand_over` called on a transfer. Returns (answer,
    last agent, the requests after the handoff, the value `hand_over` returned); answer None after MAX_CALLS.

    Example:
        >>> from helpers.agents import hand_over
        >>> from helpers.checks.doubles import offline_double
        >>> answer, agent, after, _ = run_with(hand_over, offline_double(), "offline-rules-v1",
        ...                                    QUESTIONS["FAQ agent"][0], course_agents())
        >>> agent.name, len(after)
        ('FAQ agent', 2)
    """
    agent, messages = triage, [{"role": "user", "content": question}]
    instructions, schemas, after, returned = triage.instructions, triage.schemas(), [], None
    for _ in range(MAX_CALLS):
        request = {"model": model, "instructions": instructions, "input": list(messages)}
        if schemas:
            request["tools"] = schemas
        if returned is not None:
            after.append(request)
        response = client.responses.create(**request)
        messages.extend(item.model_dump(exclude_none=True) for item in response.output)
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text, agent, after, returned
        for call in calls:
            target = next((a for a in agent.handoffs if a.transfer_name() == call.name), None)
            if target is None:
                messages.append({"type": "function_call_output", "call_id": call.call_id,
                                 "output": run_tool(call.name, call.arguments, agent.tools)})
                continue
            returned = run_student_code(hand_over, list(messages), call.call_id, agent, target, what="hand_over")
            fail_if(not (isinstance(returned, tuple | list) and len(returned) == 3),
                    f"hand_over returned {preview(repr(returned), 60)}; return three things: the messages, the "
                    "instructions and the tool schemas for the next request.")
            messages, instructions, schemas = list(returned[0]), returned[1], returned[2]
            agent = target
    return None, agent, after, returned


def _names(schemas) -> list[str]:
    return [str(s.get("name") or (s.get("function") or {}).get("name") or "") for s in schemas or []
            if isinstance(s, dict)]


@task_check("17-several-agents", "E17", title="Hand the conversation over")
def check_hand_over(hand_over):
    """Check `hand_over(messages, call_id, current, target)` in a loop on the offline model, for two specialists.

    Example:
        >>> def hand_over(messages, call_id, current, target):
        ...     raise NotImplementedError
        >>> check_hand_over(hand_over)
        [NOT DONE YET] Task E17 · Hand the conversation over: replace `raise NotImplementedError` with your code.
    """
    import openai

    from helpers.checks.doubles import offline_double
    from helpers.offline import OFFLINE_MODEL

    if hand_over is None:
        raise NotDoneYet("define hand_over in the cell above, then run this cell again.")
    for name, (question, expected) in QUESTIONS.items():
        triage = course_agents()
        target = next(a for a in triage.handoffs if a.name == name)
        try:
            answer, agent, after, returned = run_with(hand_over, offline_double(), OFFLINE_MODEL, question, triage)
        except openai.BadRequestError as error:
            message = (error.body or {}).get("message", str(error)) if isinstance(error.body, dict) else str(error)
            if "tools" in message:  # the third thing returned goes out as the request's tools
                raise CheckFailed(f"the API refused the tools of the first request after your handoff (400: "
                                  f"{preview(message, 120)}). The third thing you return is sent as `tools`: "
                                  "what does the API expect each tool to be?") from None
            raise CheckFailed(f"the API refused the first request after your handoff (400: {preview(message, 120)}). "
                              "Read that message: which item of the history is it about, and what does the API "
                              "expect to follow it?") from None
        fail_if(returned is None, f"the triage agent never handed {question!r} over, so hand_over was not called. "
                "Run the cell that defines the agents again.")
        messages, instructions, schemas = returned
        texts = json.dumps([m if isinstance(m, dict) else str(m) for m in messages], default=str)
        fail_if(question not in texts, "after your handoff the user's question is gone from the messages: the "
                "specialist starts with no idea what was asked. Keep the history the loop gave you.")
        fail_if(target.transfer_name() not in texts, "after your handoff the model's transfer call is gone from the "
                "messages. Keep every item the loop gave you, and add to it.")
        fail_if(instructions == triage.instructions, f"after the handoff the {target.name} still runs with the "
                "triage agent's instructions. Which agent's instructions should the next request carry?")
        fail_if(instructions != target.instructions, f"after the handoff the instructions are "
                f"{preview(str(instructions), 60)!r}, not the {target.name}'s own.")
        offered = _names(schemas)
        fail_if(answer is None and any(n.startswith("transfer_to_") for n in offered), "after the handoff the model "
                "is still offered the triage agent's transfer tools, so it transfers again and again until the "
                "loop's cap. Which agent's tools should the next request carry?")
        fail_if(sorted(offered) != sorted(target.tool_names()), f"after the handoff the model is offered "
                f"{offered}, not the {target.name}'s own tools. Look at what the target agent offers.")
        fail_if(answer is None, f"the run on {question!r} did not end within {MAX_CALLS} model calls.")
        fail_if(agent is not target or expected not in answer, f"on {question!r} the run ended with "
                f"{preview(answer, 80)!r}, not the {target.name}'s answer from its tool.")
        fail_if(not after, "the loop made no request after your handoff.")
    return "the history kept, the transfer answered, and the specialist's instructions and tools swapped in."
