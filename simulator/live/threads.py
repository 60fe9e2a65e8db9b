"""Worker threads that a stuck record cannot hold the process with.

A record's time limit can abandon a coroutine, but not a thread: a user's agent that sleeps
in a synchronous tool or node (run on an executor thread by LangChain and LangGraph) keeps
its thread until it returns. asyncio's default executor joins its threads when a loop
closes and again at interpreter exit, so one such record would hold a finished run
forever. :class:`DaemonExecutor` is the executor layerrag's loops use instead: daemon
threads, a new one whenever none is idle, and a ``shutdown`` that never waits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Work = tuple[concurrent.futures.Future[Any], Callable[..., Any], tuple[Any, ...],
              dict[str, Any]]


class DaemonExecutor(concurrent.futures.ThreadPoolExecutor):
    """Runs each submitted call on an idle daemon thread, or on a new one.

    A ``ThreadPoolExecutor`` by type only (asyncio accepts nothing else as a loop's default
    executor): it overrides both of its methods and starts none of its threads."""

    def __init__(self, name: str = "layerrag-worker") -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self._name = name
        self._queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._guard = threading.Lock()
        self._waiting = 0
        self._started = 0
        self._closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any  # type: ignore[override]
               ) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._guard:
            if self._closed:
                raise RuntimeError("cannot schedule new work after shutdown")
            self._queue.put((future, fn, args, kwargs))
            if self._waiting == 0:
                self._started += 1
                threading.Thread(target=self._serve, daemon=True,
                                 name=f"{self._name}-{self._started}").start()
            else:
                self._waiting -= 1
        return future

    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as exc:  # handed to the waiter, as executors do
                    future.set_exception(exc)
            with self._guard:
                self._waiting += 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the idle threads; never wait for a busy one (see the module docstring)."""
        with self._guard:
            self._closed = True
            for _ in range(self._started):
                self._queue.put(None)


def use_daemon_threads(loop: asyncio.AbstractEventLoop) -> asyncio.AbstractEventLoop:
    """``loop`` with a :class:`DaemonExecutor` as its default executor."""
    loop.set_default_executor(DaemonExecutor())
    return loop


def in_worker_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> asyncio.Future[T]:
    """``fn(*args, **kwargs)`` on the running loop's default executor, in a copy of the
    caller's context (what ``asyncio.to_thread`` does, without its join at loop close when
    the loop's executor is a :class:`DaemonExecutor`)."""
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return loop.run_in_executor(None, call)
