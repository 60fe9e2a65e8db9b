"""freshness_check: an index older than the registry serves superseded versions as current."""

from __future__ import annotations

from policies import get_policy
from tests.policies.evidence_states import hit, payload, record, state

check = get_policy("freshness_check")()
OLD_AS_CURRENT = hit("d_old", year=2022, version="v1")
SNAPSHOT = {"snapshot": "snapshot-2022-r1", "built_year": 2022}


def registry(newer_year: int = 2024, *, old_year: int = 2022) -> list[dict[str, object]]:
    return [record("d_old", status="superseded", year=old_year, version="v1",
                   superseded_by="d_new"),
            record("d_new", status="current", year=newer_year, version="v2")]


def test_a_version_superseded_after_the_snapshot_was_built_is_stale() -> None:
    decision = check(state(payload([OLD_AS_CURRENT], **SNAPSHOT), registry=registry()))
    assert decision.action == "abstain"
    assert "stale index" in decision.reason and "d_new" in decision.reason


def test_a_newer_version_from_the_snapshots_own_year_counts_as_stale() -> None:
    decision = check(state(payload([OLD_AS_CURRENT], **SNAPSHOT), registry=registry(2022)))
    assert decision.action == "abstain"


def test_a_newer_version_the_caller_cannot_see_counts_as_stale() -> None:
    visible = registry()[:1]
    assert check(state(payload([OLD_AS_CURRENT], **SNAPSHOT), registry=visible)).action == \
        "abstain"


def test_an_honestly_labelled_superseded_hit_is_not_stale() -> None:
    body = payload([hit("d_new", version="v2", year=2024),
                    hit("d_old", rank=1, status="superseded", year=2022, version="v1")],
                   built_year=2025)
    assert check(state(body, registry=registry())).action == "allow"


def test_a_hit_whose_year_disagrees_with_the_registry_is_metadata_not_freshness() -> None:
    corrupted = hit("d_old", year=2019, version="v1")
    assert check(state(payload([corrupted], **SNAPSHOT), registry=registry())).action == "allow"


def test_a_mislabelled_hit_in_a_live_index_is_not_stale() -> None:
    body = payload([hit("d_old", year=2022, version="v1")], built_year=2025)
    assert check(state(body, registry=registry(2024))).action == "allow"


def test_without_a_registry_there_is_nothing_to_check() -> None:
    assert check(state(payload([OLD_AS_CURRENT], **SNAPSHOT))).action == "allow"
