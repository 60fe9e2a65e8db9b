"""A live run against the loopback fake provider: ConInstruct labels from scripted answers.

The fake answers each conflicting_evidence prompt with the deterministic reader's value and
a scripted disclosure (none, a clarification request, a resolution), so the labels the scorer
gives are the behaviour the "model" showed: B1, B2, B3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simulator.live.options import LiveOptions
from simulator.runner.config import RunConfig
from simulator.runner.live import run_live_matrix
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.conftest import FAST_RETRY
from tests.live.fake_provider import Answer, FakeProvider, Request, extractive_answer

Script = Callable[[dict[str, Any]], dict[str, Any]]


def silent(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "conflict": {"noticed": False, "resolution": "none", "note": None}}


def asks(found: dict[str, Any]) -> dict[str, Any]:
    return {"answer": None, "citations": [], "abstain": True,
            "reason": "two versions disagree; which applies?",
            "conflict": {"noticed": True, "resolution": "clarify",
                         "note": "two versions of the policy state different values"}}


def resolves(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "conflict": {"noticed": True, "resolution": "resolved",
                                  "note": "followed the newest effective year"}}


def behaviours(tmp_path: Path, script: Script) -> Counter[str | None]:
    def handler(request: Request) -> Answer:
        return Answer(value=script(extractive_answer(request)))

    with FakeProvider(handler=handler) as fake:
        config = RunConfig(models=("openai:m1",), spec=str(TINY_SPEC),
                           base_url=fake.url, scenarios=("conflicting_evidence",),
                           modes=("strict",))
        run_live_matrix(config, tmp_path / script.__name__,
                        options=LiveOptions(concurrency=4, timeout_s=2.0, retry=FAST_RETRY,
                                            cache=None),
                        progress=False, sleep=lambda _: None)
    with RunStore(tmp_path / script.__name__, create=False) as store:
        return Counter(r.behaviour for r in store.records())


@pytest.mark.parametrize(("script", "label"), [(silent, "B1"), (asks, "B2"), (resolves, "B3")])
def test_scripted_disclosures_are_labelled_as_the_behaviour_they_show(
        tmp_path: Path, script: Script, label: str, canary_keys: dict) -> None:
    found = behaviours(tmp_path, script)
    assert found[label] == sum(found.values()) > 0, found


def test_credit_measures_the_guiding_prompts_gain_and_its_false_alarms_live(
        tmp_path: Path, canary_keys: dict) -> None:
    """A "model" that discloses nothing unless told to (ConInstruct's finding) and, told,
    asks whenever versions differ: conflict_disclosure gains on the evidence layer and
    pays in false alarms on clean records."""
    from simulator.evaluation import layer_credit
    from simulator.readers.conflict import GUIDING_PROMPT

    def handler(request: Request) -> Answer:
        found = extractive_answer(request)  # follows the guiding prompt when it is given
        return Answer(value=found if GUIDING_PROMPT in request.prompt else silent(found))

    with FakeProvider(handler=handler) as fake:
        config = RunConfig(models=("openai:m1",), spec=str(TINY_SPEC), base_url=fake.url,
                           scenarios=("clean", "conflicting_evidence"), modes=("strict",),
                           arms=("uncontrolled", "conflict_disclosure"))
        run_live_matrix(config, tmp_path / "run",
                        options=LiveOptions(concurrency=4, timeout_s=2.0, retry=FAST_RETRY,
                                            cache=None),
                        progress=False, sleep=lambda _: None)
    with RunStore(tmp_path / "run", create=False) as store:
        rows = list(store.records())
    credit = layer_credit(rows, "conflict_disclosure", replicates=200).as_json()
    assert credit["target_gain"] > 0.5 and credit["interval"][0] > 0
    assert credit["off_target"]["clean"]["disclosure_correct"]["estimate"] < 0
    assert credit["verdict"] == "harmful_off_target"
