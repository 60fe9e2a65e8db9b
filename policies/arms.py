"""Arms: named lists of policies. ``uncontrolled`` (none) and ``controlled`` (all) are built in.

Any registered policy is also an arm of that one policy (``--arms uncontrolled,session_isolation``),
and ``a+b`` names the arm of policies a then b. Users register their own arms in Python with
:func:`add_arm`, or on the command line as ``name=a+b`` (:mod:`policies.compose`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from policies import controls  # noqa: F401  (registers the built-in controls)
from policies.base import Policy, PolicyFactory, policies
from policies.gate import ArmGate, build_arm
from simulator.agent.gate import UNCONTROLLED, PolicyGate
from simulator.errors import UsageError
from simulator.registry import Registry

CONTROLLED_POLICIES: tuple[str, ...] = (
    "schema_repair", "bounded_retry", "access_aware_abstention", "session_isolation",
    "evidence_gate", "freshness_check", "metadata_integrity",
)
"""The controlled arm, in gate order: repair the contract, retry what timed out, then the
non-answer controls (denial, session, completeness, freshness), then metadata correction."""

OUTSIDE_CONTROLLED: tuple[str, ...] = ("conflict_disclosure", "evidence_integrity")
"""Built-in policies the controlled arm leaves out, because they trade one outcome for
another rather than repair a layer: conflict_disclosure's guiding prompt turns resolved
conflicts into clarification requests and raises false alarms on clean records (its credit
measures the trade-off; run it as its own arm). evidence_integrity is left out so the
controlled arm, and every run of it, stays what it was; its layer is opt-in (misleading_*)."""

ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$")
"""What an arm may be called: an archive identifier."""

arms: Registry[PolicyGate] = Registry("arm")
arms.add("uncontrolled", UNCONTROLLED)
arms.add("controlled", build_arm("controlled", CONTROLLED_POLICIES))


def add_arm(name: str, policy_names: Sequence[str | Policy | PolicyFactory]) -> ArmGate:
    """Register arm ``name`` of these policies, in order; an existing name is refused."""
    if name in arms:
        raise UsageError(f"arm {name!r} already exists; choose another name")
    if not ARM_NAME.match(name):
        raise UsageError(f"arm name {name!r} must be letters, digits and ._:/@+- (it is "
                         "stored in archives as an identifier)")
    gate = build_arm(name, policy_names)
    arms.add(name, gate)
    return gate


def arm_policies(name: str) -> tuple[str, ...]:
    """The policy names of arm ``name`` (empty for uncontrolled)."""
    gate = get_arm(name)
    return gate.policy_names if isinstance(gate, ArmGate) else ()


def get_arm(name: str) -> PolicyGate:
    """Look up an arm: a registered arm, a policy name, or ``a+b`` (built on first use)."""
    if name in arms:
        return arms.get(name)
    parts = [p.strip() for p in name.split("+")]
    unknown = [p for p in parts if p not in policies]
    if not unknown:
        return arms.add(name, build_arm(name, parts))
    if len(parts) > 1:
        close = difflib.get_close_matches(unknown[0], policies.names(), n=1, cutoff=0.5)
        hint = f" Did you mean: {close[0]}?" if close else ""
        raise UsageError(f"Unknown policy {unknown[0]!r} in arm {name!r}.{hint} "
                         f"Policies: {', '.join(policies.names())}.")
    close = difflib.get_close_matches(name, [*arms.names(), *policies.names()], n=1,
                                      cutoff=0.5)
    hint = f" Did you mean: {close[0]}?" if close else ""
    raise UsageError(f"Unknown arm {name!r}.{hint} Arms: {', '.join(arms.names())}; or a "
                     f"policy name, or policies joined by '+' "
                     f"({', '.join(policies.names())}).")
