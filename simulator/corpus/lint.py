"""Check that the deterministic reader can read every value a spec states.

``python -m simulator.corpus.lint corpus_specs/enterprise_v2/returns.toml`` validates the
file and, for every unit, question variant and version, extracts the value from the prose
the way the deterministic reader does. A spec author sees at once which prose is ambiguous.
"""

from __future__ import annotations

import sys
from pathlib import Path

from simulator.answers.extract import extract_value
from simulator.answers.normalize import matches_any
from simulator.corpus.loader import load_corpus_decl, load_domain_file
from simulator.corpus.spec import DomainSpec
from simulator.errors import SpecError


def extraction_problems(domain: DomainSpec) -> list[str]:
    """One line per (unit, version, question) whose value the extractor does not recover."""
    problems = []
    for unit in domain.units:
        for which, ver in (("current", unit.current), ("superseded", unit.superseded)):
            accepted = (ver.value, *ver.aliases)
            for question in unit.questions:
                got = extract_value(ver.prose, question, unit.answer_format)
                if not matches_any(got, accepted):
                    problems.append(f"{unit.id} {which}: asked {question!r}, read {got!r}, "
                                    f"expected {ver.value!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (argv if argv is not None else sys.argv[1:])]
    paths = [p for p in paths if p.name != "corpus.toml"]
    failed = 0
    for path in paths:
        try:
            domain = load_domain_file(path, load_corpus_decl(path.parent))
        except SpecError as exc:
            print(f"error: {exc}")
            failed += 1
            continue
        problems = extraction_problems(domain)
        for line in problems:
            print(f"{path.name}: {line}")
        failed += len(problems)
        print(f"{path.name}: {len(domain.units)} units, {len(problems)} extraction problems")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
