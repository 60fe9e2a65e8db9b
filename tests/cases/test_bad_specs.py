"""Bad case specs: each mistake is one problem, one line, naming the file, the case, the field
and the value. Each test copies the bundled cases_v1 into tmp_path and breaks one thing.

These tests call :func:`check_case_spec` / :func:`load_case_spec` directly; the command that
prints the same lines, ``layerrag corpus validate``, is tested in tests/cli/test_corpus_cases.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simulator.cases import check_case_spec, load_case_spec
from simulator.corpus.loader import bundled_spec_dir
from simulator.corpus.problems import SpecProblems

Edit = tuple[str, str, str]
"""(file, old text, new text): one replacement in a copy of the bundled spec."""


def _spec_with(tmp_path: Path, *edits: Edit) -> Path:
    spec = tmp_path / "cases"
    shutil.copytree(bundled_spec_dir("cases_v1"), spec)
    for file, old, new in edits:
        text = (spec / file).read_text()
        assert text.count(old) == 1, old
        (spec / file).write_text(text.replace(old, new, 1))
    return spec


IT = "it_operations.toml"
PS = "product_support.toml"
SOC = "security_operations.toml"
SD = "service_desk.toml"
CORPUS = "corpus.toml"
_LAST_DECLARED_FORMAT = "(a trailing full stop is prose, not path).\"\n"
_TICKET_FORMAT = _LAST_DECLARED_FORMAT + """
[[formats]]
name = "ticket_id"
pattern = '[A-Z]{2,4}-\\d{4,5}'
"""
_SDC12_LAST_TURN = '''
[[cases.turns]]
kind = "unanswerable"
message = "Will the company pay for my bag that got wet?"
answer_type = "abstain"
answer_format = "yes_no"
'''
_ITC06_LAST_TURN = '''
[[cases.turns]]
kind = "unanswerable"
message = "What IP range will the next office after this one get?"
answer_type = "abstain"
answer_format = "system"
'''


def _yes_no_turn(aliases: str) -> str:
    """A fourth, yes_no turn for ITC-06, whose current document says "Never open the
    resolvers to any address"."""
    return f'''
[[cases.turns]]
kind = "answerable"
message = "Could we simply open the resolvers to every address instead?"
answer_type = "instruct"
answer_format = "yes_no"
expected = "never open the resolvers"
aliases = {aliases}
docs = ["kb-dns-acl-v3"]
'''


