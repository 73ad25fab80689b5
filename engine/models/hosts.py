"""Several model servers for one run, and the one place that makes the chat backend of a config.

:class:`HostPool` is a chat backend over several backends of the same kind (one per host). Each
call goes to the healthy host with the most free slots (``per_host`` calls at a time on each, the
config's ``concurrency``); a host that cannot be reached, or drops a reply before its first piece,
is marked down and the call goes to another host at once, so the work a dead host had pending is
handed to the others. Only when no healthy host is left does a call fail, with one sentence
(:class:`engine.models.base.ModelUnavailable`, which stops the run). A host that dies in the middle
of a reply raises the transport error as usual: the model client retries it (a transient failure)
and the retry goes to a healthy host.

Cache keys never contain the host (:meth:`ChatRequest.key`), so a reply is the same whichever host
made it — which is why every host must serve the same model digests: :func:`check_hosts` refuses a
run otherwise (one sentence naming the hosts and the model) rather than mixing weights under one key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import httpx
import numpy as np

from seorap.engine.config import Config
from seorap.engine.errors import ModelError, ModelMissing, ModelUnavailable
from seorap.engine.models.base import ChatBackend, ChatReply, ChatRequest, Embedder, open_stream
from seorap.engine.models.openai_chat import OpenAIChat

T = TypeVar("T")

DOWN_ERRORS = (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout)
"""Failures that mean the host is gone (before any reply piece): try another host."""


class HostPool:
    """A chat backend spreading calls over several backends; see the module docstring."""

    def __init__(self, backends: list, per_host: int = 2) -> None:
        if not backends:
            raise ValueError("HostPool needs at least one backend")
        self.backends = list(backends)
        self.name = self.backends[0].name
        self.per_host = max(1, per_host)
        self.limits = [self.per_host] * len(self.backends)
        """Calls at a time per host: ``per_host``, lowered to a host's slots when they are known
        (:meth:`set_limit`)."""
        self.host = ", ".join(self.hosts)
        self._busy = [0] * len(self.backends)
        self._waiting = 0
        self._down: dict[int, str] = {}
        self._served = [0] * len(self.backends)
        self._cond = threading.Condition()

    @property
    def hosts(self) -> list[str]:
        return [str(getattr(b, "host", i)) for i, b in enumerate(self.backends)]

    # ---- health and slots ------------------------------------------------------------------------
    def healthy(self) -> list[str]:
        with self._cond:
            return [h for i, h in enumerate(self.hosts) if i not in self._down]

    def served_counts(self) -> dict[str, int]:
        """Calls each host has answered so far."""
        with self._cond:
            return dict(zip(self.hosts, self._served))

    def set_limit(self, host: str, n: int) -> None:
        """At most ``n`` calls at a time on ``host`` (its generation slots)."""
        with self._cond:
            for i, h in enumerate(self.hosts):
                if h == host:
                    self.limits[i] = max(1, min(self.per_host, n))
            self._cond.notify_all()

    def waiting(self) -> dict[str, int]:
        """{hosts: calls waiting for a free slot on any healthy host now}."""
        with self._cond:
            return {self.host: self._waiting} if self._waiting else {}

    def _acquire(self, exclude: set[int]) -> int:
        with self._cond:
            self._waiting += 1
            try:
                return self._wait_for_slot(exclude)
            finally:
                self._waiting -= 1

    def _wait_for_slot(self, exclude: set[int]) -> int:
        with self._cond:
            while True:
                alive = [
                    i for i in range(len(self.backends)) if i not in self._down and i not in exclude
                ]
                if not alive:
                    raise ModelUnavailable(self._none_left())
                free = [i for i in alive if self._busy[i] < self.limits[i]]
                if free:
                    best = min(free, key=lambda i: (self._busy[i], self._served[i], i))
                    self._busy[best] += 1
                    return best
                self._cond.wait(0.5)

    def _release(self, i: int, ok: bool) -> None:
        with self._cond:
            self._busy[i] -= 1
            self._served[i] += int(ok)
            self._cond.notify_all()

    def mark_down(self, i: int, why: BaseException | str) -> None:
        with self._cond:
            self._down.setdefault(
                i, f"{type(why).__name__}: {why}" if isinstance(why, BaseException) else why
            )
            self._cond.notify_all()

    def _none_left(self) -> str:
        down = ", ".join(self.hosts[i] for i in sorted(self._down)) or ", ".join(self.hosts)
        return (
            f"No healthy model server is left (down: {down}); start them again, or list working "
            f"ones in the config's hosts (or with --host), then run the same command to resume."
        )

    # ---- the backend interface -------------------------------------------------------------------
    def chat(self, request: ChatRequest) -> ChatReply:
        tried: set[int] = set()
        while True:
            i = self._acquire(tried)
            ok = False
            try:
                reply = self.backends[i].chat(request)
                ok = True
                return _with_host(reply, self.hosts[i])
            except DOWN_ERRORS as exc:
                self.mark_down(i, exc)
                tried.add(i)
            finally:
                self._release(i, ok)

    def stream(self, request: ChatRequest) -> PoolStream:
        return PoolStream(self, request)

    # Ollama-specific helpers the rest of the engine uses on a single backend
    def digest(self, model: str) -> str | None:
        for i, backend in enumerate(self.backends):
            if i not in self._down and hasattr(backend, "digest"):
                digest: str | None = backend.digest(model)
                return digest
        return None

    def served(self, model: str) -> str | None:
        """The served model name, from the first backend that reports one (OpenAI-compatible)."""
        for backend in self.backends:
            name: str | None = backend.served(model) if hasattr(backend, "served") else None
            if name:
                return name
        return None

    def server_info(self) -> dict:
        for i, backend in enumerate(self.backends):
            if i not in self._down and hasattr(backend, "server_info"):
                info: dict = backend.server_info()
                return info
        return {}

    def translate_error(
        self, exc: BaseException, host: str | None, model: str
    ) -> ModelError | None:
        # start-up: ollama loads only when this runs
        from seorap.engine.models import ollama_chat

        fn = getattr(self.backends[0], "translate_error", None) or ollama_chat.translate_error
        return fn(exc, host, model)

    def is_transient(self, exc: BaseException) -> bool:
        # start-up: ollama loads only when this runs
        from seorap.engine.models import ollama_chat

        fn = getattr(self.backends[0], "is_transient", None) or ollama_chat.is_transient
        return fn(exc)


class PoolStream:
    """A chat stream that picks its host when iteration starts and moves to another host when the
    first one is down before any piece arrived; ``close`` closes whichever stream is open."""

    def __init__(self, pool: HostPool, request: ChatRequest) -> None:
        self.pool = pool
        self.request = request
        self._inner: Any = None
        self.host: str | None = None
        """The host this stream went to (None until iteration picked one)."""
        self._closed = threading.Event()
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[str]:
        tried: set[int] = set()
        while not self._closed.is_set():
            i = self.pool._acquire(tried)
            started, ok = False, False
            try:
                with self._lock:
                    self._inner = open_stream(self.pool.backends[i], self.request)
                    self.host = self.pool.hosts[i]
                if self._closed.is_set():
                    self._inner.close()
                    return
                for piece in self._inner:
                    started = True
                    yield piece
                ok = True
                return
            except DOWN_ERRORS as exc:
                if started:
                    raise
                self.pool.mark_down(i, exc)
                tried.add(i)
            finally:
                self.pool._release(i, ok)

    def result(self) -> ChatReply:
        if self._inner is None:
            raise RuntimeError("the stream was closed before it produced a reply")
        return _with_host(self._inner.result(), self.host)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            inner = self._inner
        if inner is not None:
            inner.close()


def _with_host(reply: ChatReply, host: str | None) -> ChatReply:
    if host is None or reply.host:
        return reply

    return replace(reply, host=host)


class EmbedPool:
    """An embedder over the same model on several hosts, with the chat pool's failover policy: a
    host that cannot be reached is marked down and the batch goes to the next healthy one; only
    when none is left does it fail (one sentence, :class:`ModelUnavailable`). Vectors do not
    depend on the host (every host serves the same digest, checked before work), so its name and
    cache key are the single host's."""

    def __init__(self, members: Sequence[Embedder]) -> None:
        if not members:
            raise ValueError("EmbedPool needs at least one embedder")
        self.members = list(members)
        self.name = self.members[0].name
        self.hosts = [str(getattr(m, "host", i)) for i, m in enumerate(self.members)]
        self.host = ", ".join(self.hosts)
        self._down: dict[int, str] = {}
        self._next = 0
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self._call(lambda m: m.dim)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._call(lambda m: m.embed(texts))

    def healthy(self) -> list[str]:
        with self._lock:
            return [h for i, h in enumerate(self.hosts) if i not in self._down]

    def _call(self, fn: Callable[[Embedder], T]) -> T:
        while True:
            with self._lock:
                alive = [i for i in range(len(self.members)) if i not in self._down]
                if not alive:
                    down = ", ".join(self.hosts)
                    raise ModelUnavailable(
                        f"No healthy model server is left for embeddings (down: {down}); start "
                        f"them again, or list working ones in the config's hosts (or with "
                        f"--host), then run the same command to resume."
                    )
                i = alive[self._next % len(alive)]
                self._next += 1
            try:
                return fn(self.members[i])
            except (ModelUnavailable, *DOWN_ERRORS) as exc:
                with self._lock:
                    self._down.setdefault(i, f"{type(exc).__name__}: {exc}")


