"""Lesson 10's chat widget in a real JupyterLab, in headless Chromium (`make test-ui`; not part of `make test`).

What a student does, checked where only a browser can check it: run every cell, type a question in the chat
box and press Enter, read the answer without scrolling, ask a follow-up, step through a question, then save,
close and reopen the notebook. The unit tests (tests/chat/test_chat_ui.py) cover the logic without a browser;
this covers what they can't see: that the log scrolls to the newest entry, that Enter sends, that the
browser logs no errors, and that a reopened notebook shows the widgets instead of "model not found".

JupyterLab and Chromium are started as tests/ui/lab.py says (shared with lesson 13's test): `make lab`'s
command on a copy of the lesson in data/ui/ (git-ignored), the system's Chromium; screenshots go to data/ui/.
"""

import shutil
import time

import pytest
from lab import (
    OUT,
    ROOT,
    TIMEOUT_MS,
    TOKEN,
    Console,
    api,
    ask,
    copy_lesson,
    open_notebook,
    remove_screenshots,
    run_all_cells,
)
from playwright.sync_api import expect  # requirements-ui.txt; `make test-ui` installs it

LESSON = next((ROOT / "notebooks").glob("10-*.ipynb"))


@pytest.fixture(scope="module")
def lab(shared_lab):
    """The shared JupyterLab and a copy of lesson 10 in it: (port, the copy's path relative to the root)."""
    remove_screenshots("*.png")
    return shared_lab, copy_lesson(LESSON)


def chat_widget(page):
    """The last chat widget of the notebook ("Your turn"): its log box and the box around it."""
    log = page.locator(".course-chat-log").last
    return log, log.locator("xpath=..")


def newest_is_in_view(page, log, bubble, settle_s: float = 10.0) -> None:
    """The newest entry's end is inside the log's visible box, and on screen, once the layout has settled.

    The entry and the streamed part under it are cleared and redrawn by separate widget messages, so one
    frame between them can show the box before it has grown; what the student reads is the settled layout.
    The check polls for up to `settle_s` seconds, and fails with the last geometry it saw.
    """
    expect(bubble).to_be_in_viewport()
    deadline = time.monotonic() + settle_s
    while True:
        box, end = log.bounding_box(), bubble.bounding_box()
        if box["y"] - 1 <= end["y"] + end["height"] <= box["y"] + box["height"] + 1:
            return
        if time.monotonic() > deadline:
            page.screenshot(path=OUT / "not-in-view.png")
            raise AssertionError(f"the newest entry ends outside the log's box: box {box}, entry {end}")
        time.sleep(0.2)


