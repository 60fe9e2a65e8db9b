"""Hand-made RunRecords and run stores, for archive and report round trips.

Records carry prose, document ids and trace data (and, when asked, canary strings) in every
field the archive must drop, so tests can check nothing of it survives an export.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simulator.archive.row import RECORD_FIELDS, ArchiveRow
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.stats.synthetic import synthetic_rows

RUN_ID = "run-test-1"
SECRET_KEY = "sk-test-CANARYKEY0123456789abcdefABCDEF"


def record_from_row(row: ArchiveRow, *, canary: str = "plain") -> RunRecord:
    """A full RunRecord whose allowlisted fields are ``row`` and whose others carry prose."""
    doc = f"doc_{canary}_{row.task_row:04d}"
    return RunRecord(
        **row.model_dump(include=set(RECORD_FIELDS)),
        task_id=f"task_{canary}_{row.task_row}",
        unit_id=f"UNIT-{canary}-{row.unit}",
        answerable=row.scenario in {"clean", "conflicting_evidence"},
        answer=f"45 days ({canary} answer text)",
        citations=(doc,),
        reason=f"The policy says so ({canary} rationale).",
        retrieved_doc_ids=(doc, f"doc_{canary}_other"),
        trace={"tool_calls": [{"doc_ids": [doc], "note": f"{canary} trace"}],
               "prompt": f"Question and evidence {canary}"},
        latency_ms=1234.5,
        input_tokens=321,
        output_tokens=45,
        cost_usd=0.0123,
    )


def manifest(**overrides: Any) -> dict[str, Any]:
    """A run manifest with a secret in its config, which the archive must never copy."""
    base: dict[str, Any] = {
        "run_id": RUN_ID,
        "corpus_hash": "0123456789abcdef",
        "created": "2026-01-02T03:04:05Z",
        "config": {"models": ["deterministic"], "api_key": SECRET_KEY},
        "versions": {"layerrag": "0.1.0", "python": "3.11.2"},
        "prompt_template_hashes": {"reader": "ab" * 32},
    }
    base.update(overrides)
    return base


def small_rows(**kwargs: Any) -> list[ArchiveRow]:
    """A small but complete matrix: 2 models x 9 scenarios x 2 modes x 12 tasks."""
    options: dict[str, Any] = {"models": 2, "tasks": 12, "run_id": RUN_ID}
    options.update(kwargs)
    return synthetic_rows(**options)


def write_run(run_dir: Path, records: Sequence[RunRecord],
              run_manifest: dict[str, Any] | None = None) -> Path:
    with RunStore(run_dir) as store:
        store.write_manifest(run_manifest if run_manifest is not None else manifest())
        store.add(records)
    return run_dir
