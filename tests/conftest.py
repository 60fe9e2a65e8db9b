"""Shared fixtures: the bundled corpus and the tiny hand-made spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.corpus import Corpus, build_corpus

FIXTURES = Path(__file__).parent / "fixtures"
TINY_SPEC = FIXTURES / "tiny_spec"


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return build_corpus()


@pytest.fixture(scope="session")
def tiny_corpus() -> Corpus:
    return build_corpus(TINY_SPEC)
