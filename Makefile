# nimproof: every target sets itself up; on a fresh machine only python3 and make are needed.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE ?= default

.PHONY: verify test bench data lint mine report clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

verify: $(STAMP)
	$(BIN)/nimproof verify conjectures --profile $(PROFILE) --json reports/results.json --reports reports

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python -m bench

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
