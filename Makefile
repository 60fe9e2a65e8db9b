# Developer checks. `make check` is what CI runs after the tests.
PY ?= python

.PHONY: check lint type test

check: lint type

lint:
	$(PY) -m ruff check simulator middleware policies tests benchmarks examples

type:
	$(PY) -m mypy

test:
	$(PY) -m pytest
