"""Source-priority instructions (RAG-Stress) against the loopback provider: the chosen text
reaches every reader prompt, changes the run id, and a strict and a soft run report MR by
position and instruction, with the strict - soft contrast."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.live.options import LiveOptions
from simulator.report.build import report_from_runs
from simulator.report.render import render
from simulator.runner.config import RunConfig
from simulator.runner.live import run_live_matrix
from simulator.vocabulary import SCENARIO_GROUPS, SOURCE_PRIORITY_INSTRUCTIONS
from tests.conftest import TINY_SPEC
from tests.live.conftest import FAST_RETRY
from tests.live.fake_provider import FakeProvider


def _config(fake: FakeProvider, priority: str | None) -> RunConfig:
    return RunConfig(models=("openai:m1",), spec=str(TINY_SPEC), base_url=fake.url,
                     scenarios=SCENARIO_GROUPS["misleading"], modes=("strict",),
                     source_priority=priority)


def _run(fake: FakeProvider, tmp_path: Path, priority: str | None, sleeps: list[float]
         ) -> Path:
    out = tmp_path / (priority or "none")
    options = LiveOptions(concurrency=4, timeout_s=2.0, retry=FAST_RETRY,
                          cache=tmp_path / f"calls-{priority}.sqlite")
    summary = run_live_matrix(_config(fake, priority), out, options=options, progress=False,
                              sleep=sleeps.append)
    assert summary.stopped is None and summary.written == summary.total
    return out


@pytest.mark.parametrize("priority", ["strict", "soft"])
def test_the_instruction_text_reaches_every_prompt(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict,
        priority: str) -> None:
    _run(fake, tmp_path, priority, sleeps)
    prompts = [r.prompt for r in fake.calls]
    other = "soft" if priority == "strict" else "strict"
    assert prompts and all(SOURCE_PRIORITY_INSTRUCTIONS[priority] in p for p in prompts)
    assert not any(SOURCE_PRIORITY_INSTRUCTIONS[other] in p for p in prompts)


def test_without_the_option_no_prompt_carries_an_instruction(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    _run(fake, tmp_path, None, sleeps)
    texts = SOURCE_PRIORITY_INSTRUCTIONS.values()
    assert fake.calls and not any(t in r.prompt for r in fake.calls for t in texts)


def test_the_instruction_changes_the_run_id(fake: FakeProvider) -> None:
    ids = {p: _config(fake, p).run_id("c0ffee00") for p in ("strict", "soft", None)}
    assert len(set(ids.values())) == 3
    base = RunConfig(models=("openai:m1",), spec=str(TINY_SPEC), base_url=fake.url,
                     scenarios=SCENARIO_GROUPS["misleading"], modes=("strict",))
    assert ids[None] == base.run_id("c0ffee00")


def test_a_strict_and_a_soft_run_report_mr_by_position_and_instruction(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    runs = [_run(fake, tmp_path, p, sleeps) for p in ("strict", "soft")]
    report = report_from_runs(runs, replicates=200)
    assert report.misleading is not None
    cells = {(r.source_priority, r.position) for r in report.misleading.rates}
    assert cells == {(p, q) for p in ("strict", "soft")
                     for q in ("beginning", "middle", "end")}
    assert all(r.eligible > 0 and r.rate is not None for r in report.misleading.rates)
    kinds = {(c.kind, c.within) for c in report.misleading.contrasts}
    assert ("instruction", "all") in kinds and ("position", "strict") in kinds
    text = render(report, "md")
    assert "Misleading evidence" in text and "strict − soft" in text
    assert "end − middle" in text


def test_a_live_react_agent_gets_the_instruction_after_its_task(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    config = RunConfig(models=("openai:m1",), spec=str(TINY_SPEC), base_url=fake.url,
                       agent="react", scenarios=("clean", "misleading_end"), modes=("strict",),
                       source_priority="soft")
    options = LiveOptions(concurrency=4, timeout_s=2.0, retry=FAST_RETRY,
                          cache=tmp_path / "calls.sqlite")
    summary = run_live_matrix(config, tmp_path / "react", options=options, progress=False,
                              sleep=sleeps.append)
    assert summary.stopped is None and summary.written == summary.total
    firsts = [next(m for m in r.body["messages"] if m["role"] == "user")["content"]
              for r in fake.calls if r.is_agent]  # the tool-calling preflight's is not a task
    assert firsts and all(str(f).endswith(SOURCE_PRIORITY_INSTRUCTIONS["soft"])
                          for f in firsts)
