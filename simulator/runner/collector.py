"""Collect garbage less often during a run, and never re-scan what existed before it.

A record allocates thousands of short-lived objects (an HTTP call, a LangChain agent's
messages and callbacks); with the default thresholds the collector runs constantly and
re-traverses the corpus, the index and every imported module. Freezing them and raising
the young-generation threshold cuts the CPU per record by ~15 % on a live run and ~20 % on
a tool-calling agent's offline run; cyclic garbage is still collected, only less often.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_tuned() -> Iterator[None]:
    """The run's collector settings for the duration of the block."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
