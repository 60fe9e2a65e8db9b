"""Bad specs: every problem is one line naming file, unit and field; all are reported in one
run; exit code 2; nothing is written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.corpus import check_spec
from tests.conftest import TINY_SPEC

Edit = tuple[str, str, str]
"""(file, old text, new text): one replacement in a copy of the tiny spec."""


def _spec_with(tmp_path: Path, *edits: Edit) -> Path:
    spec = tmp_path / "spec"
    if not spec.exists():
        shutil.copytree(TINY_SPEC, spec)
    for file, old, new in edits:
        text = (spec / file).read_text()
        assert old in text, old
        (spec / file).write_text(text.replace(old, new, 1))
    return spec


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *args],
                          capture_output=True, text=True, check=False)


def _build(spec: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """(exit code, standard error) of ``corpus build``, in process (a subprocess costs ~2 s;
    the five-mistakes test below runs one to show the process-level behaviour)."""
    code = main(["corpus", "build", "--spec", str(spec), "--out", str(out)])
    return code, capsys.readouterr().err


_FINANCE = '[[domains]]\nid = "finance"'
_TWICE = '[[domains]]\nid = "returns"\nname = "Returns again"\n\n' + _FINANCE

CASES: dict[str, tuple[list[Edit], list[str]]] = {
    "missing_field": ([("returns.toml", 'attribute = "return window for unopened merchandise"\n',
                        "")], ["returns.toml", "RET-01", "attribute", "missing"]),
    "duplicate_id": ([("finance.toml", 'id = "FIN-02"', 'id = "FIN-01"')],
                     ["finance.toml", "FIN-01", "id", "duplicate"]),
    "equal_values": ([("returns.toml", 'value = "10%"', 'value = "15%"'),
                      ("returns.toml", "fee of 10%", "fee of 15%")],
                     ["returns.toml", "RET-02", "superseded.value", "equals"]),
    "unknown_domain": ([("finance.toml", 'domain = "finance"', 'domain = "finanse"')],
                       ["finance.toml", "domain", "finanse", "Did you mean: finance?"]),
    "two_questions": ([("returns.toml",
                        '  "Within what period can an unopened product be sent back?",\n', "")],
                      ["returns.toml", "RET-01", "questions", "3"]),
    "malformed_toml": ([("finance.toml", 'title = "Invoice approver"',
                         'title = "Invoice approver')], ["finance.toml", "syntax"]),
    "misspelled_field": ([("returns.toml", 'value = "45 days"', 'valeu = "45 days"')],
                         ["returns.toml", "RET-01", "current.valeu", "Did you mean: value?"]),
    "year_as_text": ([("returns.toml", "effective_year = 2025", 'effective_year = "2025"')],
                     ["returns.toml", "RET-01", "current.effective_year", "'2025'"]),
    "year_as_float": ([("returns.toml", "effective_year = 2025", "effective_year = 2025.0")],
                      ["returns.toml", "RET-01", "current.effective_year", "2025.0"]),
    "domain_declared_twice": ([("corpus.toml", _FINANCE, _TWICE)],
                              ["corpus.toml", "domains[1].id", "declared twice"]),
    "duplicate_title": ([("finance.toml", 'title = "Invoice approver"',
                          'title = "Expense approval threshold"')],
                        ["finance.toml", "FIN-02", "title", "FIN-01"]),
    "unknown_format": ([("finance.toml", 'answer_format = "amount"', 'answer_format = "ammount"')],
                       ["finance.toml", "FIN-01", "answer_format", "Did you mean: amount?"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_spec_is_one_line_exit_2_and_writes_nothing(
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    edits, expected = CASES[case]
    spec = _spec_with(tmp_path, *edits)
    out = tmp_path / "out"
    code, err = _build(spec, out, capsys)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in expected:
        assert word in lines[0], (word, lines[0])
    assert not out.exists() or not any(out.iterdir())
    assert not list(tmp_path.glob(".out.*"))


def test_five_mistakes_in_three_files_are_all_reported_in_one_validate_run(
        tmp_path: Path) -> None:
    spec = _spec_with(
        tmp_path,
        ("corpus.toml", _FINANCE, _TWICE),
        ("returns.toml", 'value = "45 days"', 'valeu = "45 days"'),
        ("returns.toml", "effective_year = 2022", 'effective_year = "2022"'),
        ("finance.toml", 'cues = ["expense"', 'cues = ["purchase-order", "expense"'),
        ("finance.toml", 'answer_format = "amount"', 'answer_format = "ammount"'),
    )
    result = _cli("corpus", "validate", "--spec", str(spec))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = result.stdout.splitlines()
    assert len(errors) == 5 and all(line.startswith("error: ") for line in errors), errors
    expected = [("corpus.toml", "domains[1].id"), ("finance.toml", "answer_format"),
                ("finance.toml", "cues[0]"), ("returns.toml", "current.valeu"),
                ("returns.toml", "superseded.effective_year")]
    for line, (file, field) in zip(errors, expected, strict=True):
        assert f"{file}: " in line and f": {field}: " in line, (line, file, field)
    assert result.stderr == f"error: {spec}: 5 errors, 0 warnings\n"


def test_a_misspelled_field_is_not_also_reported_missing(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, ("returns.toml", 'value = "45 days"', 'valeu = "45 days"'))
    assert [p.field for p in check_spec(spec).problems] == ["current.valeu"]


def test_an_unreadable_file_is_a_problem_not_a_traceback(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path)
    (spec / "folder.toml").mkdir()
    (spec / "dangling.toml").symlink_to(spec / "absent")
    problems = check_spec(spec).errors
    assert {(Path(p.file).name, p.field) for p in problems} == {("folder.toml", "file"),
                                                               ("dangling.toml", "file")}


def test_a_question_asked_by_two_units_of_one_domain_is_an_error(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, ("returns.toml", "What restocking fee applies to opened "
                                                 "electronics?", "What is the return window "
                                                                 "for unopened items?"))
    (problem,) = check_spec(spec).errors
    assert (problem.unit, problem.field) == ("RET-02", "questions")
    assert "same domain" in problem.message


def test_a_question_asked_in_two_domains_is_a_warning_naming_both_units(tmp_path: Path) -> None:
    shared = "What is the threshold or fee?"
    spec = _spec_with(
        tmp_path,
        ("returns.toml", "If a customer returns an opened laptop, what fee is charged?", shared),
        ("finance.toml", "What is the director approval threshold for expenses?", shared))
    check = check_spec(spec)
    assert check.spec is not None
    (warning,) = check.problems
    assert warning.severity == "warning" and "RET-02" in warning.line()
    assert "FIN-01" in warning.message


def test_a_cue_shared_by_two_domains_is_a_warning_naming_the_questions_it_ties(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec_with(tmp_path, ("finance.toml", 'cues = ["expense"',
                                 'cues = ["returns", "expense"'))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if ": cues: " in x]
    assert line.startswith("warning: ")
    assert "'returns'" in line and "'return'" in line and "ties on 2" in line
    assert "RET-01 'What is the return window for unopened items?'" in line
    assert main(["corpus", "validate", "--spec", str(spec), "--strict"]) == 2


def test_a_count_value_with_its_noun_is_refused_with_a_hint(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, ("finance.toml", 'answer_format = "amount"',
                                 'answer_format = "count"'))
    problems = [p for p in check_spec(spec).errors if p.field == "current.value"]
    assert problems and "write the number alone" in problems[0].message


def test_a_failed_rebuild_keeps_the_previous_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert _build(TINY_SPEC, out, capsys)[0] == 0
    before = (out / "documents.jsonl").read_bytes()
    spec = _spec_with(tmp_path, ("returns.toml", 'value = "10%"', 'value = "15%"'))
    assert _build(spec, out, capsys)[0] == 2
    assert (out / "documents.jsonl").read_bytes() == before


def test_another_command_names_the_first_error_and_counts_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec_with(tmp_path, ("returns.toml", 'value = "45 days"', 'valeu = "45 days"'),
                      ("finance.toml", 'answer_format = "amount"', 'answer_format = "ammount"'))
    assert main(["audit", "retriever", "--spec", str(spec)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "and 1 more error" in line and "layerrag corpus validate" in line


def test_validate_passes_on_enterprise_v2_with_no_warning(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its one cross-domain collision (RET-03 and LEG-01 ask the same question) is declared
    deliberate in RET-03's shared_questions, so validate has nothing to warn about."""
    assert main(["corpus", "validate"]) == 0
    result = capsys.readouterr()
    (verdict,) = result.out.strip().splitlines()
    assert verdict.startswith("ok: enterprise_v2: 8 domains, 80 units, 160 documents, "
                              "240 tasks") and "warning" not in verdict
    assert result.err == ""


def test_every_enterprise_v2_value_is_extractable() -> None:
    from simulator.corpus import load_spec
    from simulator.corpus.lint import prose_warnings

    assert prose_warnings(load_spec()) == []
