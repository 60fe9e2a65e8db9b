"""The committed deterministic archive still recomputes to its committed report.

Regenerate both with the commands in archives/README.md when the pipeline changes on
purpose; a failure here otherwise means the statistics or the report changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.report import render, report_from_archive

ROOT = Path(__file__).resolve().parents[2]
ARCHIVE = ROOT / "archives" / "deterministic" / "enterprise_v2.jsonl.gz"
REPORT = ROOT / "archives" / "deterministic" / "REPORT.md"


@pytest.mark.skipif(
    not (ARCHIVE.is_file() and REPORT.is_file()),
    reason=f"no committed archive and report yet ({ARCHIVE.relative_to(ROOT)}, "
           f"{REPORT.relative_to(ROOT)}): see archives/README.md to generate them",
)
def test_a_fresh_recompute_equals_the_committed_report_byte_for_byte() -> None:
    fresh = render(report_from_archive(ARCHIVE), "md", full=True).encode("utf-8")
    assert fresh == REPORT.read_bytes(), (
        "recomputing archives/deterministic/enterprise_v2.jsonl.gz no longer gives "
        "archives/deterministic/REPORT.md; regenerate it (archives/README.md) if the change "
        "is intended")
