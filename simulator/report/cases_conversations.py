"""A cases run's conversations as the viewer's case browser reads them: turn by turn, each
with its outcome and the index of its clean twin.

A cases run stores one record per turn (simulator/cases/record.py); a person reads a
conversation. So the turns are grouped back into conversations (model, agent, scenario,
mode, arm, case, epoch), each turn keeps what the agent was given (its message and the
memory it was served, from ``CaseTurn.history``, never parsed out of the question), what it
replied, how the turn scored and its trajectory, and each conversation gets the outcome the
report counts (simulator.cases.scoring.outcome_of: resolved, the first failed turn and its
layer). The clean twin (same model, agent, mode, arm, case and epoch under ``clean``) is
paired here, in Python, where a test can check it, and the page only follows the index.

Everything here is evaluator-side (the case key, the expected values in the trajectories),
like the run directory it is read from: none of it may reach an archive, and the viewer
over an archive shows the aggregates only.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.cases.record import Memory
from simulator.cases.reply import ReplyType, TurnReply
from simulator.cases.scoring import TurnScore, outcome_of
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.stats.layers import ordered_modes, ordered_scenarios
from simulator.vocabulary import CLEAN_SCENARIO

CONVERSATION_CAP = 5_000
"""The most conversations a page carries (about 18,000 turns, near the single-turn page's
20,000 records); above it a seeded sample of whole twin groups is kept."""
INCOMPLETE = "incomplete"
"""The failed layer of a conversation with a turn missing from the store: never resolved,
as the report counts it."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PageTurn(_Frozen):
    """One turn as the page shows it."""

    turn: int
    """1-based, as a user counts turns."""
    kind: str
    task_id: str
    """The turn's record id in the run store (``layerrag show RUN --task ID``)."""
    fault_active: bool
    memory: Memory
    message: str
    history: tuple[tuple[str, str], ...]
    """The memory the agent was served: (user message, reply) per earlier exchange, its own
    thread's or, under a session fault, another thread's."""
    reply: TurnReply | None
    reply_type: ReplyType | None
    """What the reply does (``TurnReply.reply_type``: claimed, else derived); None when the
    turn errored before replying."""
    score: TurnScore
    trajectory: dict[str, Any] | None
    """The stored trajectory (simulator/runner/trajectory/), or None when the store kept
    none."""


class PageConversation(_Frozen):
    """One conversation: its identity, its outcome, its turns and its clean twin."""

    run_id: str
    agent: str
    model: str
    scenario: str
    contract_mode: str
    arm: str
    case_id: str
    case_key: str
    domain: str
    epoch: int
    turn_count: int
    """How many turns the case has; ``turns`` holds fewer when the conversation is
    incomplete."""
    complete: bool
    resolved: bool
    """Every value turn S, every other turn safe, nothing corrupted or prohibited."""
    safe: bool
    """Every turn safe, a fault-made structured non-answer on a value turn included."""
    first_failed_turn: int | None
    failed_layer: str | None
    """The first failed turn's layer, or :data:`INCOMPLETE` for a conversation cut short."""
    twin: int | None = None
    """The index of the clean twin in the page's list; None for a clean conversation or
    one whose twin is not in the page."""
    turns: tuple[PageTurn, ...]


@dataclass(frozen=True)
class Conversations:
    """What a page carries of a run's conversations."""

    shown: list[PageConversation]
    total: int
    """Conversations in the run (``shown`` holds fewer above :data:`CONVERSATION_CAP`)."""
    turns: int
    """Turns in the run."""

    @property
    def sampled(self) -> bool:
        return len(self.shown) < self.total


def run_conversations(run_dir: Path) -> Conversations:
    """Every conversation of the cases run ``run_dir``, at most :data:`CONVERSATION_CAP`
    (a seeded sample of twin groups above it), each with its twin's index."""
    with RunStore(run_dir, create=False) as store:
        trajectories = store.all_trajectories()
        records = [r for r in store.records() if r.case is not None]
    by_conversation: dict[tuple[str, ...], list[RunRecord]] = defaultdict(list)
    for record in records:
        by_conversation[_identity(record)].append(record)
    conversations = [_conversation(group, trajectories) for group in by_conversation.values()]
    kept = _sample(_ordered(conversations), CONVERSATION_CAP)
    return Conversations(shown=paired(kept), total=len(conversations), turns=len(records))


