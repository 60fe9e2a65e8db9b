"""Prose lint: can the extractive reader recover each unit's value from its own prose?

For every unit, version and question variant, extract the value from that version's prose
the way the deterministic reader does. A miss is not a spec error (a chat model may read the
prose fine) but it is a warning worth reading: the prose is ambiguous, or states the value in
a shape the format does not describe. ``layerrag corpus validate`` prints these warnings.
"""

from __future__ import annotations

from simulator.answers.extract import extract_value
from simulator.answers.normalize import matches_any
from simulator.corpus.problems import Problem
from simulator.corpus.spec import CorpusSpec


def prose_warnings(spec: CorpusSpec) -> list[Problem]:
    """One warning per (unit, version, question) whose value the extractor misreads."""
    warnings = []
    for domain in spec.domains:
        file = spec.files[domain.domain]
        for unit in domain.units:
            fmt = spec.format_of(unit)
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
