"""Lists kept by hand that must follow the modules: every fault and policy module is in its
import-linter independence contract (pyproject.toml), is imported (so registered) by its
package, and registers under its module's name."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"middleware.faults": ("Faults are independent", {"base"}),
            "policies.controls": ("Policies are independent", set())}


def modules_of(package: str, skip: set[str]) -> set[str]:
    folder = ROOT.joinpath(*package.split("."))
    return {f"{package}.{p.stem}" for p in folder.glob("*.py")
            if p.stem != "__init__" and not p.stem.startswith("_") and p.stem not in skip}


def contract(name_starts: str) -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (found,) = [c for c in config["tool"]["importlinter"]["contracts"]
                if c["name"].startswith(name_starts)]
    assert found["type"] == "independence"
    return set(found["modules"])


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_module_is_in_its_independence_contract(package: str) -> None:
    title, skip = PACKAGES[package]
    assert modules_of(package, skip) == contract(title)


def test_every_fault_module_registers_its_own_name() -> None:
    from middleware.faults import faults

    assert {f"middleware.faults.{n}" for n in faults.names()} >= modules_of(
        "middleware.faults", {"base"})
    for name in faults.names():
        factory = faults.get(name).factory
        if factory.__module__.startswith("middleware.faults."):
            assert factory.__module__ == f"middleware.faults.{name}"


def test_every_policy_module_registers_its_own_name() -> None:
    from policies.base import policies

    for module in modules_of("policies.controls", set()):
        assert module.rsplit(".", 1)[1] in policies.names()
