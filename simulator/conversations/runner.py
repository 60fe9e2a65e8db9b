"""Run the cases suite: models x scenarios x contract modes x arms x cases, each case a
conversation of 3 to 5 turns, each turn a scored record in the run store.

Every (model, scenario, mode, arm, case, epoch) is one LangGraph thread (simulator/
conversations/thread.py). Threads advance in lockstep, turn 1 of every thread, then turn 2,
and so on, so that the memory a session fault serves at turn k is another thread's memory
after k - 1 turns, whatever order the threads run in. A turn's tools run through the
scenario's fault chain when its schedule says the faults act on that turn (the scenario's
own ``turns``, else the run's ``--fault-turns at:2``), and through the clean chain
otherwise. Under a scenario with a
session fault, the turn is also served another thread's memory: the other case is the one
the endpoint's session mix-up picks for this case's session
(``middleware.faults.wrong_session.other_session``), so the leaked memory and the leaked
search results come from the same case.

The agent is layerrag's pipeline with its conversation front (simulator/answers/
conversation.py), ``react`` or your own tool-calling agent: its graph is invoked once per
turn with the thread's exchanges as messages before the turn's. simulator/conversations/
run.py drives it into a run store.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from middleware import build_tool_chain, get_scenario
from simulator.agent import steps
from simulator.agent.graph import arun_episodes
from simulator.agent.state import Episode
from simulator.answers.conversation import (
    CLARIFY_REASON,
    asks,
    conversation_question,
    identifier_tokens,
    needs_clarification,
    restating,
    thread_identifiers,
)
from simulator.cases import Case, CaseCorpus, CaseLabels, build_case_corpus
from simulator.cases.record import CaseTurn
from simulator.cases.reply import TurnReply
from simulator.cases.schedule import DEFAULT_SCHEDULE, TurnSchedule, parse_schedule
from simulator.cases.scoring import score_turn, turn_failure_layer
from simulator.conversations.thread import (
    ThreadGraph,
    TurnInput,
    as_messages,
    build_thread_graph,
    memory_of,
    run_turn,
)
from simulator.corpus.model import Labels, Task
from simulator.readers.base import AgentAnswer, Conversation, unknown_answer
from simulator.runner.cells import Cell, MatrixRunner
from simulator.runner.config import RunConfig
from simulator.runner.record import RunRecord
from simulator.vocabulary import DEFAULT_AGENT

C = TypeVar("C")
"""A run context: the pipeline's AgentContext or a tool-calling agent's ToolRunContext."""

SESSION_FAULTS = frozenset({"wrong_session"})
"""Faults whose turn also serves another thread's memory."""
CHUNK = 64
"""Threads per gather: one turn position of a run is stored in chunks of this many."""


@dataclass(frozen=True)
class CaseCell:
    """One conversation to run: a case under one model, scenario, mode and arm."""

    model: str
    scenario: str
    mode: str
    arm: str
    case: Case
    labels: CaseLabels
    agent: str = DEFAULT_AGENT
    epoch: int = 1
    """Which repetition of the case (``--epochs``), from 1."""

    def thread_id(self, case: Case | None = None) -> str:
        """This cell's thread, or the thread of ``case`` under the same model, scenario,
        mode, arm and epoch."""
        parts = (self.model, self.scenario, self.mode, self.arm,
                 epoch_id((case or self.case).case_id, self.epoch))
        return "|".join(parts if self.agent == DEFAULT_AGENT else (self.agent, *parts))

    def task_id(self, position: int) -> str:
        """The record's task id of turn ``position``: the turn id, marked with the epoch
        after the first (so a run of one epoch keeps plain turn ids)."""
        return epoch_id(self.case.turns[position].turn_id, self.epoch)


def epoch_id(name: str, epoch: int) -> str:
    return name if epoch == 1 else f"{name}#{epoch}"


def case_cells(config: RunConfig, cases: CaseCorpus) -> list[CaseCell]:
    """Every conversation of the run, in matrix order; ``tasks`` counts cases here."""
    pairs = list(zip(cases.cases, cases.labels, strict=True))[: config.tasks]
    return [CaseCell(model, scenario, mode, arm, case, labels, config.agent, epoch)
            for model in config.models for scenario in config.scenarios
            for mode in config.modes for arm in config.arms
            for epoch in range(1, config.epochs + 1) for case, labels in pairs]


