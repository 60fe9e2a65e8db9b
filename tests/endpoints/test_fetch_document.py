"""fetch_document: the live registry record (schema v1), never the document's text."""

from __future__ import annotations

import json

from simulator.corpus import Corpus
from simulator.endpoints import DocumentPayload, EndpointConditions, PolicyEnvironment


def _validate(raw: dict) -> DocumentPayload:
    return DocumentPayload.model_validate_json(json.dumps(raw))


def test_a_superseded_document_names_the_version_that_replaced_it(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        old = _validate(env.fetch_document(labels.superseded_doc_ids[0], task.session))
        assert old.found and old.status == "superseded"
        assert old.superseded_by == labels.required_doc_ids[0]


def test_a_current_document_has_no_newer_version(corpus: Corpus,
                                                 env: PolicyEnvironment) -> None:
    labels, task = corpus.labels[0], corpus.tasks[0]
    record = _validate(env.fetch_document(labels.required_doc_ids[0], task.session))
    doc = corpus.document(labels.required_doc_ids[0])
    assert record.status == "current" and record.superseded_by is None
    assert (record.effective_year, record.version) == (doc.effective_year, doc.version)
    assert record.session_id == task.session.session_id


def test_the_registry_never_returns_document_text(corpus: Corpus,
                                                  env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    for doc in corpus.documents:
        assert doc.text not in json.dumps(env.fetch_document(doc.doc_id, task.session))


def test_a_denied_lookup_reveals_no_metadata(corpus: Corpus, env: PolicyEnvironment) -> None:
    labels, task = corpus.labels[0], corpus.tasks[0]
    revoked = EndpointConditions(revoked_groups=(labels.access_group,))
    record = _validate(env.fetch_document(labels.required_doc_ids[0], task.session, revoked))
    assert record.found and record.denied
    assert record.status is None and record.title is None and record.superseded_by is None


def test_an_unknown_document_is_not_found(corpus: Corpus, env: PolicyEnvironment) -> None:
    record = _validate(env.fetch_document("doc_nope", corpus.tasks[0].session))
    assert not record.found and record.status is None
