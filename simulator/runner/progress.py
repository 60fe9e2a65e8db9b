"""What a live run shows while it runs: a bar on a terminal, a status line every ~30 s elsewhere.

A live run can take hours, and is often started under ``nohup``, in CI or with stderr sent
to a file, where a progress bar prints nothing: off a terminal the run prints one line
every :data:`STATUS_EVERY_S` seconds (records done of total, prompted calls, errors,
spend, ETA) and a last one when it ends. On a terminal the bar is tqdm's, with a fixed
width when the terminal reports none (0 columns would print nothing at all).

The rate and ETA count only records that waited for a provider (they sent a request):
cached, shared and no-prompt records finish at once, and counting them made tqdm's ETA jump
from 3:10 to 10:52 in one run. The remaining provider records are estimated from the
share of finished records of the same scenario, contract mode and arm that sent one.

Warnings raised while the bar is drawn (a reader falling back, a provider error after its
retries) go through the bar's own writer (:meth:`LiveProgress.write`, and
:func:`warnings_through` for the ``logging`` records of the run), so they never tear it.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from simulator.live.services import LiveStats
from simulator.runner.cells import Cell
from simulator.runner.record import RunRecord

STATUS_EVERY_S = 30.0
"""Seconds between two status lines when stderr is not a terminal."""
FALLBACK_COLUMNS = 80
"""Bar width on a terminal that reports fewer than :data:`MIN_COLUMNS` columns."""
MIN_COLUMNS = 20
MIN_WAITED_FOR_ETA = 3
"""Provider records to finish before an ETA is shown."""

Group = tuple[str, str, str, str]
_requests: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "layerrag_record_requests", default=None)


class RequestCountingStats(LiveStats):
    """The run's counters, also counting the requests of the record whose task sends them.

    Each record runs in its own asyncio task, whose context (copied into the graph's node
    tasks) holds the record's counter: :func:`count_requests`.
    """

    def add(self, name: str, n: int = 1) -> None:
        super().add(name, n)
        if name == "requests":
            counter = _requests.get()
            if counter is not None:
                counter[0] += n


def count_requests() -> list[int]:
    """Start counting the current task's requests; read ``[0]`` when the record is done."""
    counter = [0]
    _requests.set(counter)
    return counter


def group_of(cell: Cell | RunRecord) -> Group:
    if isinstance(cell, Cell):
        return (cell.model, cell.scenario, cell.mode, cell.arm)
    return (cell.model, cell.scenario, cell.contract_mode, cell.arm)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class LiveProgress:
    """The bar or the status lines of one live run (see the module docstring)."""

    def __init__(self, todo: Iterable[Cell], done: int, *, enabled: bool | None,
                 describe: Callable[[], str], stats: Callable[[], dict[str, int]],
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
                 interval: float = STATUS_EVERY_S,
                 columns: Callable[[], int] | None = None) -> None:
        """``enabled`` None shows the bar on a terminal and status lines elsewhere; False
        shows nothing. ``describe`` gives the spend, ``stats`` the run's counters."""
        self.stream = stream if stream is not None else sys.stderr
        self.remaining: Counter[Group] = Counter(group_of(c) for c in todo)
        self.total = sum(self.remaining.values()) + done
        self.done = done
        self.describe, self.stats, self.clock, self.interval = describe, stats, clock, interval
        self.started = self.last_status = clock()
        self.finished: Counter[Group] = Counter()
        self.waited: Counter[Group] = Counter()
        self.enabled = enabled is not False
        self.bar: Any = None
        if self.enabled and self.stream.isatty():
            self.bar = self._bar(columns or self._terminal_columns)

    def _terminal_columns(self) -> int:
        import shutil

        return shutil.get_terminal_size((0, 0)).columns

    def _bar(self, columns: Callable[[], int]) -> Any:
        from tqdm import tqdm

        wide = columns() >= MIN_COLUMNS
        return tqdm(total=self.total, initial=self.done, unit="rec", leave=False,
                    file=self.stream, dynamic_ncols=wide,
                    ncols=None if wide else FALLBACK_COLUMNS,
                    bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]")

    def record_finished(self, record: RunRecord, requests: int) -> None:
        """``record`` is stored; it sent ``requests`` requests (0: cached, shared, no prompt)."""
        group = group_of(record)
        self.done += 1
        self.remaining[group] -= 1
        self.finished[group] += 1
        self.waited[group] += requests > 0
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(self.postfix(), refresh=False)
        self.tick()

    def eta_seconds(self) -> float | None:
        """Seconds to go: the provider records still expected, at the provider-record rate."""
        waited = sum(self.waited.values())
        elapsed = self.clock() - self.started
        if waited < MIN_WAITED_FOR_ETA or elapsed <= 0:
            return None
        overall_share = waited / max(sum(self.finished.values()), 1)
        expected = 0.0
        for group, left in self.remaining.items():
            seen = self.finished[group]
            expected += left * (self.waited[group] / seen if seen else overall_share)
        return expected / (waited / elapsed)

    def postfix(self) -> str:
        stats = self.stats()
        parts = [self.describe()]
        for name, label in (("requests", "sent"), ("cache_hits", "cached"),
                            ("provider_errors", "provider err"),
                            ("reader_errors", "reader err")):
            if stats.get(name):
                parts.append(f"{label} {stats[name]}")
        eta = self.eta_seconds()
        if eta is not None:
            parts.append(f"ETA {_clock(eta)}")
        return ", ".join(parts)

    def status(self) -> str:
        share = self.done / self.total if self.total else 1.0
        return (f"layerrag: {self.done}/{self.total} records ({share:.0%}), "
                f"{_clock(self.clock() - self.started)} elapsed, {self.postfix()}")

    def tick(self) -> None:
        """Print the status line when it is due (off a terminal only)."""
        if not self.enabled or self.bar is not None:
            return
        now = self.clock()
        if now - self.last_status >= self.interval:
            self.last_status = now
            self.write(self.status())

    def write(self, message: str) -> None:
        """Print ``message`` on its own line, above the bar if there is one."""
        if self.bar is not None:
            self.bar.write(message, file=self.stream)
        else:
            print(message, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            self.write(self.status())


class _Through(logging.Handler):
    def __init__(self, progress: LiveProgress) -> None:
        super().__init__(logging.WARNING)
        self.progress = progress

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.progress.write(f"{record.levelname.lower()}: {record.getMessage()}")
        except Exception:  # a handler must never raise into the run
            self.handleError(record)


@contextlib.contextmanager
def warnings_through(progress: LiveProgress) -> Iterator[None]:
    """Send the run's log warnings through ``progress`` instead of the console handlers.

    The root logger's handlers that print to stderr are set aside for the block (Python's
    last-resort handler included, which prints when there are none) and restored after.
    """
    root = logging.getLogger()
    console = [h for h in root.handlers if isinstance(h, logging.StreamHandler)
               and getattr(h, "stream", None) in (sys.stderr, sys.stdout)]
    handler = _Through(progress)
    for h in console:
        root.removeHandler(h)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        for h in console:
            root.addHandler(h)
