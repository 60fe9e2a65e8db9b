"""PolicyEnvironment: the two tool endpoints over one corpus, in any operational state.

``search_policies(query, session)`` searches an index snapshot and returns a schema-v2
payload; ``fetch_document(doc_id, session)`` reads the live registry. Both take optional
:class:`~simulator.endpoints.conditions.EndpointConditions`: the state a fault put the
environment in. Build the environment once; every index variant and every retrieval is
computed on first use and cached, so a call costs a dict lookup and the payload assembly.

The environment exposes small, named primitives and makes no fault's choices. A fault in
``middleware/faults/`` decides how to use them (it receives the environment as
``FaultContext.environment``) and writes the state it chose into the conditions:

- an index snapshot at a lag: :meth:`PolicyEnvironment.index` (``snapshot_lag``), and
  :attr:`PolicyEnvironment.max_snapshot_lag`, the deepest lag that leaves a document;
- a session-keyed result cache: :attr:`PolicyEnvironment.session_cache` and
  :meth:`PolicyEnvironment.cached_results` (``served_session`` hands an entry back);
- shard assignment and availability: :meth:`PolicyEnvironment.shard_names`,
  :meth:`PolicyEnvironment.shard_of` (``shards``, ``down_shards``);
- what the retriever ranks for a query: :meth:`PolicyEnvironment.results`;
- an access filter: :func:`~simulator.endpoints.search.readable` (``revoked_groups``), and
  pinning (``pinned_doc_ids``);
- version lineage: :attr:`PolicyEnvironment.registry` (``DocumentRegistry.lineage``), and an
  older version re-indexed beside what was returned (``reindexed_lineage``).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

import simulator.endpoints.shards as sharding
from simulator.corpus.model import Corpus, Document, SessionContext, Task
from simulator.endpoints.conditions import HEALTHY, EndpointConditions, MetadataCorruption
from simulator.endpoints.document_payload import DOCUMENT_SCHEMA_VERSION, text_digest
from simulator.endpoints.registry import DocumentRegistry
from simulator.endpoints.search import Ranked, assemble, pin, readable
from simulator.errors import UsageError
from simulator.registry import Registry
from simulator.retrieval.base import DEFAULT_RETRIEVER, DEFAULT_TOP_K, RetrievalContext, Retriever
from simulator.retrieval.corruption import corrupt_metadata
from simulator.retrieval.index import LIVE_SNAPSHOT, DocumentIndex

TOOL_NAMES = ("search_policies", "fetch_document")
_tools: Registry[str] = Registry("tool")
for _name in TOOL_NAMES:
    _tools.add(_name, _name)

_IndexKey = tuple[int, MetadataCorruption | None]


def resolve_retriever(name: str) -> Retriever:
    """The registered retriever ``name`` (importing the TF-IDF family registers it)."""
    import simulator.retrieval.tfidf  # noqa: F401  (registers the TF-IDF retrievers)
    from simulator.retrieval.base import retrievers

    return retrievers.get(name)


class PolicyEnvironment:
    """The search and registry endpoints of one corpus."""

    def __init__(self, corpus: Corpus, *, retriever: str = DEFAULT_RETRIEVER,
                 top_k: int = DEFAULT_TOP_K, shards: int = sharding.DEFAULT_SHARDS) -> None:
        if top_k < 1:
            raise UsageError(f"top_k must be at least 1, got {top_k}")
        if shards < 1:
            raise UsageError(f"shards must be at least 1, got {shards}")
        self.corpus = corpus.published()
        """The corpus without its labels: the environment is what the agent's tools close
        over, so it holds documents and tasks only (:meth:`Corpus.published`)."""
        self.retriever_name = retriever
        self.retriever = resolve_retriever(retriever)
        self.top_k = top_k
        self.shards = shards
        self.registry = DocumentRegistry.from_corpus(corpus)
        self._versions_kept = max((len(self.registry.lineage(d.doc_id))
                                   for d in self.registry.documents), default=1)
        self._indexes: dict[_IndexKey, tuple[DocumentIndex, dict[str, Document],
                                             dict[str, Any]]] = {}
        self._rankings: dict[tuple[_IndexKey, str, str, bool], Ranked] = {}
        self._lock = threading.RLock()  # _build_index re-enters via index() for a base index
        self.session_cache: Mapping[str, Task] = MappingProxyType(
            {t.session.session_id: t for t in corpus.tasks})
        """The session-keyed result cache: session id -> the task it holds results for (the
        question that session asked, answered for that session)."""

    @classmethod
    def from_corpus(cls, corpus: Corpus, retriever: str = DEFAULT_RETRIEVER,
                    top_k: int = DEFAULT_TOP_K, shards: int = sharding.DEFAULT_SHARDS
                    ) -> PolicyEnvironment:
        return cls(corpus, retriever=retriever, top_k=top_k, shards=shards)

    def with_retriever(self, retriever: Retriever, name: str) -> PolicyEnvironment:
        """This environment with ``retriever`` ranking instead (a user's own retriever:
        simulator/agents/retriever.py): the same corpus, registry, index snapshots and
        session cache, so every fault acts on what ``retriever`` returns; rankings are its
        own."""
        sibling = copy.copy(self)
        sibling.retriever, sibling.retriever_name = retriever, name
        sibling._rankings = {}
        return sibling

    # -- endpoints ---------------------------------------------------------------------

    def search_policies(self, query: str, session: SessionContext | Mapping[str, Any],
                        conditions: EndpointConditions = HEALTHY) -> dict[str, Any]:
        """Search the policy index for ``query`` on behalf of ``session`` (schema v2)."""
        caller = _session(session)
        if conditions.served_session is not None:
            # The cache hands back what the other session received: the environment-wide
            # state (snapshot, corruption, outage) applies, the caller's own access and pins
            # do not.
            other = self._cached_task(conditions.served_session)
            shared = conditions.model_copy(update={"served_session": None,
                                                   "pinned_doc_ids": (), "revoked_groups": ()})
            return self.search_policies(other.question, other.session, shared)
        key: _IndexKey = (conditions.snapshot_lag, conditions.corruption)
        _, documents, snapshot = self._index(key)
        ranked = self._ranked(key, query, caller, full=False)
        if conditions.pinned_doc_ids:
            ranked = pin(ranked, self._ranked(key, query, caller, full=True),
                         conditions.pinned_doc_ids, self.top_k)
        if conditions.reindexed_lineage:
            ranked, documents = self._reindex_lineage(ranked, documents)
        shards = conditions.shards or self.shards
        down = conditions.down_shards
        if down and not set(down) <= set(self.shard_names(shards)):
            raise UsageError(f"down_shards {', '.join(down)}: an index split into {shards} has "
                             f"shards {', '.join(self.shard_names(shards))}")
        return assemble(query=query, session=caller, ranked=ranked, documents=documents,
                        snapshot=snapshot, shards=shards, down=down,
                        revoked=conditions.revoked_groups)

    def fetch_document(self, doc_id: str, session: SessionContext | Mapping[str, Any],
                       conditions: EndpointConditions = HEALTHY) -> dict[str, Any]:
        """The live registry record of ``doc_id`` (schema v1), access permitting."""
        caller = _session(session)
        doc = self.registry.get(doc_id)
        payload: dict[str, Any] = {"schema_version": DOCUMENT_SCHEMA_VERSION, "doc_id": doc_id,
                                   "session_id": caller.session_id, "found": doc is not None}
        if doc is None:
            return payload
        if not readable(doc, caller, conditions.revoked_groups):
            payload["denied"] = True
            return payload
        payload.update(title=doc.title, domain=doc.domain, status=doc.status,
                       effective_year=doc.effective_year, version=doc.version,
                       access_group=doc.access_group, tenant=doc.tenant,
                       superseded_by=self.registry.superseded_by(doc_id),
                       text_sha256=text_digest(doc.text))
        return payload

    def handle(self, name: str, args: Mapping[str, Any],
               conditions: EndpointConditions = HEALTHY) -> dict[str, Any]:
        """Dispatch a tool call by name: the innermost step of every fault chain."""
        tool = _tools.get(name)
        try:
            if tool == "search_policies":
                return self.search_policies(args["query"], args["session"], conditions)
            return self.fetch_document(args["doc_id"], args["session"], conditions)
        except KeyError as missing:
            raise UsageError(f"tool {name!r} called without argument {missing.args[0]!r}; "
                             f"got {', '.join(args) or 'no arguments'}") from None

    def _reindex_lineage(self, ranked: Ranked, documents: dict[str, Document]
                         ) -> tuple[Ranked, dict[str, Document]]:
        """The older versions of the top hit's policy, re-indexed as current beside it.

        Only versions *older* than the top hit come back, so a policy's newer version the
        retriever missed is never supplied: the conflict adds a contradiction, never the
        evidence a failed retrieval lacked. Nothing is displaced; hits after the top one keep
        their order.
        """
        if not ranked:
            return ranked, documents
        top, score = ranked[0]
        lineage = self.registry.lineage(top)
        older = [d for d in lineage[:lineage.index(top)] if d in documents]
        if not older:
            return ranked, documents
        rest = tuple(h for h in ranked[1:] if h[0] not in older)
        reindexed = {d: documents[d].model_copy(update={"status": "current"}) for d in older}
        return ((top, score), *((d, score) for d in reversed(older)), *rest), \
            {**documents, **reindexed}

    # -- primitives: index snapshots ----------------------------------------------------

    def index(self, snapshot_lag: int = 0,
              corruption: MetadataCorruption | None = None) -> DocumentIndex:
        """The index the search endpoint serves under these conditions (cached).

        ``snapshot_lag`` > 0 is the index as it was built that many versions ago
        (:meth:`DocumentRegistry.snapshot`): the newest versions are absent and the newest
        remaining one carries the status it had then.
        """
        return self._index((snapshot_lag, corruption))[0]

    @property
    def max_snapshot_lag(self) -> int:
        """The deepest snapshot lag that still holds a document: a policy's versions, minus 1."""
        return self._versions_kept - 1

    # -- primitives: the session-keyed result cache ------------------------------------

    def cached_results(self, session_id: str,
                       conditions: EndpointConditions = HEALTHY) -> tuple[str, ...]:
        """The doc ids the cache holds for ``session_id``, best first.

        They are what that session's own question returned for that session
        (:meth:`results`).
        """
        task = self._cached_task(session_id)
        return self.results(task.question, task.session, conditions)

    # -- primitives: what the retriever ranks ------------------------------------------

    def results(self, query: str, session: SessionContext | Mapping[str, Any],
                conditions: EndpointConditions = HEALTHY, *,
                depth: int | None = None) -> tuple[str, ...]:
        """The doc ids a search for ``query`` by ``session`` ranks, best first: the top_k a
        search returns, or the first ``depth`` of the full ranking.

        Ranked on the index ``conditions`` select (snapshot and corruption), before pins,
        shard loss and access trimming: what the retriever returned, as a fault may ask it.
        """
        key: _IndexKey = (conditions.snapshot_lag, conditions.corruption)
        caller = _session(session)
        if depth is None or depth <= self.top_k:
            return tuple(d for d, _ in self._ranked(key, query, caller, full=False))[:depth]
        return tuple(d for d, _ in self._ranked(key, query, caller, full=True))[:depth]

    def _cached_task(self, session_id: str) -> Task:
        task = self.session_cache.get(session_id)
        if task is None:
            raise UsageError(f"the session cache of corpus {self.corpus.name!r} holds no entry "
                             f"for session {session_id!r}")
        return task

    # -- primitives: shards ------------------------------------------------------------

    def shard_names(self, shards: int | None = None) -> tuple[str, ...]:
        """The shards of the index split into ``shards`` (default: this endpoint's), in order."""
        return sharding.shard_names(shards or self.shards)

    def shard_of(self, doc_id: str, shards: int | None = None) -> str:
        """The shard holding ``doc_id`` (split into ``shards``, default this endpoint's)."""
        return sharding.shard_of(doc_id, shards or self.shards)

    # -- index variants and rankings ---------------------------------------------------

    def _index(self, key: _IndexKey) -> tuple[DocumentIndex, dict[str, Document],
                                              dict[str, Any]]:
        found = self._indexes.get(key)
        if found is not None:
            return found
        with self._lock:
            if key not in self._indexes:
                self._indexes[key] = self._build_index(*key)
            return self._indexes[key]

    def _build_index(self, lag: int, corruption: MetadataCorruption | None
                     ) -> tuple[DocumentIndex, dict[str, Document], dict[str, Any]]:
        if corruption is not None:
            base = self.index(lag)
            docs = corrupt_metadata(base.documents, seed=corruption.seed,
                                    fields=corruption.fields)
            index = base.with_metadata(docs)
        elif lag == 0:
            index = DocumentIndex.from_corpus(self.corpus, snapshot_id=LIVE_SNAPSHOT)
        else:
            docs = self.registry.snapshot(lag)
            if not docs:
                deepest = self._versions_kept
                raise UsageError(f"snapshot_lag={lag} leaves an empty index snapshot: corpus "
                                 f"{self.corpus.name} keeps at most {deepest} version(s) of "
                                 f"a policy, so use at most {deepest - 1}")
            built = max((d.effective_year for d in docs), default=0)
            index = DocumentIndex.from_corpus(self.corpus, docs,
                                              snapshot_id=f"snapshot-{built}-r{lag}",
                                              built_year=built)
        snapshot = {"snapshot_id": index.snapshot_id, "built_year": index.built_year,
                    "document_count": len(index)}
        return index, {d.doc_id: d for d in index.documents}, snapshot

    def _ranked(self, key: _IndexKey, query: str, session: SessionContext,
                *, full: bool) -> Ranked:
        cache_key = (key, query, session.session_id, full)
        found = self._rankings.get(cache_key)
        if found is None:
            index = self._index(key)[0]
            depth = len(index) if full else self.top_k
            hits = self.retriever(index, query, RetrievalContext(session=session), top_k=depth)
            found = tuple((h.doc_id, h.score) for h in hits)
            self._rankings[cache_key] = found
        return found


def _session(session: SessionContext | Mapping[str, Any]) -> SessionContext:
    if isinstance(session, SessionContext):
        return session
    try:
        return SessionContext.model_validate(session)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "session"
        raise UsageError(f"session is not a valid SessionContext: {where}: {first['msg']}"
                         ) from None