def turn_labels(cases: CaseCorpus) -> dict[str, Labels]:
    """Strict labels of every turn: a value turn's own; a clarify or abstain turn's with no
    expected value and no required document (its strict fields mean nothing, its case
    score says whether it was safe)."""
    strict = {label.task_id: label for label in cases.strict_labels()}
    rows = {t.turn_id: row for row, t in enumerate(t for c in cases.cases for t in c.turns)}
    out: dict[str, Labels] = {}
    for unit, case in enumerate(cases.labels):
        for turn in case.turns:
            out[turn.turn_id] = strict.get(turn.turn_id) or Labels(
                task_id=turn.turn_id, row=rows[turn.turn_id], unit=unit,
                unit_id=case.case_key, variant=turn.position, domain=case.domain,
                answer_format=turn.answer_format, expected_answer="", accepted_answers=(),
                superseded_answers=(), required_doc_ids=(), superseded_doc_ids=(),
                access_group=case.access_group)
    return out


class CaseRunner:
    """What a cases run builds once: the pipeline's runner on the case documents, the
    thread graph, the schedule and the labels of every turn."""

    def __init__(self, config: RunConfig, cases: CaseCorpus | None = None) -> None:
        self.config = config
        self.cases = cases or build_case_corpus(config.spec, config.seed)
        self.schedule: TurnSchedule = parse_schedule(config.fault_turns or DEFAULT_SCHEDULE)
        self.schedules = {s: _schedule_of(s, self.schedule) for s in config.scenarios}
        """Each scenario's schedule: its own where it declares one, else the run's."""
        chosen = self.cases.cases[: config.tasks]
        turns = {t.turn_id for c in chosen for t in c.turns}
        self.labels = turn_labels(self.cases)
        corpus = self.cases.as_corpus()
        tasks = tuple(t for t in corpus.tasks if t.task_id in turns)
        # the pipeline's runner on the case documents, with one task (and label) per turn of
        # the run's cases; the run id is the cases run's own (the case corpus, N cases)
        self.matrix = MatrixRunner(config.model_copy(update={"spec": None, "tasks": None}),
                                   corpus.model_copy(update={"tasks": tasks, "labels": tuple(
                                       self.labels[t.task_id] for t in tasks)}))
        self.matrix.run_id = config.run_id(self.cases.corpus_hash)
        if "clean" not in self.matrix.chains:
            self.matrix.chains["clean"] = build_tool_chain(get_scenario("clean"),
                                                           self.matrix.env)
        self.threads: ThreadGraph = build_thread_graph()
        self.tasks = {t.task_id: t for t in self.matrix.corpus.tasks}
        self.by_session = {c.session.session_id: c for c in self.cases.cases}
        self.isolating = {arm: _isolates(arm) for arm in config.arms}
        self.limit: asyncio.Semaphore | None = None
        """Live runs: at most ``--concurrency`` turns awaiting a provider at once."""

    @property
    def run_id(self) -> str:
        return self.matrix.run_id

    @property
    def template_versions(self) -> dict[str, str]:
        """The prompt template of each model, for the manifest: a chat reader's conversation
        template where it has one."""
        matrix = self.matrix.template_versions
        if self.matrix.agent.kind == "tool_calling":
            return matrix
        return {m: getattr(self.matrix.readers[m], "case_template_version", v)
                for m, v in matrix.items()}

    def _other_case(self, cell: CaseCell) -> Case | None:
        """The case whose memory a session fault serves ``cell``'s thread (None when the
        scenario has no session fault)."""
        faults = {f.name for f in get_scenario(cell.scenario).faults}
        if not faults & SESSION_FAULTS:
            return None
        from middleware.faults.wrong_session import other_session
        from simulator.endpoints.conditions import EndpointConditions

        other = other_session(self.matrix.env, cell.case.session.session_id,
                              self.config.seed, EndpointConditions())
        return self.by_session.get(other)

    async def arun_position(self, cells: Sequence[CaseCell], position: int
                            ) -> list[RunRecord]:
        """Turn ``position`` (0-based) of each cell's thread, in cell order. Foreign memory
        is read for every cell before any of them runs this turn."""
        foreign = []
        for cell in cells:
            active = self.schedules[cell.scenario].active(position + 1)
            other = self._other_case(cell) if active else None
            foreign.append(None if other is None else
                           await memory_of(self.threads, cell.thread_id(other), position))
        records: list[RunRecord] = []
        for start in range(0, len(cells), CHUNK):
            chunk = range(start, min(start + CHUNK, len(cells)))
            done = await asyncio.gather(*(self._limited(cells[i], position, foreign[i])
                                          for i in chunk), return_exceptions=True)
            records += [r for r in done if isinstance(r, RunRecord)]
            failed = next((r for r in done if isinstance(r, BaseException)), None)
            if failed is not None:  # a live stop: what finished is kept for the caller
                raise PositionStopped(records, failed)
        return records

    async def _limited(self, cell: CaseCell, position: int, foreign: object) -> RunRecord:
        """One turn, under the live run's concurrency (offline: no limit)."""
        if self.limit is None:
            return await self._turn(cell, position, foreign)
        async with self.limit:
            return await self._turn(cell, position, foreign)

    async def _turn(self, cell: CaseCell, position: int, foreign: object) -> RunRecord:
        turn, truth = cell.case.turns[position], cell.labels.turns[position]
        active = self.schedules[cell.scenario].active(position + 1)
        done: dict[str, tuple[RunRecord, TurnReply]] = {}

        async def answer(history: Sequence[tuple[str, str]], message: str) -> str:
            record, reply = await self._answer(cell, position, active, history, message)
            done["turn"] = (record, reply)
            return reply.text

        started = time.perf_counter()
        state = await run_turn(self.threads, cell.thread_id(), turn.message, TurnInput(
            session_id=cell.case.session.session_id, answer=answer,
            foreign=foreign if isinstance(foreign, dict) else None,  # type: ignore[arg-type]
            isolate=self.isolating[cell.arm]))
        record, reply = done["turn"]
        errored = record.agent_error or record.provider_error or record.reader_error
        valued = truth.expected_answer is not None
        memory = state.get("memory", "own")
        score = score_turn(cell.labels, truth, None if errored else reply,
                           strict_s=record.S if valued else None, errored=errored,
                           safe_resolution=record.safe_resolution if valued else None,
                           failure_layer=turn_failure_layer(
                               record.failure_layer if valued and not record.S else None,
                               memory))
        case = CaseTurn(case_id=cell.case.case_id, case_key=cell.labels.case_key,
                        turn=position + 1, turns=len(cell.case.turns), kind=truth.kind,
                        epoch=cell.epoch,
                        message=turn.message, fault_active=active,
                        memory=memory,
                        history=tuple(state.get("history", [])),
                        memory_session=state.get("session_id", cell.case.session.session_id),
                        reply=None if errored else reply, score=score)
        latency = (time.perf_counter() - started) * 1000
        return record.model_copy(update={"case": case, "latency_ms": round(latency, 3)})

    async def _answer(self, cell: CaseCell, position: int, active: bool,
                      history: Sequence[tuple[str, str]], message: str
                      ) -> tuple[RunRecord, TurnReply]:
        """One turn through the agent under test, with the thread's memory as its history.
        A turn outside the schedule runs through the clean chain (its record keeps its
        scenario)."""
        turn = cell.case.turns[position]
        task = self.tasks[turn.turn_id].model_copy(update={"task_id": cell.task_id(position)})
        if self.matrix.agent.kind == "tool_calling":
            return await self._tool_turn(cell, position, task, active, history)
        users = [u for u, _ in history]
        clarify = needs_clarification(users, message)
        asked = task.model_copy(update={"question": conversation_question(users, message)})
        matrix_cell = Cell(cell.model, cell.scenario, cell.mode, cell.arm, asked,
                           self._labels(cell, position), cell.agent)
        if clarify:
            episode = _clarifying(asked)
        else:
            context = replace(self._scheduled(self.matrix.context, matrix_cell, active),
                              conversation=Conversation(history=tuple(history),
                                                        message=message))
            (episode,) = await arun_episodes(self.matrix.graph, [context])
        record = self.matrix.score(matrix_cell, episode, 0.0, faults_acted=active)
        return record, turn_reply(record, episode.get("answer"),
                                  thread_identifiers(users, message))

    def _scheduled(self, make: Callable[[Cell], C], cell: Cell, active: bool) -> C:
        """``cell``'s run context (the pipeline's or a tool-calling agent's), through the
        clean chain on a turn outside the schedule; its metadata names the cell's own
        scenario either way."""
        if active:
            return make(cell)
        context = make(replace(cell, scenario="clean"))
        return replace(context, metadata=self.matrix.metadata(cell))  # type: ignore[type-var]

    def _labels(self, cell: CaseCell, position: int) -> Labels:
        """The strict labels of a turn, under the record's task id (epochs after the first
        mark it)."""
        labels = self.labels[cell.case.turns[position].turn_id]
        task_id = cell.task_id(position)
        return labels if labels.task_id == task_id else labels.model_copy(
            update={"task_id": task_id})

    async def _tool_turn(self, cell: CaseCell, position: int, task: Task, active: bool,
                         history: Sequence[tuple[str, str]]) -> tuple[RunRecord, TurnReply]:
        """A tool-calling agent's turn: its graph is invoked with the thread's exchanges as
        messages, then the turn's message; it forms its own search (the offline driver by
        the conversation rules of simulator/answers/conversation.py)."""
        from simulator.agents.episode import arun_tool_agent

        labels = self._labels(cell, position)
        matrix_cell = Cell(cell.model, cell.scenario, cell.mode, cell.arm, task, labels,
                           cell.agent)
        # the faults (and the fetcher) aim with the thread, as the pipeline's do; the agent
        # is given the turn's own message, its history as messages
        aimed = task.model_copy(update={"question": conversation_question(
            [u for u, _ in history], task.question)})
        context = replace(self._scheduled(self.matrix.tool_context,
                                          replace(matrix_cell, task=aimed), active),
                          task=task, fault_task=aimed)
        episode = await arun_tool_agent(self.matrix.tool_graphs[cell.model], context,
                                        timeout=self.matrix.record_timeout,
                                        sync=self.matrix.sync_invoke,
                                        history=as_messages(history))
        record = self.matrix.score(matrix_cell, episode, 0.0, faults_acted=active)
        final = episode.get("final_text") or ""
        return record, turn_reply(record, episode.get("answer"), extra=final)


