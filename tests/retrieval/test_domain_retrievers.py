"""Domain steps: query cues (label-free) versus the task-label filter (sensitivity only)."""

from __future__ import annotations

import pytest

from simulator.corpus import Document
from simulator.errors import UsageError
from simulator.retrieval import (
    DEFAULT_RETRIEVER,
    DocumentIndex,
    RetrievalContext,
    corrupt_metadata,
    retrievers,
)

from .conftest import MakeDoc

CUES = {"returns": ("refund", "return"), "finance": ("invoice", "expense")}


@pytest.fixture
def docs(make_doc: MakeDoc) -> list[Document]:
    """Two deadline policies worded alike, one per domain (not versions of one policy)."""
    return [
        make_doc("fin", "Claim deadline", "Submit the claim within 30 days.",
                 domain="finance"),
        make_doc("ret", "Deadline claim", "Submit the claim within 60 days.",
                 domain="returns"),
        make_doc("ret2", "Gift cards", "Gift cards can be used in any store.",
                 domain="returns"),
    ]


def top(name: str, index: DocumentIndex, query: str,
        context: RetrievalContext | None = None, top_k: int = 1) -> list[str]:
    hits = retrievers.get(name)(index, query, context or RetrievalContext(), top_k=top_k)
    return [h.doc_id for h in hits]


def test_every_retriever_of_the_paper_is_registered() -> None:
    assert {"tfidf", "tfidf_validity", "tfidf_domain", "tfidf_domain_validity",
            "task_domain_filter"} <= set(retrievers)
    assert DEFAULT_RETRIEVER in retrievers


def test_an_unknown_retriever_name_suggests_the_closest() -> None:
    with pytest.raises(UsageError, match="Did you mean: tfidf_validity?"):
        retrievers.get("tfidf_valdity")


def test_a_cue_word_in_the_query_lifts_documents_of_that_domain(
        docs: list[Document]) -> None:
    index = DocumentIndex(docs, cues=CUES)
    query = "What is the deadline to submit an expense claim?"
    assert top("tfidf", index, query) == ["fin"]  # index order breaks the text tie
    query = "What is the deadline to submit a refund claim?"
    assert top("tfidf", index, query) == ["fin"]
    assert top("tfidf_domain", index, query) == ["ret"]
    assert top("tfidf_domain_validity", index, query) == ["ret"]


def test_query_cues_never_read_the_task_label(docs: list[Document]) -> None:
    index = DocumentIndex(docs, cues=CUES)
    query = "What is the deadline to submit a refund claim?"
    for label in (None, "finance", "returns"):
        assert top("tfidf_domain_validity", index, query,
                   RetrievalContext(task_domain=label), top_k=3) == ["ret", "fin", "ret2"]


def test_an_unresolved_query_is_ranked_on_text_alone(docs: list[Document]) -> None:
    index = DocumentIndex(docs, cues=CUES)
    query = "Refund or invoice: what is the deadline to submit a claim?"  # a tie
    assert top("tfidf_domain", index, query, top_k=3) == top("tfidf", index, query, top_k=3)


def test_an_index_without_cues_leaves_every_query_unresolved(docs: list[Document]) -> None:
    index = DocumentIndex(docs)
    query = "What is the deadline to submit a refund claim?"
    assert top("tfidf_domain", index, query, top_k=3) == top("tfidf", index, query, top_k=3)


def test_the_task_domain_filter_keeps_only_the_labelled_domain(docs: list[Document]) -> None:
    index = DocumentIndex(docs, cues=CUES)
    query = "What is the deadline to submit an expense claim?"
    returned = top("task_domain_filter", index, query,
                   RetrievalContext(task_domain="returns"), top_k=3)
    assert returned == ["ret", "ret2"]


def test_the_task_domain_filter_needs_a_label(docs: list[Document]) -> None:
    with pytest.raises(UsageError, match="labelled domain"):
        top("task_domain_filter", DocumentIndex(docs), "deadline")


def test_the_task_domain_filter_trusts_corrupted_domains(docs: list[Document]) -> None:
    index = DocumentIndex(docs)
    corrupted = index.with_metadata(corrupt_metadata(docs, seed=0, fields=("domain",)))
    found = top("task_domain_filter", corrupted, "deadline to submit a claim",
                RetrievalContext(task_domain="finance"), top_k=3)
    assert "fin" not in found


def test_a_label_absent_from_the_index_finds_nothing(docs: list[Document]) -> None:
    found = top("task_domain_filter", DocumentIndex(docs), "deadline",
                RetrievalContext(task_domain="legal"), top_k=3)
    assert found == []
