"""The allowlist: the only fields a privacy-safe archive may hold.

An archive row is a scored record with everything identifying or free-form removed: no
answer text, rationale, citations, document ids, trace, latency, tokens or cost. String
fields must look like identifiers (no spaces, bounded length) and the prompt hash like a
hash, so prose cannot ride along in a permitted field either.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from simulator.runner.record import FailureLayer

ARCHIVE_VERSION = 1
"""Bump when the row or header shape changes; loaders reject versions they do not know."""

Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$")]
"""A name such as ``openai:gpt-4o-mini`` or ``schema_drift``: no spaces, at most 128 chars."""

HashHex = Annotated[str, StringConstraints(pattern=r"^([a-z0-9]{1,16}:)?[0-9a-f]{8,128}$")]
"""A hex digest, optionally prefixed by its algorithm (``sha256:...``)."""


class ArchiveRow(BaseModel):
    """One scored record, allowlisted. Field order is the archive's column order."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    run_id: Identifier
    provider: Identifier
    """``local`` for the deterministic reader."""
    model: Identifier
    scenario: Identifier
    contract_mode: Identifier
    arm: Identifier
    task_row: int = Field(ge=0)
    """Position of the task in corpus order, 0..N-1."""
    unit: int = Field(ge=0)
    """Policy unit index: the cluster for statistics."""
    variant: int = Field(ge=0)
    domain: Identifier
    E: bool
    R: bool
    G: bool
    V: bool
    S: bool
    abstained: bool
    grounded: bool
    safe_resolution: bool
    provider_error: bool
    failure_layer: FailureLayer | None
    prompt_hash: HashHex | None
    """None when the graph ended before a prompt was built."""


ARCHIVE_FIELDS: tuple[str, ...] = tuple(ArchiveRow.model_fields)
"""The allowlist, in column order."""

ROW_KEY: tuple[str, ...] = ("provider", "model", "arm", "scenario", "contract_mode", "task_row")
"""Identifies a row within an archive; rows are written sorted by it."""


def row_key(row: ArchiveRow) -> tuple[str, str, str, str, str, int]:
    """The sort and uniqueness key of a row."""
    return (row.provider, row.model, row.arm, row.scenario, row.contract_mode, row.task_row)


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
