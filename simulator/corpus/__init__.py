"""Corpus specs, the generated corpus, and how it is built and stored."""

from functools import lru_cache
from pathlib import Path

from simulator.corpus.generate import GENERATOR_VERSION, generate_corpus
from simulator.corpus.io import manifest, write_corpus
from simulator.corpus.loader import SpecCheck, bundled_spec_dir, check_spec, load_spec
from simulator.corpus.model import Corpus, Document, Labels, SessionContext, Status, Task
from simulator.corpus.problems import Problem, SpecProblems
from simulator.corpus.spec import ANSWER_FORMATS, AnswerFormat, CorpusSpec, UnitSpec


@lru_cache(maxsize=8)
def _cached(spec_dir: str | None, seed: int) -> Corpus:
    return generate_corpus(load_spec(spec_dir), seed)


def build_corpus(spec_dir: Path | str | None = None, seed: int = 0) -> Corpus:
    """Load, validate and generate in one call (cached per spec folder and seed)."""
    return _cached(str(spec_dir) if spec_dir is not None else None, seed)


__all__ = [
    "ANSWER_FORMATS", "AnswerFormat", "Corpus", "CorpusSpec", "Document", "GENERATOR_VERSION",
    "Labels", "Problem", "SessionContext", "SpecCheck", "SpecProblems", "Status", "Task",
    "UnitSpec", "build_corpus", "bundled_spec_dir", "check_spec", "generate_corpus",
    "load_spec", "manifest", "write_corpus",
]
