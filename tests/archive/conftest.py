"""Fixtures for archive tests; the record factory itself lives in ``run_factory``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from simulator.runner.record import RunRecord
from tests.archive.run_factory import record_from_row, small_rows, write_run


@pytest.fixture
def make_run(tmp_path: Path) -> Callable[..., Path]:
    """``make_run(records=None, manifest=None, name="run")`` -> a run directory."""

    def make(records: Sequence[RunRecord] | None = None,
             run_manifest: dict[str, Any] | None = None, name: str = "run") -> Path:
        if records is None:
            records = [record_from_row(r) for r in small_rows()]
        return write_run(tmp_path / name, records, run_manifest)

    return make
