"""evidence_gate: allow, abstain or reject from the completeness of the evidence alone."""

from __future__ import annotations

import pytest

from policies import get_policy
from simulator.errors import UsageError
from tests.policies.evidence_states import hit, payload, state

gate = get_policy("evidence_gate")()


def test_complete_valid_evidence_is_allowed() -> None:
    assert gate(state(payload([hit("d1"), hit("d2", rank=1)]))).action == "allow"


def test_missing_tool_output_abstains() -> None:
    assert gate(state(None, statuses=["missing"])).action == "abstain"


def test_a_payload_that_failed_its_contract_is_rejected() -> None:
    assert gate(state(None, statuses=["invalid"])).action == "reject"


def test_denied_evidence_abstains() -> None:
    decision = gate(state(payload([hit("d2", rank=1)], denied=1)))
    assert decision.action == "abstain" and "access denied" in decision.reason


def test_an_empty_result_abstains() -> None:
    assert gate(state(payload([]))).action == "abstain"


def test_a_partial_result_that_lost_the_best_ranked_hit_abstains() -> None:
    body = payload([hit("d2", rank=1), hit("d3", rank=2)], partial=True,
                   missing_shards=["shard-1"])
    assert gate(state(body)).action == "abstain"


def test_a_partial_result_that_kept_the_best_ranked_hit_is_allowed() -> None:
    body = payload([hit("d1", rank=0), hit("d3", rank=2)], partial=True,
                   missing_shards=["shard-2"])
    assert gate(state(body)).action == "allow"


def test_on_partial_abstain_refuses_every_partial_result() -> None:
    strict_gate = get_policy("evidence_gate")(on_partial="abstain")
    body = payload([hit("d1", rank=0)], partial=True, missing_shards=["shard-2"])
    assert strict_gate(state(body)).action == "abstain"


def test_an_unknown_partial_rule_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="on_partial"):
        get_policy("evidence_gate")(on_partial="maybe")
