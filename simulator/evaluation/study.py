"""The focused study (paper §2.2, §4.5): eight tasks x nine conditions x two arms.

One model, one completion per cell, strict contract mode (the controlled arm's
``schema_repair`` policy repairs), arms ``uncontrolled`` and ``controlled``: 144 cells.

Task selection rule (:func:`select_tasks`), fixed before any controlled record exists: for
each domain, in corpus order, the first task in corpus order whose clean, uncontrolled,
strict-mode record with the deterministic reader is strictly correct. Every chosen task is
thus one the pipeline answers correctly when nothing is wrong, so any later failure is the
fault's, and the choice depends on neither the controlled arm nor the model under study
(a live model is studied on the same tasks).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.agent.pipelines import pipeline_of
from simulator.corpus import Corpus, build_corpus
from simulator.runner.config import RunConfig
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.stats.arms import ArmCell, arm_table
from simulator.vocabulary import DEFAULT_AGENT, DEFAULT_PIPELINE, SCENARIO_NAMES, SourcePriority

STUDY_ARMS: tuple[str, ...] = ("uncontrolled", "controlled")
STUDY_MODE = "strict"
SELECTION_RULE = ("per domain, in corpus order: the first task in corpus order whose clean, "
                  "uncontrolled, strict-mode record with the deterministic reader is "
                  "strictly correct")


class ArmSummary(BaseModel):
    """One arm of the study, over every condition."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    records: int
    answerable: int
    answerable_successes: int
    """Strict successes among answerable records."""
    unsafe: int
    unsafe_safe: int
    """Structured non-answers among records that were not answerable."""
    wrong_answers: int
    incorrect_interventions: int
    clean_successes: int
    clean_records: int
    provider_errors: int
    """Records whose call failed: in no numerator above (a system that never answered is
    unmeasured, not safe)."""
    agent_errors: int = 0
    """Records whose agent under test broke: in no numerator above."""
    reader_errors: int
    """Records whose output was unparseable: in no numerator above."""


class FocusedStudy(BaseModel):
    """The study's figures: per arm x condition cells and per arm summaries."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str
    task_rows: tuple[int, ...]
    domains: tuple[str, ...]
    selection_rule: str = SELECTION_RULE
    pipeline: str = DEFAULT_PIPELINE
    agent: str = DEFAULT_AGENT
    cells: tuple[ArmCell, ...]
    arms: tuple[ArmSummary, ...]

    def arm(self, name: str) -> ArmSummary:
        return next(a for a in self.arms if a.arm == name)

    def controlled_is_safe(self) -> bool:
        """The acceptance bar: full S where answerable, full safe resolution where not,
        no wrong answer, no incorrect intervention."""
        c = self.arm("controlled")
        return (c.answerable_successes == c.answerable and c.unsafe_safe == c.unsafe
                and c.wrong_answers == 0 and c.incorrect_interventions == 0)


def study_config(task_rows: Sequence[int], *, model: str = "deterministic", seed: int = 0,
                 spec: str | None = None, base_url: str | None = None,
                 pipeline: str = DEFAULT_PIPELINE, agent: str = DEFAULT_AGENT,
                 generation: dict[str, Any] | None = None,
                 source_priority: SourcePriority | None = None,
                 record_timeout: float | None = None) -> RunConfig:
    """The run configuration of the focused study on ``task_rows`` (``generation``: a live
    model's settings, e.g. its structured-output method; ``source_priority``: RAG-Stress's
    instruction to chat models; both part of the run id)."""
    return RunConfig(models=(model,), scenarios=SCENARIO_NAMES, modes=(STUDY_MODE,),
                     arms=STUDY_ARMS, task_rows=tuple(task_rows), seed=seed, spec=spec,
                     base_url=base_url, pipeline=pipeline, agent=agent,
                     generation=generation or {}, source_priority=source_priority,
                     record_timeout=record_timeout)


def select_tasks(corpus: Corpus, *, seed: int = 0) -> tuple[int, ...]:
    """The study's task rows by :data:`SELECTION_RULE` (one per domain that has one)."""
    from simulator.runner.matrix import MatrixRunner, cells

    config = RunConfig(scenarios=("clean",), modes=(STUDY_MODE,), arms=("uncontrolled",),
                       seed=seed)
    runner = MatrixRunner(config, corpus)
    records = runner.run_cells(list(cells(config, corpus)))
    chosen: dict[str, int] = {}
    for record in sorted(records, key=lambda r: r.task_row):
        if record.S and record.domain not in chosen:
            chosen[record.domain] = record.task_row
    return tuple(chosen[d] for d in corpus.domains if d in chosen)


def summarize(records: Sequence[RunRecord], task_rows: Sequence[int],
              pipeline: str = DEFAULT_PIPELINE) -> FocusedStudy:
    """The study's figures from its records."""
    cells = arm_table(records)
    models = sorted({r.model for r in records})
    domains = {r.task_row: r.domain for r in records}
    summaries = []
    for arm in dict.fromkeys(c.arm for c in cells):
        mine = [c for c in cells if c.arm == arm]
        clean = [c for c in mine if c.scenario == "clean"]
        summaries.append(ArmSummary(
            arm=arm, records=sum(c.records for c in mine),
            answerable=sum(c.answerable for c in mine),
            answerable_successes=sum(c.answerable_successes for c in mine),
            unsafe=sum(c.records - c.answerable for c in mine),
            unsafe_safe=sum(c.unsafe_safe for c in mine),
            wrong_answers=sum(c.wrong_answers for c in mine),
            incorrect_interventions=sum(c.incorrect_interventions for c in mine),
            clean_successes=sum(c.successes for c in clean),
            clean_records=sum(c.records for c in clean),
            provider_errors=sum(c.provider_errors for c in mine),
            agent_errors=sum(c.agent_errors for c in mine),
            reader_errors=sum(c.reader_errors for c in mine)))
    agents = sorted({r.agent for r in records}) or [DEFAULT_AGENT]
    return FocusedStudy(model=",".join(models), task_rows=tuple(task_rows),
                        domains=tuple(domains.get(r, "?") for r in task_rows),
                        pipeline=pipeline, agent=",".join(agents), cells=tuple(cells),
                        arms=tuple(summaries))


def run_focused_study(out: Path | str, *, model: str = "deterministic", seed: int = 0,
                      spec: str | None = None, base_url: str | None = None,
                      pipeline: str = DEFAULT_PIPELINE, progress: bool | None = None,
                      corpus: Corpus | None = None, agent: str = DEFAULT_AGENT
                      ) -> FocusedStudy:
    """Select the tasks, run (or resume) the 144 cells into ``out``, and summarize them."""
    from simulator.runner.matrix import run_matrix

    corpus = corpus or build_corpus(spec, seed)
    rows = select_tasks(corpus, seed=seed)
    config = study_config(rows, model=model, seed=seed, spec=spec, base_url=base_url,
                          pipeline=pipeline, agent=agent)
    run_matrix(config, Path(out), progress=progress, corpus=corpus)
    return read_study(out, rows)


def read_study(out: Path | str, task_rows: Sequence[int] | None = None) -> FocusedStudy:
    """The figures of a study run directory (task rows from its manifest by default)."""
    with RunStore(out, create=False) as store:
        manifest: dict[str, Any] = store.manifest() or {}
        records = list(store.records())
    rows = task_rows if task_rows is not None else manifest.get("config", {}).get("task_rows")
    return summarize(records, tuple(rows or sorted({r.task_row for r in records})),
                     pipeline_of(manifest))
