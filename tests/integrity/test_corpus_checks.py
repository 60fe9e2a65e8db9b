"""Corpus checks every command honours, and the normaliser's amount rules.

A spec whose only errors are cue errors is refused by ``run`` and ``audit retriever`` as by
``corpus build``; a spec of one domain is refused at validation; warnings are shown with
errors; a role is a role-like phrase; ``$25k`` is ``$25,000`` and ``$50.00`` is ``$50``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simulator.answers.formats import value_matches_format
from simulator.answers.normalize import matches_any, normalize_answer
from simulator.cli.main import main
from tests.conftest import TINY_SPEC

BUNDLED = Path(__file__).resolve().parents[2] / "corpus_specs" / "enterprise_v2"


def spec_copy(tmp_path: Path, source: Path = TINY_SPEC) -> Path:
    out = tmp_path / "spec"
    shutil.copytree(source, out)
    return out


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


@pytest.fixture
def cue_error_spec(tmp_path: Path) -> Path:
    spec = spec_copy(tmp_path)
    path = spec / "returns.toml"
    path.write_text(path.read_text().replace('cues = ["return"', 'cues = ["re-turn"'))
    return spec


@pytest.mark.parametrize("command", [["corpus", "build", "--out", "{tmp}/corpus"],
                                     ["run", "--out", "{tmp}/run", "--tasks", "1"],
                                     ["audit", "retriever"]],
                         ids=["corpus-build", "run", "audit-retriever"])
def test_a_cue_error_is_refused_by_every_command(
        cue_error_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command]
    err = one_line_error(capsys, *argv, "--spec", str(cue_error_spec))
    assert "cue 're-turn' can never match" in err
    assert not (tmp_path / "run").exists() and not (tmp_path / "corpus").exists()


def test_a_spec_of_one_domain_is_refused_at_validation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_copy(tmp_path)
    (spec / "finance.toml").unlink()
    corpus = spec / "corpus.toml"
    corpus.write_text(corpus.read_text().replace('[[domains]]\nid = "finance"\n'
                                                 'name = "Finance"\n', ""))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    assert "a corpus needs at least 2" in capsys.readouterr().out
    err = one_line_error(capsys, "run", "--spec", str(spec), "--out", str(tmp_path / "r"))
    assert "corpus.toml: domains: 1 domain declared" in err
    assert not (tmp_path / "r").exists()


def test_reader_warnings_are_shown_with_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_copy(tmp_path)
    finance = spec / "finance.toml"
    finance.write_text(finance.read_text().replace(
        "approved by the Accounts Payable Manager before", "approved before"))
    returns = spec / "returns.toml"
    returns.write_text(returns.read_text().replace('cues = ["return"', 'cues = ["re-turn"'))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    out = capsys.readouterr().out
    assert "error:" in out and "warning:" in out and "the extractive reader" in out


@pytest.mark.parametrize("value", ["panel", "ERP", "Lockers", "Controller", "CFO"])
def test_a_bare_noun_or_acronym_is_not_a_role(value: str) -> None:
    assert not value_matches_format(value, "role")


@pytest.mark.parametrize("value", ["Finance Director", "the line manager",
                                   "Head of IT Operations", "the requesting team's manager",
                                   "FP&A Director", "the review panel"])
def test_a_role_phrase_is_a_role(value: str) -> None:
    assert value_matches_format(value, "role")


@pytest.mark.parametrize(("a", "b"), [("$25k", "$25,000"), ("$50.00", "$50"),
                                      ("$25 thousand", "$25000"), ("$1.5 million", "$1,500,000"),
                                      ("€2.50", "€2.5")])
def test_equal_amounts_match(a: str, b: str) -> None:
    assert matches_any(a, [b], "amount")


@pytest.mark.parametrize(("a", "b"), [("$49.99", "$50"), ("$25k", "$2,500"), ("$5", "£5")])
def test_different_amounts_do_not_match(a: str, b: str) -> None:
    assert not matches_any(a, [b], "amount")


def test_an_amount_is_not_read_into_a_word_after_it() -> None:
    assert normalize_answer("$10 meters", "amount") == "$10 meters"


def test_a_value_off_its_format_reads_with_the_right_article(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_copy(tmp_path, BUNDLED)
    finance = spec / "finance.toml"
    text = finance.read_text()
    first_amount = text.index('answer_format = "amount"')
    value_at = text.index('value = "', first_amount)
    end = text.index('"', value_at + len('value = "'))
    finance.write_text(text[:value_at] + 'value = "lots"' + text[end + 1:])
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    out = capsys.readouterr().out
    assert "'lots' is not an amount value" in out


DECLARED = 'shared_questions = ["How long is the standard review period?"]'
"""RET-03's declaration in the bundled returns.toml."""


def test_a_shared_question_declared_deliberate_is_no_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "validate"]) == 0  # the bundled spec declares its shared question
    out = capsys.readouterr().out
    assert "warning" not in out and out.startswith("ok: enterprise_v2")
    spec = spec_copy(tmp_path, BUNDLED)
    returns = spec / "returns.toml"
    assert DECLARED in returns.read_text()
    returns.write_text(returns.read_text().replace(DECLARED, ""))  # undeclared: a warning
    assert main(["corpus", "validate", "--spec", str(spec)]) == 0
    assert "is also asked by unit" in capsys.readouterr().out


def test_a_shared_question_the_unit_does_not_ask_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = spec_copy(tmp_path, BUNDLED)
    returns = spec / "returns.toml"
    returns.write_text(returns.read_text().replace(
        DECLARED, 'shared_questions = ["What is the meaning of life?"]'))
    assert main(["corpus", "validate", "--spec", str(spec)]) == 2
    assert "shared_questions[0]: 'What is the meaning of life?' is not one of this unit's" \
        in capsys.readouterr().out
