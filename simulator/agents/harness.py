"""The harness layerrag runs around every tool call of a tool-calling agent under test.

Outermost first, around the agent's ``search_policies`` and ``fetch_document`` tools::

    PolicyGateMiddleware    the arm's policies decide after each search (allow, abstain,
                            reject, bounded retry, repair), as the pipeline's gate does
    RecordingMiddleware     the run's contract mode on each search output, and a record
                            of every call and what came back: what the scorer reads
    FaultInjectionMiddleware  the scenario's faults (middleware.adapters)
    the tool                PolicyEnvironment's endpoints (middleware.policy_tools)

They are LangChain tool middleware, but they do not sit in the agent's graph: the tools
handed to the factory run them inside each call (simulator/agents/tools.py), so every graph
shape is faulted and recorded alike. Only ``tools.PolicyStopMiddleware`` is handed to the
factory, to end a ``create_agent`` run early once a policy ended the record.

Per-run state lives in the run's ``context`` (:class:`ToolRunContext`), never on the
middleware instances, so one set serves every record concurrently. The context is handed
to the agent under test (its own middleware reads ``request.runtime.context``), so it
carries nothing evaluator-only: no labels (the faults aim without them), and not the
:class:`Recorder` either.

The recorder is what makes "the same scorer" hold: each search the agent made is observed
with :func:`simulator.agent.observation.observe`, the function the pipeline's contract step
uses. It lives in a module-private table keyed by the context object's identity (a weak
reference: the entry goes when the record's context does), read with :func:`recorder_of`.
Why a table and not a field of the context: everything reachable from an object the agent
holds is the agent's to read and to rewrite; the table is reachable from no object the
agent is given (a walk over ``request.runtime``, the state and the tools' closures does not
find it: tests/agents/test_labels_out_of_reach.py). Python code can of course import any
module; the promise is that the harness hands the agent nothing that leads to the scorer's
inputs.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ToolCallRequest
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from middleware.adapters.langchain_agent import parse_content
from middleware.adapters.langchain_tools import ATTEMPT_STATE_KEY
from middleware.adapters.plan import FaultPlan
from middleware.contract import check_contract
from simulator.agent.gate import UNCONTROLLED, Decision, GateInput, PolicyGate
from simulator.agent.observation import SEARCH_TOOL, Observation, observe
from simulator.agent.state import DocumentFetcher
from simulator.agent.trace import PolicyStep
from simulator.corpus.model import Task
from simulator.readers.base import Evidence
from simulator.readers.call_metadata import Metadata

MAX_ATTEMPTS = 8
"""Hard cap on searches per record, whatever a policy or the agent asks for."""
POLICY_PREFIX = "layerrag policy"

Handler = Callable[[ToolCallRequest], ToolMessage | Command]
AsyncHandler = Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]


CALL_STATE_KEY = "layerrag_recorded_call"
"""Where a harnessed tool puts its :class:`RecordedCall` in the request's state, so the
recording middleware can add the searches it observes for that call."""
MESSAGE_CHARS = 600
"""The most characters of a tool message a trajectory keeps."""


@dataclass
class RecordedCall:
    """One call the agent made to a harnessed tool, for its trajectory: the arguments, the
    searches observed for it (a policy's retries make several) and the message it got."""

    tool: str
    args: dict[str, Any]
    observations: list[int] = field(default_factory=list)
    """Indexes into :attr:`Recorder.observations`, in order."""
    content: str | None = None
    """What the agent was given (cut to :data:`MESSAGE_CHARS`)."""
    error: bool = False


@dataclass
class Recorder:
    """What one run of the agent did: every search observed, every decision, the stop."""

    observations: list[Observation] = field(default_factory=list)
    policy_steps: list[PolicyStep] = field(default_factory=list)
    evidence: tuple[Evidence, ...] = ()
    """What the agent was shown last: the last search's hits, or a policy's evidence."""
    terminated: str | None = None
    """Why a policy ended the run (``abstain: reason``), if one did."""
    tool_calls: list[str] = field(default_factory=list)
    """Names of every tool call the agent made, in order."""
    calls: list[RecordedCall] = field(default_factory=list)
    """Every call the agent made to a harnessed tool, with what it got (the trajectory)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def searches(self) -> int:
        return len(self.observations)


@dataclass(frozen=True, eq=False)
class ToolRunContext:
    """The runtime context of one record run through a tool-calling agent.

    What the agent's middleware may read: the task (as the agent receives it), the scenario,
    the contract mode, the arm's gate, the fetcher and the run's instructions. Compared and
    hashed by identity: one context is one record's run (and the key of its recorder).
    """

    task: Task
    scenario: str
    contract_mode: str
    seed: int = 0
    gate: PolicyGate = UNCONTROLLED
    fetch_document: DocumentFetcher | None = None
    instructions: str = ""
    """Additional instructions given after the task (a source-priority policy)."""
    metadata: Metadata = ()
    """Run metadata for every LangChain call of the record: the graph's ``config``
    (simulator/readers/call_metadata.py). What the agent may know, no label."""
    fault_task: Task | None = None
    """The task the faults aim with, when it is not ``task``: in a conversation, the turn's
    task asked with the thread's user messages, what the conversation is about (as the
    pipeline searches and its faults aim), while ``task`` holds the turn's own message."""

    @property
    def fault_plan(self) -> FaultPlan:
        """The plan FaultInjectionMiddleware reads from the context."""
        return FaultPlan(scenario=self.scenario, task=self.fault_task or self.task,
                         seed=self.seed)


