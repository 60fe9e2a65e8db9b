"""Your own retriever under layerrag's faults: a vector store of your choosing, your own
retrieval tool, your own prompt, answers in prose.

    layerrag run --agent examples.own_retriever:build_agent --tasks 24 --out runs/own

The agent is the shape of LangChain's RAG-agent tutorial: an ``InMemoryVectorStore`` over
the documents, one ``retrieve_context`` tool that returns ``Source: ... Content: ...``
blocks with the documents as its artifact, and ``create_agent`` with no answer schema. It
uses none of layerrag's tools directly. Two calls put it under the scenario's faults:

- :func:`~layerrag.corpus_documents` hands it the run's corpus as LangChain documents (every
  version of every policy, with the metadata a document library publishes, no label);
- :meth:`~layerrag.FaultyRetriever.around` wraps its retriever so that every query goes
  through the scenario's faults, the contract mode, the recording the scorer reads and the
  arm's policies, exactly as a ``search_policies`` call does.

Its embedding is :class:`~layerrag.HashingEmbeddings` (scikit-learn's ``HashingVectorizer``:
word unigrams and bigrams, l2-normalised), so the example needs no model download and no
key; swap in any LangChain ``Embeddings`` and any vector store whose retriever returns the
documents it was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.tools import BaseTool, tool
from langchain_core.vectorstores import InMemoryVectorStore

from layerrag import FaultyRetriever, HashingEmbeddings, ToolRunContext, corpus_documents

SYSTEM_PROMPT = (
    "You answer enterprise policy questions from the company's document library. Use the "
    "retrieve_context tool before you answer and answer only from what it returned. Reply "
    "in one sentence that states the value in the requested answer format and cites the "
    "documents you relied on by doc_id in square brackets. If the documents do not give the "
    "answer, say 'I cannot find this in the documents' and why.")


def build_agent(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """A RAG agent over its own vector store; layerrag's tools only supply the corpus and
    the faults, the agent is never given them."""
    store = InMemoryVectorStore.from_documents(corpus_documents(tools), HashingEmbeddings())
    retriever = FaultyRetriever.around(store.as_retriever(search_kwargs={"k": 3}), tools)

    @tool(response_format="content_and_artifact")
    def retrieve_context(query: str) -> tuple[str, list[Document]]:
        """Retrieve information to help answer a query."""
        retrieved_docs = retriever.invoke(query)
        serialized = "\n\n".join(f"Source: {doc.metadata}\nContent: {doc.page_content}"
                                 for doc in retrieved_docs)
        return serialized, retrieved_docs

    return create_agent(model, tools=[retrieve_context], system_prompt=SYSTEM_PROMPT,
                        middleware=list(middleware), context_schema=ToolRunContext)
