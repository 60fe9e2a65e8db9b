"""Assert on your agent in your own test suite.

``evaluate`` runs an agent over the matrix (scenarios x contract modes x arms x tasks) with
the deterministic tool-calling model unless you pass a chat model name, scores every record
with layerrag's strict scorer and returns the rates; the ``layerrag`` pytest fixture
(:mod:`simulator.testing.plugin`, installed as a ``pytest11`` entry point) hands it to your
tests::

    def test_my_agent_never_answers_when_access_is_denied(layerrag):
        result = layerrag.evaluate(agent=build_agent, scenarios=["permission_denied"])
        assert result.rate("safe_resolution") == 1.0
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simulator.agents.registry import AgentFactory, AgentSpec, resolve_agent
from simulator.errors import UsageError
from simulator.runner.record import RunRecord
from simulator.scoring.outcome import OUTCOME_FLAGS
from simulator.vocabulary import CONTRACT_MODES


@dataclass(frozen=True)
class Evaluation:
    """Every scored record of one evaluation, and rates over any slice of them."""

    records: tuple[RunRecord, ...]
    run_dir: Path

    def select(self, *, scenario: str | None = None, mode: str | None = None,
               arm: str | None = None) -> list[RunRecord]:
        return [r for r in self.records
                if (scenario is None or r.scenario == scenario)
                and (mode is None or r.contract_mode == mode)
                and (arm is None or r.arm == arm)]

    def rate(self, metric: str = "S", *, scenario: str | None = None, mode: str | None = None,
             arm: str | None = None) -> float:
        """The share of the selected records whose ``metric`` (S, E, safe_resolution, ...)
        holds; a selection with no records is a UsageError, never a silent 0."""
        if metric not in OUTCOME_FLAGS:
            raise UsageError(f"unknown metric {metric!r}; metrics: {', '.join(OUTCOME_FLAGS)}")
        chosen = self.select(scenario=scenario, mode=mode, arm=arm)
        if not chosen:
            raise UsageError(f"no records for scenario={scenario}, mode={mode}, arm={arm}")
        return sum(bool(getattr(r, metric)) for r in chosen) / len(chosen)

    def table(self, metric: str = "S") -> dict[tuple[str, str, str], float]:
        """``metric`` per (scenario, contract mode, arm)."""
        cells = sorted({(r.scenario, r.contract_mode, r.arm) for r in self.records})
        return {c: self.rate(metric, scenario=c[0], mode=c[1], arm=c[2]) for c in cells}


def evaluate(agent: str | AgentFactory = "react", *, scenarios: Sequence[str] = ("clean",),
             modes: Sequence[str] = CONTRACT_MODES, arms: Sequence[str] = ("uncontrolled",),
             tasks: int | None = 24, model: str = "deterministic", seed: int = 0,
             out: Path | str | None = None, plugins: Sequence[str] = ()) -> Evaluation:
    """Run ``agent`` (a registered name, ``MODULE:CALLABLE``, or a factory
    ``(model, tools, middleware) -> graph``) over the matrix and score it.

    ``out`` keeps the run directory (resumable, exportable as an archive); by default the
    run is made in a temporary directory that is removed afterwards. Installed plugins
    (entry points) are loaded as the CLI loads them; ``plugins`` names local modules too,
    as ``--plugin`` does, so a plugin's faults, policies and scenarios can be named here.
    """
    from simulator.plugins import load_plugins
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix
    from simulator.runner.store import RunStore

    load_plugins(plugins)
    spec = _spec(agent)
    config = RunConfig(models=(model,), scenarios=tuple(scenarios), modes=tuple(modes),
                       arms=tuple(arms), tasks=tasks, seed=seed, agent=spec.name)
    with tempfile.TemporaryDirectory(prefix="layerrag-eval-") as tmp:
        run_dir = Path(out) if out is not None else Path(tmp)
        run_matrix(config, run_dir, progress=False, agent=spec)
        with RunStore(run_dir) as store:
            records = tuple(store.records())
    return Evaluation(records=records, run_dir=run_dir)


def _spec(agent: str | AgentFactory) -> AgentSpec:
    if isinstance(agent, str):
        return resolve_agent(agent)
    if not callable(agent):
        raise UsageError(f"agent must be a name or a factory, got {type(agent).__name__}")
    name = f"{getattr(agent, '__module__', 'local')}:{getattr(agent, '__qualname__', 'agent')}"
    return AgentSpec(name=name, kind="tool_calling", factory=agent,
                     description=(agent.__doc__ or "").strip().split("\n")[0])


__all__ = ["Evaluation", "evaluate"]