_recorders: weakref.WeakKeyDictionary[ToolRunContext, Recorder] = weakref.WeakKeyDictionary()
_recorders_lock = threading.Lock()


def recorder_of(ctx: ToolRunContext) -> Recorder:
    """The recorder of the run ``ctx`` is the context of (created on first use).

    The episode runner and the harness middleware read it here; the context itself does not
    hold it (module docstring)."""
    with _recorders_lock:
        found = _recorders.get(ctx)
        if found is None:
            found = _recorders[ctx] = Recorder()
        return found


def run_context(request: Any) -> ToolRunContext | None:
    context = getattr(getattr(request, "runtime", None), "context", None)
    return context if isinstance(context, ToolRunContext) else None


# -- recording and the contract step ---------------------------------------------------


class RecordingMiddleware(AgentMiddleware):
    """Apply the run's contract mode to each search output and record what the agent saw.

    A valid (or repaired) payload reaches the agent as schema-v2 JSON; a missing or rejected
    one reaches it as an error tool message naming why, with no evidence, as the strict
    contract's rejection does in the pipeline. Each search also tells the fault middleware
    its attempt number (retries inside one tool call included) through the call's state.
    """

    def wrap_tool_call(self, request: ToolCallRequest, handler: Handler
                       ) -> ToolMessage | Command:
        ctx = run_context(request)
        if ctx is None:
            return handler(request)
        recorder_of(ctx).tool_calls.append(request.tool_call["name"])
        if request.tool_call["name"] != SEARCH_TOOL:
            return handler(request)
        return self._observe(ctx, handler(self._with_attempt(request, ctx)), request.state)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: AsyncHandler
                              ) -> ToolMessage | Command:
        ctx = run_context(request)
        if ctx is None:
            return await handler(request)
        recorder_of(ctx).tool_calls.append(request.tool_call["name"])
        if request.tool_call["name"] != SEARCH_TOOL:
            return await handler(request)
        return self._observe(ctx, await handler(self._with_attempt(request, ctx)),
                             request.state)

    @staticmethod
    def _with_attempt(request: ToolCallRequest, ctx: ToolRunContext) -> ToolCallRequest:
        state = request.state if isinstance(request.state, dict) else {}
        return request.override(state={**state, ATTEMPT_STATE_KEY: recorder_of(ctx).searches})

    @staticmethod
    def _observe(ctx: ToolRunContext, message: ToolMessage | Command, state: Any = None
                 ) -> ToolMessage | Command:
        if not isinstance(message, ToolMessage):
            return message
        mode = getattr(ctx.gate, "contract_override", None) or ctx.contract_mode
        result = check_contract(parse_content(message.content), mode=mode)
        recorder = recorder_of(ctx)
        seen = observe(result, attempt=recorder.searches)
        with recorder._lock:
            recorder.observations.append(seen)
            recorder.evidence = seen.evidence
            entry = state.get(CALL_STATE_KEY) if isinstance(state, dict) else None
            if isinstance(entry, RecordedCall):
                entry.observations.append(len(recorder.observations) - 1)
        if result.payload is not None:
            return message.model_copy(update={"content": result.payload.model_dump_json(),
                                              "status": "success"})
        why = "no usable tool output" if result.status == "missing" else \
            "rejected by the contract: " + "; ".join(result.errors[:3])
        return message.model_copy(update={"content": f"search_policies failed: {why}",
                                          "status": "error"})


# -- policies --------------------------------------------------------------------------


