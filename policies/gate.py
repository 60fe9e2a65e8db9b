"""An arm's gate: its policies run in order on every evidence state the agent reaches.

The first policy that does not allow decides (abstain, reject or retry); an allowing policy
may replace the evidence, and later policies see the replacement. Every policy that ran is
returned, so each one's step is in the trace. An arm containing ``schema_repair`` carries
``contract_override = "repair"``: the graph's contract step then repairs.
"""

from __future__ import annotations

from collections.abc import Sequence

from policies.base import Policy, PolicyFactory, get_policy
from simulator.agent.gate import Decision, GateInput
from simulator.errors import UsageError


class ArmGate:
    """A named, ordered list of policies acting as the agent's policy gate."""

    def __init__(self, name: str, policies: Sequence[Policy]) -> None:
        self.name = name
        self.policies: tuple[Policy, ...] = tuple(policies)
        overrides = {p.contract_override for p in self.policies} - {None}
        if len(overrides) > 1:
            raise UsageError(f"arm {name!r}: policies override the contract step in "
                             f"different ways ({', '.join(sorted(map(str, overrides)))})")
        self.contract_override: str | None = next(iter(overrides), None)

    @property
    def policy_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.policies)

    def __call__(self, state: GateInput) -> list[Decision]:
        decisions: list[Decision] = []
        current = state
        for policy in self.policies:
            decision = policy(current)
            decisions.append(decision)
            if decision.action != "allow":
                break
            if decision.evidence is not None:
                current = current.model_copy(update={"evidence": tuple(decision.evidence)})
        return decisions or [Decision("allow", "arm without policies", policy=self.name)]

    def __repr__(self) -> str:
        return f"ArmGate({self.name!r}, {'+'.join(self.policy_names) or 'none'})"


def resolve_policy(item: str | Policy | PolicyFactory) -> Policy:
    """A Policy from a registered name, a factory (default parameters) or a built policy."""
    if isinstance(item, Policy):
        return item
    if isinstance(item, PolicyFactory):
        return item()
    return get_policy(item.strip())()


def build_arm(name: str, policy_names: Sequence[str | Policy | PolicyFactory]) -> ArmGate:
    """An arm from policy names (or built policies), in order; typos get a suggestion."""
    if not policy_names:
        raise UsageError(f"arm {name!r} lists no policies; use 'uncontrolled' for none")
    built = [resolve_policy(p) for p in policy_names]
    seen: set[str] = set()
    for policy in built:
        if policy.name in seen:
            raise UsageError(f"arm {name!r} lists policy {policy.name!r} twice")
        seen.add(policy.name)
    return ArmGate(name, built)
