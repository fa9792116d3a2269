# dicegames: `make run` starts the web app, `make test` checks everything, `make bench` prints
# figures.
# Each target creates .venv and installs what it needs first, so a fresh clone with only
# Python and pip works.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest bench bench-kernels docs clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@ $(VENV)/.run-installed

# The web app; it prints its address (http://127.0.0.1:8000/). `dicegames` alone is the
# terminal launcher.
run: $(VENV)/.run-installed
	$(BIN)/dicegames serve

test: $(VENV)/.dev-installed browser lint typecheck pytest

# The browser tests drive the system Chromium (Debian's chromium, chromium-driver): install
# it when missing, with sudo when not root. Playwright never downloads a browser here.
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium chromium-driver; \
	fi

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests scripts

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# pytest exits 5 when it collects no test: for us that is a failure, never a pass.
pytest: $(VENV)/.dev-installed browser
	@$(BIN)/pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; \
	exit $$status

bench: $(VENV)/.dev-installed
	$(BIN)/python scripts/bench.py

# The bulk kernels' figures with the million-game runs on two processes (a minute or two).
bench-kernels: $(VENV)/.dev-installed
	$(BIN)/python scripts/bench_kernels.py --million

docs: $(VENV)/.dev-installed
	$(BIN)/python scripts/gen_docs.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
