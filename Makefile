# Set-up is part of every target: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TEST_STAMP := $(VENV)/.test-setup-stamp

.PHONY: run test bench bench-quick bench-report report lint fixtures wheel-test clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# bytecode once here, so that the test workers and the commands they start do not each compile it
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q -j 0 invasion_oracle model solver properties reports tests examples >/dev/null
	touch $(STAMP)

# The tests' own set-up, once per environment: what every first run would otherwise redo.
# - mypy's cache, as `make lint` fills it: tests/test_library_typed.py type-checks a user's script
#   against the whole package (about 9 s of CPU on an empty cache, a fraction of a second after);
#   its errors are `make lint`'s to report.
# - pytest's rewritten test modules (their bytecode differs from compileall's), which each test
#   worker would otherwise make for itself: about 1.5 s of CPU per worker.
$(TEST_STAMP): $(STAMP)
	bin="$$(cd $(BIN) && pwd)" && view="$$(.ci/package-view)" && cd "$$view" && \
		"$$bin/mypy" --config-file "$(CURDIR)/pyproject.toml" --cache-dir "$(CURDIR)/.mypy_cache" >/dev/null 2>&1 || true
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m "not slow" --collect-only -q -p no:cacheprovider >/dev/null 2>&1 || true
	touch $(TEST_STAMP)

## The main job on bundled default data.
run: $(STAMP)
	$(BIN)/invasion run

## All tests (unit, worked examples, properties, quality); long searches excluded; one worker per core.
## Bytecode is cached even where the environment turns it off: the many subprocesses the tests
## start (CLI runs, conformance adapters) would otherwise compile every module again (about 7 s).
test: $(STAMP) $(TEST_STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m "not slow" -n 2 --dist loadgroup

## Benchmarks: ratios against a baseline measured in the same run.
bench: $(STAMP)
	$(BIN)/python -m tests.bench

## The quick benchmarks for development (under 20 s): README searches (capped), the public game API.
bench-quick: $(STAMP)
	$(BIN)/python -m tests.bench --quick

## The whole report timed (first run on an empty cache, then cached): minutes; make bench times a
## reduced report instead, so that it stays short.
bench-report: $(STAMP)
	INVASION_BENCH_REPORT=full $(BIN)/python -m tests.bench bench_report

## Full report, including the long searches: out/report.md, out/report.html (pictures inline),
## out/report.json, the witnesses the searches found (out/witnesses/); then the slow tests.
report: $(STAMP)
	mkdir -p out
	$(BIN)/invasion report --out out --json
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m slow -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	.ci/check-package $(BIN)
	$(BIN)/python .ci/complexity

## Build the wheel, install it outside the checkout, run the main job there, and the change proofs of
## issue 34 (minutes; INVASION_WHEEL_CHANGES=skip leaves them out, =whole runs every producer).
wheel-test:
	PYTHON=$(PYTHON) .ci/wheel-test

## Regenerate the conformance suite and traces in fixtures/, accepting changed expectations (review the diff).
fixtures: $(STAMP)
	$(BIN)/invasion fixtures generate --update

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache .hypothesis
