"""Run metadata on every LangChain call a record makes, so that a LangSmith or Phoenix trace
of a run can be filtered by scenario, contract mode, arm, task row, record and run.

A tool-calling agent gets it in its graph's ``config`` (LangChain hands a run's metadata to
every model, tool and node run under it). The pipeline batches many records into one graph
invoke, so its reader passes the record's metadata on its own model call, from the context
variable :func:`record_metadata` sets around it. What goes in is what the agent may know (no
label, no expected answer): :func:`run_metadata` builds it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from typing import Any

TAG = "layerrag"
"""The tag every layerrag call carries."""

Metadata = tuple[tuple[str, str], ...]
"""Hashable, as the frozen record contexts need."""

_current: contextvars.ContextVar[Metadata] = contextvars.ContextVar(
    "layerrag_call_metadata", default=())


def run_metadata(*, run_id: str, scenario: str, contract_mode: str, arm: str, task_row: int,
                 record_key: str, model: str, agent: str) -> Metadata:
    """The metadata of one record's calls, every key prefixed ``layerrag_``."""
    fields = {"run_id": run_id, "scenario": scenario, "contract_mode": contract_mode,
              "arm": arm, "task_row": str(task_row), "record_key": record_key,
              "model": model, "agent": agent}
    return tuple((f"layerrag_{k}", v) for k, v in fields.items())


@contextlib.contextmanager
def record_metadata(metadata: Metadata) -> Iterator[None]:
    """Calls made within carry ``metadata`` (:func:`call_config`)."""
    token = _current.set(metadata)
    try:
        yield
    finally:
        _current.reset(token)


def call_config(metadata: Mapping[str, str] | Metadata | None = None) -> dict[str, Any]:
    """A LangChain ``config`` with ``metadata`` (default: the current record's) and the tag."""
    found = dict(metadata if metadata is not None else _current.get())
    return {"metadata": found, "tags": [TAG]} if found else {}
