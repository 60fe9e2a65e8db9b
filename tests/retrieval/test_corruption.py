"""corrupt_metadata: deterministic, text-preserving, and domains always wrong."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.corpus import Document
from simulator.errors import UsageError
from simulator.retrieval import corrupt_metadata

from .conftest import MakeDoc

DOMAINS = ("returns", "finance", "legal", "security")


@pytest.fixture
def docs(make_doc: MakeDoc) -> list[Document]:
    """Twenty two-version policies over four domains."""
    out = []
    for unit in range(20):
        domain = DOMAINS[unit % len(DOMAINS)]
        out.append(make_doc(f"d{unit}c", f"Policy {unit}", f"Current text {unit}.",
                            domain=domain, year=2024 + unit % 3, version=f"v{unit}.2"))
        out.append(make_doc(f"d{unit}s", f"Policy {unit}", f"Older text {unit}.",
                            domain=domain, status="superseded", year=2018 + unit % 4,
                            version=f"v{unit}.1"))
    return out


def test_the_same_seed_gives_the_same_corruption(docs: list[Document]) -> None:
    assert corrupt_metadata(docs, seed=5) == corrupt_metadata(docs, seed=5)


def test_another_seed_gives_another_corruption(docs: list[Document]) -> None:
    assert corrupt_metadata(docs, seed=5) != corrupt_metadata(docs, seed=6)


def test_ids_order_text_and_version_labels_are_kept(docs: list[Document]) -> None:
    kept = ("doc_id", "title", "text", "version", "access_group", "tenant")
    for before, after in zip(docs, corrupt_metadata(docs, seed=1), strict=True):
        assert [getattr(after, f) for f in kept] == [getattr(before, f) for f in kept]


def test_only_the_named_fields_change(docs: list[Document]) -> None:
    corrupted = corrupt_metadata(docs, seed=1, fields=("status",))
    assert [d.effective_year for d in corrupted] == [d.effective_year for d in docs]
    assert [d.domain for d in corrupted] == [d.domain for d in docs]
    assert [d.status for d in corrupted] != [d.status for d in docs]


def test_status_makes_validity_untrustworthy(docs: list[Document]) -> None:
    corrupted = corrupt_metadata(docs, seed=2, fields=("status",))
    wrong = sum(a.status != b.status for a, b in zip(docs, corrupted, strict=True))
    assert 0 < wrong < len(docs)


def test_a_documents_status_does_not_depend_on_the_rest_of_the_set(
        docs: list[Document]) -> None:
    whole = corrupt_metadata(docs, seed=3, fields=("status",))
    part = corrupt_metadata(docs[5:9], seed=3, fields=("status",))
    assert [d.status for d in part] == [d.status for d in whole[5:9]]


def test_years_are_shuffled_so_current_can_be_older_than_its_twin(
        docs: list[Document]) -> None:
    corrupted = corrupt_metadata(docs, seed=4, fields=("effective_year",))
    assert Counter(d.effective_year for d in corrupted) == Counter(
        d.effective_year for d in docs)
    years = {d.doc_id: d.effective_year for d in corrupted}
    assert any(years[f"d{u}c"] < years[f"d{u}s"] for u in range(20))


def test_every_document_gets_a_wrong_domain(docs: list[Document]) -> None:
    for seed in range(10):
        corrupted = corrupt_metadata(docs, seed=seed, fields=("domain",))
        assert all(a.domain != b.domain for a, b in zip(docs, corrupted, strict=True))


def test_domain_corruption_keeps_twins_together_and_domain_sizes(
        docs: list[Document]) -> None:
    corrupted = {d.doc_id: d.domain for d in corrupt_metadata(docs, seed=0, fields=("domain",))}
    assert all(corrupted[f"d{u}c"] == corrupted[f"d{u}s"] for u in range(20))
    assert Counter(corrupted.values()) == Counter(d.domain for d in docs)


def test_domains_of_a_single_domain_set_cannot_be_corrupted(make_doc: MakeDoc) -> None:
    with pytest.raises(UsageError, match="fewer than two domains"):
        corrupt_metadata([make_doc("a", "A", "Some text.")], seed=0, fields=("domain",))


def test_an_unknown_field_is_a_usage_error(docs: list[Document]) -> None:
    with pytest.raises(UsageError, match="'title'"):
        corrupt_metadata(docs, seed=0, fields=("title",))


def test_the_callers_documents_are_not_modified(docs: list[Document]) -> None:
    before = list(docs)
    corrupt_metadata(docs, seed=0)
    assert docs == before
