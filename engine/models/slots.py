"""How many of our chat requests each host streams at once: configured, or learned.

A server with fewer generation slots than our concurrency queues the rest (Ollama's default on a
small machine is one slot; llama.cpp's server likewise). The runner's threads are not changed; the
client holds each host to its slot count (:class:`SlotGate` for one host, the host pool's own limit
for several), so a request waits in our queue, visibly, instead of in the server's.

**Learning** (:class:`SlotLearner`, setting ``slots = "learn"``, the default): a request that waited
while another of ours streamed on the same host, and got its first chunk only after that one ended,
is evidence that the host streams no more of our requests at once than it was streaming then. After
:data:`SLOT_EVIDENCE` such requests the host's slot count is the most streams of ours ever seen
producing at once on it, and the client lowers that host's limit to it (logged once; stored in the
run's accounting). A host seen streaming more at once is never lowered below that. A configured
number (``slots = 1``, or ``slots = {"http://a:11434" = 1}``) is used as it is, never learned.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, cast

from seorap.engine.errors import BadHost
from seorap.engine.models.base import CallCancelled

if TYPE_CHECKING:
    from seorap.engine.models.base import ChatBackend
    from seorap.engine.models.hosts import HostPool
    from seorap.engine.models.streaming import OpenStream

log = logging.getLogger(__name__)

SLOT_EVIDENCE = 2
"""Requests seen queued behind our own streams before a host's slot count counts as learned."""


class SlotLearner:
    """Infers how many of our requests each host streams at once (see the module docstring)."""

    margin_s = 0.25
    """A stream that got chunks more than this long after another one's first chunk streamed
    together with it (thread scheduling blurs the order of chunks on two sockets by less)."""

    def __init__(self, on_slots: Callable[[str, int], None] | None = None) -> None:
        self.on_slots = on_slots
        """Called once per host with (host, slots) when they are learned."""
        self.most: dict[str | None, int] = {}
        """Per host: the most of our streams seen producing a reply at once."""
        self.evidence: dict[str | None, int] = {}
        self.learned: dict[str, int] = {}
        self._lock = threading.Lock()

    def judge(self, entry: OpenStream) -> None:
        """``entry`` started its reply: did the streams it waited behind go on after that (they
        share the host's slots) or had they ended (it was queued behind them)?"""
        host = entry.host
        start = entry.first
        assert start is not None  # judged only once its first chunk came (StreamWatch._judge)
        together = [o for o in entry.behind if (o.last or 0.0) > start + self.margin_s]
        learned = None
        with self._lock:
            self.most[host] = max(self.most.get(host, 1), 1 + len(together))
            if len(together) < len(entry.behind):
                self.evidence[host] = self.evidence.get(host, 0) + 1
            if (
                host is not None
                and host not in self.learned
                and self.evidence.get(host, 0) >= SLOT_EVIDENCE
            ):
                learned = self.learned[host] = self.most[host]
        if learned is not None and host is not None and self.on_slots is not None:
            self.on_slots(host, learned)


class SlotGate:
    """Per-host limits on our requests in flight, for a client talking to one host (a
    :class:`engine.models.hosts.HostPool` keeps its own). No limit until one is set."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._limit: dict[str | None, int] = {}
        self._busy: dict[str | None, int] = {}
        self.waiting: dict[str | None, int] = {}
        """Requests waiting at the gate now, per host."""

    def set_limit(self, host: str | None, n: int) -> None:
        with self._cond:
            self._limit[host] = max(1, n)
            self._cond.notify_all()

    def acquire(self, host: str | None, cancelled: threading.Event) -> None:
        with self._cond:
            self.waiting[host] = self.waiting.get(host, 0) + 1
            try:
                while self._busy.get(host, 0) >= self._limit.get(host, 1 << 30):
                    if cancelled.is_set():
                        raise CallCancelled("the model client was cancelled")
                    self._cond.wait(0.1)
            finally:
                self.waiting[host] -= 1
            self._busy[host] = self._busy.get(host, 0) + 1

    def release(self, host: str | None) -> None:
        with self._cond:
            self._busy[host] -= 1
            self._cond.notify_all()


class HostSlots:
    """The client's view of every host's slots: configured limits, learning, the gate."""

    def __init__(self, backend: ChatBackend | None, configured: int | str | dict = "learn") -> None:
        self.backend = backend
        self.configured = configured
        self.pool = cast("HostPool", backend) if hasattr(backend, "set_limit") else None
        """A host pool enforces limits itself; otherwise :attr:`gate` does."""
        host = getattr(backend, "host", None)
        self.host = host if isinstance(host, str) and self.pool is None else None
        self.gate = SlotGate()
        self.learner = SlotLearner(self._learned)
        self.learned: dict[str, int] = {}
        """Slots learned per host (in the order they were learned)."""
        self.queued = 0
        """Calls that waited in line behind another of ours (gate or server queue)."""
        for h in self._hosts():
            n = self.fixed(h)
            if n is not None:
                self._limit(h, n)

    def _hosts(self) -> list[str]:
        if self.pool is not None:
            return list(self.pool.hosts)
        return [self.host] if self.host else []

    def fixed(self, host: str) -> int | None:
        """The configured slot count of ``host`` (None: learn it)."""
        value = self.configured
        if isinstance(value, dict):
            value = {_url(k): v for k, v in value.items()}.get(_url(host), "learn")
        return value if isinstance(value, int) else None

    def _limit(self, host: str, n: int) -> None:
        if self.pool is not None:
            self.pool.set_limit(host, n)
        else:
            self.gate.set_limit(host, n)

    def _learned(self, host: str, n: int) -> None:
        if self.fixed(host) is not None or host in self.learned:
            return
        self.learned[host] = n
        log.warning(
            "%s streams %d of our requests at once (learned from first-token times): "
            "its limit is now %d; the other requests wait in our queue",
            host,
            n,
            n,
        )
        self._limit(host, n)

    @contextmanager
    def hold(self, cancelled: threading.Event) -> Iterator[bool]:
        """A slot on the (single) host for one call; yields whether the call had to wait."""
        if self.pool is not None:
            yield False
            return
        started = time.monotonic()
        self.gate.acquire(self.host, cancelled)
        try:
            yield time.monotonic() - started > 0.05
        finally:
            self.gate.release(self.host)

    def waiting(self) -> dict[str, int]:
        """{host: calls waiting at our gate now}."""
        if self.pool is not None:
            return self.pool.waiting()
        return {str(h): n for h, n in self.gate.waiting.items() if n}


def _url(host: str) -> str:
    """A host as the backends spell it (``localhost:11434`` and ``http://localhost:11434/`` alike)."""
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.ollama_chat import ollama_url

    try:
        return ollama_url(host)
    except BadHost:
        return host.rstrip("/")
