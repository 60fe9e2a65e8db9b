"""Endpoints over the reference corpus and the tiny hand-made one."""

from __future__ import annotations

import pytest

from simulator.corpus import Corpus
from simulator.endpoints import PolicyEnvironment


@pytest.fixture(scope="session")
def env(corpus: Corpus) -> PolicyEnvironment:
    return PolicyEnvironment.from_corpus(corpus)


@pytest.fixture(scope="session")
def tiny_env(tiny_corpus: Corpus) -> PolicyEnvironment:
    return PolicyEnvironment.from_corpus(tiny_corpus)
