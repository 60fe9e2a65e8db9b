# Developer checks. `make check` is what CI runs after the tests.
PY ?= python

.PHONY: check lint type imports test

check: lint type imports

lint:
	$(PY) -m ruff check simulator middleware policies tests benchmarks examples

type:
	$(PY) -m mypy

# The architecture contracts in pyproject.toml ([tool.importlinter]).
imports:
	lint-imports

test:
	$(PY) -m pytest
