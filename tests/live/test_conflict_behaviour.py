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
