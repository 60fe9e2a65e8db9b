"""Assert on your agent in your own test suite.

``evaluate`` runs an agent over the matrix (scenarios x contract modes x arms x tasks) with
the deterministic tool-calling model unless you pass a chat model name, scores every record
with layerrag's strict scorer and returns the rates; the ``layerrag`` pytest fixture
(:mod:`simulator.testing.plugin`, installed as a ``pytest11`` entry point) hands it to your
tests::

    def test_my_agent_never_answers_when_access_is_denied(layerrag):
        result = layerrag.evaluate(agent=build_agent, scenarios=["permission_denied"])
        assert result.rate("safe_resolution") == 1.0

Nothing is hidden: an agent that cannot run at all is refused before any record (the
preflight probe, simulator/agents/preflight.py), and a rate over records that include agent
or provider errors is an :class:`UnmeasuredError` naming how many and why the first one
failed, never a number that counts a broken agent as safe. ``exclude_errors=True`` takes the
rate over the other records; :attr:`Evaluation.errors` lists them. Under the ``layerrag``
fixture either fails the test with that one line.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simulator.agents.registry import AgentFactory, AgentSpec, resolve_agent
from simulator.errors import LayerragError, UsageError
from simulator.runner.record import RunRecord
from simulator.scoring.outcome import OUTCOME_FLAGS
from simulator.vocabulary import CONTRACT_MODES


class UnmeasuredError(LayerragError):
    """A rate was asked of records that include agent or provider errors: what they would
    count is the harness's or the provider's failure, not the agent's behaviour."""


def error_kind(record: RunRecord) -> str | None:
    """``agent`` or ``provider`` for a record that measured nothing, else None."""
    return "agent" if record.agent_error else "provider" if record.provider_error else None


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

    @property
    def errors(self) -> tuple[RunRecord, ...]:
        """The records that measured nothing: agent errors and provider errors (each keeps
        its one-line ``reason``)."""
        return tuple(r for r in self.records if error_kind(r) is not None)

    def rate(self, metric: str = "S", *, scenario: str | None = None, mode: str | None = None,
             arm: str | None = None, exclude_errors: bool = False) -> float:
        """The share of the selected records whose ``metric`` (S, E, safe_resolution, ...)
        holds; a selection with no records is a UsageError, never a silent 0.

        A selection that holds agent or provider errors is an :class:`UnmeasuredError`
        unless ``exclude_errors``, which takes the rate over the other records.
        """
        __tracebackhide__ = True  # pytest shows the caller's line, not this one
        if metric not in OUTCOME_FLAGS:
            raise UsageError(f"unknown metric {metric!r}; metrics: {', '.join(OUTCOME_FLAGS)}")
        chosen = self.select(scenario=scenario, mode=mode, arm=arm)
        failed = [r for r in chosen if error_kind(r) is not None]
        if failed and not exclude_errors:
            first = failed[0]
            raise UnmeasuredError(
                f"rate({metric!r}): {len(failed)} of {len(chosen)} records are "
                f"{' and '.join(sorted({f'{error_kind(r)} errors' for r in failed}))}, which "
                f"measure nothing (first: {first.scenario}/{first.contract_mode} task row "
                f"{first.task_row}: {first.reason}); fix the cause, or pass "
                "exclude_errors=True")
        if exclude_errors:
            chosen = [r for r in chosen if error_kind(r) is None]
        if not chosen:
            raise UsageError(f"no records for scenario={scenario}, mode={mode}, arm={arm}"
                             + (" once errors are excluded" if failed else ""))
        return sum(bool(getattr(r, metric)) for r in chosen) / len(chosen)

    def table(self, metric: str = "S", *, exclude_errors: bool = False
              ) -> dict[tuple[str, str, str], float]:
        """``metric`` per (scenario, contract mode, arm), as :meth:`rate` takes it."""
        cells = sorted({(r.scenario, r.contract_mode, r.arm) for r in self.records})
        return {c: self.rate(metric, scenario=c[0], mode=c[1], arm=c[2],
                             exclude_errors=exclude_errors) for c in cells}


def evaluate(agent: str | AgentFactory = "react", *, scenarios: Sequence[str] = ("clean",),
             modes: Sequence[str] = CONTRACT_MODES, arms: Sequence[str] = ("uncontrolled",),
             tasks: int | None = 24, model: str = "deterministic", seed: int = 0,
             out: Path | str | None = None, plugins: Sequence[str] = (),
             record_timeout: float | None = None) -> Evaluation:
    """Run ``agent`` (a registered name, ``MODULE:CALLABLE``, or a factory
    ``(model, tools, middleware) -> graph``) over the matrix and score it.

    ``out`` keeps the run directory (resumable, exportable as an archive); by default the
    run is made in a temporary directory that is removed afterwards. Installed plugins
    (entry points) are loaded as the CLI loads them; ``plugins`` names local modules too,
    as ``--plugin`` does, so a plugin's faults, policies and scenarios can be named here.
    ``record_timeout``: seconds per record before it is an agent error (``--record-timeout``).
    An agent that cannot run (its factory raises, or the preflight probe record breaks) is a
    UsageError naming the cause, before any record.
    """
    from simulator.plugins import load_plugins
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix
    from simulator.runner.store import RunStore

    load_plugins(plugins)
    spec = _spec(agent)
    config = RunConfig(models=(model,), scenarios=tuple(scenarios), modes=tuple(modes),
                       arms=tuple(arms), tasks=tasks, seed=seed, agent=spec.name,
                       record_timeout=record_timeout)
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


__all__ = ["Evaluation", "UnmeasuredError", "evaluate"]

