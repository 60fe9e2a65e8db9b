"""Building a derived index first (corrupted, stale) must not deadlock on the cache lock."""

from __future__ import annotations

import threading

from simulator.corpus import Corpus
from simulator.endpoints import MetadataCorruption, PolicyEnvironment


def test_a_corrupted_index_can_be_the_first_one_built(corpus: Corpus) -> None:
    env = PolicyEnvironment.from_corpus(corpus)
    built: list[object] = []
    worker = threading.Thread(
        target=lambda: built.append(env.index(corruption=MetadataCorruption(seed=0))),
        daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert built, "building a corrupted index before the live one deadlocked"
