"""metadata_integrity: distrust metadata that contradicts the registry or itself."""

from __future__ import annotations

import pytest

from policies import get_policy
from policies.controls._versions import version_key
from tests.policies.evidence_states import hit, payload, record, state

check = get_policy("metadata_integrity")()
REGISTRY = [
    record("d_cur", status="current", year=2025, version="v2"),
    record("d_old", status="superseded", year=2020, version="v1", superseded_by="d_cur"),
    record("d_other", title="Restocking fee", status="current", year=2024, version="v3"),
    record("d_other_old", title="Restocking fee", status="superseded", year=2019,
           version="v2", superseded_by="d_other"),
]
# Corrupted: the current version says superseded and old, its twin says current and new.
CUR_CORRUPTED = hit("d_cur", status="superseded", year=2019, version="v2", domain="legal")
OLD_CORRUPTED = hit("d_old", rank=1, status="current", year=2025, version="v1",
                    domain="legal")


def test_metadata_the_registry_confirms_is_allowed_unchanged() -> None:
    body = payload([hit("d_cur"), hit("d_old", rank=1, status="superseded", year=2020,
                                      version="v1")])
    decision = check(state(body, registry=REGISTRY))
    assert decision.action == "allow" and decision.evidence is None


def test_metadata_the_registry_contradicts_is_replaced_by_the_registrys() -> None:
    decision = check(state(payload([OLD_CORRUPTED, CUR_CORRUPTED]), registry=REGISTRY))
    assert decision.action == "allow" and decision.evidence is not None
    fixed = {e.doc_id: e for e in decision.evidence}
    assert fixed["d_cur"].status == "current" and fixed["d_cur"].effective_year == 2025
    assert fixed["d_old"].status == "superseded" and fixed["d_cur"].domain == "returns"


def test_corrupted_results_without_any_current_version_abstain() -> None:
    decision = check(state(payload([OLD_CORRUPTED]), registry=REGISTRY))
    assert decision.action == "abstain" and "no current version" in decision.reason


def test_an_outdated_version_without_its_current_one_is_dropped() -> None:
    stray = hit("d_other_old", rank=2, title="Restocking fee", status="current", year=2024,
                version="v2")
    decision = check(state(payload([OLD_CORRUPTED, CUR_CORRUPTED, stray]), registry=REGISTRY))
    assert decision.action == "allow" and decision.evidence is not None
    assert [e.doc_id for e in decision.evidence] == ["d_old", "d_cur"]


def test_a_status_made_stale_by_the_index_age_is_left_to_freshness_check() -> None:
    stale = hit("d_old", status="current", year=2020, version="v1")
    body = payload([stale], snapshot="snapshot-2020-r1", built_year=2020)
    decision = check(state(body, registry=REGISTRY))
    assert decision.action == "allow" and decision.evidence is None


def test_self_contradicting_metadata_without_a_registry_abstains() -> None:
    older_current = hit("d_a", status="current", year=2019, version="v2")
    newer_superseded = hit("d_b", rank=1, status="superseded", year=2024, version="v1")
    decision = check(state(payload([older_current, newer_superseded])))
    assert decision.action == "abstain" and "older than superseded" in decision.reason


def test_version_labels_against_the_years_are_a_contradiction() -> None:
    newer_but_lower = hit("d_a", status="current", year=2024, version="v1")
    older_but_higher = hit("d_b", rank=1, status="superseded", year=2020, version="v3")
    decision = check(state(payload([newer_but_lower, older_but_higher])))
    assert decision.action == "abstain" and "version labels" in decision.reason


def test_two_current_versions_are_a_contradiction() -> None:
    body = payload([hit("d_a", year=2024, version="v2"),
                    hit("d_b", rank=1, year=2020, version="v1")])
    assert check(state(body)).action == "abstain"


def test_on_unverifiable_allow_lets_the_reader_see_it() -> None:
    lenient = get_policy("metadata_integrity")(on_unverifiable="allow")
    older_current = hit("d_a", status="current", year=2019, version="v2")
    newer_superseded = hit("d_b", rank=1, status="superseded", year=2024, version="v3")
    assert lenient(state(payload([older_current, newer_superseded]))).action == "allow"


def test_consistent_metadata_without_a_registry_is_allowed() -> None:
    body = payload([hit("d_a", year=2024, version="v2"),
                    hit("d_b", rank=1, status="superseded", year=2020, version="v1")])
    assert check(state(body)).action == "allow"


@pytest.mark.parametrize("label,key", [
    ("v6.1", ("v", (6, 1))), ("Rev B", ("rev", (2,))), ("2021.3", ("", (2021, 3))),
    ("Edition 3", ("edition", (3,))), ("draft", None)])
def test_version_labels_are_ordered_within_their_scheme(label: str, key: object) -> None:
    assert version_key(label) == key
