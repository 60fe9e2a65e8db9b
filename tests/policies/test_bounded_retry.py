"""bounded_retry: retry failed or partial calls, at most max_retries times."""

from __future__ import annotations

import pytest

from policies import get_policy
from simulator.errors import UsageError
from tests.policies.evidence_states import hit, payload, state

retry = get_policy("bounded_retry")(max_retries=2)
PARTIAL = payload([hit("d2", rank=1)], partial=True, missing_shards=["shard-0"])
COMPLETE = payload([hit("d1"), hit("d2", rank=1)])


def test_a_partial_result_is_retried() -> None:
    decision = retry(state(PARTIAL))
    assert decision.action == "retry" and "shard-0" in decision.reason


def test_missing_and_invalid_calls_are_retried() -> None:
    assert retry(state(None, statuses=["missing"])).action == "retry"
    assert retry(state(None, statuses=["invalid"])).action == "retry"


def test_a_complete_result_is_not_retried() -> None:
    assert retry(state(COMPLETE)).action == "allow"


def test_a_recovered_retry_stops_retrying() -> None:
    assert retry(state(PARTIAL, COMPLETE)).action == "allow"


def test_the_budget_is_bounded_and_then_allows() -> None:
    assert retry(state(PARTIAL, PARTIAL)).action == "retry"
    decision = retry(state(PARTIAL, PARTIAL, PARTIAL))
    assert decision.action == "allow" and "budget of 2 spent" in decision.reason


def test_zero_retries_never_retries() -> None:
    assert get_policy("bounded_retry")(max_retries=0)(state(PARTIAL)).action == "allow"


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_a_bad_budget_is_a_usage_error(bad: object) -> None:
    with pytest.raises(UsageError, match="max_retries"):
        get_policy("bounded_retry")(max_retries=bad)
