"""The shell blocks of README.md and docs/*.md run as written (``-m docs_shell``).

Each document's blocks run in order, with bash, in one scratch directory per document (so a
block may use what an earlier block of the same document made, as a reader following the
page would), with ``examples/`` and ``archives/`` of the repository beside them and the
test interpreter's ``layerrag`` on the path. A block that cannot run here says so on its
first line, visibly to the reader: ``# not run by the tests: <why>`` (a paid provider, a
local model server, or the install commands CI runs on a fresh clone).

Running them takes minutes (several blocks run the full matrix, as a reader would), so the
run is opt in, ``python -m pytest -m docs_shell``, and ``.ci/run`` runs it after the suite;
the suite itself parses every ``layerrag`` command of every block (tests/docs/test_docs_run.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.docs.test_docs_run import ROOT, SHELL

NOT_RUN = "# not run by the tests:"
SHARED = ("examples", "archives")
"""What the blocks read from the repository, linked into each scratch directory."""


def not_run(block: str) -> bool:
    return block.lstrip().startswith(NOT_RUN)


def by_document() -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for where, block in SHELL:
        found[where.rsplit(":", 1)[0]].append((where, block))
    return dict(found)


DOCUMENTS = by_document()


def test_a_block_that_is_not_run_says_why() -> None:
    for where, block in SHELL:
        first = block.lstrip().splitlines()[0] if block.strip() else ""
        if first.startswith("# not run"):
            assert re.match(rf"{re.escape(NOT_RUN)} \S", first), \
                f"{where}: say why, '{NOT_RUN} ...'"


def test_blocks_not_run_are_few() -> None:
    """Marking is for what cannot run offline, not a way around this test."""
    marked = [where for where, block in SHELL if not_run(block)]
    assert len(marked) <= len(SHELL) // 2, marked


@pytest.mark.docs_shell
@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_shell_blocks_run_as_written(document: str, tmp_path: Path) -> None:
    for name in SHARED:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": os.pathsep.join((bin_dir, os.environ.get("PATH", ""))),
           "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    for where, block in DOCUMENTS[document]:
        if not_run(block):
            continue
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, \
            f"{where} failed (exit {result.returncode}):\n{result.stderr[-3000:]}"
