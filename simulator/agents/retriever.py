"""Your own retriever under layerrag's faults: the corpus as LangChain documents, and a
retriever wrapper that puts every layer's fault on what your retriever returns.

    def build_agent(model, tools, middleware):
        store = InMemoryVectorStore.from_documents(corpus_documents(tools), my_embedding)
        retriever = FaultyRetriever.around(store.as_retriever(), tools)
        ...  # use it as any retriever: a retriever tool, a graph node, a chain

:func:`corpus_documents` hands the factory the run's corpus (every version of every
policy, as a document library holds them) as ``Document`` s: the prose, and the metadata a
document-management system publishes (document id, policy id, the version it replaced and
the one that replaced it, status, year, version, domain, access group, tenant). No label:
nothing says which document answers which question.

:class:`FaultyRetriever` makes your retriever the ranker of the scenario's search endpoint
(:meth:`PolicyEnvironment.with_retriever`): each query asks your retriever, maps what it
returns onto the index the scenario serves, and then runs exactly what a
``search_policies`` call runs (simulator/agents/tools.py): the scenario's faults, the
contract step, the recording the scorer reads, the arm's policies. So each layer's fault
acts on your retriever's results:

- stale_index: a returned version newer than the stale snapshot is replaced by the version
  that snapshot held (marked current, as it was then); corrupted_metadata: the hits carry
  the corrupted metadata;
- permission_denied, partial_timeout, wrong_session, conflicting_evidence and
  misleading_evidence: the access filter, the lost shards, another session's cached
  results, an older version re-indexed beside the top hit, a pinned document, all chosen
  from what your retriever ranks (the faults' own rules, docs/middleware.md);
- missing_tool_output and schema_drift: on the serialized payload, before the contract step
  (strict mode rejects a drifted payload; repair mode repairs it).

What comes back is ``Document`` s again: one per hit, its page starting with a line
``[doc_id] Title | status: ... | effective_year: ... | version: ... | domain: ...`` (so
that a graph that passes only page contents to its model still says what to cite and which
version each document is) and then the text, with the hit's metadata (``doc_id``,
``title``, ``score``, ``rank``, status, year, version, domain, access group, tenant);
then, when the search said more than its hits (results withheld, shards missing, notes, a
policy's instructions), one document with ``metadata["layerrag"] == "notes"`` that says it
in words (``[search notes]``, then one line each; ``access denied: ...`` when results were
withheld) and in fields. A search the contract or a policy refused returns one document
with ``metadata["layerrag"] == "error"`` (``[search error]`` and the reason): what an
agent given ``search_policies`` gets as a tool error. simulator/agents/evidence_text.py
reads these pages back for the offline driver.

Your retriever is called synchronously (``invoke``), once per distinct query and index
state (rankings are cached per run), and must return documents that carry
``metadata["doc_id"]`` (those of :func:`corpus_documents` do). It keeps at most the run's
``top_k`` (``--top-k``, 3 by default) of them, as the built-in retriever does, so the two
compare at the same depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, Field, ValidationError

from middleware.adapters.langchain_tools import environment_of, policy_tools
from simulator.agents.evidence_text import (
    DENIED_NOTE,
    ERROR_HEADER,
    NOTES_HEADER,
    page_header,
)
from simulator.endpoints.environment import PolicyEnvironment
from simulator.endpoints.payload import SearchPayload
from simulator.errors import UsageError
from simulator.retrieval.base import Hit, RetrievalContext, Retriever
from simulator.retrieval.index import DocumentIndex


def corpus_documents(tools: Sequence[BaseTool]) -> list[Document]:
    """The corpus of the run ``tools`` were handed for, as LangChain documents."""
    env = _environment(tools)
    return [Document(page_content=d.text, id=d.doc_id, metadata={
        "doc_id": d.doc_id, "title": d.title, "policy_id": d.policy_id,
        "supersedes": d.supersedes, "superseded_by": d.superseded_by, "status": d.status,
        "effective_year": d.effective_year, "version": d.version, "domain": d.domain,
        "access_group": d.access_group, "tenant": d.tenant})
        for d in env.corpus.documents]


class RetrieverRanker:
    """A LangChain retriever as the environment's ranker (simulator.retrieval.base.Retriever):
    its documents mapped onto the index being searched, at most ``top_k`` of them."""

    def __init__(self, retriever: BaseRetriever, env: PolicyEnvironment) -> None:
        self.retriever, self.env = retriever, env

    def __call__(self, index: DocumentIndex, query: str, context: RetrievalContext,
                 top_k: int = 3) -> list[Hit]:
        held = {d.doc_id for d in index.documents}
        chosen: list[tuple[str, float]] = []
        for rank, doc in enumerate(self.retriever.invoke(query)):
            doc_id = doc.metadata.get("doc_id") if isinstance(doc.metadata, dict) else None
            if not isinstance(doc_id, str):
                raise UsageError(f"FaultyRetriever: {type(self.retriever).__name__} returned "
                                 "a document without metadata['doc_id']; build it over "
                                 "corpus_documents(tools)")
            served = self._as_indexed(doc_id, held)
            if served is not None and all(d != served for d, _ in chosen):
                score = doc.metadata.get("score")
                chosen.append((served, float(score) if isinstance(score, int | float)
                               else 1.0 / (rank + 1)))
        return [Hit(doc_id=d, score=s, rank=r) for r, (d, s) in enumerate(chosen[:top_k])]

    def _as_indexed(self, doc_id: str, held: set[str]) -> str | None:
        """``doc_id``, or the newest older version of its policy the index holds (a stale
        snapshot predates it), or None when the index holds no version of it."""
        if doc_id in held:
            return doc_id
        lineage = self.env.registry.lineage(doc_id)
        older = [d for d in lineage[:lineage.index(doc_id)] if d in held] \
            if doc_id in lineage else []
        return older[-1] if older else None


class FaultyRetriever(BaseRetriever):
    """A user's retriever whose results go through the scenario's faults, the contract step,
    the recording and the arm's policies (module docstring)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    retriever: BaseRetriever | None
    """The user's retriever; None when the built-in one ranks (:meth:`builtin`)."""
    search: BaseTool = Field(exclude=True, repr=False)
    """The harnessed ``search_policies`` tool over the environment this retriever ranks."""

    @classmethod
    def around(cls, retriever: BaseRetriever, tools: Sequence[BaseTool]) -> FaultyRetriever:
        """``retriever`` under the faults of the run ``tools`` were handed for."""
        env = _environment(tools)
        return cls(retriever=retriever, search=_harnessed_search(env.with_retriever(
            RetrieverRanker(retriever, env), f"user:{type(retriever).__name__}")))

    @classmethod
    def builtin(cls, tools: Sequence[BaseTool], k: int) -> FaultyRetriever:
        """The run's own retriever, keeping at most ``k`` hits: what ``search_policies``
        serves, as documents, for a graph that searches a retriever or a vector store."""
        env = _environment(tools)
        if k == env.top_k:
            return cls(retriever=None, search=_harnessed_search(env))
        return cls(retriever=None, search=_harnessed_search(env.with_retriever(
            _FirstK(env.retriever, k), f"{env.retriever_name}@k={k}")))

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        search: Any = self.search
        try:
            content = search.func(query=query)
        except ToolException as refused:
            return [_error_document(str(refused))]
        return payload_documents(content)

    async def _aget_relevant_documents(
            self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        search: Any = self.search
        try:
            content = await search.coroutine(query=query)
        except ToolException as refused:
            return [_error_document(str(refused))]
        return payload_documents(content)


class _FirstK:
    """A ranker that keeps at most ``k`` of another ranker's hits."""

    def __init__(self, ranker: Retriever, k: int) -> None:
        if k < 1:
            raise UsageError(f"a search must keep at least one hit, got k={k}")
        self.ranker, self.k = ranker, k

    def __call__(self, index: DocumentIndex, query: str, context: RetrievalContext,
                 top_k: int = 3) -> list[Hit]:
        return self.ranker(index, query, context, top_k=min(top_k, self.k))


def _harnessed_search(env: PolicyEnvironment) -> BaseTool:
    from simulator.agents.tools import harnessed_tools

    search = next(t for t in policy_tools(env) if t.name == "search_policies")
    return harnessed_tools([search])[0]


def payload_documents(content: str) -> list[Document]:
    """A search tool's JSON result as documents (module docstring); an empty result (the
    fault lost the output) is no document."""
    if not content.strip():
        return []
    try:
        payload = SearchPayload.model_validate_json(content)
    except ValidationError:
        return [_error_document("the search result was unreadable")]
    docs = [Document(page_content=f"{page_header(h.doc_id, h.title, h.metadata.model_dump())}"
                                  f"\n{h.text}", id=h.doc_id,
                     metadata={"doc_id": h.doc_id, "title": h.title, "score": h.score,
                               "rank": h.rank, **h.metadata.model_dump()})
            for h in payload.hits]
    access = payload.access
    said = {"access_denied": access.denied, "withheld_count": access.withheld_count,
            "partial": payload.partial, "missing_shards": list(payload.missing_shards),
            "notes": list(payload.notes)}
    if access.denied or access.withheld_count or payload.partial or payload.notes:
        words = [NOTES_HEADER]
        if access.denied or access.withheld_count:
            words.append(f"{DENIED_NOTE}: {access.withheld_count} result(s) withheld"
                         f" ({access.reason or 'no reason given'})")
        if payload.partial:
            words.append(f"partial results: shard(s) {', '.join(payload.missing_shards)} "
                         "did not answer")
        words += payload.notes
        docs.append(Document(page_content="\n".join(words),
                             metadata={"layerrag": "notes", **said}))
    return docs


def _error_document(reason: str) -> Document:
    return Document(page_content=f"{ERROR_HEADER}\n{reason}", metadata={"layerrag": "error"})


def _environment(tools: Sequence[BaseTool]) -> PolicyEnvironment:
    for tool in tools:
        env = environment_of(tool)
        if env is not None:
            return env
    raise UsageError("corpus_documents / FaultyRetriever.around: pass the tools layerrag "
                     "handed to your factory (they carry the run's corpus)")
