"""What the browser tests share: a JupyterLab started as `make lab` starts it, the system's Chromium, and the steps
every test takes (open a notebook, run all its cells, watch the console).

JupyterLab is started with the command `make lab` runs (read from `make -n lab`), on a free port, with a token,
on the offline model; once for the whole run (conftest's `shared_lab`; a test that needs settings of its own
starts its own with `running_lab`). Each test opens its own copy of a lesson in data/ui/ (git-ignored), so saving
leaves the committed notebook alone. Chromium is the system's (CHROMIUM=/path, else `chromium`, `chromium-browser` or `google-chrome` on
PATH): Playwright only drives it, never downloads one.
"""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # requirements-ui.txt
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "ui"  # the notebook copies and the screenshots
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


@contextmanager
def chromium():
    """The system's Chromium (find_chromium), headless, driven by Playwright for the length of a `with` block."""
    with sync_playwright() as p:
        # --no-sandbox: Chromium's sandbox can't start as root (usual in containers and CI).
        launched = p.chromium.launch(executable_path=find_chromium(), headless=True, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


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


def copy_lesson(lesson: Path, prefix: str = "") -> str:
    """A copy of `lesson` in data/ui/ (saving it leaves the committed notebook alone); its path from the root.
    A prefix keeps two tests' copies of one lesson apart: JupyterLab keeps one kernel per path."""
    OUT.mkdir(parents=True, exist_ok=True)
    copy = OUT / f"{prefix}{lesson.name}"
    shutil.copyfile(lesson, copy)
    return copy.relative_to(ROOT).as_posix()


def remove_screenshots(pattern: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob(pattern):
        old.unlink()


@contextmanager
def lab_server(home: Path):
    """A running JupyterLab, started as `make lab` starts it, with its workspaces and settings under `home`;
    yields its port. It serves the whole repository, so a lesson copied into data/ui/ later opens too."""
    port = free_port()
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
        yield port
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            # JupyterLab shuts its kernels down first, which on a loaded machine can take longer than the test
            # deserves; what the test checked is done, so the rest of its process group is stopped outright.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()


@contextmanager
def running_lab(lesson: Path, home: Path, screenshots: str = "*.png"):
    """A JupyterLab of its own on a copy of `lesson` in data/ui/, for a test that needs its own settings (the
    others share conftest's `shared_lab`); yields (port, the copy's path). Old screenshots matching
    `screenshots` are removed first."""
    remove_screenshots(screenshots)
    path = copy_lesson(lesson)
    with lab_server(home) as port:
        yield port, path


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
    # A workspace named for the notebook: in a JupyterLab that tests share, a page restores no other test's tabs
    # (the default workspace would reopen every notebook an earlier page had open, kernels and widgets too).
    workspace = re.sub(r"[^A-Za-z0-9-]", "-", Path(path).stem)
    page.goto(f"http://127.0.0.1:{port}/lab/workspaces/{workspace}/tree/{path}?token={TOKEN}")
    page.locator(".jp-Notebook").first.wait_for()
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext?.session?.kernel")
    return page, console


def run_all_cells(page, timed_out_png: str = "run-all-timed-out.png") -> None:
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
        page.screenshot(path=OUT / timed_out_png)
        state = page.evaluate("""() => [window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status,
            [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent)]""")
        raise AssertionError(f"the cells did not finish: kernel, prompts = {state}; see data/ui/{timed_out_png}"
                             ) from None
    errors = page.locator('.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')
    assert errors.count() == 0, "a cell failed:\n" + errors.first.inner_text()


def ask(widget, text: str) -> None:
    """Type a question into a chat widget's box and press Enter, as a student does; the box then empties."""
    field = widget.get_by_placeholder("Ask about the course")
    field.fill(text)
    field.press("Enter")
    expect(field).to_have_value("")  # Enter sent it, and the box is cleared for the next question


def emptied(folder: Path) -> Path:
    """A lesson's own screenshot folder (lesson 10's test clears data/ui/*.png), emptied of an earlier run's."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


def the_only_chat(page):
    """The notebook's one chat widget (its demo is driven from code, not shown), in view: (its log, the widget)."""
    expect(page.locator(".course-chat-log")).to_have_count(1)
    log = page.locator(".course-chat-log").last
    widget = log.locator("xpath=..")
    widget.scroll_into_view_if_needed()
    return log, widget
