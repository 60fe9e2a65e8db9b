"""Mitigation policies and the arms built from them.

A policy is a registered factory (``@policy(layers=..., claims=...)``) returning a decide
function for the agent's policy gate; an arm is a named, ordered list of policies.
``uncontrolled`` (no policy) and ``controlled`` (every built-in control but those in
``OUTSIDE_CONTROLLED``) are built in.
"""

from policies import controls  # noqa: F401  (importing registers the built-in controls)
from policies.arms import (
    CONTROLLED_POLICIES,
    OUTSIDE_CONTROLLED,
    add_arm,
    arm_policies,
    arms,
    get_arm,
)
from policies.base import (
    CLAIM_METRIC,
    LAYERS,
    Claim,
    Layer,
    Policy,
    PolicyFactory,
    get_policy,
    policies,
    policy,
)
from policies.gate import ArmGate, build_arm

__all__ = [
    "CLAIM_METRIC", "CONTROLLED_POLICIES", "LAYERS", "OUTSIDE_CONTROLLED", "ArmGate", "Claim",
    "Layer", "Policy",
    "PolicyFactory", "add_arm", "arm_policies", "arms", "build_arm", "get_arm", "get_policy",
    "policies", "policy",
]
