"""Reading one reply chunk by chunk under the two waits, and the watchdog that enforces them
(docs/models.md, "Waiting for a reply").

The waits measure silence, never work: the first chunk may take ``first_token_s`` (model load, the
server's queue), later chunks at most ``timeout_s`` apart. One watchdog thread per
:class:`StreamWatch`, alive while a stream is open, closes a stream that waited too long; closing is
also how a call is cancelled (the server then stops generating).

**A busy host is not a dead one.** A server with fewer generation slots than our concurrency
(Ollama's default on a small machine, llama.cpp's server) queues our second request while it streams
the first. So the wait for a first chunk runs only while the host produces nothing for us: it counts
from the later of the request's start and the last chunk any of our streams got from the same host.
While it waits behind streams of ours, :meth:`StreamWatch.queued` says so ("queued behind N of ours
on HOST").

The watchdog also feeds :class:`engine.models.slots.SlotLearner`, which learns how many of our
requests a host really streams at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from seorap.engine.models import activity
from seorap.engine.models.base import (
    CallCancelled,
    ChatBackend,
    ChatOnlyBackend,
    ChatReply,
    ChatRequest,
    ChatStream,
    ReplyStream,
    open_stream,
)
from seorap.engine.models.loops import (
    LOOP_CHECK_CHARS,
    TEMPLATE_ENDS,
    TEMPLATE_TAIL_CHARS,
    find_loop,
    find_template_loop,
    prompt_words,
)

if TYPE_CHECKING:
    from seorap.engine.models.slots import SlotLearner

log = logging.getLogger(__name__)


class StreamTimeout(Exception):
    """The watchdog closed a stream: no first chunk in time (``first_token``) or silence."""

    def __init__(self, first_token: bool) -> None:
        super().__init__("no first token in time" if first_token else "silent mid-reply")
        self.first_token = first_token


class OpenStream:
    """A stream being read, as the watchdog sees it."""

    def __init__(self, stream: ChatStream, host: str | None = None) -> None:
        self.stream = stream
        self.default_host = host
        self.opened = time.monotonic()
        self.saw_streaming = 0
        """The most other streams of ours seen streaming on this host while this one waited."""
        self.behind: set[OpenStream] = set()
        """Those streams (the slot learner judges, once this one started, whether they went on)."""
        self.judged = False
        """The slot learner has looked at this stream's start."""
        self.last: float | None = None
        """When the last chunk arrived (None: none yet)."""
        self.first: float | None = None
        """When the first chunk arrived."""
        self.reason: str | None = None
        """Why it was stopped: first | silent | cancel | loop (None: it was not)."""
        self.loop_kind: str | None = None
        """repeat | template, when stopped as a loop."""

    @property
    def host(self) -> str | None:
        """The server this stream talks to (several hosts: the one it was given, once known)."""
        return getattr(self.stream, "host", None) or self.default_host

    def stop(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
        try:
            self.stream.close()
        except Exception:  # noqa: BLE001 - closing is best effort; the reader sees the reason
            log.debug("closing a stream failed", exc_info=True)


class StreamWatch:
    """The open streams of one client and the watchdog thread that times them out."""

    def __init__(
        self,
        timeout_s: float,
        first_token_s: float,
        on_timeout: Callable[[], None],
        learner: SlotLearner | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.first_token_s = first_token_s
        self.on_timeout = on_timeout
        """Called (no arguments) each time the watchdog stops a stream for waiting too long."""
        self.cancelled = threading.Event()
        self._watch = threading.Condition()
        self._open: set[OpenStream] = set()
        self._watcher: threading.Thread | None = None
        self._last_chunk: dict[str | None, float] = {}
        """Per host: when one of our streams last got a chunk from it."""
        self.learner = learner
        """A :class:`engine.models.slots.SlotLearner` (or None)."""
        self.on_queue: Callable[[str], None] | None = None
        """Called with a line ("queued behind 1 of ours on HOST", "" when none waits) whenever
        that changes; ``extra_waiting`` adds requests waiting in the client's own queue."""
        self.extra_waiting: Callable[[], dict[str, int]] | None = None
        self._queue_text = ""

    # ---- what the host is doing for us --------------------------------------------------------
    def chunk(self, entry: OpenStream) -> None:
        """A chunk arrived on ``entry`` (called by the reader, on every chunk)."""
        now = time.monotonic()
        entry.last = now
        self._last_chunk[entry.host] = now
        activity.touch(entry.host)
        if entry.first is None:
            entry.first = now

    def _streaming(self, host: str | None, but: OpenStream | None = None) -> int:
        """Our streams on ``host`` that have started their reply (call under ``_watch``)."""
        return len(self._streams_on(host, but))

    def _streams_on(self, host: str | None, but: OpenStream | None = None) -> list[OpenStream]:
        return [
            e
            for e in self._open
            if e is not but and e.first is not None and e.reason is None and e.host == host
        ]

    def _judge(self, entry: OpenStream, now: float, done: bool = False) -> None:
        """Let the slot learner look at a stream's start, once it can tell what the streams it
        waited behind did after it (call under ``_watch``)."""
        if self.learner is None or entry.judged or entry.first is None:
            return
        if done or now >= entry.first + self.learner.margin_s:
            entry.judged = True
            self.learner.judge(entry)

    def busy_since(self, host: str | None) -> float:
        """When the host last sent us a chunk (no host known yet: any host)."""
        if host is None:
            return max(self._last_chunk.values(), default=0.0)
        return self._last_chunk.get(host, 0.0)

    def queued(self) -> dict[str, int]:
        """{host: our requests waiting for a first chunk while the host streams others of ours}."""
        out: dict[str, int] = {}
        with self._watch:
            for e in self._open:
                if e.first is None and e.reason is None and self._streaming(e.host, e):
                    out[str(e.host)] = out.get(str(e.host), 0) + 1
        return out

    def queue_text(self) -> str:
        """ "queued behind N of ours on HOST" for each host where our requests wait in line."""
        waiting = dict(self.queued())
        extra: dict[str, int] = self.extra_waiting() if self.extra_waiting else {}
        for host, n in extra.items():
            waiting[host] = waiting.get(host, 0) + n
        streaming = self.streaming()
        parts = []
        for host, n in sorted(waiting.items()):
            ahead = sum(v for h, v in streaming.items() if h == host or h in host.split(", "))
            more = f" ({n} waiting)" if n > 1 else ""
            parts.append(f"queued behind {ahead} of ours on {host}{more}")
        return "; ".join(parts)

    def _tell_queue(self) -> None:
        if self.on_queue is None:
            return
        text = self.queue_text()
        if text != self._queue_text:
            self._queue_text = text
            try:
                self.on_queue(text)
            except Exception:  # noqa: BLE001 - a display must never stop the model calls
                log.debug("showing the queue failed", exc_info=True)

    def streaming(self) -> dict[str, int]:
        """{host: our streams now producing a reply}."""
        with self._watch:
            hosts = {e.host for e in self._open if e.first is not None}
            return {str(h): self._streaming(h) for h in hosts}

    def cancel(self) -> None:
        """Close every open stream and refuse every later one (``cancelled`` is set)."""
        self.cancelled.set()
        with self._watch:
            for entry in list(self._open):
                entry.stop("cancel")
            self._watch.notify_all()

    def count(self) -> int:
        with self._watch:
            return len(self._open)

    def register(self, entry: OpenStream) -> None:
        with self._watch:
            if self.cancelled.is_set():
                entry.stop("cancel")
            self._open.add(entry)
            if self._watcher is None:  # a running watchdog sees the new stream on its next tick
                self._watcher = threading.Thread(
                    target=self._watchdog, name="seorap-model-watchdog", daemon=True
                )
                self._watcher.start()

    def unregister(self, entry: OpenStream) -> None:
        with self._watch:
            self._open.discard(entry)
            self._judge(entry, time.monotonic(), done=True)

    def _watchdog(self) -> None:
        tick = max(0.005, min(0.25, self.timeout_s / 20, self.first_token_s / 20))
        with self._watch:
            while self._open:
                now = time.monotonic()
                for entry in list(self._open):
                    if entry.reason is not None:
                        continue
                    self._judge(entry, now)
                    if entry.last is None:
                        others = self._streams_on(entry.host, entry)
                        entry.behind.update(others)
                        entry.saw_streaming = max(entry.saw_streaming, len(others))
                        since = max(entry.opened, self.busy_since(entry.host))
                        if now - since > self.first_token_s:
                            entry.stop("first")
                    elif entry.last is not None and now - entry.last > self.timeout_s:
                        entry.stop("silent")
                    if entry.reason in ("first", "silent"):
                        self.on_timeout()
                self._tell_queue()
                self._watch.wait(tick)
            self._watcher = None
            self._tell_queue()


def read_reply(
    watch: StreamWatch, backend: ChatBackend | ChatOnlyBackend, request: ChatRequest
) -> ChatReply:
    """Read one reply chunk by chunk under the two waits; stop it on a loop."""
    stream = open_stream(backend, request)
    host = getattr(backend, "host", None) if not hasattr(backend, "backends") else None
    entry = OpenStream(stream, host if isinstance(host, str) else None)
    watch.register(entry)
    pieces: list[str] = []
    try:
        reply = _read_pieces(watch, entry, stream, pieces, prompt_words(request.messages))
        _raise_for(entry.reason)
        if entry.reason == "loop":
            reply = ChatReply(
                content="".join(pieces),
                model=request.model,
                digest=digest_of(backend, request.model),
                tokens_out=len(pieces),
                done_reason="loop",
                loop_kind=entry.loop_kind,
                duration_ms=(time.monotonic() - entry.opened) * 1000,
            )
        elif reply is not None and reply.done_reason == "length":
            kind = _loop_in(reply.content, prompt_words(request.messages))
            if kind is not None:
                reply = ChatReply(**{**vars(reply), "done_reason": "loop", "loop_kind": kind})
        assert reply is not None
        # both measured here, from the moment the call was registered (connect included)
        first = round((entry.first - entry.opened) * 1000, 1) if entry.first is not None else None
        return ChatReply(
            **{
                **vars(reply),
                "first_token_ms": first,
                "duration_ms": (time.monotonic() - entry.opened) * 1000,
                "queued_behind": entry.saw_streaming,
            }
        )
    finally:
        watch.unregister(entry)
        stream.close()


def _loop_in(text: str, known: set[str]) -> str | None:
    if find_loop(text):
        return "repeat"
    return "template" if find_template_loop(text, known) is not None else None


def _read_pieces(
    watch: StreamWatch, entry: OpenStream, stream: ChatStream, pieces: list[str], known: set[str]
) -> ChatReply | None:
    """Iterate the stream into ``pieces``; the backend's reply, or None when it was stopped. An
    exact loop is looked for every LOOP_CHECK_CHARS characters, a templated one on every piece (in
    the reply's tail: a template repeated 5 times is stopped at its 5th repetition)."""
    size = 0
    # a reply computed in one piece is finished when it arrives: nothing left to stop
    checked = float("inf") if isinstance(stream, ReplyStream) else 0
    try:
        for piece in stream:
            watch.chunk(entry)
            pieces.append(piece)
            size += len(piece)
            if checked == float("inf"):
                continue
            text = "".join(pieces)
            kind = None
            if size - checked >= LOOP_CHECK_CHARS:
                checked = size
                kind = "repeat" if find_loop(text) else None
            if (
                kind is None
                and not TEMPLATE_ENDS.isdisjoint(piece)
                and find_template_loop(text[-TEMPLATE_TAIL_CHARS:], known) is not None
            ):
                kind = "template"
            if kind is not None:
                entry.loop_kind = kind
                entry.stop("loop")
                break
        if entry.reason is None:
            return stream.result()
    except Exception as exc:
        _raise_for(entry.reason, exc)
        if entry.reason != "loop":
            raise
    return None


def _raise_for(reason: str | None, cause: BaseException | None = None) -> None:
    if reason in ("first", "silent"):
        raise StreamTimeout(reason == "first") from cause
    if reason == "cancel":
        raise CallCancelled("the model client was cancelled") from cause


def digest_of(backend: object, model: str) -> str | None:
    fn = getattr(backend, "digest", None)
    digest: str | None = fn(model) if callable(fn) else None
    return digest
