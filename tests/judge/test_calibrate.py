"""``layerrag judge calibrate``: agreement with the reference judge, the two bias probes,
weight robustness, human labels, all against the loopback fake provider (issue 30, item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.judge.llm_prompt import PADDING
from tests.judge.test_llm_judge import JUDGE
from tests.live.fake_judge import fake_judgment, judge_prompt
from tests.live.fake_provider import Answer, FakeProvider, Request

pytestmark = pytest.mark.usefixtures("private_cache")


def calibrate(run: Path, fake: FakeProvider, *extra: str) -> int:
    return main(["judge", "calibrate", str(run), "--judge", JUDGE, "--base-url", fake.url,
                 "--no-progress", *extra])


def test_calibration_prints_rho_kappa_mad_probes_and_profiles(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    assert calibrate(run, fake) == 0
    out = capsys.readouterr().out
    assert "Spearman rho" in out and "Cohen's kappa" in out and "MAD" in out
    assert "| retrieval_correctness (RC) | 72 |" in out
    assert "evidence_reversed" in out and "answer_padded" in out
    assert "| deterministic | uniform |" in out and "Kendall tau" in out


def test_calibration_json_and_a_padding_sensitive_judge(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    def flattered(r: Request) -> Answer | None:
        """A judge that pays for length: padded answers score 0.2 higher on helpfulness."""
        if not r.is_judge:
            return None
        prompt = judge_prompt(r.body)
        value = fake_judgment(prompt)
        if PADDING in prompt and value["answer_helpfulness_score"] is not None:
            value["answer_helpfulness_score"] = min(1.0, value["answer_helpfulness_score"] + 0.2)
        return Answer(value)

    fake.handler = flattered
    assert calibrate(run, fake, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    rows = {a["metric"]: a for a in data["agreement"]}
    assert rows["retrieval_correctness"]["pairs"] == 72
    assert rows["retrieval_correctness"]["spearman"] is not None
    assert rows["identifier_integrity"]["pairs"] == 0
    assert rows["identifier_integrity"]["spearman"] is None  # undefined, never 0
    probes = {(p["probe"], p["metric"]): p for p in data["probes"]}
    assert probes[("answer_padded", "answer_helpfulness")]["mean_shift"] > 0.1
    assert probes[("answer_padded", "retrieval_correctness")]["mean_shift"] == 0
    assert probes[("evidence_reversed", "answer_helpfulness")]["mean_shift"] == 0
    assert {o["profile"] for o in data["weight_robustness"]} == {
        "paper", "uniform", "retrieval-heavy"}


def test_human_labels_are_compared_and_bad_files_refused(
        run: Path, fake: FakeProvider, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(run), "--limit", "0", "--json"]) == 0
    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["records"]]
    labels = tmp_path / "human.jsonl"
    labels.write_text("\n".join(json.dumps({"key": k, "retrieval_correctness_score": 1.0
                                            if "clean" in k else 0.1}) for k in keys))
    assert calibrate(run, fake, "--human", str(labels), "--json") == 0
    human = json.loads(capsys.readouterr().out)["human"]
    rc = {a["metric"]: a for a in human["reference"]}["retrieval_correctness"]
    assert rc["pairs"] == 72 and rc["spearman"] is not None
    for text, message in [
            ('{"key": "nope", "hallucination_score": 1}', "key 'nope': no such record"),
            (json.dumps({"key": keys[0], "hallucination_score": 1.5}),
             "hallucination_score 1.5: a score is a number in [0, 1]"),
            (json.dumps({"key": keys[0], "grade": 1}), "grade: not a field"),
            ("{not json", "not JSON")]:
        labels.write_text(text + "\n")
        assert calibrate(run, fake, "--human", str(labels)) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"error: {labels}:1: ") and message in err
        assert len(err.splitlines()) == 1


def test_calibrate_needs_an_llm_judge(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "calibrate", str(run)]) == 2
    assert "--judge PROVIDER:MODEL" in capsys.readouterr().err
