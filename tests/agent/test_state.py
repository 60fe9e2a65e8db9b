"""The episode's typed state: every field declared once for the episode and its updates."""

from __future__ import annotations

import asyncio
import dataclasses

from simulator.agent import steps
from simulator.agent.graph import arun_episodes, build_agent_graph, run_episodes
from simulator.agent.state import AgentContext, Episode, EpisodeUpdate
from simulator.agent.trace import PolicyStep
from simulator.corpus import Corpus
from simulator.readers.base import Reader, ReaderInput, ReaderResult
from simulator.runner.cells import Cell, MatrixRunner
from simulator.runner.config import RunConfig


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


class _AwaitingReader:
    """The deterministic reader behind an ``aread`` that yields to the loop, as a chat
    reader's provider call does; it counts how many calls are in flight at once."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.name, self.provider = reader.name, reader.provider
        self.template_version = reader.template_version
        self.in_flight = self.most_in_flight = 0

    def read(self, item: ReaderInput) -> ReaderResult:
        raise AssertionError("under ainvoke the generate node must await aread")

    async def aread(self, item: ReaderInput) -> ReaderResult:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return self.reader.read(item)


def _contexts(corpus: Corpus) -> list[AgentContext]:
    scenarios = ("clean", "schema_drift", "permission_denied")
    runner = MatrixRunner(RunConfig(scenarios=scenarios), corpus)
    return [runner.context(Cell("deterministic", s, "strict", "uncontrolled",
                                corpus.tasks[row], corpus.labels[row]))
            for s in scenarios for row in range(3)]


def test_a_reader_that_awaits_gets_the_same_episodes_from_the_same_graph(
        corpus: Corpus) -> None:
    contexts = _contexts(corpus)
    graph = build_agent_graph()
    blocking = run_episodes(graph, contexts)
    awaiting = _AwaitingReader(contexts[0].reader)
    live = [dataclasses.replace(ctx, reader=awaiting) for ctx in contexts]

    async def one_ainvoke_per_episode() -> list[Episode]:
        runs = [arun_episodes(graph, [ctx]) for ctx in live]
        return [episode for (episode,) in await asyncio.gather(*runs)]

    assert asyncio.run(one_ainvoke_per_episode()) == blocking
    assert awaiting.most_in_flight > 1  # the episodes' reader calls overlapped


def test_a_batch_awaits_its_readers_together(corpus: Corpus) -> None:
    contexts = _contexts(corpus)
    awaiting = _AwaitingReader(contexts[0].reader)
    live = [dataclasses.replace(ctx, reader=awaiting) for ctx in contexts]
    prompted = sum(e["reader_result"] is not None
                   for e in run_episodes(build_agent_graph(), contexts))
    assert asyncio.run(arun_episodes(build_agent_graph(), live)) == run_episodes(
        build_agent_graph(), contexts)
    assert awaiting.most_in_flight == prompted > 1


def test_the_blocking_form_works_inside_a_running_event_loop(corpus: Corpus) -> None:
    contexts = _contexts(corpus)[:2]
    expected = run_episodes(build_agent_graph(), contexts)

    async def from_async_code() -> list[Episode]:
        return run_episodes(build_agent_graph(), contexts)  # e.g. a notebook cell

    assert asyncio.run(from_async_code()) == expected
