"""Nothing but allowlisted fields leaves a run: no prose, document ids, traces or keys."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from simulator.archive import export_archive
from tests.archive.run_factory import SECRET_KEY, record_from_row, small_rows

CANARY = "CANARY7f3a"
KEY_LIKE = re.compile(rb"sk-[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_-]{20,}|api[_-]?key", re.I)


@pytest.fixture
def archive_text(make_run: Callable[..., Path], tmp_path: Path) -> bytes:
    records = [record_from_row(r, canary=CANARY) for r in small_rows()]
    out = tmp_path / "private.jsonl.gz"
    export_archive(make_run(records), out)
    return gzip.decompress(out.read_bytes())


def test_the_records_do_carry_canaries_before_export() -> None:
    record = record_from_row(small_rows()[0], canary=CANARY)
    assert CANARY in record.model_dump_json()


def test_no_canary_from_answers_reasons_citations_or_traces_survives(
        archive_text: bytes) -> None:
    assert CANARY.encode() not in archive_text


def test_no_document_id_survives(archive_text: bytes) -> None:
    assert b"doc_" not in archive_text


def test_no_key_like_string_survives(archive_text: bytes) -> None:
    assert SECRET_KEY.encode() not in archive_text
    assert KEY_LIKE.search(archive_text) is None


def test_no_latency_tokens_or_cost_survive(archive_text: bytes) -> None:
    for name in (b"latency", b"tokens", b"cost", b"answer", b"reason", b"trace", b"citations"):
        assert name not in archive_text
    assert b"1234.5" not in archive_text
