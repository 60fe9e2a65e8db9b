"""The episode's typed state: every field declared once for the episode and its updates."""

from __future__ import annotations

import asyncio

from simulator.agent import steps
from simulator.agent.graph import build_agent_graph, run_episodes
from simulator.agent.state import Episode, EpisodeUpdate
from simulator.agent.trace import PolicyStep
from simulator.corpus import Corpus
from simulator.runner.cells import Cell, MatrixRunner
from simulator.runner.config import RunConfig
from simulator.runner.live_episode import run_episode


def test_an_update_may_set_exactly_the_fields_of_an_episode_with_the_same_types() -> None:
    assert EpisodeUpdate.__annotations__ == Episode.__annotations__
    assert Episode.__required_keys__ == frozenset(Episode.__annotations__)
    assert not EpisodeUpdate.__required_keys__
    assert steps.ACCUMULATE <= Episode.__required_keys__


def test_a_new_episode_sets_every_field_and_waits_for_retrieval(corpus: Corpus) -> None:
    episode = steps.initial_episode(corpus.tasks[0])
    assert frozenset(episode) == Episode.__required_keys__
    assert episode["next"] == "retrieve" and episode["question"] == corpus.tasks[0].question


def test_merge_appends_the_accumulating_fields_replaces_the_rest_and_copies(
        corpus: Corpus) -> None:
    episode = steps.initial_episode(corpus.tasks[0])
    first = PolicyStep(policy="p", action="retry", reason="again")
    once = steps.merge(episode, {"policy_steps": [first], "notes": ["a"], "next": "retrieve"})
    twice = steps.merge(once, {"policy_steps": [first], "notes": ["b"], "next": "contract"})
    assert twice["policy_steps"] == [first, first] and twice["notes"] == ["b"]
    assert twice["next"] == "contract"
    assert episode["policy_steps"] == [] and once["policy_steps"] == [first]


def test_the_live_step_runner_finishes_an_episode_as_the_graph_does(corpus: Corpus) -> None:
    scenarios = ("clean", "schema_drift", "permission_denied")
    runner = MatrixRunner(RunConfig(scenarios=scenarios), corpus)
    contexts = [runner.context(Cell("deterministic", s, "strict", "uncontrolled",
                                    corpus.tasks[row], corpus.labels[row]))
                for s in scenarios for row in range(3)]
    via_graph = run_episodes(build_agent_graph(), contexts)
    via_steps = [asyncio.run(run_episode(ctx)) for ctx in contexts]
    assert via_steps == via_graph
