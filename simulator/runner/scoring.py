"""Turn a finished graph state into a scored :class:`RunRecord`."""

from __future__ import annotations

from collections.abc import Mapping

from simulator.agent.state import Episode
from simulator.agent.trace import Trace
from simulator.corpus.model import Labels, Task
from simulator.readers.base import AgentAnswer, ReaderResult, unknown_answer
from simulator.runner.record import RunRecord
from simulator.scoring.behaviour import behaviour_label
from simulator.scoring.metrics import tampered_docs
from simulator.scoring.verdict import judge
from simulator.vocabulary import DEFAULT_AGENT


def trace_of(state: Episode, task: Task) -> Trace:
    result: ReaderResult | None = state.get("reader_result")
    return Trace(
        caller_session_id=task.session.session_id,
        tool_calls=tuple(state.get("calls", [])),
        evidence_doc_ids=tuple(e.doc_id for e in state.get("evidence", [])),
        policy_steps=tuple(state.get("policy_steps", [])),
        prompt_built=result is not None,
        prompt_hash=result.prompt_hash if result is not None else None,
        terminated=state.get("terminated"),
    )


def marked_current(state: Episode) -> frozenset[str]:
    """Documents some payload labelled current (whatever the truth was)."""
    return frozenset(h.doc_id for p in state.get("payloads", []) if p is not None
                     for h in p.hits if h.metadata.status == "current")


def returned_texts(state: Episode) -> dict[str, str]:
    """Text of every document a contract-checked payload carried (for groundedness)."""
    texts: dict[str, str] = {}
    for payload in state.get("payloads", []):
        if payload is not None:
            texts.update((h.doc_id, h.text) for h in payload.hits)
    return texts


def score_record(state: Episode, task: Task, labels: Labels, *, run_id: str,
                 model: str, provider: str, scenario: str, contract_mode: str, arm: str,
                 latency_ms: float, agent: str = DEFAULT_AGENT,
                 registered: Mapping[str, str] | None = None) -> RunRecord:
    """The scored record of a finished episode. ``registered`` (the registry's text of the
    required documents) lets the scorer see evidence served edited (misleading_evidence)."""
    return scored(state, task, labels, run_id=run_id, model=model, provider=provider,
                  scenario=scenario, contract_mode=contract_mode, arm=arm,
                  latency_ms=latency_ms, agent=agent, registered=registered)[0]


def final_answer_of(state: Episode) -> AgentAnswer:
    """The episode's answer, or the structured unknown of an episode that has none."""
    return state["answer"] or unknown_answer("the episode ended without an answer")


def scored(state: Episode, task: Task, labels: Labels, *, run_id: str,
           model: str, provider: str, scenario: str, contract_mode: str, arm: str,
           latency_ms: float, agent: str = DEFAULT_AGENT,
           registered: Mapping[str, str] | None = None
           ) -> tuple[RunRecord, AgentAnswer, Trace]:
    """:func:`score_record`, with the answer and trace it was scored from (what the
    record's trajectory explains its scores with)."""
    answer = final_answer_of(state)
    result: ReaderResult | None = state.get("reader_result")
    trace = trace_of(state, task)
    texts = returned_texts(state)
    outcome = judge(answer, trace, labels, task, texts,
                    provider_error=bool(result and result.provider_error),
                    reader_error=bool(result and result.reader_error),
                    agent_error=bool(result and result.agent_error),
                    marked_current=marked_current(state),
                    tampered=tampered_docs(texts, registered or {}))
    if not (outcome.provider_error or outcome.agent_error or outcome.reader_error):
        # no response, no behaviour
        outcome = outcome.model_copy(update={"behaviour": behaviour_label(
            answer, task.question, task.answer_format, state.get("evidence", []),
            state.get("notes", []))})
    record = RunRecord(
        run_id=run_id, model=model, provider=provider, scenario=scenario,
        contract_mode=contract_mode, arm=arm, agent=agent, task_id=task.task_id,
        task_row=task.row,
        unit=labels.unit, unit_id=labels.unit_id, variant=labels.variant, domain=labels.domain,
        **outcome.model_dump(),
        prompt_hash=trace.prompt_hash, answer=answer.answer, citations=answer.citations,
        reason=answer.reason, retrieved_doc_ids=trace.retrieved_doc_ids,
        trace=trace.model_dump(mode="json"), latency_ms=round(latency_ms, 3),
        input_tokens=result.input_tokens if result else 0,
        output_tokens=result.output_tokens if result else 0,
        cost_usd=result.cost_usd if result else None,
    )
    return record, answer, trace