CASES: dict[str, tuple[list[Edit], list[str]]] = {
    "expected_not_in_doc": (
        [(PS, 'expected = "3"\naliases = ["three"]', 'expected = "4"\naliases = ["four"]')],
        [PS, "PSC-01", "turns[0].expected", "'4'", "no required document states"]),
    "stale_not_in_superseded_doc": (
        [(SOC, 'stale = "24 hours"\ndocs = ["kb-phish-response-v3"]',
          'stale = "48 hours"\ndocs = ["kb-phish-response-v3"]')],
        [SOC, "SOC-01", "turns[0].stale", "'48 hours'", "superseded version"]),
    "requires_unknown_step": (
        [(PS, 'requires = ["confirm-seat"] }', 'requires = ["confirm-sat"] }')],
        [PS, "PSC-01", "workflow.steps[1].requires[0]", "'confirm-sat'",
         "Did you mean: confirm-seat?"]),
    "requires_a_later_step": (
        [(SD, '{ id = "check-eligibility", action = "Check the employee\'s service length '
              'against the eligibility rule" }',
          '{ id = "check-eligibility", action = "Check the employee\'s service length '
          'against the eligibility rule", requires = ["submit-form"] }')],
        [SD, "SDC-01", "workflow.steps[0].requires[0]", "'submit-form'", "comes later"]),
    "dangling_supersedes": (
        [(PS, 'supersedes = "kb-lic2207-v2"', 'supersedes = "kb-lic2207-v1"')],
        [PS, "PSC-01", "documents[0].supersedes", "'kb-lic2207-v1'", "unknown document"]),
    "unknown_turn_document": (
        [(SOC, 'docs = ["kb-edr7734-v2"]\nidentifiers = ["WS-FIN-2291", "EDR-7734"]',
          'docs = ["kb-edr7734-v3"]\nidentifiers = ["WS-FIN-2291", "EDR-7734"]')],
        [SOC, "SOC-02", "turns[1].docs[0]", "'kb-edr7734-v3'", "unknown document"]),
    "turn_rests_on_superseded_doc": (
        [(SD, 'docs = ["kb-lab-access-v2"]\nidentifiers = ["BDG-118204", "ACS-403"]',
          'docs = ["kb-lab-access-v1"]\nidentifiers = ["BDG-118204", "ACS-403"]')],
        [SD, "SDC-02", "turns[1].docs[0]", "'kb-lab-access-v1'", "superseded"]),
    "expected_not_of_its_format": (
        [(PS, 'expected = "11.2"', 'expected = "eleven point two"')],
        [PS, "PSC-01", "turns[2].expected", "'eleven point two'", "version_number"]),
    "two_turns": (
        [(SD, _SDC12_LAST_TURN, "")],
        [SD, "SDC-12", "turns", "3 to 5 turns, got 2"]),
    "duplicate_case_id": (
        [(SD, 'id = "SDC-02"', 'id = "SDC-01"')],
        [SD, "SDC-01", "id", "duplicate case id"]),
    "undeclared_domain": (
        [(SD, 'domain = "service_desk"', 'domain = "service_dsk"')],
        [SD, "domain", "'service_dsk'", "Did you mean: service_desk?"]),
    "unknown_identifier_kind": (
        [(SOC, '{ kind = "asset_id", value = "WS-FIN-2291" }',
          '{ kind = "asset", value = "WS-FIN-2291" }')],
        [SOC, "SOC-02", "identifiers[0].kind", "'asset'", "Did you mean: asset_id?"]),
    "turn_identifier_not_of_the_case": (
        [(SOC, 'identifiers = ["WS-FIN-2291", "EDR-7734"]',
          'identifiers = ["WS-FIN-2219", "EDR-7734"]')],
        [SOC, "SOC-02", "turns[1].identifiers[0]", "'WS-FIN-2219'", "not an identifier"]),
    "error_code_not_of_its_format": (
        [(SD, '{ kind = "asset_id", value = "FORM-PL2" }',
          '{ kind = "error_code", value = "FORM-PL2" }')],
        [SD, "SDC-01", "identifiers[1].value", "'FORM-PL2'", "not an error_code value",
         "[A-Z]{2,6}"]),
    "command_not_of_its_format": (
        [(SOC, '{ kind = "command", value = "mailctl purge --campaign c-7781" }',
          '{ kind = "command", value = "mail purge --campaign c-7781" }')],
        [SOC, "SOC-01", "identifiers[1].value", "'mail purge --campaign c-7781'",
         "not a command value"]),
    "file_path_not_of_its_format": (
        [(IT, '{ kind = "file_path", value = "/etc/pki/portal/server.pem" }',
          '{ kind = "file_path", value = "etc/pki/portal/server.pem" }')],
        [IT, "ITC-02", "identifiers[2].value", "'etc/pki/portal/server.pem'",
         "not a file_path value"]),
    "identifier_of_the_wrong_kind": (
        [(IT, '{ kind = "command", value = "bkpctl --version" }',
          '{ kind = "version", value = "bkpctl --version" }')],
        [IT, "ITC-01", "identifiers[2].value", "'bkpctl --version'",
         "not a version_number value (the format of version identifiers)",
         "it fits command: is its kind wrong?"]),
    "ticket_id_not_one_token": (
        [(SD, '{ kind = "ticket_id", value = "FAC-22871" }',
          '{ kind = "ticket_id", value = "FAC 22871" }')],
        [SD, "SDC-02", "identifiers[2].value", "'FAC 22871'", "not one token"]),
    "ticket_id_not_of_a_declared_format": (
        [(CORPUS, _LAST_DECLARED_FORMAT, _TICKET_FORMAT),
         (PS, '{ kind = "ticket_id", value = "CS-30418" }',
          '{ kind = "ticket_id", value = "CS-304" }')],
        [PS, "PSC-01", "identifiers[1].value", "'CS-304'", "not a ticket_id value"]),
    "yes_no_turn_without_yes_or_no": (
        [(IT, _ITC06_LAST_TURN, _ITC06_LAST_TURN + _yes_no_turn(aliases='["never"]'))],
        [IT, "ITC-06", "turns[3].expected", "'never open the resolvers'",
         "not a yes_no value", "yes or no"]),
    "yes_no_turn_saying_yes_and_no": (
        [(IT, _ITC06_LAST_TURN, _ITC06_LAST_TURN + _yes_no_turn(aliases='["no", "Yes"]'))],
        [IT, "ITC-06", "turns[3].aliases", "'never open the resolvers'",
         "both yes and no"]),
    "follow_up_without_rewrite": (
        [(PS, 'standalone = "Which command releases a Ledgerly seat on the old machine after '
              'LIC-2207?"\n', "")],
        [PS, "PSC-01", "turns[1].standalone", "standalone rewrite"]),
}

