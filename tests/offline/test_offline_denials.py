"""The offline model's denial rule (helpers/offline/denials.py) on three made-up domains: a calendar, payments
and file deletion. A call whose output says it was not approved gets an answer naming the call and quoting the
reason; it is never answered as done, and the tool is not called again."""

import json

import pytest

from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.denials import denial_of
from helpers.offline.engine import decide


def tool(name, description, **params):
    return Tool(name, description, {"type": "object", "properties": {p: {"type": t} for p, t in params.items()},
                                    "required": list(params)})


CALENDAR = tool("create_event", "Put an event in the shared calendar.", title="string", day="string")
PAYMENTS = tool("send_payment", "Send money to a payee.", payee="string", amount="number")
FILES = tool("delete_file", "Delete a file from the disk.", path="string")

CASES = [  # (tool, question, arguments, the refusal the framework or person sent, reason expected or None)
    (CALENDAR, 'Book "Team lunch" on Friday', {"title": "Team lunch", "day": "Friday"},
     "Tool execution was not approved.", None),
    (PAYMENTS, "Pay Ana 40 euros", {"payee": "Ana", "amount": 40},
     "The tool call was denied.", None),
    (FILES, 'Delete the file "draft.md"', {"path": "draft.md"},
     "The call was not approved by the user, so it did not run. Reason: it holds the only copy", "it holds the only copy"),
    (CALENDAR, 'Book "Board review" on Monday', {"title": "Board review", "day": "Monday"},
     "Rejected: Monday clashes with the audit", "Monday clashes with the audit"),
    (PAYMENTS, "Pay Bo 900 euros", {"payee": "Bo", "amount": 900},
     json.dumps({"error": "denied by the account owner", "reason": "over the monthly limit"}), "over the monthly limit"),
    (FILES, 'Delete the file "old.log"', {"path": "old.log"},
     "Declined by the operator because backups run tonight", "backups run tonight"),
]


@pytest.mark.parametrize(("offered", "question", "arguments", "output", "reason"), CASES,
                         ids=[f"{c[0].name}-{i}" for i, c in enumerate(CASES)])
def test_a_refused_call_is_reported_not_done_with_its_reason(offered, question, arguments, output, reason):
    call = Call(offered.name, json.dumps(arguments), "call_1", 0, output)
    decision = decide(Conversation(question=question, tools=[offered], calls=[call]))
    assert decision.calls == [], "after a refusal the model must not call the tool again"
    text = decision.text or ""
    assert text.startswith(f"I did not run {offered.name}") and "not approved" in text
    first_value = next(iter(arguments.values()))
    assert str(first_value) in text, "the answer names the call's arguments, so the person knows which action"
    if reason:
        assert f'"{reason}"' in text
    else:
        assert "No reason was given" in text
    for claim in ("done", "added", "sent", "deleted", "booked", "successfully"):
        assert f" {claim}" not in text.replace("not run", ""), f"the answer must not pretend the call ran ({claim})"


@pytest.mark.parametrize("output", [
    '[{"order": 7, "status": "rejected"}]',  # a result that lists a rejected order
    '{"event": "Lunch", "status": "confirmed"}',
    "The committee rejected the first draft in 2019. " + "It was revised many times. " * 30,  # a long document
    "ConnectionRefusedError: [Errno 111] Connection refused",  # the tool failed: rule 0's business
    "PermissionError: [Errno 13] Permission denied: '/srv/data'",
    "Card declined: insufficient funds",  # the payment provider's answer, not a person's decision
])
def test_a_result_that_mentions_a_refusal_is_not_one(output):
    assert denial_of(output) == (False, None)


def test_the_rule_works_through_the_wire_with_the_approval_helper():
    """End to end on the offline client: a person rejects a payment; the answer says so."""
    from helpers.approval import ApprovalRun
    from helpers.offline import neutral_client
    from helpers.tools import Tools

    paid = []

    def send_payment(payee: str, amount: float) -> dict:
        """Send money to a payee."""
        paid.append((payee, amount))
        return {"sent": amount}

    run = ApprovalRun(neutral_client(), "offline-rules-v1", "Send a payment of 40 to Ana", Tools(send_payment),
                      needs_approval={"send_payment"}, verbose=False)
    assert run.advance() is None and len(run.pending) == 1
    run.reject(run.pending[0].call_id, "wrong account")
    result = run.advance()
    assert paid == [] and result is not None
    assert result.answer.startswith("I did not run send_payment") and '"wrong account"' in result.answer
