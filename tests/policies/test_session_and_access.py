"""session_isolation and access_aware_abstention: non-answers for the wrong caller's evidence."""

from __future__ import annotations

from policies import get_policy
from tests.policies.evidence_states import hit, payload, state

isolation = get_policy("session_isolation")()
access = get_policy("access_aware_abstention")()


def test_evidence_from_another_session_is_rejected() -> None:
    decision = isolation(state(payload([hit("d9")], session_id="sess_other")))
    assert decision.action == "reject" and "sess_other" in decision.reason


def test_evidence_from_another_tenant_is_rejected() -> None:
    assert isolation(state(payload([hit("d1", tenant="globex")]))).action == "reject"
    assert isolation(state(payload([hit("d1")], tenant="globex"))).action == "reject"


def test_the_callers_own_evidence_passes_isolation() -> None:
    assert isolation(state(payload([hit("d1")]))).action == "allow"


def test_a_denial_yields_a_structured_access_denied_non_answer() -> None:
    decision = access(state(payload([hit("d2", rank=1)], denied=2)))
    assert decision.action == "abstain"
    assert decision.reason.startswith("access denied: 2 result(s) withheld")


def test_no_denial_is_allowed_through_access_aware_abstention() -> None:
    assert access(state(payload([hit("d1")]))).action == "allow"
