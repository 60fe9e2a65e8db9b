"""Judge an existing run: read its records, find their labels, judge each, store the result.

No agent or model is called. The labels come from the corpus the run was made on, rebuilt
from the manifest's spec and seed and checked against the manifest's corpus hash, so a
judgment never rests on another corpus's labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from simulator.corpus import build_corpus
from simulator.corpus.model import Labels
from simulator.errors import UsageError
from simulator.judge.deterministic import JUDGE_NAME, judge_record, unjudged
from simulator.judge.model import Judgment
from simulator.judge.store import raw_records, write_judgments
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore

JUDGES = (JUDGE_NAME,)
"""The judges ``layerrag judge --judge`` knows (the LLM judge is issue 30, item 3)."""


@dataclass(frozen=True)
class JudgedRecord:
    """A judgment with the cell it belongs to, for tables grouped by scenario, mode, arm."""

    judgment: Judgment
    provider: str
    model: str
    scenario: str
    contract_mode: str
    arm: str
    unit: int | None
    """The policy unit (the bootstrap's cluster); None for an unreadable record."""
    task_row: int | None
    groundedness_false_positive: bool | None = None
    """The record's GF (grounded and not S, simulator.scoring.outcome): what a faithfulness
    metric would pass; None for an unreadable record."""


def run_labels(store: RunStore) -> dict[str, Labels]:
    """Task id -> labels of the corpus the run in ``store`` was made on."""
    manifest = store.manifest()
    if manifest is None:
        raise UsageError(f"{store.run_dir}: the run store has no manifest, so no corpus "
                         "to take labels from")
    config = manifest.get("config") or {}
    corpus = build_corpus(config.get("spec"), int(config.get("seed", 0)))
    expected = manifest.get("corpus_hash")
    if expected is not None and expected != corpus.corpus_hash:
        raise UsageError(f"{store.run_dir}: the run was made on corpus {expected}, but its "
                         f"spec and seed now give {corpus.corpus_hash}; judge it with the "
                         "spec it was made with")
    return {label.task_id: label for label in corpus.labels}


def judge_store(store: RunStore, judge: str = JUDGE_NAME) -> list[JudgedRecord]:
    """Judge every record of ``store`` (unreadable ones are unjudged, never skipped)."""
    if judge not in JUDGES:
        raise UsageError(f"--judge {judge}: unknown judge (known: {', '.join(JUDGES)}; the "
                         "LLM judge is not built yet)")
    labels = run_labels(store)
    out: list[JudgedRecord] = []
    for key, model, scenario, mode, arm, data in raw_records(store):
        try:
            record = RunRecord.model_validate_json(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            out.append(JudgedRecord(unjudged(key, f"unreadable record ({where}: "
                                                  f"{first['msg']})"),
                                    "?", model, scenario, mode, arm, None, None))
            continue
        label = labels.get(record.task_id)
        judgment = (judge_record(record, label) if label is not None else
                    unjudged(key, f"task {record.task_id} has no labels in the run's corpus"))
        out.append(JudgedRecord(judgment, record.provider, record.model, record.scenario,
                                record.contract_mode, record.arm, record.unit,
                                record.task_row, record.groundedness_false_positive))
    return out


def judge_run(run_dir: Path | str, judge: str = JUDGE_NAME, *,
              store_results: bool = True) -> tuple[list[JudgedRecord], bool]:
    """Judge the run in ``run_dir``; store the judgments unless the store is read-only or
    ``store_results`` is False. Returns the judged records and whether they were stored."""
    with RunStore(run_dir, create=False) as store:
        judged = judge_store(store, judge)
        stored = store_results and not store.read_only
        if stored:
            write_judgments(store, (j.judgment for j in judged))
    return judged, stored