def embed_hosts(config: Config) -> list[str]:
    """The servers an Ollama embedder uses: the chat hosts when chat goes to Ollama (one host list
    serves every role), else ``host``."""
    return chat_hosts(config) if config.backend == "ollama" else [config.host]


# ---- making the backend of a config ----------------------------------------------------------------
def chat_hosts(config: Config) -> list[str]:
    """The chat servers of a config: ``hosts`` when given, else ``[host]`` (deduplicated, in order)."""
    hosts = [h for h in config.hosts if h] or [config.host]
    return list(dict.fromkeys(h.rstrip("/") for h in hosts))


def make_chat_backend(config: Config, *, timeout_s: float | None = None) -> ChatBackend:
    """The chat backend a config asks for: Ollama at ``host``, a :class:`HostPool` over ``hosts``,
    or an OpenAI-compatible server at ``base_url`` (``backend = "openai"``)."""
    # No read timeout by default: the client's watchdog owns every wait (first chunk first_token_s,
    # then silence timeout_s); a read timeout of timeout_s would cut a model still loading.
    timeout = timeout_s
    backends: list[ChatBackend]
    if config.backend == "openai":
        urls = [u for u in config.hosts if u] or [config.base_url or config.host]
        backends = [OpenAIChat(u, api_key_env=config.api_key_env, timeout_s=timeout) for u in urls]
    else:
        # start-up: ollama loads only when this runs
        from seorap.engine.models.ollama_chat import OllamaChat

        backends = [OllamaChat(h, timeout) for h in chat_hosts(config)]
    if len(backends) == 1:
        return backends[0]
    return HostPool(backends, per_host=config.concurrency or 1)


