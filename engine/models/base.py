"""Small interfaces the engine talks to; backends are injected (docs/models.md).

Roles: extractor, synthesizer, answerer, judge (chat) and embedder. A chat backend only moves bytes:
it opens a :class:`ChatStream` for a request and closes it when asked. Caching, the call log, replay,
repair-and-retry, salvage of cut replies, the two waits (first token, silence between chunks), loop
detection, cancelling and error translation live in one wrapper,
:class:`engine.models.client.ModelClient`, never in the callers or the backends.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

# The model errors belong to this interface: callers catch them beside the Protocols (re-exported).
from seorap.engine.errors import ModelError as ModelError
from seorap.engine.errors import ModelMissing as ModelMissing
from seorap.engine.errors import ModelTimeout as ModelTimeout
from seorap.engine.errors import ModelUnavailable as ModelUnavailable
from seorap.engine.errors import ReplayMiss as ReplayMiss

ROLES = ("extractor", "synthesizer", "answerer", "judge", "embedder")


@dataclass(frozen=True)
class ChatRequest:
    role: str
    """extractor | synthesizer | answerer | judge."""
    model: str
    messages: tuple[dict, ...]
    """[{"role": "system"|"user"|"assistant", "content": str}, ...]."""
    schema: dict | None = None
    """JSON schema for structured output (Ollama ``format``)."""
    options: dict = field(default_factory=dict)
    """temperature, seed, num_ctx, num_predict."""
    keep_alive: str | None = None
    think: bool | None = None
    key_messages: tuple[dict, ...] | None = None
    """The messages the cache key reads when they differ from those sent: a known system's text
    that changes from day to day left out (engine/memory/mem0.py); None: ``messages``."""

    def key(self) -> str:
        """Cache key: everything that determines the reply (not keep_alive)."""
        body = {
            "model": self.model,
            "messages": list(self.messages if self.key_messages is None else self.key_messages),
            "schema": self.schema,
            "options": self.options,
            "think": self.think,
        }
        return hashlib.sha256(
            json.dumps(body, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()


@dataclass(frozen=True)
class ChatReply:
    content: str
    model: str
    digest: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    duration_ms: float = 0.0
    done_reason: str | None = None
    """"stop", "length" (cut at num_predict), or "loop" (stopped by us: the reply repeated itself)."""
    first_token_ms: float | None = None
    """Wait for the first chunk (model load, queue, prompt processing); ``duration_ms`` minus this
    is generation time (tokens/s = tokens_out / that)."""
    host: str | None = None
    """The server that made the reply (several hosts: the one the call went to)."""
    loop_kind: str | None = None
    """For a reply stopped as a loop: ``repeat`` (the same span) or ``template`` (the same item
    with a changing number or name). Not stored: :func:`engine.models.loops.loop_kind` re-derives
    it from the text."""
    queued_behind: int = 0
    """Our own requests the server was streaming while this one waited for its first chunk (or
    that held the host's slots while it waited in our queue): it waited in line, not for a dead
    server. Not stored in the call log."""


@runtime_checkable
class ChatStream(Protocol):
    """One reply as it is generated. Opening it does no I/O: the connection is made when iteration
    starts, so the stream can be registered (and closed) before the first byte arrives.

    - iterating yields the reply's text pieces as they arrive (raises the backend's own exceptions);
    - :meth:`result` after the iteration ended: the reply with counts, digest and done_reason;
    - :meth:`close` cancels: safe from any thread, at any moment (before, during or after the
      iteration), idempotent; a blocked read returns promptly and the server stops generating.
    """

    def __iter__(self) -> Iterator[str]: ...

    def result(self) -> ChatReply: ...

    def close(self) -> None: ...


@runtime_checkable
class ChatBackend(Protocol):
    """A chat server. ``stream`` must not block: see :class:`ChatStream`."""

    name: str

    def stream(self, request: ChatRequest) -> ChatStream: ...


class ChatOnlyBackend(Protocol):
    """A backend that answers in one piece (stand-ins, test doubles): :func:`open_stream` wraps it."""

    def chat(self, request: ChatRequest) -> ChatReply: ...


class ReplyStream:
    """A :class:`ChatStream` over a reply that is computed in one piece (stand-ins, test doubles
    that only have ``chat(request)``): ``produce`` runs when iteration starts; closing before that
    means it never runs. ``on_close`` (optional) is called on close, e.g. to cut a wait short."""

    def __init__(
        self, produce: Callable[[], ChatReply], on_close: Callable[[], None] | None = None
    ) -> None:
        self._produce = produce
        self._on_close = on_close
        self._reply: ChatReply | None = None
        self._closed = threading.Event()

    def __iter__(self) -> Iterator[str]:
        if self._closed.is_set():
            return
        self._reply = self._produce()
        if self._reply.content and not self._closed.is_set():
            yield self._reply.content

    def result(self) -> ChatReply:
        if self._reply is None:
            raise RuntimeError("the stream was closed before it produced a reply")
        return self._reply

    def close(self) -> None:
        self._closed.set()
        if self._on_close is not None:
            self._on_close()


def open_stream(backend: ChatBackend | ChatOnlyBackend, request: ChatRequest) -> ChatStream:
    """``backend.stream(request)``; a backend with only ``chat(request)`` is wrapped (one chunk)."""
    if hasattr(backend, "stream"):
        return backend.stream(request)
    return ReplyStream(lambda: backend.chat(request))


def collect(stream: ChatStream) -> ChatReply:
    """Read a whole stream (no timeouts: for tools and tests; the engine reads via ModelClient)."""
    try:
        for _ in stream:
            pass
        return stream.result()
    finally:
        stream.close()


@runtime_checkable
class Embedder(Protocol):
    name: str
    """Identifies the embedder and its settings (cache key, manifest), e.g. 'hashing-2-3gram-512'."""

    @property
    def dim(self) -> int:
        """The width of its vectors."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised (so dot product = cosine)."""
        ...


class CallCancelled(Exception):
    """The client was cancelled (Ctrl+C, or another worker hit a fatal error): the call stopped.
    Internal: the runner turns it into RunCancelled or reports the error that caused it."""
