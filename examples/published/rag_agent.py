"""LangChain's RAG-agent tutorial, in its published shape, under layerrag.

    layerrag run --agent examples.published.rag_agent:build_agent --tasks 24 --out runs/rag-agent

Source: "Build a RAG agent with LangChain", docs.langchain.com/oss/python/langchain/rag,
section "RAG agents": a ``retrieve_context`` tool over a vector store
(``similarity_search(query, k=2)``, ``Source: ... Content: ...`` blocks, documents as the
artifact) and ``create_agent(model, tools, system_prompt=prompt)``, answering in prose.

What differs from the tutorial, and nothing else:

- the factory around it: layerrag calls ``build_agent(model, tools, middleware)`` once per
  run and hands it the chat model, which takes the place of the tutorial's
  ``init_chat_model(...)``;
- the tutorial's indexing (load a blog post, split it, embed it, ``add_documents``) is the
  run's corpus: one line, marked ``# layerrag:``, builds the vector store with
  :func:`~layerrag.corpus_store`, whose searches go through the scenario's faults.

The ``middleware`` list is not installed, as the tutorial installs none: the tools carry
the harness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.tools import tool

from layerrag import corpus_store


def build_agent(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    """The tutorial's agent over the run's corpus."""
    vector_store = corpus_store(tools)  # layerrag: the run's corpus, searched under its faults

    @tool(response_format="content_and_artifact")
    def retrieve_context(query: str):
        """Retrieve information to help answer a query."""
        retrieved_docs = vector_store.similarity_search(query, k=2)
        serialized = "\n\n".join(
            (f"Source: {doc.metadata}\nContent: {doc.page_content}")
            for doc in retrieved_docs
        )
        return serialized, retrieved_docs

    tools = [retrieve_context]
    # If desired, specify custom instructions
    prompt = (
        "You have access to a tool that retrieves context from a blog post. "
        "Use the tool to help answer user queries."
    )
    agent = create_agent(model, tools, system_prompt=prompt)
    return agent
