"""Judge an existing run: read its records, find their labels, judge each, store the result.

No agent or model is called. The labels come from the corpus the run was made on, rebuilt
from the manifest's spec and seed and checked against the manifest's corpus hash, so a
judgment never rests on another corpus's labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from simulator.cases import CaseCorpus, build_case_corpus
from simulator.corpus import build_corpus
from simulator.corpus.model import Labels
from simulator.errors import UsageError
from simulator.judge.deterministic import JUDGE_NAME, judge_record, unjudged
from simulator.judge.model import Judgment
from simulator.judge.store import judgments_of, raw_records, write_judgments
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore


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
    _same_corpus(store, manifest, corpus.corpus_hash, "corpus")
    return {label.task_id: label for label in corpus.labels}


def _same_corpus(store: RunStore, manifest: Mapping[str, Any], found: str,
                 what: str) -> None:
    """Refuse labels from another corpus than the one the run was made on."""
    expected = manifest.get("corpus_hash")
    if expected is not None and expected != found:
        raise UsageError(f"{store.run_dir}: the run was made on {what} {expected}, but its "
                         f"spec and seed now give {found}; judge it with the spec it was "
                         "made with")


class StoredRecord(NamedTuple):
    """One stored record, parsed when it can be, with the columns the judge groups by."""

    key: str
    model: str
    scenario: str
    contract_mode: str
    arm: str
    record: RunRecord | None
    unreadable: str | None
    """Why the record could not be parsed (then ``record`` is None)."""

    def judged(self, judgment: Judgment) -> JudgedRecord:
        r = self.record
        if r is None:
            return JudgedRecord(judgment, "?", self.model, self.scenario, self.contract_mode,
                                self.arm, None, None)
        return JudgedRecord(judgment, r.provider, r.model, r.scenario, r.contract_mode,
                            r.arm, r.unit, r.task_row, r.groundedness_false_positive)


def stored_records(store: RunStore) -> list[StoredRecord]:
    """Every record of ``store``; an unreadable one is kept, with why, to be unjudged."""
    out: list[StoredRecord] = []
    for key, model, scenario, mode, arm, data in raw_records(store):
        try:
            record = RunRecord.model_validate_json(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            out.append(StoredRecord(key, model, scenario, mode, arm, None,
                                    f"unreadable record ({where}: {first['msg']})"))
            continue
        out.append(StoredRecord(key, model, scenario, mode, arm, record, None))
    return out


def judge_store(store: RunStore, judge: str = JUDGE_NAME) -> list[JudgedRecord]:
    """Judge every record of ``store`` with the reference judge (unreadable ones are
    unjudged, never skipped)."""
    if judge != JUDGE_NAME:
        raise UsageError(f"--judge {judge}: unknown judge (known: {JUDGE_NAME}, or "
                         "PROVIDER:MODEL for an LLM judge)")
    cases = run_cases_of(store)
    if cases is not None:
        return _judge_case_turns(store, cases)
    labels = run_labels(store)
    out: list[JudgedRecord] = []
    for stored in stored_records(store):
        record = stored.record
        if record is None:
            judgment = unjudged(stored.key, stored.unreadable or "unreadable record")
        elif record.task_id not in labels:
            judgment = unjudged(stored.key, f"task {record.task_id} has no labels in the "
                                            "run's corpus")
        else:
            judgment = judge_record(record, labels[record.task_id])
        out.append(stored.judged(judgment))
    return out


def run_cases_of(store: RunStore) -> CaseCorpus | None:
    """The case corpus a cases run was made on (checked against the manifest's corpus
    hash), or None for a single-turn run."""
    manifest = store.manifest() or {}
    config = manifest.get("config") or {}
    if config.get("suite") != "cases":
        return None
    cases = build_case_corpus(config.get("spec"), int(config.get("seed", 0)))
    _same_corpus(store, manifest, cases.corpus_hash, "case corpus")
    return cases


def turn_id_of(record: RunRecord) -> str:
    """A case turn record's turn id (a later epoch marks its task id ``turn_x#2``)."""
    return record.task_id.split("#", 1)[0]


def _judge_case_turns(store: RunStore, cases: CaseCorpus) -> list[JudgedRecord]:
    from simulator.conversations.runner import turn_labels
    from simulator.judge.case_turns import judge_case_turn

    strict = turn_labels(cases)
    by_case = {c.case_id: c for c in cases.labels}
    out: list[JudgedRecord] = []
    for stored in stored_records(store):
        record = stored.record
        if record is None:
            judgment = unjudged(stored.key, stored.unreadable or "unreadable record")
        elif record.case is None or record.case.case_id not in by_case:
            judgment = unjudged(stored.key, "not a turn of the run's case corpus")
        else:
            judgment = judge_case_turn(record, strict[turn_id_of(record)],
                                       by_case[record.case.case_id])
        out.append(stored.judged(judgment))
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



def stored_judged(store: RunStore, judge: str) -> tuple[list[JudgedRecord], str]:
    """Every record of ``store`` with ``judge``'s stored judgment, and the rubric hash: the
    judge table without judging again. A record the judge has not seen (the run resumed
    after judging) is unjudged, saying so, never left out."""
    rubric, judgments = judgments_of(store, judge)
    out = []
    for stored in stored_records(store):
        judgment = judgments.get(stored.key)
        if judgment is None:
            judgment = Judgment(key=stored.key, judge=judge, rubric_hash=rubric,
                                status="unjudged", reason=f"not judged by {judge} (run "
                                f"layerrag judge {store.run_dir} --judge {judge})")
        out.append(stored.judged(judgment))
    return out, rubric
