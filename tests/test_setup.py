"""The project's own set-up: `make lab` serves the notebooks, the devcontainer installs like make does,
and requirements say why each package is there."""

import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_lab_serves_the_notebooks():
    port, token = free_port(), "course-test-token"
    args = f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={token} --ServerApp.open_browser=False"
    proc = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_ARGS={args}"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        listing, deadline = None, time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                url = f"http://127.0.0.1:{port}/api/contents?token={token}"
                with urllib.request.urlopen(url, timeout=5) as response:
                    listing = json.load(response)
                    break
            except OSError:
                time.sleep(0.5)
        if listing is None:
            proc.kill()
            raise AssertionError("JupyterLab did not answer:\n" + proc.stdout.read().decode(errors="replace")[-3000:])
        names = {item["name"] for item in listing["content"]}
        assert "01-faq-search.ipynb" in names  # the server's root is notebooks/
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=5) as response:
            assert response.status == 200 and b"JupyterLab" in response.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


def test_devcontainer_runs_the_same_install_as_make():
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())
    assert config["postCreateCommand"] == "make install"
    assert "3.12" in config["image"]
    assert {"ms-toolsai.jupyter", "ms-python.python"} <= set(config["customizations"]["vscode"]["extensions"])
    assert "OPENAI_API_KEY" in config["secrets"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lab: install$", makefile, re.M) and re.search(r"^test: install", makefile, re.M)


def test_every_requirement_has_a_minimum_version_and_a_reason():
    lines = [line for line in (ROOT / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    for line in lines:
        if line.startswith("-e"):
            continue
        assert ">=" in line, f"no minimum version: {line}"
    core = {"jupyterlab", "openai", "minsearch", "ipywidgets", "nbval", "python-dotenv"}
    names = {re.split(r"[<>=\s]", line)[0] for line in lines}
    assert core <= names
    assert "-e ." in lines


def test_gitignore_keeps_caches_and_secrets_out():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert ".env" in ignored and "data/*" in ignored and ".venv/" in ignored
