"""Arms named on the command line: ``name``, ``a+b`` or ``name=policy_a+policy_b``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from policies.arms import add_arm, arm_policies, arms, get_arm
from simulator.errors import UsageError


def register_cli_arms(specs: tuple[str, ...]) -> tuple[str, ...]:
    """Register every ``name=a+b`` arm, check every name, and return the arm names in order.

    Redefining an existing arm with other policies is refused rather than silently ignored.
    """
    names = []
    for spec in specs:
        name, sep, body = spec.partition("=")
        name = name.strip()
        if sep:
            wanted = tuple(p.strip() for p in body.split("+"))
            if not name or not all(wanted):
                raise UsageError(f"--arms {spec!r}: an empty {'name' if not name else 'policy'}"
                                 "; write an arm as NAME=POLICY+POLICY, e.g. "
                                 "mine=bounded_retry+session_isolation")
            if name in arms:
                if arm_policies(name) != wanted:
                    raise UsageError(f"arm {name!r} already exists as "
                                     f"{'+'.join(arm_policies(name)) or 'no policies'}; "
                                     f"choose another name for {'+'.join(wanted)}")
            else:
                add_arm(name, wanted)
        else:
            get_arm(name)
        names.append(name)
    if len(set(names)) != len(names):
        raise UsageError(f"--arms names an arm twice: {', '.join(names)}")
    return tuple(names)


def register_run_arms(definitions: Mapping[str, Sequence[str]]) -> None:
    """Register the named arms a run's manifest recorded (``mine`` -> bounded_retry,
    session_isolation), so a later command can name them: ``credit --arm mine``,
    ``run --arms uncontrolled,mine`` to resume.

    Built-in arms, single policies and ``a+b`` names resolve on their own and are checked,
    not re-registered; a name this process already holds with other policies is refused.
    """
    for name, wanted in definitions.items():
        policies = tuple(wanted)
        if name in arms:
            if arm_policies(name) != policies:
                raise UsageError(f"arm {name!r} is {'+'.join(policies) or 'no policies'} in "
                                 f"this run but {'+'.join(arm_policies(name)) or 'no policies'}"
                                 " here; choose another name")
        elif "+".join(policies) == name or (len(policies) == 1 and policies[0] == name):
            get_arm(name)
        else:
            add_arm(name, policies)
