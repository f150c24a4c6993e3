"""Lesson 13's chat widget with Approve / Reject buttons, in a real JupyterLab under headless Chromium (`make test-ui`).

What a student does: run every cell, ask the last chat widget to add an FAQ entry, see the call wait with
Approve and Reject buttons (and nothing written), type a reason and press Reject, read the answer that says
what was not done and why; then ask again and press Approve. The unit tests (tests/chat/test_chat_approval.py)
cover the logic; this covers what only a browser shows: that the bar appears and its clicks reach the kernel.
The machinery (JupyterLab as `make lab` starts it, the system's Chromium) is tests/ui/lab.py's.
"""

import pytest
from lab import (
    OUT,
    ROOT,
    ask,
    copy_lesson,
    emptied,
    open_notebook,
    remove_screenshots,
    run_all_cells,
    the_only_chat,
)
from playwright.sync_api import expect  # requirements-ui.txt; `make test-ui` installs it

LESSON = next((ROOT / "notebooks").glob("13-*.ipynb"))
SHOTS = OUT / "lesson13"
REQUEST = 'Add an FAQ entry: question "Can I use a Raspberry Pi?", answer "Yes, for the first modules."'
REASON = "Nobody has tried it on a Raspberry Pi yet"


@pytest.fixture(scope="module")
def lab(shared_lab):
    emptied(SHOTS)
    remove_screenshots("13-*.png")
    return shared_lab, copy_lesson(LESSON)


def test_lesson_13_approve_and_reject_in_jupyterlab(lab, browser):
    port, path = lab
    page, console = open_notebook(browser, port, path)
    run_all_cells(page, "13-run-all-timed-out.png")
    log, widget = the_only_chat(page)
    bar = widget.locator(".course-chat-approvals")
    agents = log.locator(".widget-html", has_text="Agent:")

    # Reject, with a reason: the call waits, then the answer says it was not done and why.
    ask(widget, REQUEST)
    approve, reject = bar.get_by_role("button", name="Approve"), bar.get_by_role("button", name="Reject")
    expect(approve).to_have_count(1)
    expect(bar).to_contain_text("add_faq_entry")
    expect(widget).to_contain_text("Waiting for your decision")
    expect(agents).to_have_count(0)  # no answer, and no tool card: nothing ran
    expect(log.locator(".widget-accordion")).to_have_count(0)
    widget.screenshot(path=SHOTS / "1-pending.png")
    bar.get_by_placeholder("Reason for rejecting").fill(REASON)
    reject.click()
    expect(agents).to_have_count(1)
    expect(approve).to_have_count(0)  # the bar is empty again
    if "offline" in (widget.inner_text()):  # the offline model's wording; a real model words it its own way
        expect(agents.last).to_contain_text("not approved")
    expect(log.locator(".widget-accordion")).to_have_count(1)  # the rejected call's card, with its output
    widget.screenshot(path=SHOTS / "2-rejected.png")

    # Approve: the tool runs and the agent answers.
    ask(widget, 'Add an FAQ entry: question "Is the course free?", answer "Yes, all of it."')
    expect(approve).to_have_count(1)
    approve.click()
    expect(agents).to_have_count(2)
    expect(log.locator(".widget-accordion")).to_have_count(2)
    expect(log.locator(".widget-accordion").last).to_contain_text("add_faq_entry")
    widget.screenshot(path=SHOTS / "3-approved.png")
    log.locator(".widget-accordion").first.get_by_text("add_faq_entry(").first.click()  # open the card
    widget.screenshot(path=SHOTS / "4-rejected-card-open.png")
    expect(widget).to_contain_text(REASON)  # the reason is the rejected call's output, shown in its card
    page.close()
    assert console.errors == []
