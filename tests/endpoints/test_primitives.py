"""The endpoint's primitives: index snapshots, the session-keyed cache, shards, the access
filter. The endpoint makes no fault's choices; these are what a fault chooses with."""

from __future__ import annotations

import pytest

from simulator.corpus import Corpus
from simulator.endpoints import EndpointConditions, PolicyEnvironment, readable, shard_of
from simulator.errors import UsageError


def test_a_snapshot_one_version_behind_holds_the_superseded_versions_as_current(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    snapshot = env.index(snapshot_lag=1)
    superseded = {d.doc_id for d in corpus.documents if d.status == "superseded"}
    assert {d.doc_id for d in snapshot.documents} == superseded
    assert {d.status for d in snapshot.documents} == {"current"}


def test_the_deepest_usable_snapshot_lag_is_a_policys_versions_minus_one(
        env: PolicyEnvironment) -> None:
    assert env.max_snapshot_lag == 1
    assert len(env.index(snapshot_lag=env.max_snapshot_lag)) > 0


def test_the_session_cache_is_keyed_by_every_tasks_session(corpus: Corpus,
                                                           env: PolicyEnvironment) -> None:
    assert len(env.session_cache) == len(corpus.tasks)
    assert all(env.session_cache[t.session.session_id] == t for t in corpus.tasks)
    with pytest.raises(TypeError):
        env.session_cache["someone"] = corpus.tasks[0]  # type: ignore[index]


def test_cached_results_are_what_the_session_was_served(corpus: Corpus,
                                                        env: PolicyEnvironment) -> None:
    for task in corpus.tasks[:20]:
        served = env.search_policies(task.question, task.session)
        assert env.cached_results(task.session.session_id) == tuple(
            h["doc_id"] for h in served["hits"])


def test_cached_results_follow_the_snapshot_the_conditions_select(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    stale = env.cached_results(task.session.session_id, EndpointConditions(snapshot_lag=1))
    assert set(stale) <= {d.doc_id for d in env.index(snapshot_lag=1).documents}


def test_a_served_session_hands_back_that_sessions_cache_entry(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    caller, other = corpus.tasks[0], corpus.tasks[9]
    mixed = env.search_policies(caller.question, caller.session, EndpointConditions(
        served_session=other.session.session_id))
    assert mixed == env.search_policies(other.question, other.session)


def test_the_served_entry_keeps_the_outage_but_not_the_callers_revocations_or_pins(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    caller, other = corpus.tasks[0], corpus.tasks[9]
    conditions = EndpointConditions(served_session=other.session.session_id,
                                    down_shards=("shard-2",),
                                    revoked_groups=tuple(other.session.access_groups),
                                    pinned_doc_ids=(corpus.documents[0].doc_id,))
    mixed = env.search_policies(caller.question, caller.session, conditions)
    assert mixed == env.search_policies(other.question, other.session,
                                        EndpointConditions(down_shards=("shard-2",)))


def test_an_unknown_served_session_is_a_usage_error(corpus: Corpus,
                                                    env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    with pytest.raises(UsageError, match="no entry for session 'nobody'"):
        env.search_policies(task.question, task.session,
                            EndpointConditions(served_session="nobody"))


def test_shard_names_and_assignment_follow_the_endpoints_split(
        corpus: Corpus, env: PolicyEnvironment, tiny_corpus: Corpus) -> None:
    assert env.shard_names() == ("shard-0", "shard-1", "shard-2", "shard-3")
    assert env.shard_names(2) == ("shard-0", "shard-1")
    doc = corpus.documents[0].doc_id
    assert env.shard_of(doc) == shard_of(doc, 4) and env.shard_of(doc, 3) == shard_of(doc, 3)
    three = PolicyEnvironment.from_corpus(tiny_corpus, shards=3)
    assert three.shard_names() == ("shard-0", "shard-1", "shard-2")


def test_the_conditions_may_split_the_index_differently_for_one_call(
        corpus: Corpus, env: PolicyEnvironment) -> None:
    task = corpus.tasks[3]
    clean = env.search_policies(task.question, task.session)
    split = env.search_policies(task.question, task.session,
                                EndpointConditions(shards=2, down_shards=("shard-1",)))
    assert split["missing_shards"] == ["shard-1"]
    assert [h["doc_id"] for h in split["hits"]] == [
        h["doc_id"] for h in clean["hits"] if shard_of(h["doc_id"], 2) != "shard-1"]


def test_down_shards_must_be_shards_of_the_index(corpus: Corpus,
                                                 env: PolicyEnvironment) -> None:
    task = corpus.tasks[0]
    with pytest.raises(UsageError, match="shard-4"):
        env.search_policies(task.question, task.session,
                            EndpointConditions(down_shards=("shard-4",)))


def test_the_access_filter_needs_the_tenant_and_a_live_access_group(corpus: Corpus) -> None:
    task = corpus.tasks[0]
    doc = next(d for d in corpus.documents if d.access_group in task.session.access_groups)
    assert readable(doc, task.session, ())
    assert not readable(doc, task.session, (doc.access_group,))
    assert not readable(doc, task.session.model_copy(update={"tenant": "other-co"}), ())
