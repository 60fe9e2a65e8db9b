"""evidence_integrity (integrity): use a hit only if its text is the text the registry published.

Misleading evidence (RAG-Stress) is well-formed, retrieved, current-looking and citable: no
schema, freshness, session or metadata check notices that one assertion was edited. What
does notice is the document-management system's own record: the live registry
(``fetch_document``) keeps the published text's digest (``text_sha256``), and a tampered
index copy cannot change it. The policy hashes every hit's text and compares.

On a mismatch it abstains rather than reading around the edit: the registry hands out no
text (by design, it is not a side door to evidence), so the true value is not available,
and dropping only the edited hit would leave the policy's older versions to answer with an
outdated value. A hit the registry cannot confirm (no record, access denied, no digest) is
let through by default (``on_unverifiable="allow"``): this control claims tampering, not
availability, which evidence_gate and access_aware_abstention own.
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import registry_record
from simulator.agent.gate import Decision, GateInput
from simulator.endpoints.document_payload import text_digest
from simulator.registry import check_choice

UNVERIFIABLE_RULES = ("allow", "abstain")


@policy(layers="integrity", claims="non_answer")
def evidence_integrity(on_unverifiable: str = "allow") -> Decide:
    """Abstain when a hit's text differs from the text the registry published."""
    check_choice("policy", "evidence_integrity", "on_unverifiable", on_unverifiable,
                 UNVERIFIABLE_RULES)

    def decide(state: GateInput) -> Decision:
        if not state.evidence:
            return allow("no evidence to check")
        unverified = []
        for item in state.evidence:
            record = registry_record(state, item.doc_id)
            if record is None or record.text_sha256 is None:
                unverified.append(item.doc_id)
            elif record.text_sha256 != text_digest(item.text):
                return Decision("abstain", f"{item.doc_id}: the served text differs from "
                                           "the text the registry published")
        if unverified and on_unverifiable == "abstain":
            return Decision("abstain", f"the registry cannot confirm the text of "
                                       f"{unverified[0]}")
        if unverified:
            return allow(f"texts agree with the registry ({len(unverified)} unconfirmed)")
        return allow("every text agrees with the registry")

    return decide
