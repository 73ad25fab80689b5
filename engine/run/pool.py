"""Stopping and the worker pool of a run: :class:`_Stop` is set by a cancel, Ctrl+C or the first
failing worker; :func:`_pool` runs work on threads while the calling thread watches
(engine/run/runner.py explains the order of work)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_EXCEPTION, Future, wait
from typing import TypeVar

from seorap.engine.errors import RunCancelled

T = TypeVar("T")


class _Stop:
    """Set when the caller cancels or when a worker fails: every worker checks it between steps."""

    def __init__(self, cancel: threading.Event | None) -> None:
        self.cancel = cancel
        self.halt = threading.Event()
        self.clients: list = []
        """Model clients whose open streams are closed when stopping."""
        self.error: BaseException | None = None
        """The first real error that stopped the work (not a cancellation it caused)."""
        self._lock = threading.Lock()

    def is_set(self) -> bool:
        return self.halt.is_set() or (self.cancel is not None and self.cancel.is_set())

    def stop(self, error: BaseException | None = None) -> None:
        """Stop everything; ``error`` (from a failing worker) is kept when it is the first real one,
        so the caller reports it rather than the cancellations it set off."""
        # start-up: numpy loads only when this runs
        from seorap.engine.models.base import CallCancelled

        with self._lock:
            if (
                self.error is None
                and error is not None
                and not isinstance(error, (CallCancelled, RunCancelled))
            ):
                self.error = error
        self.halt.set()
        for client in self.clients:
            client.cancel()


def _check(stop: _Stop | None) -> None:
    if stop is not None and stop.is_set():
        raise RunCancelled("run cancelled; run the same command again to resume")


STOP_GRACE_S = 1.5
"""After a stop, how long the calling thread waits for workers to leave (their streams are closed,
so they normally leave at once; one inside a long native call — an embedding batch, the judge's
analyser being built — is left to finish alone, on a daemon thread the process's exit does not wait
for)."""


def _pool(
    fn: Callable[[T], object], items: Collection[T], workers: int, stop: _Stop | None = None
) -> None:
    """Run ``fn`` over ``items`` on ``workers`` threads while this thread watches: the first error
    (or a cancel, or Ctrl+C here) stops everything, so nothing queued starts after it."""
    stop = stop or _Stop(None)
    if not items:
        return

    def guarded(item: T) -> object:
        # The failing worker stops everything itself, before its thread can take the next item:
        # left to the watching thread, a busy machine lets a queued item start first.
        _check(stop)
        try:
            return fn(item)
        except BaseException as exc:
            stop.stop(exc)
            raise

    futures, threads = _start(guarded, items, workers)
    try:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
            if stop.error is not None:  # set before its future completes: it wins every race
                raise stop.error
            for future in done:  # only cancellations are left here: a real error is stop.error
                if (error := future.exception()) is not None:
                    raise error
            if stop.is_set():
                raise RunCancelled("run cancelled; run the same command again to resume")
    except BaseException:
        stop.stop()
        for future in futures:
            future.cancel()
        _join(threads, STOP_GRACE_S)
        raise
    _join(threads, None)


def _start(
    fn: Callable[[T], object], items: Collection[T], workers: int
) -> tuple[list[Future[object]], list[threading.Thread]]:
    """``fn`` over ``items`` on at most ``workers`` daemon threads, one future per item. Daemon:
    a worker still inside a long native call after a stop (a model being built, an embedding
    batch) does not hold the process's exit, which a Ctrl+C must reach within 2 s."""
    jobs: queue.SimpleQueue[tuple[T, Future[object]]] = queue.SimpleQueue()
    futures: list[Future[object]] = []
    for item in items:
        futures.append(Future())
        jobs.put((item, futures[-1]))

    def work() -> None:
        while True:
            try:
                item, future = jobs.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():  # cancelled by a stop
                continue
            try:
                result = fn(item)
            except BaseException as exc:  # noqa: BLE001 - handed to the watching thread
                future.set_exception(exc)
            else:
                future.set_result(result)

    threads = [
        threading.Thread(target=work, name=f"seorap_{n}", daemon=True)
        for n in range(min(workers, len(items)))
    ]
    for thread in threads:
        thread.start()
    return futures, threads


def _join(threads: list[threading.Thread], grace_s: float | None) -> None:
    deadline = None if grace_s is None else time.monotonic() + grace_s
    for thread in threads:
        thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
