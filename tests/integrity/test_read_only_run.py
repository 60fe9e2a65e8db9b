"""A run directory this process may not write can still be reported on, exported, credited.

The store opens in WAL mode, which a read-only directory cannot serve (no -shm file can be
made there); a store opened only to read now opens ``immutable`` (or ``mode=ro`` when a
write-ahead log was left behind). The commands run in a subprocess whose user cannot
write the directory: as a normal user, ``chmod`` does it; as root, which ignores file
modes, ``setpriv`` drops the capability that lets it.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.cli.main import main
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]


def without_write_rights() -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a directory read-only")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


@pytest.fixture(scope="module")
def read_only_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("ro") / "run"
    assert main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--tasks", "2",
                 "--scenarios", "clean,schema_drift", "--arms", "uncontrolled,schema_repair",
                 "--no-progress", "--format", "none"]) == 0
    for path in (out / "runs.sqlite", out):
        path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
                   | (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if path.is_dir() else 0))
    yield out
    out.chmod(0o755)


def layerrag(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([*without_write_rights(), sys.executable, "-m",
                           "simulator.cli.main", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_directory_really_is_read_only_to_the_command(read_only_run: Path) -> None:
    probe = subprocess.run([*without_write_rights(), sys.executable, "-c",
                            f"open({str(read_only_run / 'x')!r}, 'w')"],
                           capture_output=True, text=True)
    assert probe.returncode != 0 and "Permission denied" in probe.stderr


def test_a_read_only_run_can_be_reported(read_only_run: Path) -> None:
    result = layerrag("report", str(read_only_run))
    assert result.returncode == 0, result.stderr
    assert "schema_drift" in result.stdout
    assert sorted(p.name for p in read_only_run.iterdir()) == ["runs.sqlite"]


def test_a_read_only_run_can_be_exported(read_only_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "archive.jsonl"
    result = layerrag("archive", "export", str(read_only_run), "--out", str(target))
    assert result.returncode == 0, result.stderr
    assert main(["archive", "recompute", str(target), "--format", "csv"]) == 0


def test_a_read_only_run_can_be_credited(read_only_run: Path) -> None:
    result = layerrag("credit", "--run", str(read_only_run), "--policy", "schema_repair",
                      "--json")
    assert result.returncode == 0, result.stderr
    assert '"schema_repair"' in result.stdout


def test_a_read_only_run_shows_in_study_arms(read_only_run: Path) -> None:
    result = layerrag("study", "arms", str(read_only_run))
    assert result.returncode == 0, result.stderr
    assert "schema_repair" in result.stdout
