"""A resumed run must be the same run: a scenario, fault or agent factory redefined under
the same name is refused as "a different configuration", not resumed into mixed records.

Each test runs a real command twice in a subprocess (so the plugin's registrations never
join this process), changing the plugin's file in between.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--spec", str(TINY_SPEC), "--tasks", "2", "--modes", "strict", "--no-progress",
         "--format", "none"]

PLUGIN = '''
from middleware import FaultSpec, Scenario, add_scenario
add_scenario(Scenario(name="mine", layer="completeness", answerable=False,
                      faults=(FaultSpec(name="partial_timeout", params={PARAMS}),),
                      description="a plugin's scenario"))
'''

AGENT = '''
from simulator.agents.react import build_react_agent

def build(model, tools, middleware):
    """A user's agent."""  # {MARK}
    return build_react_agent(model, tools, middleware)
'''


def layerrag(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(cwd), str(ROOT)))}
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


def test_a_scenario_redefined_with_other_fault_parameters_is_refused(tmp_path: Path) -> None:
    plugin = tmp_path / "my_scenarios.py"
    plugin.write_text(PLUGIN.replace("{PARAMS}", "{'timeout_probability': 0.5}"))
    argv = ["run", "--out", str(tmp_path / "run"), "--plugin", "my_scenarios",
            "--scenarios", "mine", *SMALL]
    first = layerrag(tmp_path, *argv)
    assert first.returncode == 0, first.stderr
    assert layerrag(tmp_path, *argv).returncode == 0  # unchanged: resumes
    plugin.write_text(PLUGIN.replace("{PARAMS}", "{'timeout_probability': 0.9}"))
    again = layerrag(tmp_path, *argv)
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1
    assert "different configuration (scenario 'mine'" in again.stderr


def test_an_agent_factory_whose_source_changed_is_refused(tmp_path: Path) -> None:
    agent = tmp_path / "my_agent.py"
    agent.write_text(AGENT.replace("{MARK}", "v1"))
    argv = ["run", "--out", str(tmp_path / "run"), "--agent", "my_agent:build",
            "--scenarios", "clean", *SMALL]
    first = layerrag(tmp_path, *argv)
    assert first.returncode == 0, first.stderr
    agent.write_text(AGENT.replace("{MARK}", "v2"))
    again = layerrag(tmp_path, *argv)
    assert again.returncode == 2, again.stderr
    assert "different configuration (agent 'my_agent:build'" in again.stderr


def test_the_definitions_of_built_in_scenarios_name_their_fault_parameters() -> None:
    from simulator.runner.identity import scenario_definition

    (fault,) = scenario_definition("partial_timeout")["faults"]
    assert fault["name"] == "partial_timeout" and fault["parameters"]
    assert "code" not in fault  # layerrag's own code: identified by its version
