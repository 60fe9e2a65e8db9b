"""Pages written once for the page tests and the browser test: the full default run's, and
a small cases run's (8 cases under clean, wrong_session and stale_index, strict mode, with
and without session isolation: a second or two)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main

CASES_RUN = ["--suite", "cases", "--tasks", "8", "--scenarios", "clean,wrong_session,stale_index",
             "--modes", "strict", "--arms", "uncontrolled,session_isolation"]
"""The cases run the cases page tests view (and docs/img/view-cases.png shows)."""


@pytest.fixture(scope="package")
def full_page(deterministic_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("view") / "view.html"
    assert main(["view", str(deterministic_run), "--out", str(out), "--replicates",
                 "200"]) == 0
    return out


@pytest.fixture(scope="package")
def small_cases_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cases_run") / "cases"
    assert main(["run", *CASES_RUN, "--out", str(out), "--format", "none",
                 "--no-progress"]) == 0
    return out


@pytest.fixture(scope="package")
def cases_page(small_cases_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cases_view") / "view.html"
    assert main(["view", str(small_cases_run), "--out", str(out), "--replicates", "200"]) == 0
    return out
