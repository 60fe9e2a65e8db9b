"""metadata_integrity (metadata): distrust metadata that contradicts itself or the registry.

Operational metadata (status, effective year, domain) steers both the retriever's validity
rerank and the reader's choice of version, so corrupted metadata turns into a confident
wrong answer. The policy checks each hit against the live registry (``fetch_document``) and
the result set against itself (:mod:`._versions`: a "current" version older than its
"superseded" twin, two current versions, labels out of order):

- metadata the registry contradicts is replaced by the registry's, so the reader picks the
  version by trustworthy cues; the corrupted ranking may also have let in superseded
  versions without their current one (they would give an outdated value), so those are
  dropped, and with nothing current left the policy abstains;
- a hit the registry contradicts only in its "current" status, as published otherwise and
  superseded no earlier than the index was built, is stale, not corrupted
  (:func:`._freshness.stale_hit`): left to freshness_check;
- metadata that contradicts itself while the registry cannot be consulted is distrusted
  wholesale: abstain (``on_unverifiable="abstain"``) or let the reader see it anyway
  (``"allow"``).
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._freshness import stale_hit
from policies.controls._state import last_payload, registry_record
from policies.controls._versions import contradictions
from simulator.agent.gate import Decision, GateInput
from simulator.endpoints.document_payload import DocumentPayload
from simulator.readers.base import Evidence
from simulator.registry import check_choice

CHECKED_FIELDS = ("status", "effective_year", "domain", "version", "title")
UNVERIFIABLE_RULES = ("abstain", "allow")


def _disagreements(item: Evidence, record: DocumentPayload) -> list[str]:
    """Fields of ``item`` the registry contradicts."""
    return [name for name in CHECKED_FIELDS
            if getattr(record, name) is not None and getattr(item, name) is not None
            and getattr(record, name) != getattr(item, name)]


def _stale_ids(state: GateInput, records: dict[str, DocumentPayload]) -> set[str]:
    """Hits that are stale, not corrupted (freshness_check's business, not ours)."""
    payload = last_payload(state)
    if payload is None:
        return set()
    return {h.doc_id for h in payload.hits if h.doc_id in records
            and stale_hit(state, h, payload.index.built_year, records[h.doc_id]) is not None}


def _corrected(item: Evidence, record: DocumentPayload) -> Evidence:
    return item.model_copy(update={"status": record.status,
                                   "effective_year": record.effective_year,
                                   "domain": record.domain, "version": record.version})


def _outdated(evidence: tuple[Evidence, ...]) -> set[str]:
    """Superseded versions whose policy has no current version among the evidence."""
    with_current = {e.title for e in evidence if e.status == "current"}
    return {e.doc_id for e in evidence
            if e.status == "superseded" and e.title not in with_current}


@policy(layers="metadata", claims="answer")
def metadata_integrity(on_unverifiable: str = "abstain") -> Decide:
    """Correct metadata the registry contradicts; abstain when trustworthy cues run out."""
    check_choice("policy", "metadata_integrity", "on_unverifiable", on_unverifiable,
                 UNVERIFIABLE_RULES)

    def decide(state: GateInput) -> Decision:
        if not state.evidence:
            return allow("no evidence to check")
        records = {e.doc_id: registry_record(state, e.doc_id) for e in state.evidence}
        found = {k: r for k, r in records.items() if r is not None}
        if len(found) < len(records):
            return _unverifiable(state.evidence, on_unverifiable)
        return _against_registry(state, found)

    return decide


def _unverifiable(evidence: tuple[Evidence, ...], rule: str) -> Decision:
    """The registry cannot confirm every hit: judge the metadata by itself."""
    found = contradictions(evidence)
    if not found:
        return allow("metadata consistent (registry unavailable)")
    if rule == "abstain":
        return Decision("abstain", f"metadata contradicts itself and the registry cannot "
                                   f"confirm it: {found[0]}")
    return allow(f"metadata contradicts itself, allowed unverified: {found[0]}")


def _against_registry(state: GateInput, records: dict[str, DocumentPayload]) -> Decision:
    """Replace the metadata the registry contradicts; drop versions left without a current."""
    stale = _stale_ids(state, records)
    wrong = {e.doc_id: fields for e in state.evidence
             if e.doc_id not in stale and (fields := _disagreements(e, records[e.doc_id]))}
    if not wrong:
        return allow("metadata agrees with the registry")
    fixed = tuple(_corrected(e, records[e.doc_id]) for e in state.evidence)
    summary = "; ".join(f"{d}: {', '.join(f)}" for d, f in wrong.items())
    outdated = _outdated(fixed)
    kept = tuple(e for e in fixed if e.doc_id not in outdated)
    if not kept:
        return Decision("abstain", f"metadata contradicted by the registry ({summary}); no "
                                   "current version among the evidence")
    dropped = f"; dropped {len(outdated)} outdated version(s)" if outdated else ""
    return allow(f"metadata contradicted by the registry, corrected ({summary}){dropped}",
                 evidence=kept)
