"""Acceptance on enterprise_v2: the shape of the paper's Table 3 and §4.2."""

from __future__ import annotations

from simulator.corpus import Corpus
from simulator.retrieval import DocumentIndex, RetrievalContext, RetrieverAudit, retrievers


def test_validity_lifts_clean_top1_recall_by_at_least_0_2(
        enterprise_audit: RetrieverAudit) -> None:
    with_validity = enterprise_audit.cell("tfidf_domain_validity", "clean").top1_recall
    without = enterprise_audit.cell("tfidf_domain", "clean").top1_recall
    assert with_validity - without >= 0.2


def test_corrupted_validity_metadata_lowers_top1_recall_and_preference(
        enterprise_audit: RetrieverAudit) -> None:
    clean = enterprise_audit.cell("tfidf_domain_validity", "clean")
    corrupted = enterprise_audit.cell("tfidf_domain_validity", "corrupted_metadata")
    assert corrupted.top1_recall < clean.top1_recall - 0.2
    assert corrupted.current_preference < clean.current_preference - 0.2


def test_the_explicit_domain_filter_collapses_under_corrupted_domains(
        enterprise_audit: RetrieverAudit) -> None:
    cell = enterprise_audit.cell("task_domain_filter", "corrupted_domain_metadata")
    assert cell.top1_recall <= 0.1


def test_the_domain_heuristic_leaves_most_tasks_unresolved(
        enterprise_audit: RetrieverAudit) -> None:
    counts = enterprise_audit.domain_heuristic
    assert counts.total == 240
    assert counts.unresolved > counts.total / 2
    assert counts.correct > counts.incorrect > 0


def test_a_cross_domain_collision_defeats_label_free_retrieval(
        enterprise_audit: RetrieverAudit) -> None:
    assert enterprise_audit.collisions, "enterprise_v2 should share one question across domains"
    for collision in enterprise_audit.collisions:
        assert not all(t.top1["tfidf_domain_validity"] for t in collision.tasks)


def test_top_k_rankings_are_prefixes_of_full_rankings(enterprise: Corpus) -> None:
    index = DocumentIndex.from_corpus(enterprise)
    for name in retrievers:
        for task, labels in zip(enterprise.tasks[::7], enterprise.labels[::7], strict=True):
            context = RetrievalContext(task_domain=labels.domain)
            full = retrievers.get(name)(index, task.question, context, top_k=len(index))
            assert retrievers.get(name)(index, task.question, context, top_k=3) == full[:3]
