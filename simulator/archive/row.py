"""The allowlist: the only fields a privacy-safe archive may hold.

An archive row is a scored record with everything identifying or free-form removed: no
answer text, rationale, citations, document ids, trace, latency, tokens or cost. String
fields must look like identifiers (no spaces, bounded length) and the prompt hash like a
hash, so prose cannot ride along in a permitted field either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model

from simulator.judge.metrics import METRIC_NAMES
from simulator.judge.model import Judgment
from simulator.runner.completeness import ExpectedRecords
from simulator.runner.record import RunRecord
from simulator.vocabulary import DEFAULT_AGENT, DISCLOSURE_CORRECT

ARCHIVE_VERSION = 1
"""Bump when the row or header shape changes; loaders reject versions they do not know."""

Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$")]
"""A name such as ``openai:gpt-4o-mini`` or ``schema_drift``: no spaces, at most 128 chars."""

HashHex = Annotated[str, StringConstraints(pattern=r"^([a-z0-9]{1,16}:)?[0-9a-f]{8,128}$")]
"""A hex digest, optionally prefixed by its algorithm (``sha256:...``)."""


Count = Annotated[int, Field(ge=0)]
"""A position or index: 0 or more."""

AS_RECORDED: Any = object()
"""In the allowlist: keep the run record's own type for this field (a bool, a layer)."""

ALLOWLIST: tuple[tuple[str, Any] | tuple[str, Any, Any], ...] = (
    ("run_id", Identifier),
    ("provider", Identifier),       # ``local`` for the deterministic reader
    ("model", Identifier),
    ("scenario", Identifier),
    ("contract_mode", Identifier),
    ("arm", Identifier),
    ("agent", Identifier, DEFAULT_AGENT),  # written only when not the pipeline
    ("task_row", Count),            # position of the task in corpus order, 0..N-1
    ("unit", Count),                # policy unit index: the cluster for statistics
    ("variant", Count),
    ("domain", Identifier),
    ("E", AS_RECORDED),
    ("R", AS_RECORDED),
    ("G", AS_RECORDED),
    ("V", AS_RECORDED),
    ("S", AS_RECORDED),
    ("abstained", AS_RECORDED),
    ("grounded", AS_RECORDED),
    ("safe_resolution", AS_RECORDED),
    ("provider_error", AS_RECORDED),
    ("reader_error", AS_RECORDED, False),  # unparseable output; written only when some row has it
    ("agent_error", AS_RECORDED, False),  # the agent under test broke; only when some row has it
    ("failure_layer", AS_RECORDED),
    ("behaviour", AS_RECORDED, None),  # ConInstruct label (scoring/behaviour.py); when labelled
    ("prompt_hash", HashHex | None),  # None when the graph ended before a prompt was built
    ("misled", AS_RECORDED, None),   # misleading evidence only: the foil was adopted
    ("source_priority", Identifier | None, None),  # strict / soft instruction, when one was set
)
"""The only fields of a :class:`~simulator.runner.record.RunRecord` an archive may hold, in
column order, each with the constraint its value must meet (``AS_RECORDED``: the record's
own type) and, for an optional column, its default: an optional column is written only in
archives where some row differs from it, so archives made before it existed read, and
write, unchanged. Adding a field to the archive is one line here, and nothing else."""


Score = Annotated[float, Field(ge=0.0, le=1.0)]
JudgeBand = Literal["severe", "moderate", "minor", "none", "not_applicable"]

JUDGE_ALLOWLIST: tuple[tuple[str, Any, Any], ...] = (
    ("judge_status", Literal["judged", "unjudged"] | None, None),
    *((column, kind, None) for m in METRIC_NAMES for column, kind in (
        (f"judge_{m}", Score | None), (f"judge_{m}_band", JudgeBand | None))),
)
"""A judge's verdict on the record (``layerrag archive export --judge NAME``): its status,
and each metric's score and severity band; never a justification or any judge prose.
Written only in archives exported with a judge (the header's ``judge`` names it), so the
columns are optional and archives without them read and write unchanged."""


