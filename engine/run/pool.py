"""Stopping and the worker pool of a run: :class:`_Stop` is set by a cancel, Ctrl+C or the first
failing worker; :func:`_pool` runs work on threads while the calling thread watches
(engine/run/runner.py explains the order of work)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
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
so they normally leave at once; one inside a long embedding batch is left to finish alone)."""


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

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seorap")
    futures = [pool.submit(guarded, item) for item in items]
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
        pool.shutdown(wait=False, cancel_futures=True)
        _join_workers(pool, STOP_GRACE_S)
        raise
    pool.shutdown(wait=True)


def _join_workers(pool: ThreadPoolExecutor, grace_s: float) -> None:
    deadline = time.monotonic() + grace_s
    for thread in list(getattr(pool, "_threads", ())):
        thread.join(max(0.0, deadline - time.monotonic()))
