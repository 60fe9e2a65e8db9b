"""Shards: which shard holds a document, and which shards an outage has taken down.

Documents are assigned to shards by a hash of their id, so the assignment is stable across
processes and reveals nothing about a document. An outage is evaluated per shard from
string-seeded ``random.Random`` draws (stable across processes and Python hash seeds).
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

from simulator.endpoints.conditions import ShardOutage

DEFAULT_SHARDS = 4


def shard_name(number: int) -> str:
    return f"shard-{number}"


@lru_cache(maxsize=65536)
def shard_of(doc_id: str, shards: int = DEFAULT_SHARDS) -> str:
    """The shard holding ``doc_id`` when the index is split into ``shards`` shards."""
    digest = hashlib.sha256(doc_id.encode()).digest()
    return shard_name(int.from_bytes(digest[:8], "big") % shards)


def shard_names(shards: int = DEFAULT_SHARDS) -> tuple[str, ...]:
    return tuple(shard_name(i) for i in range(shards))


@lru_cache(maxsize=65536)
def shards_down(outage: ShardOutage, shards: int) -> tuple[str, ...]:
    """The shards that have not answered at ``outage.attempt``, in shard order.

    A shard is down at attempt ``a`` when it timed out on attempt 0 and failed every
    recovery draw at attempts 1..a. Recovery is monotone: a retry never loses a shard.
    """
    down = []
    for name in shard_names(shards):
        draw = random.Random(f"{outage.key}|{name}|timeout").random()
        is_down = draw < outage.timeout_probability
        for attempt in range(1, outage.attempt + 1):
            if not is_down:
                break
            recover = random.Random(f"{outage.key}|{name}|recover|{attempt}").random()
            is_down = recover >= outage.recovery_probability
        if is_down:
            down.append(name)
    return tuple(down)
