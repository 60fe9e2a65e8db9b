"""Start-up: a command imports only what it needs before it speaks.

The heavy libraries (scikit-learn, matplotlib, LangChain/LangGraph) take seconds to import
on a loaded machine; ``--help``, ``list`` and a configuration error must not wait for them.
Each check runs in a fresh interpreter, where ``sys.modules`` starts empty.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sklearn", "matplotlib", "langgraph", "langchain", "langchain_core")

PROBE = """
import contextlib, io, json, sys
heavy = sys.argv[1].split(",")
from simulator.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[2:])
    except SystemExit as exc:  # --help
        code = exc.code
print(json.dumps({"code": code, "heavy": sorted(m for m in heavy if m in sys.modules)}))
"""


def heavy_imports(*argv: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *argv], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [("--help",), ("run", "--help"), ("credit", "--help"),
                                  ("list", "policies"), ("list", "arms")])
def test_help_and_list_import_no_heavy_library(argv: tuple[str, ...]) -> None:
    assert heavy_imports(*argv) == {"code": 0, "heavy": []}


def test_resuming_with_other_options_is_refused_before_any_heavy_import(
        tmp_path: Path) -> None:
    small = ["--spec", str(TINY_SPEC), "--modes", "strict", "--scenarios", "clean",
             "--no-progress", "--format", "none"]
    out = str(tmp_path / "run")
    first = subprocess.run([sys.executable, "-m", "simulator.cli.main", "run", "--out", out,
                            "--tasks", "2", *small], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert first.returncode == 0, first.stderr
    assert heavy_imports("run", "--out", out, "--tasks", "1", *small) == {"code": 2,
                                                                           "heavy": []}
