"""Every kind of bad spec is one clear line naming file, unit and field, exit code 2."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TINY_SPEC


def _spec_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    spec = tmp_path / "spec"
    shutil.copytree(TINY_SPEC, spec)
    text = (spec / file).read_text()
    assert old in text, old
    (spec / file).write_text(text.replace(old, new, 1))
    return spec


def _build(spec: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "simulator.cli.main", "corpus", "build", "--spec", str(spec),
         "--out", str(out)], capture_output=True, text=True, check=False)


CASES = {
    "missing_field": ("returns.toml", 'attribute = "return window for unopened merchandise"\n',
                      "", ["returns.toml", "RET-01", "attribute", "missing"]),
    "duplicate_id": ("finance.toml", 'id = "FIN-02"', 'id = "FIN-01"',
                     ["finance.toml", "FIN-01", "id", "duplicate"]),
    "equal_values": ("returns.toml", 'value = "10%"', 'value = "15%"',
                     ["returns.toml", "RET-02", "superseded.value", "equals"]),
    "unknown_domain": ("finance.toml", 'domain = "finance"', 'domain = "finanse"',
                       ["finance.toml", "domain", "finanse"]),
    "two_questions": ("returns.toml",
                      '  "Within what period can an unopened product be sent back?",\n', "",
                      ["returns.toml", "RET-01", "questions", "3"]),
    "malformed_toml": ("finance.toml", 'title = "Invoice approver"', 'title = "Invoice approver',
                       ["finance.toml", "syntax"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_spec_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, case: str) -> None:
    file, old, new, expected = CASES[case]
    spec = _spec_with(tmp_path, file, old, new)
    out = tmp_path / "out"
    result = _build(spec, out)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in expected:
        assert word in lines[0], (word, lines[0])
    assert not out.exists() or not any(out.iterdir())
    assert not list(tmp_path.glob(".out.*"))


def test_a_failed_rebuild_keeps_the_previous_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _build(TINY_SPEC, out).returncode == 0
    before = (out / "documents.jsonl").read_bytes()
    spec = _spec_with(tmp_path, "returns.toml", 'value = "10%"', 'value = "15%"')
    assert _build(spec, out).returncode == 2
    assert (out / "documents.jsonl").read_bytes() == before


def test_validate_passes_on_enterprise_v2() -> None:
    result = subprocess.run([sys.executable, "-m", "simulator.cli.main", "corpus", "validate"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "8 domains, 80 units, 160 documents, 240 tasks" in result.stdout


def test_every_enterprise_v2_value_is_extractable() -> None:
    from simulator.corpus import load_spec
    from simulator.corpus.lint import extraction_problems

    problems = [p for d in load_spec().domains for p in extraction_problems(d)]
    assert problems == []