CASE_ALLOWLIST: tuple[tuple[str, Any, Any], ...] = (
    ("case_id", Identifier | None, None),      # opaque, as the agent saw it
    ("case_turn", Annotated[int, Field(ge=1)] | None, None),   # 1-based
    ("case_turns", Annotated[int, Field(ge=1)] | None, None),
    ("case_epoch", Annotated[int, Field(ge=1)] | None, None),
    ("turn_kind", Literal["answerable", "follow_up", "underspecified", "unanswerable"] | None,
     None),
    ("fault_active", bool | None, None),
    ("memory", Literal["own", "foreign", "mixed", "refused"] | None, None),
    ("turn_safe", bool | None, None),
    ("identifier_exact", bool | None, None),
    ("identifier_corrupted", bool | None, None),
    ("workflow_ok", bool | None, None),
    ("prohibited_action", bool | None, None),
    ("type_fit", bool | None, None),
    ("turn_errored", bool | None, None),
)
"""A case turn's place and flags (simulator/cases/record.py, simulator/cases/scoring.py):
indices, its kind, whether the faults acted, whose memory it got, and its case scores;
never the message, the reply or an identifier's value. Written only in archives of a cases
run, so single-turn archives read and write unchanged."""


def _case_values(record: RunRecord) -> dict[str, Any]:
    """The case columns of ``record`` (none for a single-turn record)."""
    case = record.case
    if case is None:
        return {}
    score = case.score
    return {"case_id": case.case_id, "case_turn": case.turn, "case_turns": case.turns,
            "case_epoch": case.epoch, "turn_kind": case.kind,
            "fault_active": case.fault_active, "memory": case.memory,
            "turn_safe": score.safe, "identifier_exact": score.identifier_exact,
            "identifier_corrupted": score.corrupted, "workflow_ok": score.workflow_ok,
            "prohibited_action": score.prohibited, "type_fit": score.type_fit,
            "turn_errored": score.errored}


def _allowlisted() -> type[BaseModel]:
    fields: dict[str, Any] = {name: (kind, default) for name, kind, default in
                              (*CASE_ALLOWLIST, *JUDGE_ALLOWLIST)}
    for name, constraint, *default in ALLOWLIST:
        if name not in RunRecord.model_fields:
            raise TypeError(f"archive allowlist names {name!r}, which a run record lacks")
        kind = RunRecord.model_fields[name].annotation if constraint is AS_RECORDED \
            else constraint
        fields[name] = (kind, default[0] if default else ...)
    ordered = {n: fields[n] for n in (*(e[0] for e in ALLOWLIST),
                                      *(e[0] for e in CASE_ALLOWLIST),
                                      *(e[0] for e in JUDGE_ALLOWLIST))}
    return create_model("AllowlistedRecord", __config__=ConfigDict(
        frozen=True, extra="forbid", strict=True), **ordered)


class ArchiveRow(_allowlisted()):  # type: ignore[misc]  # fields come from ALLOWLIST
    """One scored record, allowlisted: the projection of a run record onto
    :data:`ALLOWLIST`. Field order is the archive's column order."""

    @property
    def disclosure_correct(self) -> bool:
        """As :attr:`simulator.scoring.outcome.Outcome.disclosure_correct`."""
        return bool(getattr(self, "behaviour", None) in DISCLOSURE_CORRECT)

    @classmethod
    def from_record(cls, record: RunRecord, judgment: Judgment | None = None) -> ArchiveRow:
        """Copy the allowlisted fields of ``record`` (and the scores and bands of
        ``judgment``); nothing else leaves the run."""
        values = {name: getattr(record, name) for name in RECORD_FIELDS}
        values.update(_case_values(record))
        if judgment is not None:
            values["judge_status"] = judgment.status
            for m, score in judgment.scores.items():
                values[f"judge_{m}"], values[f"judge_{m}_band"] = score.value, score.band
        return cls.model_validate(values)


