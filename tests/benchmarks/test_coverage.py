"""benchmarks/coverage.py runs end to end and its table does not depend on the worker count."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "coverage.py"


def _table(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(SCRIPT), "--profile", "quick", *args],
                          capture_output=True, text=True, check=True, timeout=300)
    return [line for line in done.stdout.splitlines() if line.startswith("|")]


@pytest.mark.slow
def test_the_quick_profile_prints_every_row_the_same_with_one_worker_or_two() -> None:
    one, two = _table("--workers", "1"), _table("--workers", "2")
    assert one == two
    header, _, *rows = one
    assert header.split("|")[1:4] == [" design ", " M ", " effect "]
    assert len(rows) == 2 * 3 * 2  # designs x model-unit counts x true effects
    assert all(row.count("±") == 4 for row in rows)
