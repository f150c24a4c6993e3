"""A newcomer's first hour in JupyterLab under headless Chromium (`make test-ui`; issue 27, item 6).

What a student without a key sees first: lesson 00 with its first answer, and lesson 13's chat widget after
Approve, with nothing covering the bottom right of the screen. JupyterLab asks "Would you like to get notified
about official Jupyter news?" in a toast that stays until clicked, unless its `fetchNews` setting says
otherwise; the course's settings override (helpers/maint/lab_settings.py, written by `make install`) says
"false". A control run with the user's own setting back at "none" shows that the toast does appear then, so the
test would see it. Screenshots go to data/ui/first-hour/.
"""

import json

import pytest
from lab import OUT, ROOT, ask, copy_lesson, emptied, open_notebook, run_all_cells, running_lab, the_only_chat
from playwright.sync_api import expect  # requirements-ui.txt; `make test-ui` installs it

NEWS = "Would you like to get notified about official Jupyter news?"
SHOTS = OUT / "first-hour"
LESSON_00 = next((ROOT / "notebooks").glob("00-*.ipynb"))
LESSON_13 = next((ROOT / "notebooks").glob("13-*.ipynb"))
# running_lab removes old screenshots matching a pattern; this one matches none, so a later test in this module
# keeps the earlier tests' screenshots (the fixture `shots` empties the folder once).
KEEP_SHOTS = "no-such-screenshot"
SETTLE_MS = 5_000  # after the lab has restored: the control shows the toast well within this


def settled(page) -> None:
    """Wait until JupyterLab has restored its layout (the announcements plugin asks only then), and a little."""
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.restored")
    page.evaluate("() => window.jupyterapp.restored.then(() => true)")
    page.wait_for_timeout(SETTLE_MS)


@pytest.fixture(scope="module", autouse=True)
def shots():
    emptied(SHOTS)


def test_the_news_toast_appears_when_the_setting_asks_control(tmp_path, browser):
    """The control: the user's own setting (which wins over the course's override) back at "none"."""
    user = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    user.mkdir(parents=True)
    (user / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "none"}))
    with running_lab(LESSON_00, tmp_path, screenshots=KEEP_SHOTS) as (port, path):
        page, _ = open_notebook(browser, port, path)
        expect(page.get_by_text(NEWS)).to_be_visible()
        page.screenshot(path=SHOTS / "0-control-news-toast.png")
        page.close()


def test_lesson_00_first_answer_without_the_news_toast(shared_lab, browser):
    # The shared JupyterLab has fresh settings, as a student's first `make lab` has.
    port, path = shared_lab, copy_lesson(LESSON_00, prefix="first-hour-")
    page, console = open_notebook(browser, port, path)
    settled(page)
    expect(page.get_by_text(NEWS)).to_have_count(0)
    run_all_cells(page, "first-hour-00-timed-out.png")
    first = page.locator(".jp-OutputArea-output", has_text="nothing I was given answers").first
    first.scroll_into_view_if_needed()
    expect(first).to_contain_text('answers "In one sentence, what is an AI agent?".')
    expect(page.get_by_text("one sentence ai agent")).to_have_count(0)  # no bag of keywords quoted back
    expect(page.get_by_text(NEWS)).to_have_count(0)
    page.screenshot(path=SHOTS / "1-lesson00-first-answer.png")
    page.close()
    assert console.errors == []


def test_lesson_13_approve_reads_as_a_sentence_without_the_news_toast(shared_lab, browser):
    port, path = shared_lab, copy_lesson(LESSON_13, prefix="first-hour-")
    page, console = open_notebook(browser, port, path)
    settled(page)
    expect(page.get_by_text(NEWS)).to_have_count(0)
    run_all_cells(page, "first-hour-13-timed-out.png")
    log, widget = the_only_chat(page)
    ask(widget, 'Add an FAQ entry: question "Can I bring my own laptop?", answer "Yes, any laptop works."')
    approve = widget.locator(".course-chat-approvals").get_by_role("button", name="Approve")
    expect(approve).to_have_count(1)
    page.screenshot(path=SHOTS / "2-lesson13-pending.png")  # the status line at the bottom right, uncovered
    approve.click()
    answer = log.locator(".widget-html", has_text="Agent:").last
    expect(answer).to_contain_text("was added")
    expect(answer).not_to_contain_text("the added is")
    expect(page.get_by_text(NEWS)).to_have_count(0)
    page.screenshot(path=SHOTS / "3-lesson13-approved.png")
    page.close()
    assert console.errors == []
