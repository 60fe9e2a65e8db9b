"""Layer credit: did a policy repair its own layer, and leave every other layer alone?

Matched records with and without the policy (the ``uncontrolled`` arm and the arm of the
policy alone, same model, scenario, contract mode and task) give a paired change per
scenario. The metric is the outcome the policy claims (:data:`policies.base.CLAIM_METRIC`):

- ``S`` (strict success) for controls that restore evidence (schema_repair, bounded_retry,
  metadata_integrity): the layer is answerable after the fix, so the fix must produce
  correct answers;
- ``safe_resolution`` for controls that withhold an answer (evidence_gate, freshness_check,
  access_aware_abstention, session_isolation): on stale, denied, wrong-session or missing
  evidence no answer can be correct, so the gain is in structured non-answers replacing
  unsafe answers, without costing correct ones (an abstention on an answerable record
  lowers safe resolution exactly as it lowers S).

The *target gain* is the paired change in that metric over every record of the policy's
target layer(s) (the scenarios :data:`simulator.vocabulary.SCENARIO_LAYER` maps there),
with a bootstrap interval (nested by default, crossed on request; docs/intervals.md) whose
design (model units, policy units, kind) the JSON and the Markdown state. Off-target
scenarios are every other scenario, clean included; their change is measured in *both*
metrics, because a control must leave other layers alone in every respect (a policy that
abstains on clean costs S and safe resolution alike). The specificity margin is the target
gain minus the largest absolute off-target change over both metrics
(:func:`simulator.stats.specificity`).

Verdict, first match wins:

1. ``harmful_off_target``: some off-target scenario lost at least one point in either metric;
2. ``no_effect``: the target gain is under one point or its interval reaches zero;
3. ``not_layer_specific``: some off-target scenario moved as much as the target (margin <= 0);
4. ``credited``: the policy is credited for its layer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from policies.base import get_policy
from simulator.errors import UsageError
from simulator.stats import (
    PAIR_ON_ARM,
    BootstrapKind,
    Effect,
    interval_design,
    ordered_scenarios,
    paired_difference,
    specificity,
    target_layer,
)
from simulator.vocabulary import DEFAULT_AGENT

MATERIAL = 0.01
"""One percentage point: smaller changes are neither a gain nor a harm."""
METRICS = ("S", "safe_resolution")
Verdict = Literal["credited", "no_effect", "harmful_off_target", "not_layer_specific"]
VERDICT_TEXT: dict[str, str] = {
    "credited": "credited for its layer",
    "no_effect": "no effect on its layer",
    "harmful_off_target": "harmful off target",
    "not_layer_specific": "not layer-specific",
}


class ScenarioChange(BaseModel):
    """One scenario's paired change with the policy, in both metrics."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    scenario: str
    layer: str
    target: bool
    S: Effect
    safe_resolution: Effect
    claimed: Effect | None = None
    """The change in the policy's own metric when it is neither of the two
    (``disclosure_correct`` for conflict_disclosure), measured off target too: a policy
    that changes what answers say must not say it where it does not belong."""
    claimed_metric: str | None = None
    provider_errors: int = 0
    """Records of both arms here whose call failed: in the pairs, neither S nor safe."""
    agent_errors: int = 0
    """Records of both arms here whose agent under test broke: neither S nor safe."""
    reader_errors: int = 0
    """Records of both arms here whose output was unparseable: neither S nor safe."""

    def effect(self, metric: str) -> Effect:
        if metric == "S":
            return self.S
        if metric == "safe_resolution":
            return self.safe_resolution
        if self.claimed is None or metric != self.claimed_metric:
            raise KeyError(metric)
        return self.claimed

    def metrics(self) -> tuple[str, ...]:
        """The metrics this change was measured in."""
        return METRICS if self.claimed_metric is None else (*METRICS, self.claimed_metric)


