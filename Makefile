# The two commands a student needs are `make lab` and `make test`; each sets everything up first.
# Everything runs inside .venv, created with the python3 on your PATH (3.11 or newer).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb)) $(sort $(wildcard notebooks/homework/*.ipynb)) \
             $(sort $(wildcard notebooks/homework/solutions/*.ipynb))
# make test and make notebooks always use the offline model: a real key in .env costs nothing here,
# and stored outputs stay comparable. (make_client never lets .env override a variable already set.)
OFFLINE := LLM_PROVIDER=offline LLM_MODEL= OPENAI_BASE_URL= LLM_RECORD=

.PHONY: lab test install lint unit nbval notebooks bench bench-notebooks bench-search doctor homework clean help

help:
	@echo "make lab           set up and open the lessons in JupyterLab"
	@echo "make test          set up and run every test (unit tests, lint, every notebook under nbval)"
	@echo "make notebooks     re-run every notebook top to bottom and store its outputs (offline model)"
	@echo "make homework      run the checks of your homework notebooks and print a score table"
	@echo "make doctor        check your .env, key, provider and model"
	@echo "make bench-search  hit rate and MRR of the FAQ search"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "This course needs Python 3.11 or newer; you have " + sys.version.split()[0] + ". Install a newer Python, or run make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)

# Re-install only when the requirements change.
$(STAMP): requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
	@touch $(STAMP)

install: $(STAMP)

# Jupyter refuses to run as root unless told; containers often run as root, so say it for them.
ROOT_FLAG := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

lab: install
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG) $(LAB_ARGS)

lint: install
	$(BIN)/ruff check helpers tests notebooks

unit: install
	$(OFFLINE) $(BIN)/pytest tests -q

nbval: install
	$(OFFLINE) $(BIN)/pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
		-p no:cacheprovider notebooks -q

test: install lint
	$(OFFLINE) $(BIN)/pytest tests notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg -q

notebooks: install
	$(OFFLINE) $(BIN)/python -m helpers.nbrun $(NOTEBOOKS)

bench-notebooks: install
	$(OFFLINE) $(BIN)/python -m helpers.nbrun --dry-run $(NOTEBOOKS)

doctor: install
	$(BIN)/python -m helpers doctor

bench: install
	$(OFFLINE) $(BIN)/python -m helpers.bench

bench-search: install
	$(OFFLINE) $(BIN)/python -m helpers.evaluate --agent

homework: install
	$(OFFLINE) $(BIN)/python -m helpers.homework

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
