"""Read and validate a case spec folder, reporting every problem at once.

The same reading as enterprise_v2's (:mod:`simulator.corpus.loader`): its TOML reader, its
field validation with one-line, "Did you mean" problems, its ``corpus.toml`` checks; then the
case checks of :mod:`simulator.cases.checks`. :func:`check_case_spec` returns the spec (when
there is no error) and every problem; :func:`load_case_spec` raises
:class:`~simulator.corpus.problems.SpecProblems` naming the first error and counting the rest.
"""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path
from typing import NamedTuple

from simulator.cases.checks import CaseFile, case_problems, spec_problems
from simulator.cases.spec import CaseCorpusSpec, CaseDomainHeader, CaseDomainSpec, CaseSpec
from simulator.corpus.checks import corpus_problems
from simulator.corpus.loader import CORPUS_FILE, bundled_spec_dir, read_toml, validate
from simulator.corpus.problems import Problem, SpecProblems, did_you_mean, errors_of
from simulator.corpus.spec import CorpusDecl

BUNDLED = "cases_v1"


class CaseSpecCheck(NamedTuple):
    spec: CaseCorpusSpec | None
    """The validated spec, or None when there is any error."""
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> list[Problem]:
        return errors_of(self.problems)


def load_case_spec(spec_dir: Path | str | None = None) -> CaseCorpusSpec:
    """The validated spec in ``spec_dir`` (default: the bundled cases_v1); any error refuses it,
    naming the first and the command that lists them all."""
    check = check_case_spec(spec_dir)
    if check.spec is None:
        raise SpecProblems(check.problems, validate=validate_command(spec_dir))
    return check.spec


def validate_command(spec_dir: Path | str | None = None) -> str:
    """The ``layerrag corpus validate`` command that lists every problem of this case spec.

    It names the suite as well as the folder: ``--spec DIR`` alone validates by what the
    folder holds, so a folder of enterprise_v2 units given to the cases suite would pass there
    as enterprise_v2; with ``--suite cases`` that mistake is the one line it prints.
    """
    if spec_dir is None:
        return "layerrag corpus validate --suite cases"
    return f"layerrag corpus validate --suite cases --spec {shlex.quote(str(spec_dir))}"


def check_case_spec(spec_dir: Path | str | None = None) -> CaseSpecCheck:
    """Validate a case spec folder and collect every problem."""
    root = Path(spec_dir) if spec_dir is not None else bundled_spec_dir(BUNDLED)
    corpus_path = root / CORPUS_FILE
    if not root.is_dir():
        return CaseSpecCheck(None, (Problem(file=str(root), field="spec",
                                            message="not a directory"),))
    if not corpus_path.is_file():
        return CaseSpecCheck(None, (Problem(file=str(root), field=CORPUS_FILE,
                                            message="missing: every spec folder needs one"),))
    problems: list[Problem] = []
    raw = read_toml(corpus_path, problems)
    corpus: CorpusDecl | None = None
    if raw is not None:
        corpus = validate(CorpusDecl, raw, corpus_path, problems)
    if corpus is not None:
        problems += corpus_problems(corpus, str(corpus_path))
    files = tuple(_read_domain_file(path, corpus, problems)
                  for path in sorted(root.glob("*.toml")) if path.name != CORPUS_FILE)
    problems += spec_problems(files, corpus, str(corpus_path))
    if corpus is None or errors_of(problems):
        return CaseSpecCheck(None, tuple(problems))
    domains = {f.header.domain: CaseDomainSpec(**dict(f.header), cases=f.cases)
               for f in files if f.header is not None}
    spec = CaseCorpusSpec(corpus=corpus, domains=tuple(domains[d.id] for d in corpus.domains),
                          spec_hash=_hash_files(root),
                          files={f.header.domain: str(f.path) for f in files if f.header})
    return CaseSpecCheck(spec, tuple(problems))


def _read_domain_file(path: Path, corpus: CorpusDecl | None,
                      problems: list[Problem]) -> CaseFile:
    raw = read_toml(path, problems)
    if raw is None:
        return CaseFile(path, None, ())
    header = validate(CaseDomainHeader, {k: v for k, v in raw.items() if k != "cases"},
                      path, problems)
    if header is not None and corpus is not None:
        declared = [d.id for d in corpus.domains]
        if header.domain not in declared:
            problems.append(Problem(
                file=str(path), field="domain",
                message=f"unknown domain {header.domain!r}.{did_you_mean(header.domain, declared)}"
                        f" corpus.toml declares {', '.join(declared)}"))
    raw_cases = raw.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        problems.append(Problem(file=str(path), field="cases",
                                message="missing: a domain file needs at least one [[cases]]"))
        raw_cases = []
    cases: list[CaseSpec] = []
    for i, raw_case in enumerate(raw_cases):
        label = str(raw_case["id"]) if isinstance(raw_case, dict) and isinstance(
            raw_case.get("id"), str) else f"#{i + 1}"
        if not isinstance(raw_case, dict):
            problems.append(Problem(file=str(path), field=f"cases[{i}]", unit=label,
                                    message="must be a [[cases]] table"))
            continue
        case = validate(CaseSpec, raw_case, path, problems, unit=label)
        if case is not None:
            problems += case_problems(case, corpus, str(path))
            cases.append(case)
    return CaseFile(path, header, tuple(cases))


def _hash_files(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


__all__ = ["BUNDLED", "CaseSpecCheck", "check_case_spec", "load_case_spec",
           "validate_command"]
