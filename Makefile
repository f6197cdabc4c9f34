# nimproof: every target sets itself up; on a fresh machine only python3 and make are needed.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE ?= default

.PHONY: verify test bench bench-full data lint mine report clean-venv mona

# MONA (the WS1S decision procedure behind the `automata` proof method) is a system
# package. Installed here when missing and we are root (CI); otherwise we say how.
mona:
	@if command -v mona >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing mona (apt-get install mona)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mona >/dev/null; \
	else \
		echo "note: mona is not installed; the automata method will answer unknown."; \
		echo "      install it with: sudo apt-get install --no-install-recommends mona"; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

verify: $(STAMP) mona
	$(BIN)/nimproof verify conjectures --profile $(PROFILE) --json reports/results.json --reports reports

test: $(STAMP) mona
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

test-all: $(STAMP) mona
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP) mona
	$(BIN)/python -m bench

bench-full: $(STAMP) mona
	$(BIN)/python -m bench --full

data: $(STAMP)
	$(BIN)/nimproof data build

lint: $(STAMP)
	$(BIN)/ruff check nimproof tests bench
	$(BIN)/ruff format --check nimproof tests bench
	$(BIN)/mypy

mine: $(STAMP)
	$(BIN)/nimproof mine --defaults --write conjectures/mined

report: $(STAMP)
	$(BIN)/nimproof report --json reports/results.json --out reports

clean-venv:
	rm -rf $(VENV)