def test_lesson_10_chat_in_jupyterlab(lab, browser):
    port, path = lab
    page, console = open_notebook(browser, port, path)
    run_all_cells(page)
    log, widget = chat_widget(page)
    expect(page.locator(".course-chat-log")).to_have_count(3)  # the demo, the stepper and "Your turn"
    widget.scroll_into_view_if_needed()
    agents = log.locator(".widget-html", has_text="Agent:")

    # Record what the log looks like at every change while the first question runs: the browser must see
    # the tool cards and a half-streamed answer before the answer is complete (the kernel is busy all along).
    log.evaluate("""el => {
        window.courseChatFrames = [];
        new MutationObserver(() => {
            const texts = [...el.querySelectorAll('.widget-html')].map(h => h.textContent.trim());
            window.courseChatFrames.push({
                cards: el.querySelectorAll('.widget-accordion').length,
                streaming: texts.some(t => t.startsWith('Agent:') && t.endsWith('…')),
                answers: texts.filter(t => t.startsWith('Agent:') && !t.endsWith('…')).length,
            });
        }).observe(el, {subtree: true, childList: true, characterData: true});
    }""")
    ask(widget, "How do I run Olama locally?")
    expect(agents).to_have_count(1)
    frames = page.evaluate("window.courseChatFrames")
    assert any(f["cards"] and not f["answers"] for f in frames), frames  # a card drawn before the answer
    assert any(f["streaming"] and not f["answers"] for f in frames), frames  # part of the answer, streamed
    newest_is_in_view(page, log, agents.last)
    widget.screenshot(path=OUT / "1-answer.png")

    ask(widget, "How do I run a different model?")
    expect(agents).to_have_count(2)
    expect(log.locator(".widget-html", has_text="You:")).to_have_count(2)
    widget.screenshot(path=OUT / "2-follow-up.png")
    newest_is_in_view(page, log, agents.last)
    ask(widget, "Can I get a certificate if I join late?")
    expect(agents).to_have_count(3)
    newest_is_in_view(page, log, agents.last)

    widget.get_by_text("Step mode").click()
    ask(widget, "Can I join the course late?")
    status = widget.locator(".widget-html", has_text="Step mode:")
    expect(status).to_contain_text("0 of at most")
    cards = log.locator(".widget-accordion").filter(
        has_text="search(")
    before = cards.count()
    widget.get_by_role("button", name="Step", exact=True).click()
    expect(status).to_contain_text("1 of at most")
    expect(cards).to_have_count(before + 1)  # the search of iteration 1, as a card
    newest_is_in_view(page, log, cards.last)
    widget.get_by_role("button", name="Run to end").click()
    expect(agents).to_have_count(4)
    widget.screenshot(path=OUT / "3-step-mode.png")
    # Four questions are taller than the log's box, so "in view" means it scrolled to the newest entry.
    assert log.evaluate("el => el.scrollHeight > el.clientHeight + 100"), "the log should overflow its box by now"
    newest_is_in_view(page, log, agents.last)
    page.screenshot(path=OUT / "4-notebook.png")

    # Save, close, shut the kernel down, reopen: the widgets are drawn from the state saved with the notebook.
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    saved = ROOT / path
    deadline = time.monotonic() + 30
    while "application/vnd.jupyter.widget-state+json" not in saved.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the saved notebook has no widget state (saveState is off?)"
        time.sleep(0.5)
    page.close()
    for session in api(port, "sessions"):
        api(port, f"sessions/{session['id']}", method="DELETE")
    assert console.errors == []

    page, console = open_notebook(browser, port, path)
    log, widget = chat_widget(page)
    expect(page.locator(".course-chat-log")).to_have_count(3)
    widget.scroll_into_view_if_needed()
    expect(log.locator(".widget-html", has_text="Agent:")).to_have_count(4)
    expect(page.get_by_text("model not found")).to_have_count(0)
    expect(page.get_by_text("Error displaying widget")).to_have_count(0)
    page.screenshot(path=OUT / "5-reopened.png")
    page.close()
    assert console.errors == []


def test_dollar_amounts_in_markdown_show_as_dollars(lab, browser):
    """Lesson 06's prices must show as "$0.15", not be read as `$...$` maths. A plain `\\$` does not do it in
    JupyterLab (jupyterlab/jupyterlab#8645); tests/test_notebook_hygiene.py checks that every lesson uses the
    form that does, and this checks in a real JupyterLab that it works."""
    port, _ = lab
    lesson = next((ROOT / "notebooks").glob("06-*.ipynb"))
    shutil.copyfile(lesson, OUT / lesson.name)  # a copy: JupyterLab may save what it opened
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    console = Console(page)
    page.goto(f"http://127.0.0.1:{port}/lab/tree/data/ui/{lesson.name}?token={TOKEN}")
    prose = page.locator(".jp-RenderedMarkdown", has_text="per million").filter(has_text="gpt-4o-mini").first
    prose.scroll_into_view_if_needed()
    prose.screenshot(path=OUT / "6-lesson-06-dollars.png")
    expect(prose).to_contain_text("$0.15 / $0.60 per million")
    assert prose.locator("mjx-container, .MathJax").count() == 0  # no maths was typeset
    page.close()
    assert console.errors == []
