"""A behaviour label that contradicts the row's answer is refused, naming the line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from simulator.archive import load_archive
from simulator.errors import ArchiveError

COMMITTED = Path(__file__).resolve().parents[2] / "archives" / "deterministic" / \
    "enterprise_v2.jsonl.gz"


def _edited(tmp_path: Path, match: dict[str, object], label: str) -> Path:
    header, *rows = (json.loads(line)
                     for line in gzip.decompress(COMMITTED.read_bytes()).splitlines())
    at = next(i for i, r in enumerate(rows) if all(r.get(k) == v for k, v in match.items()))
    rows[at]["behaviour"] = label
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in (header, *rows))
    path = tmp_path / "edited.jsonl.gz"
    path.write_bytes(gzip.compress(text.encode()))
    return path


@pytest.mark.parametrize(("match", "label"), [
    ({"behaviour": "B2"}, "B1"),                       # an unacknowledged *answer* abstained
    ({"behaviour": "B5", "abstained": False}, "B2"),   # a clarification that answered
])
def test_a_label_contradicting_the_answer_is_refused(tmp_path: Path, match: dict[str, object],
                                                     label: str) -> None:
    with pytest.raises(ArchiveError, match="field 'behaviour'"):
        load_archive(_edited(tmp_path, match, label))


def test_the_committed_archive_keeps_the_rules() -> None:
    # B3: 237 conflicting_evidence + 35 corrupted_metadata records, in both modes
    assert sum(r.behaviour == "B3" for r in load_archive(COMMITTED).rows) == 2 * (237 + 35)