def check_hosts(installed_by_host: dict[str, dict[str, str | None]], models: list[str]) -> None:
    """Refuse (one sentence) unless every host has every model with the same digest."""
    for model in dict.fromkeys(models):
        digests = {}
        for host, installed in installed_by_host.items():
            if model not in installed:
                raise ModelMissing(
                    f"The server at {host} does not have model {model!r}: pull it there "
                    f"(`OLLAMA_HOST={host} seorap models pull {model}`) or drop the host."
                )
            digests[host] = installed[model]
        if len({d for d in digests.values() if d}) > 1:
            listed = ", ".join(f"{h} {(d or '?')[:19]}" for h, d in digests.items())
            raise ModelError(
                f"The hosts serve different weights for {model!r} ({listed}): pull the "
                f"same version on every host, so cached replies mean the same model."
            )


def multi_or_openai(config: Config) -> bool:
    """True when the chat servers are not one Ollama (several hosts, or backend openai)."""
    return config.backend == "openai" or len(chat_hosts(config)) > 1


def preflight_hosts(config: Config, models: list[str]) -> None:
    """Before any work: every chat server answers and serves every model (the same digests on
    every Ollama host). Raises one-sentence ModelErrors."""
    backend = make_chat_backend(config, timeout_s=10.0)
    backends = getattr(backend, "backends", [backend])
    installed = {}
    for b in backends:
        try:
            installed[b.host] = b.installed()
        except Exception as exc:  # noqa: BLE001 - translated to one sentence
            # start-up: ollama loads only when this runs
            from seorap.engine.models import ollama_chat

            translate = getattr(b, "translate_error", None) or ollama_chat.translate_error
            raise (translate(exc, b.host, models[0] if models else "") or exc) from exc
    if config.backend == "openai":
        for host, names in installed.items():
            for model in models:
                if model not in names:
                    raise ModelMissing(
                        f"The server at {host} does not serve model {model!r} "
                        f"(it serves {', '.join(sorted(names)) or 'none'}): set the "
                        f"role's model to one of those names."
                    )
        return
    check_hosts(installed, models)