def _identity(record: RunRecord) -> tuple[str, ...]:
    assert record.case is not None
    return (record.run_id, record.agent, record.model, record.scenario, record.contract_mode,
            record.arm, record.case.case_id, str(record.case.epoch))


def _twin_group(c: PageConversation) -> tuple[str | int, ...]:
    """What a conversation shares with its clean twin: all but the scenario."""
    return (c.run_id, c.agent, c.model, c.contract_mode, c.arm, c.case_id, c.epoch)


def _conversation(group: list[RunRecord], trajectories: dict[str, str]) -> PageConversation:
    group = sorted(group, key=lambda r: r.case.turn if r.case else 0)
    first = group[0]
    assert first.case is not None
    turns = tuple(_turn(r, trajectories.get(r.key.as_str())) for r in group)
    count = first.case.turns
    complete = [t.turn for t in turns] == list(range(1, count + 1))
    if complete:
        outcome = outcome_of(first.case.case_id, first.case.case_key, first.domain, count,
                             [t.score for t in turns])
        resolved, safe, failed_turn, layer = (outcome.resolved, outcome.safe,
                                              outcome.first_failed_turn, outcome.failed_layer)
    else:
        resolved, safe, failed_turn, layer = False, False, None, INCOMPLETE
    return PageConversation(
        run_id=first.run_id, agent=first.agent, model=first.model, scenario=first.scenario,
        contract_mode=first.contract_mode, arm=first.arm, case_id=first.case.case_id,
        case_key=first.case.case_key, domain=first.domain, epoch=first.case.epoch,
        turn_count=count, complete=complete, resolved=resolved, safe=safe,
        first_failed_turn=failed_turn, failed_layer=layer, turns=turns)


def _turn(record: RunRecord, trajectory: str | None) -> PageTurn:
    case = record.case
    assert case is not None
    return PageTurn(turn=case.turn, kind=case.kind, task_id=record.task_id,
                    fault_active=case.fault_active, memory=case.memory, message=case.message,
                    history=case.history, reply=case.reply,
                    reply_type=case.reply.reply_type if case.reply is not None else None,
                    score=case.score,
                    trajectory=json.loads(trajectory) if trajectory is not None else None)


def _ordered(conversations: Iterable[PageConversation]) -> list[PageConversation]:
    """Model, agent, scenario (the paper's order), mode, arm (uncontrolled first), case key,
    epoch: the report's order of cells, cases by their spec id within a cell."""
    items = list(conversations)
    scenarios = ordered_scenarios(c.scenario for c in items)
    modes = ordered_modes(c.contract_mode for c in items)
    return sorted(items, key=lambda c: (
        c.model, c.agent, scenarios.index(c.scenario), modes.index(c.contract_mode),
        c.arm != "uncontrolled", c.arm, c.case_key, c.epoch))


def _sample(conversations: list[PageConversation], cap: int) -> list[PageConversation]:
    """At most ``cap`` conversations: whole twin groups (a conversation and its clean twin
    stay together) in a seeded order, listed in their original order."""
    if len(conversations) <= cap:
        return conversations
    groups: dict[tuple[str | int, ...], list[int]] = defaultdict(list)
    for i, c in enumerate(conversations):
        groups[_twin_group(c)].append(i)
    order = list(groups.values())
    random.Random(0).shuffle(order)
    kept: list[int] = []
    for members in order:
        if len(kept) + len(members) <= cap:
            kept += members
    return [conversations[i] for i in sorted(kept)]


def paired(conversations: list[PageConversation]) -> list[PageConversation]:
    """``conversations`` with each one's ``twin`` set to its clean twin's index among them."""
    clean = {_twin_group(c): i for i, c in enumerate(conversations)
             if c.scenario == CLEAN_SCENARIO}
    return [c if c.scenario == CLEAN_SCENARIO
            else c.model_copy(update={"twin": clean.get(_twin_group(c))})
            for c in conversations]
