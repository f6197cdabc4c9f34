# nimproof: every target sets itself up; on a fresh machine only python3 and make are needed.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE ?= default

.PHONY: docs docs-picture misere-atlas atlas atlas4 campaign verify test bench bench-full bench-deep data lint mine report clean-venv mona browser

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
	$(BIN)/python -m nimproof.engines.warmup
	touch $(STAMP)

verify: $(STAMP) mona
	$(BIN)/nimproof verify conjectures --profile $(PROFILE) --json reports/results.json --reports reports

test: $(STAMP) mona browser
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

test-all: $(STAMP) mona browser
	$(BIN)/python -m pytest -q -n 2

# The HTML report is tested in Debian's Chromium (driven by Playwright, which never
# downloads a browser here). Installed when missing and we are root with apt-get;
# otherwise the browser test says why it is skipped (and fails in CI).
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the HTML report test"; \
	    apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null; \
	  else \
	    echo "chromium is missing and cannot be installed here: the browser test will be skipped"; \
	  fi; \
	fi

# Every three-digit octal code to 2^16 on a local Dask cluster (not part of verify).
atlas: $(STAMP)
	$(BIN)/nimproof atlas --family octal --max-n 65536 --out atlas

# Every code 0.d .. 0.dddd (4,095 games) to 2^16; SCHEDULER=tcp://HOST:PORT runs it on an
# existing Dask cluster (dask scheduler / dask worker), else on a local one. Resumable.
atlas4: $(STAMP)
	$(BIN)/nimproof atlas --family octal-4digit --max-n 65536 --out atlas4 $(if $(SCHEDULER),--scheduler $(SCHEDULER))

# The unsolved games of tczajka/octal-games' list, each to 2^28 heaps (DEPTH=32 where memory
# allows), figures per doubling and the period search; resumable; not part of the tests.
# TIMEOUT=S: each game's seconds in one run; SKIP_DENSE=1: only the games that can reach DEPTH.
DEPTH ?= 28
campaign: $(STAMP)
	$(BIN)/nimproof campaign --depth $(DEPTH) --out campaign $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(SKIP_DENSE),--skip-dense)

# The misère quotient of every octal code 0.d, 0.dd, 0.ddd on a local Dask cluster (resumable).
misere-atlas: $(STAMP)
	$(BIN)/nimproof misere --atlas --max-heap 200 --out misere-atlas

bench: $(STAMP) mona
	$(BIN)/python -m bench

bench-full: $(STAMP) mona
	$(BIN)/python -m bench --full

# 0.106 to 2^36 heaps in a memory-mapped file in DEEP_DIR (resumable: run it again after a
# kill), one JSON line per doubling in DEEP_DIR/run.log; about 2 hours and 64 GB of disk on an
# idle core. `make bench-full NIMPROOF_DEEP_LOG=DIR/run.log` prints its rows.
DEEP_DIR ?= deep-0.106
bench-deep: $(STAMP)
	$(BIN)/python -m bench.frontier --deep $(DEEP_DIR) --depth 36

data: $(STAMP)
	$(BIN)/nimproof data build

lint: $(STAMP)
	$(BIN)/ruff check nimproof nimproof_check tests bench
	$(BIN)/ruff format --check nimproof nimproof_check tests bench
	$(BIN)/mypy

mine: $(STAMP)
	$(BIN)/nimproof mine --defaults --write conjectures/mined

# docs/commands.md (from the argument parser) and docs/methods.md (from the methods registry);
# a test fails when the committed pages differ from freshly generated ones.
docs: $(STAMP)
	$(BIN)/python -m nimproof.cli.docgen

# docs/img/report.png, the README's picture: reports/index.html (make verify or make report
# writes it) drawn by Debian's Chromium through Playwright, as the browser test runs it.
docs-picture: $(STAMP) browser
	$(BIN)/python -m nimproof.cli.docgen --picture reports/index.html --out docs/img/report.png

report: $(STAMP)
	$(BIN)/nimproof report --json reports/results.json --out reports

clean-venv:
	rm -rf $(VENV)
