"""Multi-turn support cases: the case spec, the generated case corpus, and how it is built.

A case corpus is generated from a spec folder (``corpus_specs/cases_v1`` by default) the way
enterprise_v2 is: human-editable TOML, validated with one-line problems, generated
deterministically, with what a good reply is kept in evaluator-only labels. docs/cases.md is
the reference.
"""

from functools import lru_cache
from pathlib import Path

from simulator.cases.generate import GENERATOR_VERSION, generate_case_corpus
from simulator.cases.loader import CaseSpecCheck, check_case_spec, load_case_spec
from simulator.cases.model import (
    Case,
    CaseCorpus,
    CaseLabels,
    Identifier,
    Turn,
    TurnLabels,
    Workflow,
    WorkflowStep,
)
from simulator.cases.spec import (
    ANSWER_TYPES,
    IDENTIFIER_KINDS,
    TURN_KINDS,
    CaseCorpusSpec,
    CaseSpec,
    TurnSpec,
)


@lru_cache(maxsize=8)
def _cached(path: str | None, seed: int) -> CaseCorpus:
    return generate_case_corpus(load_case_spec(path), seed)


def build_case_corpus(path: Path | str | None = None, seed: int = 0) -> CaseCorpus:
    """Load, validate and generate in one call (cached per spec folder and seed)."""
    return _cached(str(path) if path is not None else None, seed)


__all__ = [
    "ANSWER_TYPES", "GENERATOR_VERSION", "IDENTIFIER_KINDS", "TURN_KINDS", "Case",
    "CaseCorpus", "CaseCorpusSpec", "CaseLabels", "CaseSpec", "CaseSpecCheck", "Identifier",
    "Turn", "TurnLabels", "TurnSpec", "Workflow", "WorkflowStep", "build_case_corpus",
    "check_case_spec", "generate_case_corpus", "load_case_spec",
]
