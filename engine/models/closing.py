"""Cancel an HTTP stream from another thread: the part every streaming chat backend shares.

httpx gives no way to interrupt a read blocked in another thread, so the stream keeps the socket it
connected (httpx's ``trace`` extension reports it) and ``close()`` shuts it down: the blocked read
wakes with an error and the server sees the disconnect (Ollama then stops generating).
"""

from __future__ import annotations

import socket
import threading


class ClosableStream:
    """Mixin: call ``_init_closing()`` in ``__init__``, pass ``extensions={"trace": self._trace}``
    to the request, and check ``self._closed`` before starting."""

    def _init_closing(self) -> None:
        self._sock: socket.socket | None = None
        self._closed = threading.Event()
        self._lock = threading.Lock()

    def _trace(self, event: str, info: dict) -> None:
        if event == "connection.connect_tcp.complete":
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            with self._lock:
                self._sock = sock
            if self._closed.is_set():
                self._shutdown()

    def close(self) -> None:
        self._closed.set()
        self._shutdown()

    def _shutdown(self) -> None:
        with self._lock:
            sock = self._sock
        if sock is not None:
            try:  # shutdown (not close) wakes a recv blocked in another thread
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