class LayerCredit(BaseModel):
    """The credit of one policy: target gain, off-target changes, margin, verdict."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    policy: str
    arm: str
    baseline: str
    contract_mode: str
    target_layers: tuple[str, ...]
    metric: str
    """The claimed outcome the target gain is measured in (S or safe_resolution)."""
    target_scenarios: tuple[str, ...]
    target: Effect
    """Pooled paired change over every record of the target scenarios."""
    scenarios: tuple[ScenarioChange, ...]
    largest_off_target: float
    off_target_where: str | None
    """``scenario/metric`` of the largest absolute off-target change."""
    specificity_margin: float
    verdict: Verdict
    reason: str
    pipeline: str | None = None
    """``paper`` or ``open`` (simulator/agent/pipelines.py); None when not known or when
    the agent is not the pipeline."""
    agent: str = DEFAULT_AGENT
    """The agent the records were made with (simulator/agents/)."""

    @property
    def off_target(self) -> tuple[ScenarioChange, ...]:
        return tuple(c for c in self.scenarios if not c.target)

    def as_json(self) -> dict[str, Any]:
        """The ``layerrag credit --json`` object.

        Every interval carries its design: the top level gives the target interval's
        bootstrap kind, model units, policy units and caveat (None from ten model units up),
        and each scenario's effect its own model and policy units.
        """
        def effect(e: Effect) -> dict[str, Any]:
            return {"estimate": round(e.estimate, 4), "low": round(e.low, 4),
                    "high": round(e.high, 4), "pairs": e.pairs, "model_units": e.model_units,
                    "policy_units": e.policy_units}

        return {
            "policy": self.policy, "target_layers": list(self.target_layers),
            "metric": self.metric, "target_scenarios": list(self.target_scenarios),
            "target_gain": round(self.target.estimate, 4),
            "interval": [round(self.target.low, 4), round(self.target.high, 4)],
            "pairs": self.target.pairs,
            **interval_design(self.target),
            "target": {c.scenario: effect(c.effect(self.metric)) for c in self.scenarios
                       if c.target},
            "off_target": {c.scenario: {m: effect(c.effect(m)) for m in c.metrics()}
                           for c in self.off_target},
            "largest_off_target": round(self.largest_off_target, 4),
            "off_target_where": self.off_target_where,
            "specificity_margin": round(self.specificity_margin, 4),
            "verdict": self.verdict, "reason": self.reason,
            "arm": self.arm, "baseline": self.baseline, "contract_mode": self.contract_mode,
            "pipeline": self.pipeline, "agent": self.agent,
            "provider_errors": {c.scenario: c.provider_errors for c in self.scenarios},
            "agent_errors": {c.scenario: c.agent_errors for c in self.scenarios},
            "reader_errors": {c.scenario: c.reader_errors for c in self.scenarios},
        }


def layer_credit(rows: Sequence[Any], policy: str, *, arm: str | None = None,
                 baseline: str = "uncontrolled", contract_mode: str = "strict",
                 replicates: int = 2000, seed: int = 0,
                 pipeline: str | None = None,
                 bootstrap: BootstrapKind = "nested",
                 metric: str | None = None) -> LayerCredit:
    """The layer credit of ``policy`` from scored rows (RunRecord or ArchiveRow).

    Args:
        rows: records of at least the ``baseline`` arm and the policy's ``arm`` (default: the
            arm named after the policy), over the scenarios to judge; other rows are ignored.
        policy: a registered policy name; its declared layers and claim are used.
        arm: the arm holding the policy alone (default ``policy``).
        baseline: the arm without it.
        contract_mode: the mode to compare in (policies act in strict mode).
        replicates: bootstrap replicates.
        seed: bootstrap seed.
        pipeline: the records' pipeline, reported with the credit.
        bootstrap: ``nested`` (the paper's, default) or ``crossed`` (when several models
            answer the same policy units; docs/intervals.md).
        metric: the target metric instead of the policy's claim: an outcome, or a judge
            score (``judge_retrieval_correctness``) on rows of simulator.judge.rows.
    """
    factory = get_policy(policy)
    arm = arm or policy
    if arm == baseline:
        raise UsageError(f"the policy's arm and the baseline are both {arm!r}")
    metric = metric or factory.credit_metric
    agents = sorted({getattr(row, "agent", DEFAULT_AGENT) for row in rows})
    if len(agents) > 1:
        raise UsageError(f"records of several agents ({', '.join(agents)}): credit one "
                         "agent's run at a time")
    agent = agents[0] if agents else DEFAULT_AGENT
    by_arm: dict[str, dict[str, list[Any]]] = {arm: defaultdict(list), baseline: defaultdict(list)}
    for row in rows:
        if row.contract_mode == contract_mode and row.arm in by_arm:
            by_arm[row.arm][row.scenario].append(row)
    scenarios = ordered_scenarios(set(by_arm[arm]) & set(by_arm[baseline]))
    if not scenarios:
        raise UsageError(f"no {contract_mode}-mode records pair arm {arm!r} with arm "
                         f"{baseline!r}; run both arms, e.g. layerrag run --arms "
                         f"{baseline},{arm} --modes {contract_mode}")
    targets = tuple(s for s in scenarios if target_layer(s) in factory.layers)
    if not targets:
        raise UsageError(f"policy {policy!r} targets {', '.join(factory.layers)}, but the "
                         f"records hold no scenario of that layer ({', '.join(scenarios)})")

    def change(a: Sequence[Any], b: Sequence[Any], m: str) -> Effect:
        return paired_difference(a, b, pair_on=PAIR_ON_ARM, metric=m, replicates=replicates,
                                 seed=seed, bootstrap=bootstrap)

    own = metric not in METRICS
    changes = tuple(
        ScenarioChange(scenario=s, layer=target_layer(s), target=s in targets,
                       **{m: change(by_arm[arm][s], by_arm[baseline][s], m) for m in METRICS},
                       claimed_metric=metric if own else None,
                       claimed=change(by_arm[arm][s], by_arm[baseline][s], metric)
                       if own else None,
                       provider_errors=sum(getattr(r, "provider_error", False) for r in
                                           (*by_arm[arm][s], *by_arm[baseline][s])),
                       agent_errors=sum(getattr(r, "agent_error", False) for r in
                                        (*by_arm[arm][s], *by_arm[baseline][s])),
                       reader_errors=sum(getattr(r, "reader_error", False) for r in
                                         (*by_arm[arm][s], *by_arm[baseline][s])))
        for s in scenarios)
    pooled = change([r for s in targets for r in by_arm[arm][s]],
                    [r for s in targets for r in by_arm[baseline][s]], metric)
    layer_key = "+".join(factory.layers)
    effects = {layer_key: pooled}
    effects.update({f"{c.scenario}/{m}": c.effect(m) for c in changes if not c.target
                    for m in c.metrics()})
    spec = specificity(effects, [layer_key])
    verdict, reason = _verdict(pooled, spec.margin, changes, metric)
    if verdict == "no_effect":
        reason += _stopped_note([r for s in targets for r in by_arm[baseline][s]], pipeline)
    return LayerCredit(
        policy=policy, arm=arm, baseline=baseline, contract_mode=contract_mode,
        target_layers=factory.layers, metric=metric, target_scenarios=targets, target=pooled,
        scenarios=changes, largest_off_target=spec.largest_off_target,
        off_target_where=spec.off_target_scenario, specificity_margin=spec.margin,
        verdict=verdict, reason=reason,
        pipeline=pipeline if agent == DEFAULT_AGENT else None, agent=agent)


def _verdict(target: Effect, margin: float, changes: Sequence[ScenarioChange],
             metric: str) -> tuple[Verdict, str]:
    harmed = [(c.scenario, m, c.effect(m).estimate) for c in changes if not c.target
              for m in c.metrics() if c.effect(m).estimate <= -MATERIAL]
    if harmed:
        worst = min(harmed, key=lambda h: h[2])
        return "harmful_off_target", (f"{worst[0]} lost {-worst[2] * 100:.1f} points of "
                                      f"{worst[1]}")
    gain = f"{target.estimate * 100:+.1f} points of {metric}"
    if target.estimate < MATERIAL or target.low <= 0:
        return "no_effect", (f"target gain {gain}, interval [{target.low * 100:.1f}, "
                             f"{target.high * 100:.1f}]")
    if margin <= 0:
        return "not_layer_specific", (f"target gain {gain}, but an off-target scenario moved "
                                      f"as much (margin {margin * 100:.1f} points)")
    return "credited", f"target gain {gain}, specificity margin {margin * 100:.1f} points"


def _stopped_note(baseline_rows: Sequence[Any], pipeline: str | None) -> str:
    """Why a policy may find nothing to do: the baseline never built a prompt.

    A record without a prompt hash ended before the reader (in the ``uncontrolled`` arm of
    the paper pipeline, by the pipeline's own stop), so no policy can change its outcome.
    """
    stopped = sum(1 for r in baseline_rows if getattr(r, "prompt_hash", "") is None)
    if not stopped:
        return ""
    note = (f"; the baseline ended {stopped} of {len(baseline_rows)} target records before "
            "any prompt, leaving the policy nothing to change")
    if pipeline != "open":
        note += " (the paper pipeline stops there by itself: measure with --pipeline open)"
    return note
