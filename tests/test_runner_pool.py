"""The worker pool behind writing and scoring: the first error stops everything, and no queued item
starts after it, however busy the machine (the failing worker stops the pool itself)."""

from __future__ import annotations

import threading

import pytest

from seorap.engine.run.runner import _pool, _Stop


class Boom(Exception):
    pass


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_no_queued_item_starts_after_the_first_error(workers):
    started: list[int] = []
    lock = threading.Lock()

    def fn(item: int) -> None:
        with lock:
            started.append(item)
        if item == 0:
            raise Boom("first item fails")
        threading.Event().wait(0.05)  # the others take a little while, like a model call

    with pytest.raises(Boom):
        _pool(fn, list(range(50)), workers)
    # item 0 is the first one taken; only items already running beside it may have started
    assert 0 in started and len(started) <= workers


def test_a_stop_set_before_an_item_starts_refuses_it():
    stop = _Stop(None)
    stop.halt.set()
    ran: list[int] = []
    with pytest.raises(Exception, match="cancelled"):
        _pool(ran.append, [1, 2, 3], 1, stop)
    assert ran == []


def test_the_failing_worker_cancels_the_clients_itself():
    class Client:
        cancelled = 0

        def cancel(self) -> None:
            Client.cancelled += 1

    stop = _Stop(None)
    stop.clients.append(Client())

    def fn(item: int) -> None:
        raise Boom

    with pytest.raises(Boom):
        _pool(fn, [1], 1, stop)
    assert Client.cancelled >= 1 and stop.is_set()


def test_the_first_real_error_is_reported_even_when_the_stop_is_seen_first():
    """The failing worker sets the stop before its future completes (cancelling a client can take a
    while): the caller must still report that error, not a cancellation."""

    class SlowToCancel:
        def cancel(self) -> None:
            threading.Event().wait(0.3)  # the watching thread wakes meanwhile and sees the stop

    stop = _Stop(None)
    stop.clients.append(SlowToCancel())

    def fn(item: int) -> None:
        raise Boom("the server went away")

    with pytest.raises(Boom, match="went away"):
        _pool(fn, [1, 2, 3], 1, stop)