class PolicyGateMiddleware(AgentMiddleware):
    """The arm's policies on a tool-calling agent: decide after each search, as the
    pipeline's gate node does, with the same :class:`GateInput` and the same decisions.

    ``retry`` calls the tool again (the fault sees the next attempt), up to
    :data:`MAX_ATTEMPTS` searches; ``abstain`` and ``reject`` end the record, which gets a
    structured non-answer with the policy's reason (``tools.PolicyStopMiddleware`` ends a
    ``create_agent`` run before the model is called again); ``allow`` with evidence shows
    the agent the policy's evidence instead of the raw hits (corrected metadata, a dropped
    stale hit).
    """

    def wrap_tool_call(self, request: ToolCallRequest, handler: Handler
                       ) -> ToolMessage | Command:
        ctx = run_context(request)
        if ctx is None or ctx.gate is UNCONTROLLED or request.tool_call["name"] != SEARCH_TOOL:
            return handler(request)
        while True:
            message = handler(request)
            decided = self._decide(ctx, message)
            if decided is not None:
                return decided

    async def awrap_tool_call(self, request: ToolCallRequest, handler: AsyncHandler
                              ) -> ToolMessage | Command:
        ctx = run_context(request)
        if ctx is None or ctx.gate is UNCONTROLLED or request.tool_call["name"] != SEARCH_TOOL:
            return await handler(request)
        while True:
            message = await handler(request)
            decided = self._decide(ctx, message)
            if decided is not None:
                return decided

    @staticmethod
    def _decide(ctx: ToolRunContext, message: ToolMessage | Command
                ) -> ToolMessage | Command | None:
        """The message to return, or None to search again."""
        recorder = recorder_of(ctx)
        if not isinstance(message, ToolMessage) or not recorder.observations:
            return message
        outcome = ctx.gate(GateInput(
            task=ctx.task, contract_mode=ctx.contract_mode,
            calls=tuple(o.trace for o in recorder.observations),
            payloads=tuple(o.payload for o in recorder.observations),
            evidence=recorder.evidence, notes=recorder.observations[-1].notes,
            fetch_document=ctx.fetch_document))
        decisions: list[Decision] = list(outcome) if isinstance(outcome, list) else [outcome]
        final = decisions[-1] if decisions else Decision("allow", "no decision")
        if final.action == "retry" and recorder.searches >= MAX_ATTEMPTS:
            final = Decision("abstain", f"retry cap of {MAX_ATTEMPTS} attempts reached",
                             policy=final.policy)
            decisions.append(final)
        recorder.policy_steps.extend(PolicyStep(policy=d.policy, action=d.action,
                                                reason=d.reason) for d in decisions)
        if final.action == "retry":
            return None
        if final.action in ("abstain", "reject"):
            recorder.terminated = f"{final.action}: {final.reason}"
            return message.model_copy(update={
                "content": f"{POLICY_PREFIX} {final.policy}: {final.action}: {final.reason}",
                "status": "error"})
        override = next((d.evidence for d in reversed(decisions) if d.evidence is not None),
                        None)
        told = tuple(f"{POLICY_PREFIX} {d.policy}: {d.instructions}" for d in decisions
                     if d.instructions)
        if override is None and not told:
            return message
        if override is not None:
            recorder.evidence = tuple(override)
        return message.model_copy(update={
            "content": _with_evidence(recorder.observations[-1], recorder.evidence, told)})


def _with_evidence(seen: Observation, evidence: tuple[Evidence, ...],
                   told: tuple[str, ...] = ()) -> str:
    """The last payload with its hits replaced by a policy's evidence (same documents,
    the policy's order and metadata), and what a policy tells the agent (conflict_disclosure's
    guiding prompt) among its notes, prefixed ``layerrag policy NAME:`` as every message a
    policy adds to the conversation is."""
    payload = seen.payload
    if payload is None:
        return json.dumps({"hits": [e.model_dump() for e in evidence], "notes": list(told)})
    by_id = {h.doc_id: h for h in payload.hits}
    hits = []
    for e in evidence:
        hit = by_id.get(e.doc_id)
        if hit is None:
            continue
        meta = hit.metadata.model_copy(update={
            k: v for k, v in (("status", e.status), ("effective_year", e.effective_year),
                              ("version", e.version), ("domain", e.domain)) if v is not None})
        hits.append(hit.model_copy(update={"metadata": meta}))
    return payload.model_copy(update={"hits": tuple(hits),
                                      "notes": (*payload.notes, *told)}).model_dump_json()

