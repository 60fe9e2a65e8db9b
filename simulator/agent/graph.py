"""The layerrag agent as a LangGraph StateGraph, compiled once and reused for every record.

retrieve -> contract -> policy_gate -> generate -> finish, with two exits before a prompt
exists: the gate may abstain or reject, and the pipeline ends with a structured "unknown"
when retrieval is unavailable or invalid (missing output, access denied, a payload the strict
contract rejected), as in the paper. Per-record inputs that are not the agent's business
(the fault plan and the labels it targets, the reader, the gate) ride in the runtime
context, never in the state, so nothing downstream of the endpoint can read a label.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from simulator.agent.gate import UNCONTROLLED, Decision, GateInput, PolicyGate
from simulator.agent.trace import PolicyStep, ToolCallTrace
from simulator.corpus.model import Labels, Task
from simulator.readers.base import (
    AgentAnswer,
    Evidence,
    Reader,
    ReaderInput,
    ReaderResult,
    unknown_answer,
)

RECURSION_LIMIT = 40
"""Explicit: a bounded retry loop of a few attempts fits comfortably; runaways stop early."""
MAX_ATTEMPTS = 8
"""Hard cap on tool calls per record, whatever a policy asks for."""


@dataclass(frozen=True)
class AgentContext:
    """Per-record runtime context: the environment side of one record."""

    task: Task
    labels: Labels
    """Only the fault chain reads these (faults are the environment)."""
    chain: Any
    """The scenario's tool chain (middleware.build_tool_chain)."""
    contract_mode: str
    reader: Reader
    seed: int = 0
    gate: PolicyGate = UNCONTROLLED
    fetch_document: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class AgentState(TypedDict, total=False):
    question: str
    answer_format: str
    raw: Any
    calls: Annotated[list[ToolCallTrace], operator.add]
    payloads: Annotated[list[Any], operator.add]
    policy_steps: Annotated[list[PolicyStep], operator.add]
    evidence: list[Evidence]
    notes: list[str]
    decision: str
    terminated: str | None
    answer: AgentAnswer
    reader_result: ReaderResult | None


def _retrieve(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    from middleware import FaultContext, ToolCall

    ctx = runtime.context
    attempt = len(state.get("calls", []))
    call = ToolCall(name="search_policies",
                    args={"query": ctx.task.question, "session": ctx.task.session.model_dump()})
    fault_ctx = FaultContext(task=ctx.task, labels=ctx.labels, attempt=attempt, seed=ctx.seed)
    return {"raw": ctx.chain.invoke(call, fault_ctx)}


def _contract(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    from middleware import check_contract

    ctx = runtime.context
    # A policy may take over the contract step (schema_repair turns strict into repair).
    mode = getattr(ctx.gate, "contract_override", None) or ctx.contract_mode
    result = check_contract(state.get("raw"), mode=mode)
    payload = result.payload
    hits = payload.hits if payload is not None else ()
    trace = ToolCallTrace(
        tool="search_policies", attempt=len(state.get("calls", [])), status=result.status,
        valid=result.valid, repairs=tuple(result.repairs), errors=tuple(result.errors),
        doc_ids=tuple(h.doc_id for h in hits),
        session_id=payload.session_id if payload is not None else None,
        snapshot_id=payload.index.snapshot_id if payload is not None else None,
        partial=payload.partial if payload is not None else False,
        missing_shards=tuple(payload.missing_shards) if payload is not None else (),
        access_denied=payload.access.denied if payload is not None else False,
    )
    evidence = [
        Evidence(doc_id=h.doc_id, title=h.title, text=h.text, status=h.metadata.status,
                 effective_year=h.metadata.effective_year, version=h.metadata.version,
                 domain=h.metadata.domain)
        for h in hits
    ]
    notes = list(payload.notes) if payload is not None else []
    return {"calls": [trace], "payloads": [payload], "evidence": evidence, "notes": notes,
            "raw": None}


def _policy_gate(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    gate_input = GateInput(
        task=ctx.task, contract_mode=ctx.contract_mode, calls=tuple(state["calls"]),
        payloads=tuple(state["payloads"]), evidence=tuple(state.get("evidence", [])),
        notes=tuple(state.get("notes", [])), fetch_document=ctx.fetch_document,
    )
    outcome = ctx.gate(gate_input)
    decisions: list[Decision] = outcome if isinstance(outcome, list) else [outcome]
    final = decisions[-1] if decisions else Decision("allow", "no decision")
    if final.action == "retry" and len(state["calls"]) >= MAX_ATTEMPTS:
        final = Decision("abstain", f"retry cap of {MAX_ATTEMPTS} attempts reached",
                         policy=final.policy)
        decisions.append(final)
    update: dict[str, Any] = {
        "decision": final.action,
        "policy_steps": [PolicyStep(policy=d.policy, action=d.action, reason=d.reason)
                         for d in decisions],
    }
    evidence_override = next((d.evidence for d in reversed(decisions)
                              if d.evidence is not None), None)
    if evidence_override is not None:
        update["evidence"] = list(evidence_override)
    if final.action in ("abstain", "reject"):
        update["terminated"] = f"{final.action}: {final.reason}"
        update["answer"] = unknown_answer(final.reason)
    return update


def unavailable_reason(call: ToolCallTrace) -> str | None:
    """Why the pipeline must stop before building a prompt, or None to go on."""
    if call.status == "missing":
        return "tool output missing"
    if not call.valid:
        return "tool output rejected by the strict contract"
    if call.access_denied:
        return "access denied"
    return None


def _after_gate(state: AgentState) -> Literal["retrieve", "stop", "generate"]:
    decision = state.get("decision", "allow")
    if decision == "retry":
        return "retrieve"
    if decision in ("abstain", "reject"):
        return "stop"
    if unavailable_reason(state["calls"][-1]) is not None:
        return "stop"
    return "generate"


def _stop(state: AgentState) -> dict[str, Any]:
    if state.get("terminated"):
        return {}
    reason = unavailable_reason(state["calls"][-1]) or "unknown"
    return {"terminated": reason, "answer": unknown_answer(reason), "reader_result": None}


def _generate(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ctx = runtime.context
    item = ReaderInput(question=state["question"], answer_format=state["answer_format"],
                       evidence=tuple(state.get("evidence", [])),
                       notes=tuple(state.get("notes", [])))
    result = ctx.reader.read(item)
    return {"answer": result.answer, "reader_result": result, "terminated": None}


def _finish(state: AgentState) -> dict[str, Any]:
    """The single exit: every record leaves with an answer (possibly a structured unknown)."""
    return {} if state.get("answer") is not None else {"answer": unknown_answer("no answer")}


def build_agent_graph() -> Any:
    """Compile the agent graph. Do it once; invoke it per record with an AgentContext."""
    graph = StateGraph(AgentState, context_schema=AgentContext)
    graph.add_node("retrieve", _retrieve)
    graph.add_node("contract", _contract)
    graph.add_node("policy_gate", _policy_gate)
    graph.add_node("stop", _stop)
    graph.add_node("generate", _generate)
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "contract")
    graph.add_edge("contract", "policy_gate")
    graph.add_conditional_edges("policy_gate", _after_gate,
                                {"retrieve": "retrieve", "stop": "stop", "generate": "generate"})
    graph.add_node("finish", _finish)
    graph.add_edge("stop", "finish")
    graph.add_edge("generate", "finish")
    graph.add_edge("finish", END)
    return graph.compile()


def initial_state(task: Task) -> AgentState:
    return {"question": task.question, "answer_format": task.answer_format, "calls": [],
            "payloads": [], "policy_steps": [], "terminated": None, "reader_result": None}
