"""The judge on a cases run: the reference judge scores the three case metrics where the
single-turn records leave them not applicable, in the directions the faults push them, and
the LLM judge is shown the case as filed and the exchanges before the turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.conversations.run import run_cases
from simulator.judge.store import read_judgments
from simulator.runner.config import RunConfig
from simulator.runner.store import RunStore
from tests.live.fake_provider import FakeProvider


@pytest.fixture(scope="module")
def cases_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("judge_cases_run")
    run_cases(RunConfig(suite="cases", tasks=16, scenarios=("clean", "wrong_session"),
                        modes=("strict",), arms=("uncontrolled", "session_isolation")), out)
    return out


def _cells(run: Path, capsys: pytest.CaptureFixture[str]) -> dict[tuple[str, str], dict]:
    assert main(["judge", str(run), "--json", "--replicates", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {(c["arm"], c["scenario"]): c for c in data["cells"]}


def _mean(cell: dict, metric: str) -> float:
    value = cell["metrics"][metric]
    assert value is not None, metric
    return float(value["mean"])


def test_every_case_metric_is_scored_on_case_turns(
        cases_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cells = _cells(cases_run, capsys)
    clean = cells[("uncontrolled", "clean")]
    assert clean["unjudged"] == 0 and clean["judged"] > 0
    for metric in ("identifier_integrity", "case_issue_identification"):
        assert _mean(clean, metric) > 0.85, metric


def test_a_leaked_memory_lowers_identifiers_and_case_identification_and_isolation_helps(
        cases_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cells = _cells(cases_run, capsys)
    clean, leaked = cells[("uncontrolled", "clean")], cells[("uncontrolled", "wrong_session")]
    isolated = cells[("session_isolation", "wrong_session")]
    for metric in ("identifier_integrity", "case_issue_identification",
                   "retrieval_correctness"):
        assert _mean(leaked, metric) < _mean(clean, metric) - 0.1, metric
        assert _mean(isolated, metric) > _mean(leaked, metric), metric
    # served another case's evidence, the answer is still grounded in what it was shown
    assert _mean(leaked, "hallucination") > 0.9


def test_clarify_and_abstain_turns_need_no_document(cases_run: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _cells(cases_run, capsys)
    with RunStore(cases_run, create=False) as store:
        kinds = {r.key.as_str(): r.case.kind for r in store.records() if r.case}
        judgments = list(read_judgments(store, "deterministic"))
    for j in judgments:
        if kinds[j.key] in ("underspecified", "unanswerable"):
            assert j.scores["retrieval_correctness"].value is None
            assert j.scores["answer_helpfulness"].value is not None


@pytest.mark.usefixtures("private_cache")
def test_the_llm_judge_sees_the_case_as_filed_and_the_turns_before(
        cases_run: Path, tmp_path: Path) -> None:
    import shutil

    run = Path(shutil.copytree(cases_run, tmp_path / "run"))
    with FakeProvider() as fake:
        assert main(["judge", str(run), "--judge", "openai:fake-judge", "--base-url",
                     fake.url, "--replicates", "20", "--no-progress", "--backoff",
                     "0.01"]) == 0
        prompts = [r.body["messages"][1]["content"] for r in fake.requests if r.is_judge]
    from simulator.cases import build_case_corpus

    corpus = build_case_corpus()
    subjects = {c.subject for c in corpus.cases}
    assert any(any(s in p for s in subjects) for p in prompts)
    assert any("user: " in p and "assistant: " in p for p in prompts)
    assert not any("Metrics that cannot apply" in p for p in prompts)
    issues = {c.issue for c in corpus.labels}  # evaluator-only: no label reaches the judge
    assert not any(issue in p for issue in issues for p in prompts)


def test_the_cases_report_carries_the_judge_tables(cases_run: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _cells(cases_run, capsys)  # the judgments are stored
    assert main(["report", str(cases_run), "--judge", "deterministic", "--format", "json",
                 "--replicates", "20"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["cases"] and report["judge"]["judge"] == "deterministic"
    assert len(report["judge"]["cells"]) == 4
