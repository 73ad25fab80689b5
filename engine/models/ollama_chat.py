"""Chat with Ollama over its documented HTTP API, streamed (NDJSON) and cancellable
(docs/models.md, "Why httpx for chat").

This backend only moves bytes: :meth:`OllamaChat.stream` returns an :class:`OllamaStream` that opens
``POST /api/chat`` with ``"stream": true`` when iterated and yields the text pieces; httpx's
exceptions propagate unchanged and an error reply becomes ``ollama.ResponseError`` (the class the
``ollama`` client raises for the same answer). Timeouts (first token, silence), loops, caching,
logging, repair/retry/salvage and turning exceptions into one-sentence :class:`ModelError` messages
happen in :class:`engine.models.client.ModelClient`, which uses :func:`translate_error` and
:func:`is_transient` from here (the Ollama-specific knowledge).

Why httpx and not the ``ollama`` client for chat: the client's public API offers no time of the
first byte and no way to cancel a stream from another thread; its own HTTP connection is not public.
So streamed chat is a plain httpx request to the documented endpoint, and the ``ollama`` client is
kept for what its public API does (list, show, ps, pull, embed).

Cancelling: :meth:`OllamaStream.close` (from any thread) shuts the request's socket down, so a read
blocked in another thread returns at once and Ollama, seeing the client go, stops generating. The
socket is captured through httpcore's ``trace`` extension when the connection is made; the client
keeps no idle connections, so every call makes its own (a loopback connect costs well under a
millisecond, a model call seconds) and every call's socket is known.

ollama 0.6.3 facts this module relies on (docs/design.md#dependency-facts): ``Client(host)`` has
no default timeout (we set a connect timeout and a generous read backstop; the real waits are the
client's); server down -> ``httpx.ConnectError``; missing model -> HTTP 404 (``ResponseError``
with ``status_code == 404``); an error line inside a stream -> ``ResponseError`` with status -1.
Hosts are read as Ollama reads ``OLLAMA_HOST`` (:func:`ollama_url`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx

try:
    import ollama
except ValueError:  # ollama builds a default client from OLLAMA_HOST on import: a malformed value
    # must become our one sentence (BadHost, from make_client), not an import-time traceback
    _host = os.environ.pop("OLLAMA_HOST", None)
    try:
        import ollama
    finally:
        if _host is not None:
            os.environ["OLLAMA_HOST"] = _host

from seorap.engine.errors import BadHost
from seorap.engine.models.base import (
    ChatReply,
    ChatRequest,
    ModelError,
    ModelMissing,
    ModelUnavailable,
    collect,
)
from seorap.engine.models.closing import ClosableStream

CONNECT_TIMEOUT_S = 10.0
"""Connecting to the server (a refused connection fails at once; this bounds a black hole)."""


def make_client(
    host: str | None,
    timeout_s: float | None,
    *,
    connect_s: float | None = None,
    pooled: bool = True,
) -> ollama.Client:
    """An ``ollama.Client`` with a timeout (its default is none: a hung server would hang us).

    ``pooled=False``: no idle connections are kept, so each request makes (and traces) its own.
    A malformed host raises :class:`BadHost` (one sentence)."""
    timeout = (
        httpx.Timeout(timeout_s, connect=connect_s)
        if connect_s is not None and timeout_s
        else timeout_s
    )
    kwargs = {} if pooled else {"limits": httpx.Limits(max_keepalive_connections=0)}
    url = ollama_url(host)
    try:
        return ollama.Client(host=url, timeout=timeout, **kwargs)
    except (ValueError, TypeError, httpx.InvalidURL) as exc:
        raise BadHost(bad_host_message(host, exc)) from exc


def make_http(
    host: str | None, timeout_s: float | None, *, connect_s: float | None = None
) -> httpx.Client:
    """A plain httpx client for Ollama's HTTP API at ``host`` with no idle connections (each
    request makes, and traces, its own). A malformed host raises :class:`BadHost`."""
    timeout = httpx.Timeout(timeout_s, connect=connect_s)
    limits = httpx.Limits(max_keepalive_connections=0)
    try:
        return httpx.Client(base_url=ollama_url(host), timeout=timeout, limits=limits)
    except (ValueError, TypeError, httpx.InvalidURL) as exc:
        raise BadHost(bad_host_message(host, exc)) from exc


def ollama_url(host: str | None) -> str:
    """The server URL for ``host`` as Ollama reads ``OLLAMA_HOST`` (None or empty: the variable,
    else http://127.0.0.1:11434): the scheme defaults to http, the port to 11434 when neither
    scheme nor port is given (80 / 443 for an explicit http / https), a trailing slash is dropped.
    A malformed value raises :class:`BadHost`."""
    raw = (host or os.environ.get("OLLAMA_HOST") or "").strip()
    explicit = "://" in raw
    parts = urlsplit(raw if explicit else f"http://{raw}")
    try:
        port = parts.port
    except ValueError as exc:
        raise BadHost(bad_host_message(host, exc)) from exc
    if parts.scheme not in ("http", "https"):
        raise BadHost(bad_host_message(host, ValueError(f"scheme {parts.scheme!r}")))
    if port is None:
        port = {"http": 80, "https": 443}[parts.scheme] if explicit else 11434
    name = parts.hostname or "127.0.0.1"
    name = f"[{name}]" if ":" in name else name
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{name}:{port}{path}"


def bad_host_message(host: str | None, exc: BaseException | None = None) -> str:
    why = f" ({str(exc).rstrip('.')})" if exc else ""
    return (
        f"The Ollama host {host!r} is not a usable URL{why}; set OLLAMA_HOST, the config's "
        f"host or --host to something like http://localhost:11434."
    )


class OllamaStream(ClosableStream):
    """A :class:`engine.models.base.ChatStream` over one streamed ``/api/chat`` request."""

    def __init__(self, chat: OllamaChat, request: ChatRequest) -> None:
        self._chat = chat
        self._request = request
        self._final: dict | None = None
        self._pieces: list[str] = []
        self._started = 0.0
        self._init_closing()

    def body(self) -> dict:
        r = self._request
        body = {
            "model": r.model,
            "messages": list(r.messages),
            "stream": True,
            "options": dict(r.options),
        }
        if r.schema is not None:
            body["format"] = r.schema
        if r.keep_alive is not None:
            body["keep_alive"] = r.keep_alive
        if r.think is not None:
            body["think"] = r.think
        return body

    def __iter__(self) -> Iterator[str]:
        if self._closed.is_set():
            return
        self._started = time.perf_counter()
        with self._chat.http.stream(
            "POST", "/api/chat", json=self.body(), extensions={"trace": self._trace}
        ) as response:
            if response.status_code >= 400:
                response.read()
                raise ollama.ResponseError(_error_text(response), response.status_code)
            for line in response.iter_lines():
                if not line.strip():
                    continue
                part = json.loads(line)
                if err := part.get("error"):
                    raise ollama.ResponseError(err)
                piece = (part.get("message") or {}).get("content") or ""
                if part.get("done"):
                    self._final = part
                if piece:
                    self._pieces.append(piece)
                    yield piece

    def result(self) -> ChatReply:
        final = self._final or {}
        if self._final is None:
            raise httpx.RemoteProtocolError("the stream ended without its final (done) line")
        return ChatReply(
            content="".join(self._pieces),
            model=self._request.model,
            digest=self._chat.digest(self._request.model),
            tokens_in=final.get("prompt_eval_count") or 0,
            tokens_out=final.get("eval_count") or 0,
            duration_ms=(time.perf_counter() - self._started) * 1000,
            done_reason=final.get("done_reason"),
        )


def _error_text(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error") or response.text)
    except (ValueError, AttributeError):
        return response.text[:200]


class OllamaChat:
    """ChatBackend over Ollama's ``/api/chat`` (streamed, structured output via ``format``)."""

    name = "ollama"

    def __init__(self, host: str | None = None, timeout_s: float | None = None):
        """``timeout_s``: a backstop for one read (None: none); the waits that matter (first token,
        silence between chunks) are :class:`ModelClient`'s, which closes the stream."""
        self.client = make_client(host, timeout_s, connect_s=CONNECT_TIMEOUT_S, pooled=False)
        """The ``ollama`` client, for its public API: list, ps, pull."""
        self.http = make_http(host, timeout_s, connect_s=CONNECT_TIMEOUT_S)
        """Plain httpx, for streamed chat (first-byte timing, cancelling)."""
        self.host = str(self.http.base_url).rstrip("/")
        self.timeout_s = timeout_s
        self._digests: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def stream(self, request: ChatRequest) -> OllamaStream:
        return OllamaStream(self, request)

    def chat(self, request: ChatRequest) -> ChatReply:
        """The whole reply (no client-side waits): for tools and tests."""

        return collect(self.stream(request))

    def digest(self, model: str) -> str | None:
        """The model's digest from ``list()`` (cached per model; None when unknown)."""
        with self._lock:
            if model not in self._digests:
                try:
                    self._digests.update(self.installed())
                except Exception:  # noqa: BLE001 - a digest is bookkeeping, never a reason to fail
                    pass
                self._digests.setdefault(model, None)
            return self._digests[model]

    def installed(self) -> dict[str, str | None]:
        """{model name: digest} for every model the server has (``/api/tags``)."""
        out: dict[str, str | None] = {}
        for item in self.client.list().models:
            name = item.model or ""
            out[name] = item.digest
            if name.endswith(":latest"):
                out.setdefault(name[: -len(":latest")], item.digest)
        return out

    def loaded(self) -> list[str]:
        """Models currently loaded in memory (``/api/ps``)."""
        return [m.model or m.name or "" for m in self.client.ps().models]


def unavailable_message(host: str | None) -> str:
    return (
        f"Cannot reach the Ollama server at {host or 'the default host'}: start it with "
        f"`ollama serve` (or set OLLAMA_HOST / --host to where it runs)."
    )


def missing_message(model: str, host: str | None = None) -> str:
    where = f" at {host}" if host else ""
    return (
        f"The Ollama server{where} does not have model {model!r}: run "
        f"`seorap models pull {model}` (or `ollama pull {model}`)."
    )


def translate_error(exc: BaseException, host: str | None, model: str) -> ModelError | None:
    """A one-sentence ModelError for a known Ollama failure, or None for an unknown exception."""
    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, (ConnectionError, httpx.ConnectError)):
        return ModelUnavailable(unavailable_message(host))
    if isinstance(exc, ollama.ResponseError):
        if exc.status_code == 404:
            return ModelMissing(missing_message(model, host))
        return ModelError(
            f"Ollama at {host} failed for model {model!r}: {exc.error} "
            f"(status {exc.status_code}); check `ollama ps` and the server log."
        )
    if isinstance(exc, httpx.TimeoutException):
        return ModelError(
            f"Ollama at {host} did not answer for model {model!r} in time; raise "
            f"timeout_s in the config or check that the server is not overloaded."
        )
    if isinstance(
        exc, httpx.TransportError
    ):  # connection reset or closed mid-request: it went away
        return ModelUnavailable(unavailable_message(host))
    return None


def is_transient(exc: BaseException) -> bool:
    """Worth a retry: a 5xx, an error line inside a stream (-1), a timeout, a dropped connection."""
    if isinstance(exc, ollama.ResponseError):
        return exc.status_code >= 500 or exc.status_code == -1
    return isinstance(
        exc, (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
    )
