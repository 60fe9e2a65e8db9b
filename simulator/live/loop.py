"""The process's live event loop: one daemon thread that runs every provider call.

Why one loop for the whole process: the async clients of the provider SDKs bind their
connection pools to the loop that first uses them, so a loop per run would leave the next
run with clients tied to a closed loop. Why a thread: callers stay synchronous (the CLI,
``run_matrix``, a reader's ``read``) while all network waiting happens in one place, with
no thread per request competing for the GIL (see benchmarks/live.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, Protocol, TypeVar

from simulator.live.threads import use_daemon_threads

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def live_loop() -> asyncio.AbstractEventLoop:
    """The shared loop, started on first use."""
    global _loop, _thread
    with _lock:
        if _loop is None:
            _loop = use_daemon_threads(asyncio.new_event_loop())
            _thread = threading.Thread(target=_loop.run_forever, name="layerrag-live-loop",
                                       daemon=True)
            _thread.start()
        return _loop


def on_live_loop() -> bool:
    return _thread is not None and threading.current_thread() is _thread


def submit(coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
    """Schedule ``coro`` on the live loop; wait on the returned future from any thread."""
    return asyncio.run_coroutine_threadsafe(coro, live_loop())


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the live loop and wait for it (never from the loop itself)."""
    if on_live_loop():
        coro.close()
        raise RuntimeError("blocking on the live loop from inside it would deadlock; await")
    return submit(coro).result()


class BlockingRun(Protocol):
    def __call__(self, coro: Coroutine[Any, Any, T], /) -> T: ...


@contextlib.contextmanager
def blocking_runs() -> Iterator[BlockingRun]:
    """A function that runs coroutines to completion from synchronous code, one at a time.

    All of them share one event loop (a loop per call costs ~3 ms, which a matrix of
    thousands of graph batches would feel). A thread that already runs a loop (a notebook,
    an async caller) cannot block on a second one, so there they run on the live loop.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        running = False
    else:
        running = True
    if running:
        yield run
        return
    with asyncio.Runner() as runner:  # outside the except: errors raised here chain nothing
        use_daemon_threads(runner.get_loop())
        yield runner.run


def run_blocking(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine to completion from synchronous code (see :func:`blocking_runs`)."""
    with blocking_runs() as run_one:
        return run_one(coro)
