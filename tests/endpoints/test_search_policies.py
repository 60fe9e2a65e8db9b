"""search_policies: a typed, versioned payload (schema v2) with access, shards and snapshot."""

from __future__ import annotations

import json

import pytest

from simulator.corpus import Corpus
from simulator.endpoints import EndpointConditions, PolicyEnvironment, SearchPayload, shard_of
from simulator.errors import UsageError


def _validate(raw: dict) -> SearchPayload:
    return SearchPayload.model_validate_json(json.dumps(raw))


def test_every_healthy_payload_validates_against_schema_v2(corpus: Corpus,
                                                           env: PolicyEnvironment) -> None:
    for task in corpus.tasks:
        payload = _validate(env.search_policies(task.question, task.session.model_dump()))
        assert payload.schema_version == "2"
        assert len(payload.hits) == env.top_k


def test_payload_answers_for_the_callers_session_from_the_live_index(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    payload = _validate(env.search_policies(task.question, task.session))
    assert payload.session_id == task.session.session_id
    assert payload.tenant == task.session.tenant
    assert payload.query == task.question
    assert payload.index.snapshot_id == "live"
    assert payload.index.document_count == len(corpus.documents)
    assert payload.index.built_year == max(d.effective_year for d in corpus.documents)
    assert not payload.partial and payload.missing_shards == ()
    assert not payload.access.denied and payload.access.withheld_count == 0


def test_hits_carry_the_documents_text_and_metadata(corpus: Corpus,
                                                    env: PolicyEnvironment) -> None:
    task = corpus.tasks[5]
    for hit in _validate(env.search_policies(task.question, task.session)).hits:
        doc = corpus.document(hit.doc_id)
        assert (hit.title, hit.text) == (doc.title, doc.text)
        assert hit.metadata.model_dump() == doc.model_dump(
            include={"domain", "status", "effective_year", "version", "access_group", "tenant"})


def test_hits_the_session_may_not_read_are_withheld_and_counted(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    clean = _validate(env.search_policies(task.question, task.session))
    group = clean.hits[0].metadata.access_group
    narrowed = task.session.model_copy(
        update={"access_groups": tuple(g for g in task.session.access_groups if g != group)})
    raw = env.search_policies(task.question, narrowed)
    payload = _validate(raw)
    expected = sum(h.metadata.access_group == group for h in clean.hits)
    assert payload.access.denied and payload.access.withheld_count == expected
    assert all(h.metadata.access_group != group for h in payload.hits)
    withheld_texts = [h.text for h in clean.hits if h.metadata.access_group == group]
    assert not any(text in json.dumps(raw) for text in withheld_texts)


def test_documents_of_another_tenant_are_withheld(corpus: Corpus,
                                                  env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    outsider = task.session.model_copy(update={"tenant": "other-co"})
    payload = _validate(env.search_policies(task.question, outsider))
    assert payload.hits == () and payload.access.withheld_count == env.top_k


def test_documents_are_spread_over_four_shards_by_id_hash(corpus: Corpus) -> None:
    shards = {shard_of(d.doc_id) for d in corpus.documents}
    assert shards == {"shard-0", "shard-1", "shard-2", "shard-3"}
    assert shard_of("doc_abc") == shard_of("doc_abc")


def test_down_shards_lose_their_hits_and_are_named(corpus: Corpus,
                                                   env: PolicyEnvironment) -> None:
    task = corpus.tasks[3]
    clean = _validate(env.search_policies(task.question, task.session))
    every = EndpointConditions(down_shards=env.shard_names())
    payload = _validate(env.search_policies(task.question, task.session, every))
    assert payload.partial and payload.hits == ()
    assert payload.missing_shards == ("shard-0", "shard-1", "shard-2", "shard-3")
    down = ("shard-1", "shard-3")
    partial = _validate(env.search_policies(task.question, task.session,
                                            EndpointConditions(down_shards=down)))
    assert partial.missing_shards == down
    assert [h.doc_id for h in partial.hits] == [
        h.doc_id for h in clean.hits if shard_of(h.doc_id) not in down]


def test_pinned_documents_displace_the_lowest_ranked_hits(corpus: Corpus,
                                                          env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    clean = _validate(env.search_policies(task.question, task.session))
    outsider = next(d.doc_id for d in corpus.documents
                    if d.doc_id not in {h.doc_id for h in clean.hits})
    pinned = _validate(env.search_policies(task.question, task.session,
                                           EndpointConditions(pinned_doc_ids=(outsider,))))
    ids = [h.doc_id for h in pinned.hits]
    assert outsider in ids and len(ids) == env.top_k
    assert ids[: env.top_k - 1] == [h.doc_id for h in clean.hits][: env.top_k - 1]
    assert [h.rank for h in pinned.hits] == list(range(env.top_k))


def test_an_unknown_tool_is_a_usage_error_with_a_suggestion(env: PolicyEnvironment) -> None:
    with pytest.raises(UsageError, match="Did you mean: search_policies"):
        env.handle("search_policicies", {"query": "x", "session": {}})


def test_a_call_without_its_arguments_names_the_missing_one(env: PolicyEnvironment) -> None:
    with pytest.raises(UsageError, match="'session'"):
        env.handle("search_policies", {"query": "x"})


def test_an_invalid_session_is_a_usage_error(env: PolicyEnvironment) -> None:
    with pytest.raises(UsageError, match="session is not a valid SessionContext"):
        env.search_policies("x", {"session_id": "s"})


@pytest.mark.parametrize("kwargs", [{"top_k": 0}, {"shards": 0}, {"retriever": "tfidf_domian"}])
def test_impossible_environment_settings_fail_at_construction(tiny_corpus: Corpus,
                                                              kwargs: dict) -> None:
    with pytest.raises(UsageError):
        PolicyEnvironment.from_corpus(tiny_corpus, **kwargs)


def test_a_snapshot_older_than_every_policy_is_a_usage_error(corpus: Corpus,
                                                             env: PolicyEnvironment) -> None:
    """enterprise_v2 keeps two versions of each policy: two versions behind leaves nothing."""
    task = corpus.tasks[0]
    with pytest.raises(UsageError, match=r"snapshot_lag=2 leaves an empty index snapshot.*"
                                         r"at most 2 version\(s\).*use at most 1"):
        env.search_policies(task.question, task.session, EndpointConditions(snapshot_lag=2))
