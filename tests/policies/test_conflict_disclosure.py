"""conflict_disclosure: the guiding prompt trades Behaviour 3 for Behaviour 2 on conflicting
evidence and raises false alarms (Behaviour 6) on clean records, and credit says so."""

from __future__ import annotations

from collections import Counter

import pytest

from policies.base import get_policy
from simulator.corpus import Corpus
from simulator.evaluation import layer_credit
from simulator.evaluation.render import credit_markdown
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner
from simulator.runner.record import RunRecord

SCENARIOS = ("clean", "conflicting_evidence")
ARMS = ("uncontrolled", "conflict_disclosure")
TASKS = 45  # fifteen policy units
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def records(corpus: Corpus) -> list[RunRecord]:
    runner = MatrixRunner(RunConfig(scenarios=SCENARIOS, modes=("strict",), arms=ARMS), corpus)
    return [runner.run_cell(Cell("deterministic", scenario, "strict", arm, task, labels))
            for scenario in SCENARIOS for arm in ARMS
            for task, labels in list(zip(corpus.tasks, corpus.labels, strict=True))[:TASKS]]


def behaviours(records: list[RunRecord], arm: str, scenario: str) -> Counter[str | None]:
    return Counter(r.behaviour for r in records if r.arm == arm and r.scenario == scenario)


def test_the_policy_claims_the_evidence_layer_and_is_credited_on_disclosure() -> None:
    factory = get_policy("conflict_disclosure")
    assert factory.layers == ("evidence",) and factory.credit_metric == "disclosure_correct"


def test_with_the_guiding_prompt_the_deterministic_reader_asks_instead_of_resolving(
        records: list[RunRecord]) -> None:
    assert behaviours(records, "uncontrolled", "conflicting_evidence").most_common(1)[0][0] \
        == "B3"
    assert behaviours(records, "conflict_disclosure", "conflicting_evidence") == \
        Counter({"B2": TASKS})


def test_the_guiding_prompt_raises_false_alarms_on_clean_records(
        records: list[RunRecord]) -> None:
    assert behaviours(records, "uncontrolled", "clean") == Counter({"B5": TASKS})
    assert behaviours(records, "conflict_disclosure", "clean")["B6"] > TASKS // 2


def test_credit_names_target_gain_interval_off_target_cost_and_verdict(
        records: list[RunRecord]) -> None:
    credit = layer_credit(records, "conflict_disclosure", replicates=200)
    out = credit.as_json()
    assert out["target_layers"] == ["evidence"] and out["metric"] == "disclosure_correct"
    assert out["target_scenarios"] == ["conflicting_evidence"]
    assert out["interval"][0] <= out["target_gain"] <= out["interval"][1]
    clean = out["off_target"]["clean"]
    assert clean["disclosure_correct"]["estimate"] < -0.5  # the false alarms
    assert clean["S"]["estimate"] < -0.5                    # what the clarifications cost
    assert out["verdict"] == "harmful_off_target"
    assert "disclosure_correct" in credit_markdown(credit)
