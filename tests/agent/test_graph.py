"""The LangGraph agent: early exits before a prompt, the trace, and the gate slot."""

from __future__ import annotations

from simulator.agent.gate import Decision, GateInput
from simulator.corpus import Corpus
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner


def _record(corpus: Corpus, scenario: str, mode: str = "strict", row: int = 0,
            arm: str = "uncontrolled"):
    runner = MatrixRunner(RunConfig(scenarios=(scenario,), modes=(mode,), arms=(arm,)), corpus)
    cell = Cell("deterministic", scenario, mode, arm, corpus.tasks[row], corpus.labels[row])
    return runner.run_cell(cell)


def test_clean_builds_a_prompt_and_answers_with_a_citation(corpus: Corpus) -> None:
    rec = _record(corpus, "clean")
    assert rec.prompt_hash is not None and rec.S
    assert rec.trace["prompt_built"] and rec.citations


def test_missing_output_ends_with_unknown_before_any_prompt(corpus: Corpus) -> None:
    for mode in ("strict", "repair"):
        rec = _record(corpus, "missing_tool_output", mode)
        assert rec.prompt_hash is None and rec.abstained and not rec.trace["prompt_built"]
        assert rec.failure_layer == "completeness"


def test_permission_denied_ends_with_unknown_before_any_prompt(corpus: Corpus) -> None:
    rec = _record(corpus, "permission_denied", "repair")
    assert rec.prompt_hash is None and rec.abstained
    assert rec.failure_layer == "authorization" and rec.safe_resolution


def test_strict_rejects_drift_before_a_prompt_and_repair_recovers(corpus: Corpus) -> None:
    strict = _record(corpus, "schema_drift", "strict")
    assert strict.prompt_hash is None and not strict.V and strict.failure_layer == "contract"
    repair = _record(corpus, "schema_drift", "repair")
    assert repair.V and repair.S and repair.trace["tool_calls"][0]["repairs"]


def test_the_trace_records_calls_documents_and_validity(corpus: Corpus) -> None:
    rec = _record(corpus, "clean")
    call = rec.trace["tool_calls"][0]
    assert call["tool"] == "search_policies" and call["valid"] and call["doc_ids"]
    assert set(rec.retrieved_doc_ids) == set(call["doc_ids"])


class _RetryTwice:
    name = "retry_twice"

    def __call__(self, state: GateInput) -> Decision:
        if len(state.calls) < 3:
            return Decision("retry", "try again", policy=self.name)
        return Decision("allow", "enough", policy=self.name)


def test_a_retrying_gate_loops_and_every_attempt_is_traced(corpus: Corpus) -> None:
    from policies.arms import arms

    if "retry_twice_test" not in arms:
        arms.add("retry_twice_test", _RetryTwice())
    rec = _record(corpus, "clean", arm="retry_twice_test")
    assert [c["attempt"] for c in rec.trace["tool_calls"]] == [0, 1, 2]
    assert [s["action"] for s in rec.trace["policy_steps"]] == ["retry", "retry", "allow"]
