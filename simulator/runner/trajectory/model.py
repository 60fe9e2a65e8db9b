"""The trajectory of one record: what the agent was asked, did, saw and answered, and why
the scorer said what it said.

It is written to the run store beside the record (its own table, same transaction:
simulator/runner/store.py) and read by ``layerrag show`` and ``layerrag view``. It is
evaluator-side: the expected answer and the required documents sit beside the agent's
answer, so nothing here may reach a privacy-safe archive (the archive row is an allowlist
of record fields, and the trajectory is not a record field: tests/archive/
test_trajectory_privacy.py).

The runner builds trajectories as plain dicts (:mod:`.build`), because a validated model
per record would cost the main job a noticeable share of its four seconds; these models
are the shape readers validate against, and a test holds the builder to them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.readers.base import Evidence

TRAJECTORY_VERSION = 1
"""Bump when the shape changes; readers refuse versions they do not know."""
TEXT_CHARS = 600
"""The most characters of a hit's text, a tool message or a prose answer kept (documents of
the reference corpus are ~200 characters; a longer text is cut, and says so)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FaultEffect(_Frozen):
    """What a fault did to one tool result, as seen from the result itself."""

    fault: str | None
    """The scenario's fault that explains it, or None when no fault of the scenario does."""
    effect: str
    """One line: ``served the stale index snapshot snapshot-2022-r1``."""


HitSeen = Evidence
"""One search hit as the agent saw it (after faults and the contract step): the same prose
and allowlisted metadata a reader is given (simulator.readers.base.Evidence)."""


class ToolStep(_Frozen):
    """One call to an endpoint and what came back."""

    tool: str
    args: dict[str, Any]
    """The call's arguments as the agent made them (the query; the session is left out)."""
    status: str
    """``ok``, ``missing``, ``invalid`` (a search after the contract step) or ``error``."""
    hits: tuple[HitSeen, ...] = ()
    notes: tuple[str, ...] = ()
    message: str | None = None
    """The text the agent was given when it is not a list of hits: an error, a policy's
    stop, a fetched document (cut to :data:`TEXT_CHARS`)."""
    repairs: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    faults: tuple[FaultEffect, ...] = ()
    shown: bool = True
    """False for a search a policy retried before the agent saw it."""


class PolicySeen(_Frozen):
    policy: str
    action: str
    reason: str


class AnswerSeen(_Frozen):
    value: str | None
    citations: tuple[str, ...] = ()
    abstained: bool = False
    reason: str | None = None
    prose: str | None = None
    """The agent's final message when it answered in prose (cut to :data:`TEXT_CHARS`)."""


class Check(_Frozen):
    """One score and, when it failed, why."""

    ok: bool
    why: str


class Verdict(_Frozen):
    """The scoring breakdown beside the truth it was scored against (evaluator-side)."""

    E: Check
    R: Check
    G: Check
    V: Check
    S: Check
    safe_resolution: Check
    answerable: bool
    failure_layer: str | None
    failure_why: str | None
    expected_answer: str
    accepted_answers: tuple[str, ...]
    superseded_answers: tuple[str, ...]
    required_doc_ids: tuple[str, ...]


class Trajectory(_Frozen):
    """One record's trajectory (see the module docstring)."""

    version: int = TRAJECTORY_VERSION
    agent: str
    question: str
    task_message: str
    """What the agent was given: the question, its answer format and any instructions."""
    steps: tuple[ToolStep, ...] = ()
    policy: tuple[PolicySeen, ...] = ()
    reader_evidence: tuple[str, ...] = ()
    """Documents that reached the reader (pipeline) or were shown last (tool agents)."""
    terminated: str | None = None
    answer: AnswerSeen
    verdict: Verdict
