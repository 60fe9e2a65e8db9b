"""``layerrag corpus validate`` and ``build`` on case specs (docs/cases.md, "Validating and
generating"): the folder is read as what its files hold, every problem is one line in the
enterprise_v2 format, a refusal points at the command that lists them all, and a built case
corpus keeps its labels out of what an agent sees.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from simulator.cases import (
    Case,
    CaseLabels,
    Turn,
    TurnLabels,
    Workflow,
    WorkflowStep,
    build_case_corpus,
    load_case_spec,
)
from simulator.cases.io import AGENT_VISIBLE, EVALUATOR_ONLY, FILES
from simulator.cli.main import main
from simulator.corpus.loader import bundled_spec_dir
from simulator.corpus.model import Document
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
IT = "it_operations.toml"
SD = "service_desk.toml"
BAD_COMMAND = ('value = "bkpctl --version"', 'value = "bkp-agent --version"')
BAD_REQUIRES = ('requires = ["confirm-seat"] }', 'requires = ["confirm-sat"] }')
BAD_DOC = ('docs = ["kb-lab-access-v2"]\nidentifiers = ["BDG-118204", "ACS-403"]',
           'docs = ["kb-lab-access-v1"]\nidentifiers = ["BDG-118204", "ACS-403"]')


def case_spec(tmp_path: Path, *edits: tuple[str, tuple[str, str]]) -> Path:
    """A copy of cases_v1 with each (file, (old, new)) replacement made once."""
    spec = tmp_path / "cases"
    shutil.copytree(bundled_spec_dir("cases_v1"), spec)
    for file, (old, new) in edits:
        text = (spec / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        (spec / file).write_text(text.replace(old, new), encoding="utf-8")
    return spec


def three_mistakes(tmp_path: Path) -> Path:
    return case_spec(tmp_path, (IT, BAD_COMMAND), ("product_support.toml", BAD_REQUIRES),
                     (SD, BAD_DOC))


def ok_line() -> str:
    spec = load_case_spec()
    cases = [c for d in spec.domains for c in d.cases]
    return (f"ok: cases_v1: 4 domains, {len(cases)} cases, "
            f"{sum(len(c.turns) for c in cases)} turns, "
            f"{sum(len(c.documents) for c in cases)} documents (spec {spec.spec_hash[:12]})")


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    assert captured.err.startswith("error: ")
    return captured.err


# validate


def test_suite_cases_validates_the_bundled_cases_v1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "validate", "--suite", "cases"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ok_line() + "\n" and captured.err == ""
    assert "4 domains, 48 cases, 177 turns, 97 documents" in captured.out


def test_a_case_folder_is_validated_as_cases_without_being_told(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = case_spec(tmp_path)
    assert main(["corpus", "validate", "--spec", str(spec)]) == 0
    assert capsys.readouterr().out.startswith("ok: cases_v1: 4 domains, 48 cases, ")


def test_every_problem_of_a_case_spec_is_one_line_then_the_count(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = three_mistakes(tmp_path)
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 3 and all(line.startswith("error: ") for line in lines), lines
    assert [line.split(": ")[1:3] for line in lines] == [
        [f"{spec}/{IT}", "unit ITC-01"], [f"{spec}/product_support.toml", "unit PSC-01"],
        [f"{spec}/{SD}", "unit SDC-02"]]
    assert "'bkp-agent --version' is not a command value" in lines[0]
    assert "'confirm-sat' is not a step of this workflow" in lines[1]
    assert "'kb-lab-access-v1' is superseded" in lines[2]
    assert captured.err == f"error: {spec}: 3 errors, 0 warnings\n"


def test_strict_fails_a_case_spec_on_warnings(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = case_spec(tmp_path, ("corpus.toml", ('access_groups = ["all-staff",',
                                                'access_groups = ["all-staff", "all-staff",')))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 0
    relaxed = capsys.readouterr().out.splitlines()
    assert relaxed[0] == (f"warning: {spec}/corpus.toml: access_groups[1]: access group "
                          "'all-staff' is listed twice")
    assert relaxed[1].startswith("ok: cases_v1: ") and relaxed[1].endswith(", 1 warning")
    assert main(["corpus", "validate", "--spec", str(spec), "--strict"]) == 2
    assert capsys.readouterr().err == f"error: {spec}: 0 errors, 1 warning (--strict)\n"


def test_a_case_file_that_does_not_parse_is_still_read_as_a_case_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = case_spec(tmp_path, (IT, ('id = "ITC-01"', 'id = "ITC-01')))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    out = capsys.readouterr().out
    assert f"{spec}/{IT}: syntax: malformed TOML" in out
    assert "[[units]]" not in out and "unknown field 'cases'" not in out


def test_suite_cases_on_an_enterprise_spec_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    for command in (["validate"], ["build", "--out", str(out)]):
        err = one_line_error(capsys, "corpus", *command, "--suite", "cases", "--spec",
                             str(TINY_SPEC))
        assert err.startswith(f"error: --suite cases: {TINY_SPEC} is an enterprise_v2 spec")
        assert "leave --suite out" in err
    assert not out.exists()


def test_suite_enterprise_on_a_case_spec_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = case_spec(tmp_path)
    err = one_line_error(capsys, "corpus", "validate", "--suite", "enterprise", "--spec",
                         str(spec))
    assert f"{spec} is a case spec" in err and "use --suite cases" in err


def test_a_folder_mixing_units_and_cases_is_one_line_and_nothing_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = case_spec(tmp_path)
    shutil.copy(next(p for p in sorted(TINY_SPEC.glob("*.toml")) if p.name != "corpus.toml"),
                spec / "zz_units.toml")
    out = tmp_path / "out"
    for argv in (["validate"], ["build", "--out", str(out)]):
        err = one_line_error(capsys, "corpus", *argv, "--spec", str(spec))
        assert err.startswith(f"error: {spec}: spec: mixes the two kinds of spec: ")
        assert f"{IT} holds [[cases]] and zz_units.toml [[units]]" in err
    assert not out.exists()


def test_validate_without_suite_still_reads_the_bundled_enterprise_v2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: enterprise_v2: 8 domains, 80 units, ")


# the refusal's pointer


def test_a_refused_case_spec_points_at_the_command_that_lists_its_problems(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = three_mistakes(tmp_path)
    err = one_line_error(capsys, "run", "--suite", "cases", "--spec", str(spec), "--out",
                         str(tmp_path / "run"), "--no-progress", "--format", "none")
    pointer = re.search(r"\(and 2 more errors; `layerrag (.+)` lists them all\)\n$", err)
    assert pointer is not None, err
    assert pointer.group(1) == f"corpus validate --suite cases --spec {spec}"
    assert not (tmp_path / "run").exists()
    # and it does list them all
    assert main(shlex.split(pointer.group(1))) == 2
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_build_refuses_a_case_spec_with_errors_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = three_mistakes(tmp_path)
    out = tmp_path / "out"
    err = one_line_error(capsys, "corpus", "build", "--spec", str(spec), "--out", str(out))
    assert "unit ITC-01: identifiers[2].value: 'bkp-agent --version'" in err
    assert err.endswith(f"(and 2 more errors; `layerrag corpus validate --suite cases --spec "
                        f"{spec}` lists them all)\n")
    assert not out.exists() and list(tmp_path.iterdir()) == [spec]


def test_enterprise_v2_refusals_name_the_folder_to_validate(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "tiny"
    shutil.copytree(TINY_SPEC, spec)
    for path in spec.glob("*.toml"):
        if path.name != "corpus.toml":
            path.write_text(path.read_text().replace("value =", "valeu =", 2))
    err = one_line_error(capsys, "corpus", "build", "--spec", str(spec), "--out",
                         str(tmp_path / "out"))
    assert err.endswith(f"more errors; `layerrag corpus validate --spec {spec}` lists them "
                        "all)\n"), err


# build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "cases"
    assert main(["corpus", "build", "--suite", "cases", "--out", str(out)]) == 0
    return out


def rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_build_writes_the_case_corpus_and_its_manifest(built: Path) -> None:
    corpus = build_case_corpus()
    assert sorted(p.name for p in built.iterdir()) == sorted(FILES)
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["corpus_hash"] == corpus.corpus_hash
    assert (manifest["seed"], manifest["generator_version"]) == (0, "cases-gen-1")
    assert manifest["spec_hash"] == corpus.spec_hash
    assert manifest["counts"]["cases"] == 48 and manifest["counts"]["turns"] == 177
    assert (manifest["agent_visible"], manifest["evaluator_only"]) == (
        list(AGENT_VISIBLE), list(EVALUATOR_ONLY))
    assert [Case.model_validate(r) for r in rows(built / "cases.jsonl")] == list(corpus.cases)
    assert [Document.model_validate(r) for r in rows(built / "documents.jsonl")] == list(
        corpus.documents)
    assert [CaseLabels.model_validate(r) for r in rows(built / "case_labels.jsonl")] == list(
        corpus.labels)


def test_build_with_another_seed_writes_another_corpus(tmp_path: Path, built: Path) -> None:
    assert main(["corpus", "build", "--suite", "cases", "--seed", "1", "--out",
                 str(tmp_path / "one")]) == 0
    zero = json.loads((built / "manifest.json").read_text())
    one = json.loads((tmp_path / "one" / "manifest.json").read_text())
    assert one["seed"] == 1 and one["corpus_hash"] != zero["corpus_hash"]
    assert one["spec_hash"] == zero["spec_hash"]


SESSION_FIELDS = {"tenant", "user_id", "session_id", "access_groups"}
PUBLIC_FIELDS = (set(Case.model_fields) | set(Turn.model_fields) | set(Document.model_fields)
                 | SESSION_FIELDS)
LABEL_ONLY_FIELDS = (set(CaseLabels.model_fields) | set(TurnLabels.model_fields)
                     | set(Workflow.model_fields) | set(WorkflowStep.model_fields)) - PUBLIC_FIELDS
"""What a label holds that no agent-visible record has: ``case_key``, ``issue``,
``expected_answer``, ``kind``, ``workflow`` ... (a document has its domain and access group,
a turn its id, position and format, as enterprise_v2's do)."""


def leaves(value: object) -> list[str]:
    """Every string in a JSON value (keys excluded)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in leaves(v)]
    if isinstance(value, list):
        return [s for v in value for s in leaves(v)]
    return [value] if isinstance(value, str) else []


def keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_no_label_reaches_the_agent_visible_files(built: Path) -> None:
    """The agent sees cases (the ticket as filed, its session and turn messages) and
    documents, nothing of the labels. Documents state values in their text by design (that is
    what an agent reads them for), so values are checked as values: no field of an
    agent-visible record holds an expected, accepted or stale value, and no case's messages
    state one of its own turns' values. The case key, the issue, the spec's document keys
    and the follow-ups' standalone rewrites appear nowhere."""
    spec = load_case_spec()
    corpus = build_case_corpus()
    visible = {name: rows(built / name) for name in AGENT_VISIBLE}
    text = {name: (built / name).read_text(encoding="utf-8") for name in AGENT_VISIBLE}
    assert {k for r in visible["cases.jsonl"] for k in keys(r)} == (
        set(Case.model_fields) | set(Turn.model_fields) | SESSION_FIELDS)
    assert {k for r in visible["documents.jsonl"] for k in keys(r)} == set(
        Document.model_fields)
    assert {"case_key", "issue", "expected_answer", "superseded_answers"} <= LABEL_ONLY_FIELDS
    for records in visible.values():
        assert not LABEL_ONLY_FIELDS & {k for r in records for k in keys(r)}
    values = {v for case in corpus.labels for t in case.turns
              for v in (*t.accepted_answers, *t.superseded_answers)}
    assert "7.4.2" in values and "7.3.0" in values  # ITC-01's expected and stale values
    for name, records in visible.items():
        assert not values & {s for r in records for s in leaves(r)}, name
    secret = [case.case_key for case in corpus.labels] + [case.issue for case in corpus.labels]
    secret += [d.key for dom in spec.domains for c in dom.cases for d in c.documents]
    secret += [t.standalone_question for case in corpus.labels for t in case.turns
               if t.kind == "follow_up"]
    for name in AGENT_VISIBLE:
        assert not [s for s in secret if s in text[name]], name
    for case, labels in zip(visible["cases.jsonl"], corpus.labels, strict=True):
        turns = case["turns"]
        assert isinstance(turns, list)
        said = " ".join(turn["message"] for turn in turns)
        for turn in labels.turns:
            for value in (*turn.accepted_answers, *turn.superseded_answers):
                assert not re.search(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", said,
                                     re.IGNORECASE), (labels.case_key, value)


def test_the_documented_ok_line_is_the_real_one() -> None:
    """docs/cases.md shows the command's output: its counts must be what the command prints
    (the spec hash beside them is not checked, so an edit of cases_v1's wording that keeps
    every count does not fail here)."""
    page = (ROOT / "docs" / "cases.md").read_text(encoding="utf-8")
    counts, _, _ = ok_line().partition(" (spec ")
    assert f"\n{counts} (spec " in page
