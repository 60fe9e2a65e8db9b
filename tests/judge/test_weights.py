"""S_final's weight profiles and the --weights file check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.errors import UsageError
from simulator.judge.metrics import METRIC_NAMES
from simulator.judge.weights import PAPER, PROFILES, RETRIEVAL_HEAVY, UNIFORM, load_weights


def test_every_profile_weighs_the_eight_metrics_to_one() -> None:
    for name, weights in PROFILES.items():
        assert set(weights) == set(METRIC_NAMES), name
        assert sum(weights.values()) == pytest.approx(1.0, abs=1e-9), name


def test_paper_weights_are_the_papers() -> None:
    assert PAPER["hallucination"] == 0.20
    assert PAPER["retrieval_correctness"] == PAPER["answer_helpfulness"] == 0.15
    assert UNIFORM["identifier_integrity"] == 0.125


def test_retrieval_heavy_scales_the_other_six_proportionally() -> None:
    assert RETRIEVAL_HEAVY["retrieval_correctness"] == RETRIEVAL_HEAVY["context_sufficiency"]
    assert RETRIEVAL_HEAVY["context_sufficiency"] == 0.20
    assert RETRIEVAL_HEAVY["hallucination"] == pytest.approx(0.16)
    assert RETRIEVAL_HEAVY["answer_type_fit"] == pytest.approx(0.08)


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_toml_and_a_json_weights_file_load(tmp_path: Path) -> None:
    toml = "\n".join(f"{m} = 0.125" for m in METRIC_NAMES)
    assert load_weights(_file(tmp_path, "w.toml", toml))[1] == UNIFORM
    assert load_weights(_file(tmp_path, "w.json", json.dumps(PAPER)))[1] == PAPER


@pytest.mark.parametrize(("change", "message"), [
    ({"grounding": 0.1}, "grounding: not a metric"),
    ({"hallucination": -0.1}, "hallucination: must be a non-negative number"),
    ({"hallucination": "high"}, "hallucination: must be a non-negative number"),
    ({"hallucination": 0.5}, "sum to"),
])
def test_a_bad_weights_file_is_refused_naming_the_field(tmp_path: Path, change: dict[str, object],
                                                        message: str) -> None:
    path = _file(tmp_path, "w.json", json.dumps({**PAPER, **change}))
    with pytest.raises(UsageError, match=message):
        load_weights(path)


def test_a_weights_file_missing_a_metric_is_refused(tmp_path: Path) -> None:
    partial = {m: w for m, w in PAPER.items() if m != "answer_type_fit"}
    with pytest.raises(UsageError, match="answer_type_fit: missing"):
        load_weights(_file(tmp_path, "w.json", json.dumps(partial)))


def test_invalid_toml_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = _file(tmp_path, "w.toml", "hallucination = = 1")
    with pytest.raises(UsageError, match=r"w\.toml: not valid TOML"):
        load_weights(path)


def test_an_unknown_profile_is_refused() -> None:
    with pytest.raises(UsageError, match="neither a profile"):
        load_weights("heavy")
