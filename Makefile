# dicegames: `make run` starts the web app, `make test` checks everything, `make check` is the
# everyday fast lane, `make bench` prints figures.
# Each target creates .venv and installs what it needs first, so a fresh clone with only
# Python and pip works.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Python writes its bytecode caches (__pycache__) even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): otherwise every test process, and every server or command a test
# starts, compiles each module from source again, and pytest rewrites every test module's
# asserts again (collection took twice the CPU, a server's start 0.9 s of CPU instead of 0.25).
unexport PYTHONDONTWRITEBYTECODE

# Where Debian's chromium lives (a variable so a test can pretend it is missing).
CHROMIUM_PATH ?= /usr/bin/chromium

.PHONY: run test check lint typecheck pytest pytest-compiled bench bench-peers bench-kernels lighthouse \
	docs strength clean browser postgres proxies

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

# ruff and mypy run while the kernels compile (numba, a few minutes of CPU on a
# fresh machine, see the pytest target), then the tests.
test: $(VENV)/.dev-installed browser postgres proxies
	@$(BIN)/python scripts/compile_kernels.py > $(VENV)/.compile-kernels.log 2>&1 & \
	compiling=$$!; $(MAKE) --no-print-directory lint typecheck; checks=$$?; \
	wait $$compiling; compiled=$$?; cat $(VENV)/.compile-kernels.log; \
	if [ $$checks -ne 0 ]; then exit $$checks; fi; \
	if [ $$compiled -ne 0 ]; then exit $$compiled; fi; \
	$(MAKE) --no-print-directory pytest-compiled

# The browser tests drive an installed Chromium (Playwright never downloads one), and the
# Japanese pages need a font with Japanese glyphs (else Chromium draws empty boxes and the
# tests that text fits measure those). When either is missing (Chromium: /usr/bin/chromium,
# chromium or google-chrome on PATH, or $DICEGAMES_CHROMIUM; the font: fc-list :lang=ja) and
# apt-get exists (Debian, Ubuntu), install Debian's chromium and fonts-noto-cjk: as root, or
# with sudo (which asks for a password only at a terminal; never waits for one otherwise).
# Elsewhere, or if that fails, say so and go on: without Chromium the browser tests skip with a message,
# except with CI=true, where they fail (and so does this target).
browser:
	@need=""; chromium=""; \
	if [ -z "$$DICEGAMES_CHROMIUM" ] && [ ! -x $(CHROMIUM_PATH) ] && \
		! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && \
		! command -v google-chrome >/dev/null 2>&1; then need="chromium"; chromium=1; fi; \
	if command -v fc-list >/dev/null 2>&1 && [ -z "$$(fc-list :lang=ja 2>/dev/null)" ]; then \
		need="$$need fonts-noto-cjk"; fi; \
	if [ -z "$$need" ]; then exit 0; fi; \
	ci=$$(printf '%s' "$$CI" | tr 'A-Z' 'a-z'); \
	case "$$ci" in ""|0|false|no) ci="";; esac; \
	if command -v apt-get >/dev/null 2>&1; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=""; \
		elif [ -t 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
		else SUDO="sudo -n"; fi; \
		echo "Installing for the browser tests: $$SUDO apt-get install $$need"; \
		if $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			$$SUDO apt-get install -y -qq $$need; then exit 0; fi; \
		echo "Could not install $$need with apt-get." >&2; \
	elif [ -n "$$chromium" ]; then \
		echo "No Chromium found and no apt-get to install one." >&2; \
	else \
		echo "No Japanese font found and no apt-get to install one (fonts-noto-cjk)." >&2; \
	fi; \
	if [ -z "$$chromium" ]; then \
		echo "Japanese text will be drawn as boxes in the browser tests." >&2; exit 0; fi; \
	if [ -n "$$ci" ]; then \
		echo "CI=$$CI: the browser tests must run; install chromium." >&2; exit 1; \
	fi; \
	echo "The browser tests will be skipped (install Chromium or set DICEGAMES_CHROMIUM)." >&2

# The store and web tests run on PostgreSQL too: tests/pgcluster.py makes a throwaway cluster
# with initdb and pg_ctl (PATH or /usr/lib/postgresql/*/bin). When they are missing and
# apt-get exists, install Debian's postgresql (as root, or with sudo as for the browser);
# elsewhere say so: those tests skip with a message, or fail with CI=true.
postgres:
	@if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; \
		then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=""; \
		elif [ -t 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
		else SUDO="sudo -n"; fi; \
		echo "Installing for the PostgreSQL tests: $$SUDO apt-get install postgresql"; \
		if $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			$$SUDO apt-get install -y -qq postgresql; then exit 0; fi; \
		echo "Could not install postgresql with apt-get." >&2; \
	else echo "No PostgreSQL found and no apt-get to install one." >&2; fi; \
	ci=$$(printf '%s' "$$CI" | tr 'A-Z' 'a-z'); \
	case "$$ci" in ""|0|false|no) ;; *) \
		echo "CI=$$CI: the PostgreSQL tests must run; install postgresql." >&2; exit 1;; esac; \
	echo "The PostgreSQL tests will be skipped (install postgresql or set DICEGAMES_TEST_PG)." >&2

