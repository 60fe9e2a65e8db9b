"""A refused case spec names its first error and the command that lists every one: the
enterprise_v2 wording (``layerrag corpus validate``) would validate the bundled enterprise_v2
instead, so a case spec names its suite and folder."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from simulator.cases import load_case_spec
from simulator.cases.loader import validate_command
from simulator.corpus.loader import bundled_spec_dir
from simulator.corpus.problems import SpecProblems


def test_the_refusal_of_a_case_spec_ends_with_its_validate_command(tmp_path: Path) -> None:
    spec = tmp_path / "my cases"
    shutil.copytree(bundled_spec_dir("cases_v1"), spec)
    for name in ("it_operations.toml", "service_desk.toml"):
        path = spec / name
        path.write_text(path.read_text().replace('answer_type = "clarify"',
                                                 'answer_type = "clarfy"', 1))
    with pytest.raises(SpecProblems) as refused:
        load_case_spec(spec)
    assert str(refused.value).endswith(
        f"(and 1 more error; `layerrag corpus validate --suite cases --spec "
        f"{shlex.quote(str(spec))}` lists them all)")


def test_the_bundled_spec_is_named_by_its_suite_alone() -> None:
    assert validate_command() == "layerrag corpus validate --suite cases"
    assert validate_command("cases") == "layerrag corpus validate --suite cases --spec cases"
