"""Lesson 10's chat widget in a real JupyterLab, in headless Chromium (`make test-ui`; not part of `make test`).

What a student does, checked where only a browser can check it: run every cell, type a question in the chat
box and press Enter, read the answer without scrolling, ask a follow-up, step through a question, then save,
close and reopen the notebook. The unit tests (tests/test_chat_ui.py) cover the logic without a browser;
this covers what they can't see: that the log scrolls to the newest entry, that Enter sends, that the
browser logs no errors, and that a reopened notebook shows the widgets instead of "model not found".

JupyterLab is started with the command `make lab` runs (read from `make -n lab`), on a free port, with a
token, on the offline model. The lesson runs from a copy in data/ui/ (git-ignored), so saving it leaves the
committed notebook alone; screenshots go there too. Chromium is the system's (CHROMIUM=/path, else
`chromium`, `chromium-browser` or `google-chrome` on PATH): Playwright only drives it, never downloads one.
"""

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect, sync_playwright  # requirements-ui.txt; `make test-ui` installs it

ROOT = Path(__file__).resolve().parents[2]
LESSON = next((ROOT / "notebooks").glob("10-*.ipynb"))
OUT = ROOT / "data" / "ui"  # the notebook copy and the screenshots
TOKEN = "course-ui-test-token"
OFFLINE = {"LLM_PROVIDER": "offline", "LLM_MODEL": "", "OPENAI_BASE_URL": "", "LLM_RECORD": ""}
TIMEOUT_MS = 120_000  # a whole lesson on 2 shared cores, plus a cold kernel


def find_chromium() -> str:
    named = os.environ.get("CHROMIUM")
    if named:
        if not Path(named).is_file():
            pytest.fail(f"CHROMIUM={named} is not a file. Point it at a Chromium or Chrome executable.", pytrace=False)
        return named
    for name in ("chromium", "chromium-browser", "google-chrome"):  # GitHub's Ubuntu runners have Chrome
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("make test-ui needs Chromium and found none (looked for CHROMIUM, chromium, chromium-browser, google-chrome). "
                "Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium.",
                pytrace=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_command(args: str) -> list[str]:
    """The command `make lab` runs (`make -n` only prints it), so the test starts what a student starts."""
    out = subprocess.run(["make", "-n", "--no-print-directory", "lab", f"LAB_ARGS={args}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    commands = [line for line in out.splitlines() if re.match(r"\S*/jupyter lab ", line)]
    assert len(commands) == 1, out
    return shlex.split(commands[0])


def api(port: int, path: str, method: str = "GET"):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/{path}", method=method,
                                     headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        return json.loads(body) if body else None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A running JupyterLab on a copy of lesson 10; yields (port, the copy's path relative to the root)."""
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    copy = OUT / LESSON.name
    shutil.copyfile(LESSON, copy)
    port, home = free_port(), tmp_path_factory.mktemp("lab")
    # Workspaces and user settings in a temporary folder: the developer's own JupyterLab layout and settings
    # neither leak into the test nor get changed by it. expose_app_in_browser lets the test run lab commands.
    args = (f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={TOKEN} "
            f"--LabApp.workspaces_dir={home / 'workspaces'} --LabApp.user_settings_dir={home / 'settings'} "
            "--LabApp.expose_app_in_browser=True")
    log = open(home / "lab.log", "wb")
    proc = subprocess.Popen(lab_command(args), cwd=ROOT, env={**os.environ, **OFFLINE}, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                api(port, "status")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("JupyterLab did not start:\n" + (home / "lab.log").read_text()[-3000:]) from None
                time.sleep(0.5)
        yield port, copy.relative_to(ROOT).as_posix()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        # --no-sandbox: Chromium's sandbox can't start as root (usual in containers and CI).
        launched = p.chromium.launch(executable_path=find_chromium(), headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


class Console:
    """Every console error and uncaught exception of a page. Nothing is ignored."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))


def open_notebook(browser, port: int, path: str):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    console = Console(page)
    page.goto(f"http://127.0.0.1:{port}/lab/tree/{path}?token={TOKEN}")
    page.locator(".jp-Notebook").first.wait_for()
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel")
    return page, console


def run_all_cells(page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    # Done when every code cell has an execution count and the kernel is idle, or when a cell failed
    # (run-all stops there, so the remaining cells would never get a count).
    done = """() => {
        if (document.querySelector('.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')) return true;
        const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
        const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent))
            && kernel.status === 'idle';
    }"""
    try:
        page.wait_for_function(done)
    except PlaywrightTimeoutError:
        page.screenshot(path=OUT / "run-all-timed-out.png")
        state = page.evaluate("""() => [window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status,
            [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent)]""")
        raise AssertionError(f"the cells did not finish: kernel, prompts = {state}; see data/ui/run-all-timed-out.png"
                             ) from None
    errors = page.locator('.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')
    assert errors.count() == 0, "a cell failed:\n" + errors.first.inner_text()


def chat_widget(page):
    """The last chat widget of the notebook ("Your turn"): its log box and the box around it."""
    log = page.locator(".course-chat-log").last
    return log, log.locator("xpath=..")


def newest_is_in_view(page, log, bubble) -> None:
    """The newest entry's end is inside the log's visible box, and on screen."""
    expect(bubble).to_be_in_viewport()
    box, end = log.bounding_box(), bubble.bounding_box()
    assert box["y"] - 1 <= end["y"] + end["height"] <= box["y"] + box["height"] + 1, (box, end)


def ask(widget, text: str) -> None:
    field = widget.locator("input[type=text]").first
    field.fill(text)
    field.press("Enter")
    expect(field).to_have_value("")  # Enter sent it, and the box is cleared for the next question


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
