# Two commands do all the set-up on a fresh machine:
#   make run    creates .venv, installs the toolkit (no dev tools), runs the whole job on sample_data/ (out/release/)
#   make test   creates .venv, installs the toolkit with its dev tools, and runs ruff, mypy and pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-fast lint bench sample-data clean

# `make run` installs what the job needs (the toolkit and its pinned spaCy model); `make test` adds the dev tools.
$(BIN)/.installed-run: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(BIN)/.installed: $(BIN)/.installed-run
	$(BIN)/pip install --quiet -e '.[dev]'
	# pycanon (the k-anonymity cross-check of tests/risk) pins exact versions of numpy and
	# typing_extensions that conflict with spaCy and pydantic; its anonymity module needs only numpy and pandas.
	$(BIN)/pip install --quiet --no-deps 'pycanon==1.3.6'
	touch $@

run: $(BIN)/.installed-run
	$(BIN)/toolkit run sample_data --out out/release

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# The inner loop: lint and every test not marked slow (the whole-job tests); `make test` runs everything.
test-fast: lint
	$(BIN)/pytest -m "not slow"

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/parse_speed.py
	$(BIN)/python benchmarks/validate_speed.py
	$(BIN)/python benchmarks/scrub_speed.py
	$(BIN)/python benchmarks/privacy_eval.py
	$(BIN)/python benchmarks/scale.py

sample-data: $(BIN)/.installed
	$(BIN)/python -m tools.make_sample_data

clean:
	rm -rf $(VENV) out .mypy_cache .pytest_cache .ruff_cache
