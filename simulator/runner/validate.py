"""Resolve every name of a run configuration before any work.

Kept apart from :mod:`simulator.runner.cells` (which imports LangGraph, about a second) so
that ``layerrag run`` can check a configuration and refuse a typo in one line before it
prints its start line (simulator/cli/run_cmd.py), and still print that line at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.errors import UsageError
from simulator.runner.config import RunConfig
from simulator.vocabulary import DEFAULT_PIPELINE

if TYPE_CHECKING:
    from simulator.agents.registry import AgentSpec


def validate_config(config: RunConfig, agent: AgentSpec | None = None) -> None:
    """Resolve every name before any work, so a typo fails at once with a suggestion.
    ``agent``: the agent's spec when the caller holds its factory (a local function handed
    to ``simulator.testing.evaluate`` cannot be resolved by name)."""
    from middleware.scenarios import get_scenario
    from policies import get_arm
    from simulator.agent.pipelines import check_pipeline
    from simulator.agents.registry import resolve_agent
    from simulator.readers.registry import resolve_reader
    from simulator.registry import Registry
    from simulator.retrieval import retrievers
    from simulator.runner.config import CONTRACT_MODES

    modes: Registry[str] = Registry("contract mode")
    for m in CONTRACT_MODES:
        modes.add(m, m)
    for name in config.scenarios:
        get_scenario(name)
    for mode in config.modes:
        modes.get(mode)
    check_pipeline(config.pipeline)
    for arm in config.arms:
        get_arm(arm)
    for model in config.models:
        resolve_reader(model, check_only=True)
    retrievers.get(config.retriever)
    if config.task_rows is not None and not config.task_rows:
        raise UsageError("task_rows is empty: name at least one task row")
    if not config.models or not config.scenarios or not config.modes or not config.arms:
        raise UsageError("every axis needs at least one value")
    spec = agent or resolve_agent(config.agent)
    if spec.kind == "tool_calling" and config.pipeline != DEFAULT_PIPELINE:
        raise UsageError(f"--pipeline {config.pipeline} applies to the pipeline agent only; "
                         f"agent {config.agent!r} makes its own stops")
