"""FaultyVectorStore and corpus_store: a vector store an agent searches directly goes
through the scenario's faults, whatever method it calls (simulator/agents/vector_store.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore

from middleware import policy_tools
from simulator.agents import (
    FaultyVectorStore,
    HashingEmbeddings,
    ToolRunContext,
    corpus_documents,
    corpus_store,
)
from simulator.agents.tools import running
from simulator.corpus import Corpus
from simulator.endpoints import PolicyEnvironment
from simulator.errors import UsageError


@pytest.fixture()
def tools(corpus: Corpus) -> Iterator[list[Any]]:
    """The tools of a clean strict record, searched within its run context."""
    with running(ToolRunContext(task=corpus.tasks[0], scenario="clean",
                                contract_mode="strict")):
        yield list(policy_tools(PolicyEnvironment(corpus)))


def _hits(docs: list[Document]) -> list[Document]:
    return [d for d in docs if "layerrag" not in d.metadata]


def test_the_default_store_serves_the_runs_own_ranking_at_depth_k(tools: list[Any],
                                                                   corpus: Corpus) -> None:
    store = corpus_store(tools)
    question = corpus.tasks[0].question
    two = _hits(store.similarity_search(question, k=2))
    three = _hits(store.similarity_search(question))  # the endpoint's top_k, 3
    assert len(two) == 2 and len(three) == 3
    assert [d.metadata["doc_id"] for d in two] == [d.metadata["doc_id"] for d in three[:2]]
    assert two[0].page_content.startswith(f"[{two[0].metadata['doc_id']}] ")
    assert "| status: " in two[0].page_content.splitlines()[0]
    scored = store.similarity_search_with_score(question, k=2)
    assert [s for _, s in scored] == [d.metadata["score"] for d in two]
    via_retriever = store.as_retriever(search_kwargs={"k": 2}).invoke(question)
    assert [d.metadata["doc_id"] for d in via_retriever] == [d.metadata["doc_id"] for d in two]


def test_async_searches_take_the_same_path(tools: list[Any], corpus: Corpus) -> None:
    store = corpus_store(tools)
    question = corpus.tasks[1].question
    sync = [d.metadata.get("doc_id") for d in store.similarity_search(question, k=2)]
    found = asyncio.run(store.asimilarity_search(question, k=2))
    assert [d.metadata.get("doc_id") for d in found] == sync


def test_a_store_of_your_own_ranks_with_your_embedding(tools: list[Any],
                                                       corpus: Corpus) -> None:
    own = InMemoryVectorStore.from_documents(corpus_documents(tools), HashingEmbeddings())
    store = FaultyVectorStore.around(own, tools)
    docs = _hits(store.similarity_search(corpus.tasks[0].question, k=3))
    expected = [d.metadata["doc_id"] for d in own.similarity_search(corpus.tasks[0].question,
                                                                    k=3)]
    assert [d.metadata["doc_id"] for d in docs] == expected
    assert corpus_store(tools, HashingEmbeddings()).embeddings is not None


def test_the_corpus_store_takes_no_other_documents(tools: list[Any]) -> None:
    with pytest.raises(UsageError, match="takes no other documents"):
        corpus_store(tools).add_documents([Document(page_content="x")])
    with pytest.raises(UsageError, match="FaultyVectorStore wraps a store"):
        FaultyVectorStore.from_texts(["x"], HashingEmbeddings())
