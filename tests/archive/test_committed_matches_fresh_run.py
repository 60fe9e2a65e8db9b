"""The committed deterministic archive is what a fresh run of the main job exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.archive import archive_from_store, load_archive

ARCHIVE = Path(__file__).resolve().parents[2] / "archives" / "deterministic" / \
    "enterprise_v2.jsonl.gz"


@pytest.mark.skipif(not ARCHIVE.is_file(), reason="no committed archive yet (archives/README.md)")
def test_a_fresh_run_exports_exactly_the_committed_rows(deterministic_run: Path) -> None:
    committed = load_archive(ARCHIVE)
    fresh = archive_from_store(deterministic_run)
    assert fresh.header.run_id == committed.header.run_id
    assert fresh.header.corpus_hash == committed.header.corpus_hash
    assert fresh.rows == committed.rows, (
        "the deterministic pipeline no longer produces the committed archive; if the change "
        "is intended, regenerate it with the commands in archives/README.md")
