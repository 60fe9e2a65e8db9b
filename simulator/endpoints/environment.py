"""PolicyEnvironment: the two tool endpoints over one corpus, in any operational state.

``search_policies(query, session)`` searches an index snapshot and returns a schema-v2
payload; ``fetch_document(doc_id, session)`` reads the live registry. Both take optional
:class:`~simulator.endpoints.conditions.EndpointConditions`: the state a fault put the
environment in (a stale snapshot, a corrupted metadata store, a shard outage, a revoked
access group, a mixed-up session cache). Build the environment once; every index variant and
every retrieval is computed on first use and cached, so a call costs a dict lookup and the
payload assembly.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from simulator.corpus.model import Corpus, Document, SessionContext, Task
from simulator.endpoints.conditions import HEALTHY, EndpointConditions, MetadataCorruption
from simulator.endpoints.document_payload import DOCUMENT_SCHEMA_VERSION
from simulator.endpoints.registry import DocumentRegistry
from simulator.endpoints.search import Ranked, assemble, pin, readable
from simulator.endpoints.shards import DEFAULT_SHARDS, shards_down
from simulator.errors import UsageError
from simulator.registry import Registry
from simulator.retrieval.base import DEFAULT_RETRIEVER, DEFAULT_TOP_K, RetrievalContext, Retriever
from simulator.retrieval.corruption import corrupt_metadata
from simulator.retrieval.index import DocumentIndex

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
                 top_k: int = DEFAULT_TOP_K, shards: int = DEFAULT_SHARDS) -> None:
        if top_k < 1:
            raise UsageError(f"top_k must be at least 1, got {top_k}")
        if shards < 1:
            raise UsageError(f"shards must be at least 1, got {shards}")
        self.corpus = corpus
        self.retriever_name = retriever
        self.retriever = resolve_retriever(retriever)
        self.top_k = top_k
        self.shards = shards
        self.registry = DocumentRegistry.from_corpus(corpus)
        self._indexes: dict[_IndexKey, tuple[DocumentIndex, dict[str, Document],
                                             dict[str, Any]]] = {}
        self._rankings: dict[tuple[_IndexKey, str, str, bool], Ranked] = {}
        self._lock = threading.RLock()  # _build_index re-enters via index() for a base index
        self._units = {lab.task_id: lab.unit for lab in corpus.labels}
        self._unit_docs = {lab.unit: (*lab.required_doc_ids, *lab.superseded_doc_ids)
                           for lab in corpus.labels}
        self._task_by_session = {t.session.session_id: t for t in corpus.tasks}
        self._mixups: dict[tuple[str, int, EndpointConditions], Task] = {}

    @classmethod
    def from_corpus(cls, corpus: Corpus, retriever: str = DEFAULT_RETRIEVER,
                    top_k: int = DEFAULT_TOP_K, shards: int = DEFAULT_SHARDS
                    ) -> PolicyEnvironment:
        return cls(corpus, retriever=retriever, top_k=top_k, shards=shards)

    # -- endpoints ---------------------------------------------------------------------

    def search_policies(self, query: str, session: SessionContext | Mapping[str, Any],
                        conditions: EndpointConditions = HEALTHY) -> dict[str, Any]:
        """Search the policy index for ``query`` on behalf of ``session`` (schema v2)."""
        caller = _session(session)
        if conditions.session_mixup_seed is not None:
            # The cache hands back what the other session received: the environment-wide
            # state (snapshot, corruption, outage) applies, the caller's own access and pins
            # do not.
            shared = conditions.model_copy(update={"session_mixup_seed": None,
                                                   "pinned_doc_ids": (), "revoked_groups": ()})
            other = self._other_session_task(caller, conditions.session_mixup_seed, shared)
            return self.search_policies(other.question, other.session, shared)
        key: _IndexKey = (conditions.snapshot_lag, conditions.corruption)
        _, documents, snapshot = self._index(key)
        ranked = self._ranked(key, query, caller, full=False)
        if conditions.pinned_doc_ids:
            ranked = pin(ranked, self._ranked(key, query, caller, full=True),
                         conditions.pinned_doc_ids, self.top_k)
        outage = conditions.shard_outage
        shards = (outage.shards or self.shards) if outage is not None else self.shards
        down = shards_down(outage, shards) if outage is not None else ()
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
                       superseded_by=self.registry.superseded_by(doc_id))
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

    # -- index variants and rankings ---------------------------------------------------

    def index(self, snapshot_lag: int = 0,
              corruption: MetadataCorruption | None = None) -> DocumentIndex:
        """The index the search endpoint serves under these conditions (cached)."""
        return self._index((snapshot_lag, corruption))[0]

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
            index = DocumentIndex.from_corpus(self.corpus, snapshot_id="live")
        else:
            docs = self.registry.snapshot(lag)
            if not docs:
                deepest = max(len(self.registry.lineage(d.doc_id))
                              for d in self.registry.documents)
                raise UsageError(f"stale_index: versions_behind={lag} leaves an empty index "
                                 f"snapshot: corpus {self.corpus.name} keeps at most "
                                 f"{deepest} version(s) of a policy, so use at most "
                                 f"{deepest - 1}")
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

    def _other_session_task(self, caller: SessionContext, seed: int,
                            conditions: EndpointConditions) -> Task:
        """Whose cached results a mixed-up session cache hands back.

        Another task's, of another policy unit, drawn from the caller's session and
        ``seed``; the first such task (in drawn order) whose results share no version of the
        caller's policy, so the mix-up never hands back the caller's own evidence by chance.
        """
        memo = (caller.session_id, seed, conditions)
        found = self._mixups.get(memo)
        if found is not None:
            return found
        own = self._task_by_session.get(caller.session_id)
        own_unit = self._units.get(own.task_id) if own is not None else None
        own_docs = set(self._unit_docs.get(own_unit, ())) if own_unit is not None else set()
        candidates = [t for t in self.corpus.tasks
                      if t.session.session_id != caller.session_id
                      and (own_unit is None or self._units.get(t.task_id) != own_unit)]
        if not candidates:
            raise UsageError("wrong_session needs another session of another policy unit; "
                             f"corpus {self.corpus.name!r} has none")
        random.Random(f"wrong_session|{seed}|{caller.session_id}").shuffle(candidates)
        key: _IndexKey = (conditions.snapshot_lag, conditions.corruption)
        chosen = next((t for t in candidates if own_docs.isdisjoint(
            d for d, _ in self._ranked(key, t.question, t.session, full=False))),
            candidates[0])
        self._mixups[memo] = chosen
        return chosen


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