# tests/web/test_proxy.py starts deploy/'s nginx and Caddy configurations for real in front of
# two servers (and tests/test_deploy.py adapts the Caddyfile). When nginx or caddy is missing
# and apt-get exists, install Debian's nginx-light and caddy (as for the browser); elsewhere
# those tests skip with a message (the configurations are still parsed).
proxies:
	@if command -v nginx >/dev/null 2>&1 && command -v caddy >/dev/null 2>&1; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=""; \
		elif [ -t 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
		else SUDO="sudo -n"; fi; \
		echo "Installing for the proxy tests: $$SUDO apt-get install nginx-light caddy"; \
		if $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			$$SUDO apt-get install -y -qq --no-install-recommends nginx-light caddy openssl; \
			then exit 0; fi; \
		echo "Could not install nginx-light and caddy with apt-get." >&2; \
	fi; \
	echo "The proxy tests will be skipped (install nginx and caddy to run them)." >&2

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests scripts

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# Everyday work: ruff, mypy and the fast tests, in under two minutes on two cores. Left out:
# the tests marked slow (statistical, long), process (a real server process) and browser
# (Chromium); `make test` runs them too.
FAST := not slow and not process and not browser
# Test processes (pytest-xdist) for `make check` and `make test`.
WORKERS ?= 2

check: $(VENV)/.dev-installed lint typecheck
	@$(BIN)/python scripts/compile_kernels.py >/dev/null
	@$(BIN)/pytest -n $(WORKERS) --dist loadfile --no-loadscope-reorder -q -m "$(FAST)"; status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; \
	exit $$status

# The kernels are compiled first, once (scripts/compile_kernels.py), rather than by every
# test process that meets them cold. Then everything, in two runs: the tests that don't
# measure time on $(WORKERS) processes (pytest-xdist; a module's tests stay on one process,
# so its server starts once; the longest modules first, as tests/conftest.py orders them,
# kept by --no-loadscope-reorder), then the timing-sensitive ones (marked timing: latency,
# budgets, the soak) alone, so no other test competes with them for the two cores.
# pytest exits 5 when it collects no test: for us that is a failure, never a pass.
pytest: $(VENV)/.dev-installed browser postgres proxies
	@$(BIN)/python scripts/compile_kernels.py
	@$(MAKE) --no-print-directory pytest-compiled

# The two runs of `make pytest`, the kernels compiled already (`make test` compiles them
# while ruff and mypy run, and doesn't load them a second time).
pytest-compiled: $(VENV)/.dev-installed
	@$(BIN)/pytest -n $(WORKERS) --dist loadfile --no-loadscope-reorder -m "not timing"; first=$$?; \
	$(BIN)/pytest -m timing; second=$$?; \
	for status in $$first $$second; do \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; \
		if [ $$status -ne 0 ]; then exit $$status; fi; \
	done

# Every figure beside the previous release's (its src/ unpacked from git into a temporary
# folder), from interleaved runs; medians. scripts/bench.py --alone: this checkout only.
# Then every game's design report at its defaults against its aim of 60 s, and the
# vectorised learning environment beside PettingZoo (scripts/bench_vector.py). Then the web
# app on one process (SQLite, PostgreSQL) and two (PostgreSQL): scripts/web_bench_cluster.py.
bench: $(VENV)/.dev-installed
	$(BIN)/python scripts/bench.py
	$(BIN)/python scripts/bench_reports.py
	$(BIN)/python scripts/bench_vector.py
	$(BIN)/python scripts/web_bench_cluster.py

# dicegames beside OpenSpiel (Python loop over pyspiel) and LUDOpy, installed in their own
# environment (.venv-peers), interleaved runs, medians (see docs/performance.md).
PEERS := .venv-peers

$(PEERS)/.installed:
	$(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install --quiet --disable-pip-version-check open-spiel ludopy
	touch $@

bench-peers: $(VENV)/.dev-installed $(PEERS)/.installed
	$(BIN)/python scripts/bench_peers.py --peers-python $(PEERS)/bin/python

# The bulk kernels' figures with the million-game runs on two processes (a minute or two).
bench-kernels: $(VENV)/.dev-installed
	$(BIN)/python scripts/bench_kernels.py --projected --million

# Lighthouse (from npm, in the installed Chromium, phone profile) on the home page and a game
# page of a local server; medians of 3 runs (docs/web.md, "Every phone in the house").
lighthouse: $(VENV)/.dev-installed
	$(BIN)/python scripts/lighthouse.py --runs 3

docs: $(VENV)/.dev-installed
	$(BIN)/python scripts/gen_docs.py

# Every game's strength table: round robins of its levels through the kernels, the figures
# into games/<game>/strength.json and the rules pages (docs/analysis.md, "Strength tables").
strength: $(VENV)/.dev-installed
	$(BIN)/python scripts/strength_tables.py

clean:
	rm -rf $(VENV) $(PEERS) .mypy_cache .pytest_cache .ruff_cache .hypothesis
