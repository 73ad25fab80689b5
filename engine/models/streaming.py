"""Reading one reply chunk by chunk under the two waits, and the watchdog that enforces them
(docs/models.md, "Waiting for a reply").

The waits measure silence, never work: the first chunk may take ``first_token_s`` (model load, the
server's queue), later chunks at most ``timeout_s`` apart. One watchdog thread per
:class:`StreamWatch`, alive while a stream is open, closes a stream that waited too long; closing is
also how a call is cancelled (the server then stops generating).
"""

from __future__ import annotations

import logging
import threading
import time

from seorap.engine.models.base import (
    CallCancelled,
    ChatReply,
    ChatRequest,
    ReplyStream,
    open_stream,
)
from seorap.engine.models.loops import LOOP_CHECK_CHARS, find_loop

log = logging.getLogger(__name__)


class StreamTimeout(Exception):
    """The watchdog closed a stream: no first chunk in time (``first_token``) or silence."""

    def __init__(self, first_token: bool) -> None:
        super().__init__("no first token in time" if first_token else "silent mid-reply")
        self.first_token = first_token


class OpenStream:
    """A stream being read, as the watchdog sees it."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.opened = time.monotonic()
        self.last: float | None = None
        """When the last chunk arrived (None: none yet)."""
        self.first: float | None = None
        """When the first chunk arrived."""
        self.reason: str | None = None
        """Why it was stopped: first | silent | cancel | loop (None: it was not)."""

    def stop(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
        try:
            self.stream.close()
        except Exception:  # noqa: BLE001 - closing is best effort; the reader sees the reason
            log.debug("closing a stream failed", exc_info=True)


class StreamWatch:
    """The open streams of one client and the watchdog thread that times them out."""

    def __init__(self, timeout_s: float, first_token_s: float, on_timeout) -> None:
        self.timeout_s = timeout_s
        self.first_token_s = first_token_s
        self.on_timeout = on_timeout
        """Called (no arguments) each time the watchdog stops a stream for waiting too long."""
        self.cancelled = threading.Event()
        self._watch = threading.Condition()
        self._open: set[OpenStream] = set()
        self._watcher: threading.Thread | None = None

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

    def _watchdog(self) -> None:
        tick = max(0.005, min(0.25, self.timeout_s / 20, self.first_token_s / 20))
        with self._watch:
            while self._open:
                now = time.monotonic()
                for entry in list(self._open):
                    if entry.reason is not None:
                        continue
                    if entry.last is None and now - entry.opened > self.first_token_s:
                        entry.stop("first")
                    elif entry.last is not None and now - entry.last > self.timeout_s:
                        entry.stop("silent")
                    if entry.reason in ("first", "silent"):
                        self.on_timeout()
                self._watch.wait(tick)
            self._watcher = None


def read_reply(watch: StreamWatch, backend, request: ChatRequest) -> ChatReply:
    """Read one reply chunk by chunk under the two waits; stop it on a loop."""
    stream = open_stream(backend, request)
    entry = OpenStream(stream)
    watch.register(entry)
    pieces: list[str] = []
    try:
        reply = _read_pieces(entry, stream, pieces)
        _raise_for(entry.reason)
        if entry.reason == "loop":
            reply = ChatReply(
                content="".join(pieces),
                model=request.model,
                digest=digest_of(backend, request.model),
                tokens_out=len(pieces),
                done_reason="loop",
                duration_ms=(time.monotonic() - entry.opened) * 1000,
            )
        elif reply is not None and reply.done_reason == "length" and find_loop(reply.content):
            reply = ChatReply(**{**vars(reply), "done_reason": "loop"})
        assert reply is not None
        # both measured here, from the moment the call was registered (connect included)
        first = round((entry.first - entry.opened) * 1000, 1) if entry.first is not None else None
        return ChatReply(
            **{
                **vars(reply),
                "first_token_ms": first,
                "duration_ms": (time.monotonic() - entry.opened) * 1000,
            }
        )
    finally:
        watch.unregister(entry)
        stream.close()


def _read_pieces(entry: OpenStream, stream, pieces: list[str]) -> ChatReply | None:
    """Iterate the stream into ``pieces``; the backend's reply, or None when it was stopped."""
    size = 0
    # a reply computed in one piece is finished when it arrives: nothing left to stop
    checked = float("inf") if isinstance(stream, ReplyStream) else 0
    try:
        for piece in stream:
            entry.last = time.monotonic()
            if entry.first is None:
                entry.first = entry.last
            pieces.append(piece)
            size += len(piece)
            if size - checked >= LOOP_CHECK_CHARS:
                checked = size
                if find_loop("".join(pieces)):
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


def digest_of(backend, model: str) -> str | None:
    fn = getattr(backend, "digest", None)
    return fn(model) if callable(fn) else None
