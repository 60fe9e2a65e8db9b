"""When is a hit stale rather than corrupted? One rule, shared by two controls.

A stale index serves a version *as it was published*, still marked current: its year,
version and domain agree with the live registry, only its status is out of date, and the
version that replaced it took effect no earlier than the snapshot was built (an index built
in year Y may predate anything that took effect in Y). Corrupted metadata disagrees with the
registry in other fields as well. ``freshness_check`` acts on stale hits; ``metadata_integrity``
leaves them alone, so each control keeps to its own layer.
"""

from __future__ import annotations

from typing import NamedTuple

from policies.controls._state import registry_record
from simulator.agent.gate import GateInput
from simulator.endpoints.document_payload import DocumentPayload
from simulator.endpoints.payload import PolicyHit

AS_PUBLISHED = ("effective_year", "version", "domain")


class StaleHit(NamedTuple):
    doc_id: str
    newer_id: str
    newer_year: int | None
    """None when the caller cannot see the newer version's record."""


def stale_hit(state: GateInput, hit: PolicyHit, built_year: int,
              record: DocumentPayload | None = None) -> StaleHit | None:
    """``hit`` if the index serves it as current after a newer version took effect."""
    record = record or registry_record(state, hit.doc_id)
    if (record is None or hit.metadata.status != "current" or record.status != "superseded"
            or record.superseded_by is None):
        return None
    if any(getattr(record, f) != getattr(hit.metadata, f) for f in AS_PUBLISHED):
        return None
    newer = registry_record(state, record.superseded_by)
    newer_year = newer.effective_year if newer is not None else None
    if newer_year is not None and newer_year < built_year:
        return None
    return StaleHit(hit.doc_id, record.superseded_by, newer_year)
