"""Shards: how the index is split, and which shard holds a document.

Documents are assigned to shards by a hash of their id, so the assignment is stable across
processes and reveals nothing about a document. Which shards answer a call is not decided
here: a fault (``partial_timeout``) decides, and names the down shards in the call's
:class:`~simulator.endpoints.conditions.EndpointConditions`.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

DEFAULT_SHARDS = 4


def shard_name(number: int) -> str:
    return f"shard-{number}"


@lru_cache(maxsize=65536)
def shard_of(doc_id: str, shards: int = DEFAULT_SHARDS) -> str:
    """The shard holding ``doc_id`` when the index is split into ``shards`` shards."""
    digest = hashlib.sha256(doc_id.encode()).digest()
    return shard_name(int.from_bytes(digest[:8], "big") % shards)


def shard_names(shards: int = DEFAULT_SHARDS) -> tuple[str, ...]:
    """Every shard of an index split into ``shards`` shards, in shard order."""
    return tuple(shard_name(i) for i in range(shards))
