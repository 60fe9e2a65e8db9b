"""Arms: built-in arms, composition by name, typos, the gate's order, determinism."""

from __future__ import annotations

import pytest

from policies import (
    CONTROLLED_POLICIES,
    OUTSIDE_CONTROLLED,
    ArmGate,
    Policy,
    add_arm,
    arm_policies,
    build_arm,
    get_arm,
    policies,
)
from policies.base import CLAIM_METRIC
from policies.compose import register_cli_arms
from simulator.agent.gate import UNCONTROLLED, Decision, GateInput
from simulator.corpus import Corpus
from simulator.errors import UsageError
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner, cells
from tests.policies.evidence_states import hit, payload, state


def test_uncontrolled_has_no_policies_and_controlled_has_every_builtin_control() -> None:
    assert get_arm("uncontrolled") is UNCONTROLLED
    assert arm_policies("controlled") == CONTROLLED_POLICIES
    assert set(CONTROLLED_POLICIES) | set(OUTSIDE_CONTROLLED) == set(policies.names())


def test_every_policy_declares_known_layers_and_a_claim() -> None:
    for name in policies.names():
        factory = policies.get(name)
        assert factory.layers and factory.claims in CLAIM_METRIC


def test_an_arm_with_schema_repair_takes_over_the_contract_step() -> None:
    assert getattr(get_arm("controlled"), "contract_override", None) == "repair"
    assert get_arm("session_isolation").contract_override is None  # type: ignore[attr-defined]


def test_a_policy_name_is_an_arm_and_plus_composes_in_order() -> None:
    assert arm_policies("bounded_retry") == ("bounded_retry",)
    assert arm_policies("session_isolation+bounded_retry") == ("session_isolation",
                                                              "bounded_retry")


def test_a_policy_typo_is_a_one_line_usage_error_with_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: bounded_retry") as err:
        register_cli_arms(("mine_typo=bounded_retyr+session_isolation",))
    assert "\n" not in str(err.value)
    with pytest.raises(UsageError, match="Did you mean: controlled"):
        get_arm("controled")


def test_cli_arms_register_once_and_refuse_a_conflicting_redefinition() -> None:
    names = register_cli_arms(("uncontrolled", "cli_pair=bounded_retry+session_isolation"))
    assert names == ("uncontrolled", "cli_pair")
    assert register_cli_arms(("cli_pair=bounded_retry+session_isolation",)) == ("cli_pair",)
    with pytest.raises(UsageError, match="already exists"):
        register_cli_arms(("cli_pair=evidence_gate",))
    with pytest.raises(UsageError, match="already exists"):
        add_arm("controlled", ["evidence_gate"])


def test_an_arm_listing_a_policy_twice_is_refused() -> None:
    with pytest.raises(UsageError, match="twice"):
        build_arm("dup", ["evidence_gate", "evidence_gate"])


def _scripted(name: str, action: str, evidence: bool = False) -> Policy:
    def decide(s: GateInput) -> Decision:
        replaced = s.evidence[:1] if evidence else None
        return Decision(action, f"{name} saw {len(s.evidence)}", evidence=replaced)  # type: ignore[arg-type]

    return Policy(name=name, layers=("evidence",), claims="non_answer", decide=decide)


def test_the_first_policy_that_does_not_allow_decides_and_every_step_is_returned() -> None:
    gate = ArmGate("scripted", [_scripted("a", "allow"), _scripted("b", "abstain"),
                                _scripted("c", "allow")])
    decisions = gate(state(payload([hit("d1"), hit("d2", rank=1)])))
    assert [(d.policy, d.action) for d in decisions] == [("a", "allow"), ("b", "abstain")]


def test_later_policies_see_the_evidence_an_earlier_policy_replaced() -> None:
    gate = ArmGate("scripted", [_scripted("trim", "allow", evidence=True),
                                _scripted("count", "allow")])
    decisions = gate(state(payload([hit("d1"), hit("d2", rank=1)])))
    assert decisions[1].reason == "count saw 1"


def _records(corpus: Corpus, arm: str, scenario: str, rows: int = 12) -> list:  # type: ignore[type-arg]
    config = RunConfig(scenarios=(scenario,), modes=("strict",), arms=(arm,), tasks=rows)
    return MatrixRunner(config, corpus).run_cells(list(cells(config, corpus)))


def test_an_arm_is_deterministic(corpus: Corpus) -> None:
    def shape(records: list) -> list:  # type: ignore[type-arg]
        return [r.model_dump(exclude={"latency_ms"}) for r in records]

    first = _records(corpus, "controlled", "partial_timeout")
    assert shape(first) == shape(_records(corpus, "controlled", "partial_timeout"))


def test_bounded_retry_puts_every_attempt_in_the_trace(corpus: Corpus) -> None:
    records = _records(corpus, "bounded_retry", "partial_timeout", rows=24)
    retried = [r for r in records if len(r.trace["tool_calls"]) > 1]
    assert retried, "some partial record should be retried"
    for rec in retried:
        attempts = [c["attempt"] for c in rec.trace["tool_calls"]]
        assert attempts == list(range(len(attempts))) and len(attempts) <= 3
        assert [s["action"] for s in rec.trace["policy_steps"]].count("retry") == \
            len(attempts) - 1


def test_schema_repair_as_a_policy_repairs_the_strict_contract(corpus: Corpus) -> None:
    config = RunConfig(scenarios=("schema_drift",), modes=("strict",),
                       arms=("uncontrolled", "schema_repair"), tasks=1)
    runner = MatrixRunner(config, corpus)
    task, labels = corpus.tasks[0], corpus.labels[0]
    plain, repaired = runner.run_cells([Cell("deterministic", "schema_drift", "strict", arm,
                                             task, labels)
                                        for arm in ("uncontrolled", "schema_repair")])
    assert not plain.V and plain.abstained
    assert repaired.V and repaired.S and repaired.trace["tool_calls"][0]["repairs"]
