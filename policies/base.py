"""The policy registry and the ``@policy(layers=...)`` decorator.

A mitigation policy is a small factory: its keyword arguments configure it, it checks them at
once, and it returns a *decide* function ``GateInput -> Decision`` that the agent's policy gate
calls after every tool call. The decorator registers it under its function name with the
operational layer(s) it claims to repair and the outcome it claims to improve, which is what
``layerrag credit`` measures it on.

Two kinds of claim, so credit is honest about what a control can do:

- ``claims="answer"``: the control restores usable evidence (a repaired contract, a retried
  call, corrected metadata). It must turn failures into correct answers: credited on strict
  success ``S``.
- ``claims="non_answer"``: the control withholds an answer (abstain, reject). It cannot make
  a wrong-session or stale answer correct; it must turn unsafe answers into structured
  non-answers without costing correct ones: credited on ``safe_resolution``.
- ``claims="disclosure"``: the control changes what an answer *says* about its evidence
  (conflict_disclosure): credited on ``disclosure_correct`` (a conflict acknowledged where
  there is one, no false alarm where there is none; simulator/scoring/behaviour.py).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from simulator.agent.gate import Decision, GateInput
from simulator.registry import Registry, check_parameters
from simulator.vocabulary import MITIGATION_LAYERS as LAYERS
from simulator.vocabulary import MitigationLayer as Layer

Claim = Literal["answer", "non_answer", "disclosure"]
CLAIM_METRIC: dict[Claim, str] = {"answer": "S", "non_answer": "safe_resolution",
                                  "disclosure": "disclosure_correct"}
"""The record outcome each kind of claim is credited on."""

Decide = Callable[[GateInput], Decision]


@dataclass(frozen=True)
class Policy:
    """A configured policy: its name, target layers, claim, and decide function."""

    name: str
    layers: tuple[Layer, ...]
    claims: Claim
    decide: Decide
    contract_override: str | None = None
    """``"repair"`` when the policy takes over the agent's contract step (schema_repair)."""
    params: dict[str, Any] = field(default_factory=dict)

    def __call__(self, state: GateInput) -> Decision:
        """Decide, and stamp the decision with this policy's name for the trace."""
        return self.decide(state)._replace(policy=self.name)

    @property
    def credit_metric(self) -> str:
        return CLAIM_METRIC[self.claims]


@dataclass(frozen=True)
class PolicyFactory:
    """A registered policy: call it with parameters to build a :class:`Policy`."""

    name: str
    layers: tuple[Layer, ...]
    claims: Claim
    factory: Callable[..., Decide]
    description: str
    contract_override: str | None = None

    def __call__(self, **params: Any) -> Policy:
        check_parameters("policy", self.name, self.factory, params)
        return Policy(name=self.name, layers=self.layers, claims=self.claims,
                      decide=self.factory(**params), contract_override=self.contract_override,
                      params=dict(params))

    @property
    def credit_metric(self) -> str:
        return CLAIM_METRIC[self.claims]


policies: Registry[PolicyFactory] = Registry("policy")


def policy(*, layers: Layer | tuple[Layer, ...], claims: Claim,
           contract_override: str | None = None
           ) -> Callable[[Callable[..., Decide]], PolicyFactory]:
    """Register a policy factory under its function name, with its layers and claim."""
    wanted = (layers,) if isinstance(layers, str) else tuple(layers)
    bad = [layer for layer in wanted if layer not in LAYERS]
    if not wanted or bad:
        raise ValueError(f"policy layers must be among {', '.join(LAYERS)}; got {wanted!r}")
    if claims not in CLAIM_METRIC:
        raise ValueError(f"claims must be one of {', '.join(CLAIM_METRIC)}, got {claims!r}")

    def register(factory: Callable[..., Decide]) -> PolicyFactory:
        doc = inspect.getdoc(factory) or ""
        entry = PolicyFactory(name=factory.__name__, layers=wanted, claims=claims,
                              factory=factory, description=doc.splitlines()[0] if doc else "",
                              contract_override=contract_override)
        return policies.add(entry.name, entry)

    return register


def get_policy(name: str) -> PolicyFactory:
    """The registered policy ``name``; a typo is a UsageError with a suggestion.

    The built-in controls are registered by importing the ``policies`` package, which
    Python does before this module, so they are always there."""
    return policies.get(name)


def allow(reason: str, evidence: Any = None) -> Decision:
    """An allow decision (the policy name is stamped by :class:`Policy`)."""
    return Decision("allow", reason, evidence=evidence)
