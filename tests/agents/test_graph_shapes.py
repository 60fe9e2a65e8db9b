"""The tools carry the harness: a hand-built StateGraph + ToolNode, the functional API
(``@entrypoint`` / ``@task``) and a plain Python loop, none of which installs the middleware
list, are faulted and recorded like ``react`` (issue 26)."""

from __future__ import annotations

import pytest

from simulator.testing import evaluate
from simulator.vocabulary import SCENARIO_NAMES as SCENARIOS

SHAPES = "tests.agents.graph_shapes"


def _by_scenario(agent: str) -> dict[str, tuple[float, int]]:
    records = evaluate(agent, scenarios=SCENARIOS, modes=("strict",), tasks=24).records
    out: dict[str, tuple[float, int]] = {}
    for scenario in SCENARIOS:
        rows = [r for r in records if r.scenario == scenario]
        out[scenario] = (sum(r.S for r in rows) / len(rows),
                         sum(bool(r.trace["tool_calls"]) for r in rows))
    return out


@pytest.mark.parametrize("shape", ["hand_built", "plain_loop", "functional"])
def test_a_graph_without_the_middleware_is_faulted_and_recorded_like_react(shape: str
                                                                         ) -> None:
    react, custom = _by_scenario("react"), _by_scenario(f"{SHAPES}:{shape}")
    assert custom["stale_index"][0] == 0.0 and custom["permission_denied"][0] == 0.0
    assert custom["clean"][0] > 0.5
    for scenario in SCENARIOS:
        assert custom[scenario][1] == 24, scenario  # every record carries its tool calls
        assert abs(custom[scenario][0] - react[scenario][0]) <= 0.05, scenario
