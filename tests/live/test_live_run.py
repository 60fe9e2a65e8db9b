"""Whole live runs against a loopback OpenAI-compatible server: records, faults, stops, resume.

The fake server answers the way the deterministic reader would, so a clean live run must
score exactly like the deterministic one; scripted faults then show how each failure is
recorded. Every run uses the tiny spec, short timeouts and a recorded (instant) sleep.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path

import pytest

from simulator.corpus import Corpus
from simulator.live.options import LiveOptions
from simulator.runner.config import RunConfig
from simulator.runner.live import load_spend, run_live_matrix
from simulator.runner.matrix import run_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.conftest import FAST_RETRY
from tests.live.fake_provider import Answer, FakeProvider, Malformed, Request, Status


def live_config(fake: FakeProvider, **changes: object) -> RunConfig:
    base: dict[str, object] = {"models": ("openai:m1",), "spec": str(TINY_SPEC),
                               "base_url": fake.url}
    return RunConfig(**{**base, **changes})


def live_options(tmp_path: Path, **changes: object) -> LiveOptions:
    base: dict[str, object] = {"concurrency": 4, "timeout_s": 0.5, "retry": FAST_RETRY,
                               "cache": tmp_path / "calls.sqlite"}
    return LiveOptions(**{**base, **changes})


def records(run_dir: Path) -> dict[tuple[str, str, str], RunRecord]:
    with RunStore(run_dir, create=False) as store:
        return {(r.scenario, r.contract_mode, r.task_id): r for r in store.records()}


def scored(record: RunRecord) -> tuple[object, ...]:
    return (record.E, record.R, record.G, record.V, record.S, record.answer, record.citations,
            record.abstained, record.failure_layer, record.prompt_hash is None)


def test_a_live_run_scores_exactly_like_the_reader_its_server_imitates(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    run_matrix(RunConfig(models=("deterministic",), spec=str(TINY_SPEC)), tmp_path / "det",
               progress=False)
    summary = run_live_matrix(live_config(fake), tmp_path / "live",
                              options=live_options(tmp_path), progress=False,
                              sleep=sleeps.append)
    expected, live = records(tmp_path / "det"), records(tmp_path / "live")
    assert summary.stopped is None and summary.written == summary.total == len(expected)
    assert {k: scored(r) for k, r in live.items()} == {k: scored(r) for k, r in expected.items()}
    assert {r.provider for r in live.values()} == {"openai-compatible"}
    prompted = [r for r in live.values() if r.prompt_hash is not None]
    assert prompted and not any(r.provider_error or r.reader_error for r in live.values())
    assert summary.stats["requests"] == len({r.prompt_hash for r in prompted})


def _row_by_question(corpus: Corpus) -> dict[str, int]:
    return {t.question: t.row for t in corpus.tasks}


def test_scripted_faults_are_survived_with_at_most_three_attempts_per_call(
        tmp_path: Path, tiny: Corpus, sleeps: list[float], canary_keys: dict) -> None:
    rows = _row_by_question(tiny)
    seen: Counter[str] = Counter()

    def script(request: Request) -> Status | Malformed | Answer | None:
        if request.is_preflight:
            return None
        row = rows[request.prompt.split("\n", 1)[0].removeprefix("Question: ")]
        seen[request.prompt] += 1
        first = seen[request.prompt] == 1
        if row in (0, 1, 2):
            return Status(500)
        if row in (3, 4):
            return Malformed("not json {")
        if row in (5, 6) and first:
            return Status(429, retry_after_ms="10")
        if row == 7 and first:
            return Answer(delay=1.0)
        return None

    with FakeProvider(handler=script) as fake:
        config = live_config(fake, scenarios=("clean",), modes=("strict",))
        summary = run_live_matrix(config, tmp_path / "run", options=live_options(tmp_path),
                                  progress=False, sleep=sleeps.append)
    by_row = {r.task_row: r for r in records(tmp_path / "run").values()}
    assert summary.written == len(tiny.tasks) == len(seen)
    assert max(seen.values()) <= 3
    assert [seen[p] for p in sorted(seen, key=lambda p: rows[p.split("\n")[0][10:]])] == [
        3, 3, 3, 1, 1, 2, 2, 2, 1, 1, 1, 1]
    assert all(by_row[r].provider_error and by_row[r].failure_layer == "provider"
               for r in (0, 1, 2))
    assert all(by_row[r].reader_error and not by_row[r].provider_error for r in (3, 4))
    assert not any(by_row[r].provider_error or by_row[r].reader_error for r in range(5, 12))
    assert summary.stats["provider_errors"] == 3 and summary.stats["reader_errors"] == 2


def test_a_spent_call_budget_stops_cleanly_and_a_larger_one_resumes_without_repeats(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    config = live_config(fake, scenarios=("clean",))
    out, options = tmp_path / "run", live_options(tmp_path, cache=None, concurrency=2)
    first = run_live_matrix(config, out, options=options.model_copy(update={"max_calls": 5}),
                            progress=False, sleep=sleeps.append)
    assert first.stopped == "budget" and first.exit_code == 3
    assert "call budget spent (5 of 5 calls)" in first.message and "resume" in first.message
    # the preflight is a request too, and counted; records run task by task, so each of
    # the 4 calls also answered its task's other mode (clean's strict and repair share it)
    assert len(fake.requests) == 5 and load_spend(out).calls == 5
    assert first.stats["requests"] == 4 and first.written == 8 == 4 + first.stats["shared"]

    again = run_live_matrix(config, out, options=options.model_copy(update={"max_calls": 5}),
                            progress=False, sleep=sleeps.append)
    assert again.stopped == "budget" and again.written == 0 and len(fake.requests) == 5

    done = records(out)
    last = run_live_matrix(config, out, options=options.model_copy(update={"max_calls": 100}),
                           progress=False, sleep=sleeps.append)
    assert last.stopped is None and last.written == last.total - 8
    # one call per record, none repeated; with the cache off, a record whose prompt was
    # already sent in the same invocation (its strict/repair pair) shares that call
    assert len(fake.calls) == 4 + last.stats["requests"]
    assert last.stats["requests"] + last.stats.get("shared", 0) == last.written
    assert len(fake.requests) - len(fake.calls) == 2  # a preflight per invocation that sent
    assert all(records(out)[k] == r for k, r in done.items())


def test_a_token_budget_stops_the_run_too(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    summary = run_live_matrix(live_config(fake, scenarios=("clean",)), tmp_path / "run",
                              options=live_options(tmp_path, cache=None, concurrency=1,
                                                   max_tokens=300),
                              progress=False, sleep=sleeps.append)
    assert summary.stopped == "budget" and "token budget" in summary.message
    # 3 calls (120 tokens each), each shared by its task's strict and repair records
    assert summary.stats["requests"] == 3 and summary.spent.tokens == 360
    assert summary.written == 6 == 3 + summary.stats["shared"]


def test_ctrl_c_finishes_in_flight_records_and_leaves_a_resumable_store(
        tmp_path: Path, sleeps: list[float], canary_keys: dict) -> None:
    written: list[RunRecord] = []

    def interrupt_after_three(record: RunRecord) -> None:
        written.append(record)
        if len(written) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    with FakeProvider(latency=0.05) as fake:
        config, out = live_config(fake, scenarios=("clean",)), tmp_path / "run"
        options = live_options(tmp_path, cache=None)
        first = run_live_matrix(config, out, options=options, progress=False,
                                sleep=sleeps.append, on_record=interrupt_after_three)
        assert first.stopped == "interrupted" and first.exit_code == 130
        assert 3 <= first.written < first.total
        # every started call was finished and kept (a record may share its pair's call)
        assert len(fake.calls) == first.stats["requests"]
        assert first.stats["requests"] + first.stats.get("shared", 0) == first.written
        rest = run_live_matrix(config, out, options=options, progress=False,
                               sleep=sleeps.append)
    assert rest.stopped is None and rest.written == first.total - first.written
    assert len(fake.calls) == first.stats["requests"] + rest.stats["requests"]


def test_a_second_ctrl_c_abandons_in_flight_calls(
        tmp_path: Path, sleeps: list[float], canary_keys: dict) -> None:
    def interrupt_twice(record: RunRecord) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.3)  # two presses, not one: signals arriving together coalesce
        os.kill(os.getpid(), signal.SIGINT)

    with FakeProvider(latency=0.3) as fake:
        config, out = live_config(fake, scenarios=("clean",)), tmp_path / "run"
        options = live_options(tmp_path, cache=None, timeout_s=2.0)
        first = run_live_matrix(config, out, options=options, progress=False,
                                sleep=sleeps.append, on_record=interrupt_twice)
        assert first.stopped == "abandoned" and first.written < first.total
        rest = run_live_matrix(config, out, options=options.model_copy(
            update={"concurrency": 32}), progress=False, sleep=sleeps.append)
    assert rest.written == first.total - first.written


def test_replay_rebuilds_a_run_in_a_new_directory_with_zero_requests(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict,
        monkeypatch: pytest.MonkeyPatch) -> None:
    config, options = live_config(fake), live_options(tmp_path)
    recorded = run_live_matrix(config, tmp_path / "first", options=options, progress=False,
                               sleep=sleeps.append)
    sent = len(fake.calls)
    monkeypatch.delenv("OPENAI_API_KEY")
    replayed = run_live_matrix(config, tmp_path / "again",
                               options=options.model_copy(update={"replay": True}),
                               progress=False, sleep=sleeps.append)
    assert len(fake.calls) == sent == recorded.stats["requests"]
    assert replayed.stats.get("requests", 0) == 0 and replayed.spent.calls == 0
    first, again = records(tmp_path / "first"), records(tmp_path / "again")
    assert {k: scored(r) for k, r in again.items()} == {k: scored(r) for k, r in first.items()}
    assert sum(r.input_tokens for r in again.values()) == 0  # nothing is counted twice


def test_a_replay_miss_stops_the_run_naming_the_record(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    from simulator.live.errors import ReplayMiss

    with pytest.raises(ReplayMiss, match=r"record openai:m1\|clean\|strict\|uncontrolled\|"):
        run_live_matrix(live_config(fake, scenarios=("clean",), modes=("strict",)),
                        tmp_path / "run", options=live_options(tmp_path, replay=True),
                        progress=False, sleep=sleeps.append)
    assert fake.requests == []


def test_concurrency_is_used_and_never_exceeded(
        tmp_path: Path, sleeps: list[float], canary_keys: dict) -> None:
    with FakeProvider(latency=0.05) as fake:
        run_live_matrix(live_config(fake, scenarios=("clean",)), tmp_path / "run",
                        options=live_options(tmp_path, cache=None, concurrency=3),
                        progress=False, sleep=sleeps.append)
    assert 2 <= fake.max_active <= 3


def test_several_models_form_the_model_axis(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    config = live_config(fake, models=("openai:m1", "anthropic:m2", "deterministic"),
                         scenarios=("clean",), modes=("strict",))
    summary = run_live_matrix(config, tmp_path / "run", options=live_options(tmp_path),
                              progress=False, sleep=sleeps.append)
    by_model = Counter(r.model for r in records(tmp_path / "run").values())
    assert summary.written == 3 * 12 and set(by_model.values()) == {12}
    assert {r.protocol for r in fake.requests} == {"openai", "anthropic"}


def test_the_langgraph_runner_drives_a_chat_reader_to_the_same_records(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    from simulator.live.services import LiveServices, use_services
    from simulator.runner.matrix import MatrixRunner, cells

    config = live_config(fake, scenarios=("clean", "conflicting_evidence"))
    with use_services(LiveServices(retry=FAST_RETRY, sleep=sleeps.append)):
        runner = MatrixRunner(config)
    via_graph = runner.run_cells(list(cells(config, runner.corpus)))  # blocking reads
    run_live_matrix(config, tmp_path / "live", options=live_options(tmp_path, cache=None),
                    progress=False, sleep=sleeps.append)
    live = records(tmp_path / "live")
    assert {(r.scenario, r.contract_mode, r.task_id): (scored(r), r.prompt_hash)
            for r in via_graph} == {k: (scored(r), r.prompt_hash) for k, r in live.items()}


def test_an_open_live_run_prompts_the_model_after_a_denial_like_the_graph(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float]) -> None:
    """--pipeline open reaches live runs: a denied call is followed by a real request."""
    axes: dict[str, object] = {"scenarios": ("permission_denied",), "modes": ("strict",),
                               "pipeline": "open"}
    run_matrix(RunConfig(models=("deterministic",), spec=str(TINY_SPEC), **axes),
               tmp_path / "det", progress=False)
    summary = run_live_matrix(live_config(fake, **axes), tmp_path / "live",
                              options=live_options(tmp_path), progress=False,
                              sleep=sleeps.append)
    expected, live = records(tmp_path / "det"), records(tmp_path / "live")
    assert all(r.prompt_hash is not None for r in live.values())
    assert summary.stats["requests"] == len({r.prompt_hash for r in live.values()}) > 0
    assert {k: scored(r) for k, r in live.items()} == {k: scored(r) for k, r in expected.items()}