RECORD_FIELDS: tuple[str, ...] = tuple(entry[0] for entry in ALLOWLIST)
"""The run record's allowlisted field names, in column order."""
CASE_FIELDS: tuple[str, ...] = tuple(entry[0] for entry in CASE_ALLOWLIST)
JUDGE_FIELDS: tuple[str, ...] = tuple(entry[0] for entry in JUDGE_ALLOWLIST)
ARCHIVE_FIELDS: tuple[str, ...] = (*RECORD_FIELDS, *CASE_FIELDS, *JUDGE_FIELDS)
"""Every column an archive may hold, in column order."""

OPTIONAL_FIELDS: dict[str, Any] = {
    **{entry[0]: entry[2] for entry in ALLOWLIST if len(entry) == 3},
    **{name: default for name, _, default in (*CASE_ALLOWLIST, *JUDGE_ALLOWLIST)}}
"""Optional columns and their defaults."""

REQUIRED_FIELDS: tuple[str, ...] = tuple(f for f in ARCHIVE_FIELDS if f not in OPTIONAL_FIELDS)
"""The columns every archive holds."""


def columns_in_use(rows: Iterable[ArchiveRow]) -> list[str]:
    """The columns an archive of ``rows`` holds: every required one, and each optional one
    some row sets to another value than its default; allowlist order."""
    used = {name for row in rows for name, default in OPTIONAL_FIELDS.items()
            if getattr(row, name) != default}
    return [name for name in ARCHIVE_FIELDS if name not in OPTIONAL_FIELDS or name in used]


def row_values(row: ArchiveRow, columns: Sequence[str]) -> dict[str, Any]:
    """The row as written: its ``columns``, in order, as JSON values."""
    values = row.model_dump(mode="json")
    return {name: values[name] for name in columns}

ROW_KEY: tuple[str, ...] = ("provider", "model", "arm", "scenario", "contract_mode", "task_row")
"""Identifies a row within an archive; rows are written sorted by it."""


def row_key(row: ArchiveRow) -> tuple[str, str, str, str, str, int, str, int]:
    """The sort and uniqueness key of a row (the source priority, when rows of a strict and
    a soft run are reported together; a case turn's epoch, when a case ran several times)."""
    return (row.provider, row.model, row.arm, row.scenario, row.contract_mode, row.task_row,
            row.source_priority or "", getattr(row, "case_epoch", None) or 1)


class JudgeProvenance(BaseModel):
    """Which judge, under which rubric and prompt (simulator/judge/metrics.rubric_hash)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    name: Identifier
    rubric_hash: HashHex


class ArchiveHeader(BaseModel):
    """The first line of an archive: provenance, and the field list the rows must match."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    archive_version: int
    run_id: Identifier
    created: str = Field(max_length=64)
    corpus_hash: HashHex
    prompt_template_hashes: dict[Identifier, Identifier]
    """Reader (model) -> prompt template version, e.g. ``chat-answer-1+3f9a0c1e``."""
    versions: dict[Identifier, Annotated[str, StringConstraints(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._+:-]{0,63}$")]]
    fields: list[str]
    pipeline: Literal["paper", "open"] = "paper"
    """The pipeline's own stops (simulator/agent/pipelines.py); written only when not the
    paper's, so archives made before the option existed read and write unchanged."""
    agent: Identifier = DEFAULT_AGENT
    """The agent under test (simulator/agents/); written only when not the pipeline."""
    structured_output: dict[Identifier, Literal["json_schema", "json_object", "tool",
                                                "json_prompt"]] = {}
    """Live chat reader -> the structured-output method its run used (the manifest's, found
    by ``--structured-output auto``); written only when there is one."""
    expected_records: ExpectedRecords | None = None
    """The records the run was made to hold (simulator/runner/completeness.py): recompute
    names what is missing, and refuses rows outside them. None in archives made before."""
    judge: JudgeProvenance | None = None
    """The judge whose scores the ``judge_*`` columns hold; None without them."""
    fault_turns: Identifier | None = None
    """A cases run's fault schedule (``at:2``); None in single-turn archives."""
    rows_sha256: HashHex | None = None
    """sha256 of the row lines as written (simulator/archive/digest.py): recompute refuses
    an archive whose rows were deleted, added or edited. None in archives made before."""
