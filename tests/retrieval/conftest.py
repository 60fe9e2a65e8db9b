"""Fixtures for retrieval tests: hand-made documents and the enterprise_v2 audit."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from simulator.corpus import Corpus, Document, build_corpus
from simulator.errors import SpecError
from simulator.retrieval import RetrieverAudit, audit_retrievers

MakeDoc = Callable[..., Document]


@pytest.fixture
def make_doc() -> MakeDoc:
    """Build a Document with sensible defaults; tests override what they are about."""

    def make(doc_id: str, title: str, text: str, *, domain: str = "returns",
             status: str = "current", year: int = 2024, version: str = "v1") -> Document:
        return Document(doc_id=doc_id, title=title, text=text, domain=domain, status=status,
                        effective_year=year, version=version, access_group="all-staff",
                        tenant="t")

    return make


@pytest.fixture(scope="session")
def enterprise() -> Corpus:
    try:
        return build_corpus()
    except SpecError as exc:  # the domain files are written by other people, in parallel
        pytest.skip(f"enterprise_v2 spec files are incomplete: {exc}")


@pytest.fixture(scope="session")
def enterprise_audit(enterprise: Corpus) -> RetrieverAudit:
    return audit_retrievers(enterprise, seed=0)
