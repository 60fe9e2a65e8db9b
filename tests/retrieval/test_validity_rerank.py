"""The validity rerank: current versions first, superseded kept, other documents untouched."""

from __future__ import annotations

import pytest

from simulator.corpus import Corpus, Document
from simulator.errors import UsageError
from simulator.retrieval import DocumentIndex, RetrievalContext, retrievers

from .conftest import MakeDoc

QUERY = "Within how many days of delivery can customers return unopened merchandise?"
NO_CONTEXT = RetrievalContext()


@pytest.fixture
def docs(make_doc: MakeDoc) -> list[Document]:
    """A return-window family whose superseded version matches the query best, an unrelated
    newer current document that matches in between, and an unrelated finance document."""
    return [
        make_doc("a_old", "Return window", "Customers may return unopened merchandise within "
                 "30 days of delivery for a full refund.", status="superseded", year=2021),
        make_doc("a_new", "Return window", "Unopened goods can be sent back for 45 days.",
                 year=2025),
        make_doc("b", "Restocking fee", "Customers who return opened electronics within 30 "
                 "days of delivery pay a restocking fee.", year=2026),
        make_doc("c", "Invoice approver", "Supplier invoices are approved by the Accounts "
                 "Payable Manager.", domain="finance"),
    ]


def ranked(name: str, index: DocumentIndex, top_k: int = 4) -> list[str]:
    return [hit.doc_id for hit in retrievers.get(name)(index, QUERY, NO_CONTEXT, top_k=top_k)]


def test_without_validity_the_better_text_match_ranks_first(docs: list[Document]) -> None:
    assert ranked("tfidf", DocumentIndex(docs)) == ["a_old", "b", "a_new", "c"]


def test_validity_puts_the_current_version_in_its_twins_place(docs: list[Document]) -> None:
    assert ranked("tfidf_validity", DocumentIndex(docs))[0] == "a_new"


def test_the_superseded_version_stays_retrievable(docs: list[Document]) -> None:
    assert "a_old" in ranked("tfidf_validity", DocumentIndex(docs), top_k=3)


def test_validity_never_moves_documents_of_other_families(docs: list[Document]) -> None:
    # b is current and newer than a_new, yet keeps its place: validity only reorders twins.
    index = DocumentIndex(docs)
    assert ranked("tfidf_validity", index) == ["a_new", "b", "a_old", "c"]
    assert ranked("tfidf_validity", index).index("b") == ranked("tfidf", index).index("b")


def test_scores_stay_in_rank_order_after_the_rerank(docs: list[Document]) -> None:
    hits = retrievers.get("tfidf_validity")(DocumentIndex(docs), QUERY, NO_CONTEXT, top_k=4)
    assert [h.rank for h in hits] == [0, 1, 2, 3]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_between_versions_with_one_status_the_newer_year_wins(docs: list[Document]) -> None:
    both_current = [d.model_copy(update={"status": "current"}) if d.doc_id == "a_old" else d
                    for d in docs]
    assert ranked("tfidf_validity", DocumentIndex(both_current))[0] == "a_new"
    newer_old = [d.model_copy(update={"effective_year": 2026}) if d.doc_id == "a_old" else d
                 for d in both_current]
    assert ranked("tfidf_validity", DocumentIndex(newer_old))[0] == "a_old"


def test_retrievers_trust_the_metadata_of_the_index_they_are_handed(
        docs: list[Document]) -> None:
    index = DocumentIndex(docs)
    swapped = index.with_metadata([
        d.model_copy(update={"status": "current" if d.status == "superseded" else "superseded"})
        if d.title == "Return window" else d for d in docs])
    assert ranked("tfidf_validity", swapped)[0] == "a_old"


def test_a_stale_index_returns_what_it_holds(docs: list[Document]) -> None:
    stale = DocumentIndex([d for d in docs if d.doc_id != "a_new"], snapshot_id="stale")
    assert ranked("tfidf_domain_validity", stale, top_k=1) == ["a_old"]


def test_a_top_k_ranking_is_the_prefix_of_the_full_ranking(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus)
    for name in retrievers:
        for task, labels in zip(tiny_corpus.tasks, tiny_corpus.labels, strict=True):
            context = RetrievalContext(session=task.session, task_domain=labels.domain)
            full = retrievers.get(name)(index, task.question, context, top_k=len(index))
            assert retrievers.get(name)(index, task.question, context, top_k=3) == full[:3]


def test_top_k_below_one_is_a_usage_error(docs: list[Document]) -> None:
    with pytest.raises(UsageError, match="top_k"):
        retrievers.get("tfidf")(DocumentIndex(docs), QUERY, NO_CONTEXT, top_k=0)