def _clarifying(task: Task) -> Episode:
    """The episode of a turn the pipeline answers with a clarifying question, unsearched."""
    episode = steps.initial_episode(task)
    return steps.merge(episode, {"next": "done", "terminated": "clarify",
                                 "answer": unknown_answer(CLARIFY_REASON)})


def turn_reply(record: RunRecord, said: AgentAnswer | None,
               identifiers: tuple[str, ...] = (), extra: str = "") -> TurnReply:
    """What the reply says, as the user reads it: the value (or the non-answer's reason) as
    the record scored it, with what the agent's answer carries beside it (steps,
    identifiers, a claimed type). The pipeline restates ``identifiers`` when its answer names
    none (rule 3); any agent's reply names the identifiers its text holds. A non-answer whose
    reason asks a question, or that claims to clarify, is a clarifying question
    (simulator/answers/conversation.py)."""
    steps = said.steps if said is not None else ()
    named = said.identifiers if said is not None and said.identifiers else identifiers
    claimed = said.answer_type if said is not None else None
    listed = (" Steps: " + " ".join(f"{n}. {step}." for n, step in enumerate(steps, 1))
              if steps else "")
    if record.abstained or record.answer is None:
        reason = record.reason or "I cannot answer that from the knowledge base."
        text = " ".join(t for t in (restating(named, reason), extra) if t)
        return TurnReply(answer=None, abstained=True,
                         clarify=asks(record.reason) or claimed == "clarify",
                         citations=record.citations, steps=steps,
                         identifiers=named or identifier_tokens(text), answer_type=claimed,
                         text=text)
    stated = f"{record.answer} (sources: {', '.join(record.citations) or 'none'})"
    text = " ".join(t for t in (record.reason or "", restating(named, stated) + listed, extra)
                    if t)
    return TurnReply(answer=record.answer, abstained=False, citations=record.citations,
                     steps=steps, identifiers=named or identifier_tokens(text),
                     answer_type=claimed, text=text)


def _schedule_of(scenario: str, default: TurnSchedule) -> TurnSchedule:
    """When ``scenario``'s faults act: its own ``turns`` when it declares them (a plugin's
    scenario may: ``compose(..., turns="from:3")``), else ``default`` (``--fault-turns``)."""
    turns = get_scenario(scenario).turns
    return parse_schedule(turns) if turns is not None else default


def _isolates(arm: str) -> bool:
    """Whether ``arm`` refuses another session's memory: it holds a policy of the session
    layer (session_isolation does: it rejects evidence of another session)."""
    from policies.arms import arm_policies
    from policies.base import policies

    return any("session" in policies.get(name).layers for name in arm_policies(arm))


class PositionStopped(Exception):
    """A turn position stopped part-way (a live stop): the records that finished, and why."""

    def __init__(self, records: list[RunRecord], cause: BaseException) -> None:
        super().__init__(str(cause))
        self.records, self.cause = records, cause


__all__ = ["CaseCell", "CaseRunner", "PositionStopped", "case_cells", "turn_labels",
           "turn_reply"]
