"""Prose lint: can the extractive reader recover each unit's value from its own prose?

For every unit, version and question variant, extract the value from that version's prose
the way the deterministic reader does. A miss is not a spec error (a chat model may read the
prose fine) but it is a warning worth reading: the prose is ambiguous, or states the value in
a shape the format does not describe. ``layerrag corpus validate`` prints these warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from simulator.answers.extract import extract_value
from simulator.answers.formats import parse_format
from simulator.answers.normalize import matches_any
from simulator.corpus.loader import SpecCheck
from simulator.corpus.problems import Problem
from simulator.corpus.spec import CorpusSpec, UnitSpec, describe_format


def prose_warnings(spec: CorpusSpec) -> list[Problem]:
    """One warning per (unit, version, question) whose value the extractor misreads."""
    return _warnings(((spec.files[d.domain], d.units) for d in spec.domains),
                     lambda unit: spec.format_of(unit))


def prose_warnings_of_files(check: SpecCheck) -> list[Problem]:
    """The same warnings for every unit that validated, in a spec that has errors
    elsewhere: shown with the errors, so fixing a spec takes one round, not two."""
    if check.corpus is None:
        return []
    formats = check.corpus.formats
    return _warnings(((str(f.path), f.units) for f in check.files),
                     lambda unit: describe_format(unit, formats))


def _warnings(files: Iterable[tuple[str, Iterable[UnitSpec]]],
              format_of: Callable[[UnitSpec], str]) -> list[Problem]:
    warnings = []
    for file, units in files:
        for unit in units:
            try:
                fmt = format_of(unit)
                parse_format(fmt)
            except ValueError:  # its format is an error of its own, reported already
                continue
            for which, ver in (("current", unit.current), ("superseded", unit.superseded)):
                for question in unit.questions:
                    got = extract_value(ver.prose, question, fmt)
                    if matches_any(got, (ver.value, *ver.aliases), fmt):
                        continue
                    read = "nothing" if got is None else repr(got)
                    warnings.append(Problem(
                        file=file, field=f"{which}.prose", unit=unit.id, severity="warning",
                        message=f"the extractive reader, asked {question!r}, reads {read} "
                                f"instead of {ver.value!r}"))
    return warnings
