"""Lesson 17's chat widget with several agents, in a real JupyterLab under headless Chromium (`make test-ui`).

What a student does: run every cell, ask the last chat widget a deadline question, and see the answer said by the
agent the triage agent handed the conversation to, with the transfer as a tool card; then press Reset and ask a
question for the other specialist. The unit tests (tests/chat/test_chat_labels.py) cover the logic; this covers what
only a browser shows: the speaker's name on the answer. The machinery is tests/ui/lab.py's.
"""

import re

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

LESSON = next((ROOT / "notebooks").glob("17-*.ipynb"))
SHOTS = OUT / "lesson17"


@pytest.fixture(scope="module")
def lab(shared_lab):
    emptied(SHOTS)
    remove_screenshots("17-*.png")
    return shared_lab, copy_lesson(LESSON)


def test_lesson_17_widget_names_the_agent_that_answers(lab, browser):
    port, path = lab
    page, console = open_notebook(browser, port, path)
    run_all_cells(page, "17-run-all-timed-out.png")
    log, widget = the_only_chat(page)

    ask(widget, "When is the homework 3 deadline?")
    expect(log.locator(".widget-html", has_text="Schedule agent:")).to_have_count(1)
    # Each bubble names its speaker in bold: never lesson 10's anonymous "Agent" (has_text alone ignores case).
    expect(log.locator(".widget-html b", has_text=re.compile(r"^Agent:$"))).to_have_count(0)
    cards = log.locator(".widget-accordion")
    expect(cards.first).to_contain_text("transfer_to_schedule_agent")
    widget.screenshot(path=SHOTS / "1-schedule-agent.png")

    widget.get_by_role("button", name="Reset").click()
    expect(cards).to_have_count(0)
    ask(widget, "I just found out about the course. Can I still join?")
    expect(log.locator(".widget-html", has_text="FAQ agent:")).to_have_count(1)
    expect(cards.first).to_contain_text("transfer_to_faq_agent")
    widget.screenshot(path=SHOTS / "2-faq-agent.png")
    page.close()
    assert console.errors == []
