"""A live run's progress: status lines off a terminal, a visible bar on a 0-column terminal,
an ETA from provider records only, warnings through the bar's writer.

A fake clock drives the status interval: no test waits 30 seconds.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from simulator.corpus import Corpus
from simulator.runner.cells import Cell, cells
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.progress import LiveProgress, warnings_through
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC

CONFIG = RunConfig(spec=str(TINY_SPEC), scenarios=("clean", "missing_tool_output"),
                   modes=("strict",))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory,
        tiny_corpus: Corpus) -> tuple[list[Cell], dict[str, RunRecord]]:
    out = tmp_path_factory.mktemp("progress") / "run"
    run_matrix(CONFIG, out, progress=False, corpus=tiny_corpus)
    with RunStore(out, create=False) as store:
        records = {r.key.as_str(): r for r in store.records()}
    return list(cells(CONFIG, tiny_corpus)), records


def _progress(todo: list[Cell], stream: io.StringIO, clock: Clock, **kw: object) -> LiveProgress:
    return LiveProgress(todo, 0, enabled=None, describe=lambda: "run 5/100 calls",
                        stats=lambda: {"requests": 5, "provider_errors": 1}, stream=stream,
                        clock=clock, interval=30.0, **kw)  # type: ignore[arg-type]


def test_off_a_terminal_a_status_line_comes_every_interval_and_at_the_end(
        run: tuple[list[Cell], dict[str, RunRecord]]) -> None:
    todo, records = run
    stream, clock = io.StringIO(), Clock()
    progress = _progress(todo, stream, clock)
    progress.record_finished(records[todo[0].key.as_str()], 1)
    clock.now += 29
    progress.tick()
    assert stream.getvalue() == ""  # not yet due
    clock.now += 1
    progress.tick()  # due even when no record finished (a slow call)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"layerrag: 1/{len(todo)} records")
    assert "0:30 elapsed" in lines[0] and "run 5/100 calls" in lines[0]
    assert "sent 5" in lines[0] and "provider err 1" in lines[0]
    progress.close()
    assert len(stream.getvalue().splitlines()) == 2


def test_without_progress_nothing_is_printed(
        run: tuple[list[Cell], dict[str, RunRecord]]) -> None:
    todo, records = run
    stream, clock = io.StringIO(), Clock()
    progress = LiveProgress(todo, 0, enabled=False, describe=str, stats=dict, stream=stream,
                            clock=clock)
    progress.record_finished(records[todo[0].key.as_str()], 1)
    clock.now += 3600
    progress.tick()
    progress.close()
    assert stream.getvalue() == ""


def test_a_terminal_reporting_zero_columns_still_shows_the_bar(
        run: tuple[list[Cell], dict[str, RunRecord]]) -> None:
    todo, records = run
    stream = Terminal()
    progress = _progress(todo, stream, Clock(), columns=lambda: 0)
    progress.record_finished(records[todo[0].key.as_str()], 1)
    progress.bar.refresh()
    assert f"1/{len(todo)}" in stream.getvalue()
    progress.close()


def test_the_eta_counts_only_records_that_waited_for_a_provider(
        run: tuple[list[Cell], dict[str, RunRecord]]) -> None:
    todo, records = run
    clean = [c for c in todo if c.scenario == "clean"]
    missing = [c for c in todo if c.scenario == "missing_tool_output"]
    assert len(clean) >= 6 and missing
    clock = Clock()
    progress = _progress(todo, io.StringIO(), clock)
    # all the no-prompt records finish at once: no provider rate yet, so no ETA
    for cell in missing:
        progress.record_finished(records[cell.key.as_str()], 0)
    assert progress.eta_seconds() is None
    # then 4 clean records, each after a 10 s call; a 5th was a cache hit (0 requests)
    for cell in clean[:4]:
        clock.now += 10
        progress.record_finished(records[cell.key.as_str()], 1)
    progress.record_finished(records[clean[4].key.as_str()], 0)
    left = len(clean) - 5
    waited_share = 4 / 5  # of finished clean records; missing_tool_output has none left
    rate = 4 / 40  # provider records per second
    assert progress.eta_seconds() == pytest.approx(left * waited_share / rate)
    # the instant records did not shorten it: tqdm's records/elapsed would say
    naive = (len(todo) - progress.done) / (progress.done / 40)
    assert progress.eta_seconds() > naive


def test_log_warnings_go_through_the_progress_writer_not_the_console(
        run: tuple[list[Cell], dict[str, RunRecord]],
        capsys: pytest.CaptureFixture[str]) -> None:
    todo, _ = run
    stream = io.StringIO()
    progress = _progress(todo, stream, Clock())
    with warnings_through(progress):
        logging.getLogger("simulator.readers.chat").warning("m1: server refused json_schema")
    assert stream.getvalue() == "warning: m1: server refused json_schema\n"
    assert capsys.readouterr().err == ""
    handlers = logging.getLogger().handlers
    assert not any(type(h).__name__ == "_Through" for h in handlers)


def test_a_live_run_off_a_terminal_ends_with_a_status_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tiny_corpus: Corpus) -> None:
    from simulator.runner.live import run_live_matrix

    run_live_matrix(CONFIG, tmp_path / "run", corpus=tiny_corpus)  # deterministic reader
    err = capsys.readouterr().err.splitlines()
    total = len(list(cells(CONFIG, tiny_corpus)))
    assert err and err[-1].startswith(f"layerrag: {total}/{total} records (100%)")
