"""The page of the full default run, written once for the page tests and the browser test."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main


@pytest.fixture(scope="package")
def full_page(deterministic_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("view") / "view.html"
    assert main(["view", str(deterministic_run), "--out", str(out), "--replicates",
                 "200"]) == 0
    return out
