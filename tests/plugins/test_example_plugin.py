"""The example plugin (examples/plugin.py) loads both ways: ``--plugin`` and an entry point.

Both run the real command in a subprocess, so the plugin's fault, policy and scenario never
join the registries of the test process (other tests iterate over every registered fault).
The entry-point test installs a distribution the honest way a package manager would: a
``*.dist-info`` directory (METADATA and entry_points.txt) on the path, which
:func:`importlib.metadata.entry_points` reads like any installed package's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.errors import UsageError
from simulator.plugins import load_plugins
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--spec", str(TINY_SPEC), "--tasks", "2", "--modes", "strict", "--no-progress"]


def layerrag(*argv: str, path: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (*path, ROOT)))}
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def installed_plugin(site: Path) -> Path:
    """A distribution declaring examples.plugin under every group it registers in."""
    info = site / "layerrag_example_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: layerrag-example-plugin\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[layerrag.faults]\ntop_hit_lost = examples.plugin\n\n"
        "[layerrag.policies]\nsame_user_only = examples.plugin\n\n"
        "[layerrag.scenarios]\ntop_hit_lost = examples.plugin\n")
    return site


def fault_names(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 0, result.stderr
    return [e["name"] for e in json.loads(result.stdout)]


def test_without_the_plugin_its_fault_is_unknown() -> None:
    assert "top_hit_lost" not in fault_names(layerrag("list", "faults", "--json"))


def test_plugin_option_registers_the_example_fault() -> None:
    names = fault_names(layerrag("list", "faults", "--json", "--plugin", "examples.plugin"))
    assert "top_hit_lost" in names


def test_an_installed_entry_point_registers_the_example_fault(tmp_path: Path) -> None:
    site = installed_plugin(tmp_path / "site")
    assert "top_hit_lost" in fault_names(layerrag("list", "faults", "--json", path=(site,)))


def test_the_plugin_fault_runs_through_the_plugin_option(tmp_path: Path) -> None:
    result = layerrag("run", "--out", str(tmp_path / "r"), "--plugin", "examples.plugin",
                      "--scenarios", "top_hit_lost", "--format", "json", *SMALL)
    assert result.returncode == 0, result.stderr
    assert "2 records written" in result.stderr


def test_the_plugin_fault_and_policy_run_through_an_entry_point(tmp_path: Path) -> None:
    site = installed_plugin(tmp_path / "site")
    result = layerrag("run", "--out", str(tmp_path / "r"), "--scenarios", "top_hit_lost",
                      "--arms", "uncontrolled,mine=bounded_retry+same_user_only",
                      "--format", "none", *SMALL, path=(site,))
    assert result.returncode == 0, result.stderr
    assert "4 records written" in result.stderr


def test_the_documented_arm_of_a_plugin_policy_is_accepted(tmp_path: Path) -> None:
    """docs/policies.md: ``--arms mine=bounded_retry+same_user_only``."""
    result = layerrag("run", "--out", str(tmp_path / "r"), "--plugin", "examples.plugin",
                      "--scenarios", "wrong_session",
                      "--arms", "uncontrolled,mine=bounded_retry+same_user_only",
                      "--format", "none", *SMALL)
    assert result.returncode == 0, result.stderr


def test_a_plugin_that_cannot_be_imported_is_one_line_naming_it() -> None:
    result = layerrag("list", "--plugin", "examples.no_such_plugin")
    assert result.returncode == 2
    assert result.stderr.startswith("error: --plugin 'examples.no_such_plugin'")
    assert result.stderr.count("\n") == 1


def test_a_broken_entry_point_is_a_usage_error_naming_it() -> None:
    from importlib.metadata import EntryPoint

    broken = EntryPoint(name="broken", value="examples.no_such_plugin",
                        group="layerrag.faults")

    def discover(group: str) -> list[EntryPoint]:
        return [broken] if group == "layerrag.faults" else []

    with pytest.raises(UsageError, match="'broken' in group 'layerrag.faults'"):
        load_plugins(discover=discover)


EVALUATE = """
from simulator.testing import evaluate
result = evaluate(agent={agent!r}, scenarios=["top_hit_lost"], modes=["strict"], tasks=2,
                  plugins={plugins!r})
print(len(result.select(scenario="top_hit_lost")))
"""


def evaluate_in_subprocess(plugins: list[str], path: tuple[Path, ...] = (),
                           agent: str = "react") -> subprocess.CompletedProcess[str]:
    code = EVALUATE.format(agent=agent, plugins=plugins)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (*path, ROOT)))}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_evaluate_loads_a_local_plugin_as_the_plugin_option_does() -> None:
    result = evaluate_in_subprocess(["examples.plugin"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2"]


def test_evaluate_loads_installed_entry_points(tmp_path: Path) -> None:
    result = evaluate_in_subprocess([], path=(installed_plugin(tmp_path / "site"),),
                                    agent="pipeline")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2"]


def test_evaluate_without_the_plugin_refuses_its_scenario() -> None:
    result = evaluate_in_subprocess([])
    assert result.returncode != 0
    assert "top_hit_lost" in result.stderr
