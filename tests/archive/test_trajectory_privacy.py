"""No trajectory field can reach an archive row.

A trajectory holds the evaluator's truth (expected answer, required documents) beside the
agent's queries, the texts it was shown and its answer: everything an archive must never
carry. The archive row is an allowlist of record fields and the trajectory is kept out of
the record's JSON; these tests check both on a real run, whose trajectories hold real
questions and documents, and on hand-made records whose trajectories carry a canary in
every field.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from simulator.archive import export_archive
from simulator.archive.row import ARCHIVE_FIELDS
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore
from simulator.runner.trajectory.model import Trajectory
from tests.archive.run_factory import record_from_row, small_rows

CANARY = "TRAJCANARY41"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def test_no_trajectory_text_of_a_real_run_reaches_its_archive(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run_matrix(RunConfig(tasks=6, agent="react"), run, progress=False)
    out = tmp_path / "a.jsonl.gz"
    export_archive(run, out)
    archive = gzip.decompress(out.read_bytes()).decode()
    with RunStore(run, create=False) as store:
        paths = [json.loads(t) for t in store.all_trajectories().values()]
    assert paths
    # Every string that is content (a question, a query, a hit's text, a doc id, a reason,
    # an expected answer), not a shared label such as "strict" or "authorization".
    content = {s for p in paths for s in _strings(p)
               if s.startswith("doc_") or (" " in s and len(s) >= 12)}
    assert any(s.startswith("doc_") for s in content)
    leaked = sorted(s for s in content if s in archive)
    assert leaked == []


def _canary_trajectory() -> dict[str, Any]:
    check = {"ok": False, "why": f"{CANARY} why"}
    return Trajectory.model_validate({
        "agent": "react", "question": f"{CANARY} question", "task_message": f"{CANARY} msg",
        "steps": [{"tool": "search_policies", "args": {"query": f"{CANARY} query"},
                   "status": "ok", "notes": [f"{CANARY} note"], "message": f"{CANARY} m",
                   "hits": [{"doc_id": f"doc_{CANARY}", "title": f"{CANARY} title",
                             "text": f"{CANARY} text", "version": f"{CANARY} v"}],
                   "faults": [{"fault": "stale_index", "effect": f"{CANARY} effect"}]}],
        "policy": [{"policy": "freshness_check", "action": "abstain",
                    "reason": f"{CANARY} reason"}],
        "answer": {"value": f"{CANARY} value", "prose": f"{CANARY} prose"},
        "verdict": {"E": check, "R": check, "G": check, "V": check, "S": check,
                    "safe_resolution": check, "answerable": True,
                    "failure_layer": "reader", "failure_why": f"{CANARY} layer",
                    "expected_answer": f"{CANARY} expected", "accepted_answers": [],
                    "superseded_answers": [f"{CANARY} old"],
                    "required_doc_ids": [f"doc_{CANARY}_req"]},
    }).model_dump(mode="json")


def test_a_canary_in_every_trajectory_field_is_stored_and_never_archived(
        make_run: Callable[..., Path], tmp_path: Path) -> None:
    path = _canary_trajectory()
    records = [record_from_row(r).model_copy(update={"trajectory": path})
               for r in small_rows()]
    run = make_run(records)
    with RunStore(run, create=False) as store:
        stored = store.all_trajectories()
    assert len(stored) == len(records) and all(CANARY in t for t in stored.values())
    out = tmp_path / "a.jsonl.gz"
    export_archive(run, out)
    assert CANARY.encode() not in gzip.decompress(out.read_bytes())


def test_the_allowlist_does_not_name_the_trajectory() -> None:
    assert not {"trajectory", "steps", "hits", "verdict", "task_message"} & set(ARCHIVE_FIELDS)