CONSEQUENCES = {"dangling_supersedes": 2, "expected_not_of_its_format": 1}
"""Mistakes that rightly bring further problems, reported after the first: a dangling link
leaves the case with no superseded version (so no stale value either); a value of the wrong
format is also, of course, stated by no document."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_mistake_is_one_line_naming_file_case_field_and_value(
        tmp_path: Path, case: str) -> None:
    edits, expected = CASES[case]
    spec = _spec_with(tmp_path, *edits)
    check = check_case_spec(spec)
    assert check.spec is None
    errors = check.errors
    assert len(errors) == 1 + CONSEQUENCES.get(case, 0), [p.line() for p in errors]
    assert {(p.file, p.unit) for p in errors} == {(errors[0].file, errors[0].unit)}
    line = errors[0].line()
    assert "\n" not in line
    for word in expected:
        assert word in line, (word, line)
    with pytest.raises(SpecProblems):
        load_case_spec(spec)


def test_a_yes_no_turn_whose_alias_gives_its_polarity_is_valid(tmp_path: Path) -> None:
    """The rule the two yes_no cases above break, kept: the value as the document words it,
    with yes or no beside it (enterprise_v2's convention), passes."""
    for n, aliases in enumerate(('["no"]', '["No", "not allowed"]')):
        spec = _spec_with(tmp_path / str(n),
                          (IT, _ITC06_LAST_TURN, _ITC06_LAST_TURN + _yes_no_turn(aliases)))
        assert [p.line() for p in check_case_spec(spec).problems] == [], aliases


def test_a_supersedes_cycle_is_reported_once_as_a_cycle(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, (PS, 'effective_year = 2022\ntext = "LIC-2207 is shown',
                                 'effective_year = 2025\nsupersedes = "kb-lic2207-v3"\n'
                                 'text = "LIC-2207 is shown'))
    errors = check_case_spec(spec).errors
    cycles = [p for p in errors if "lineage cycle" in p.message]
    assert len(cycles) == 1, [p.line() for p in errors]
    line = cycles[0].line()
    assert PS in line and "PSC-01" in line and ".supersedes" in line
    assert "kb-lic2207-v2" in line and "kb-lic2207-v3" in line
    assert all(p.unit == "PSC-01" for p in errors)


def test_mistakes_in_two_files_are_all_reported_in_one_run(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path, (SD, 'id = "SDC-02"', 'id = "SDC-01"'),
                      (PS, 'requires = ["confirm-seat"] }', 'requires = ["confirm-sat"] }'))
    files = sorted(Path(p.file).name for p in check_case_spec(spec).errors)
    assert files == [PS, SD]


def test_a_missing_domain_file_names_the_domain(tmp_path: Path) -> None:
    spec = _spec_with(tmp_path)
    (spec / SOC).unlink()
    (problem,) = check_case_spec(spec).errors
    assert problem.line().endswith("corpus.toml: domains: no file defines security_operations")
