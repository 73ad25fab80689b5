"""Chat through the official ``ollama`` client (docs/models.md).

This backend only moves bytes: one request in, one :class:`ChatReply` out; ollama's exceptions
propagate unchanged. Caching, logging, repair/retry and turning exceptions into one-sentence
:class:`ModelError` messages happen in :class:`engine.models.client.ModelClient`, which uses
:func:`translate_error` and :func:`is_transient` from here (the Ollama-specific knowledge).

ollama 0.6.3 facts this module relies on (docs/design.md#dependency-facts): ``Client(host)`` has no
default timeout (we set one); server down -> builtin ``ConnectionError`` (``httpx.ConnectError`` while iterating a stream);
missing model -> ``ResponseError`` with ``status_code == 404``; an error line inside a stream ->
``ResponseError`` with status -1; timeouts -> ``httpx.TimeoutException`` subclasses.
"""

from __future__ import annotations

import threading
import time

import httpx
import ollama

from engine.models.base import (ChatReply, ChatRequest, ModelError, ModelMissing,
                                ModelUnavailable)


def make_client(host: str | None, timeout_s: float | None) -> ollama.Client:
    """An ``ollama.Client`` with a timeout (its default is none: a hung server would hang us)."""
    return ollama.Client(host=host, timeout=timeout_s)


class OllamaChat:
    """ChatBackend over ``ollama.Client.chat`` (non-streaming, structured output via ``format``)."""

    name = "ollama"

    def __init__(self, host: str | None = None, timeout_s: float | None = 120.0):
        self.client = make_client(host, timeout_s)
        self.host = str(self.client._client.base_url).rstrip("/")
        self.timeout_s = timeout_s
        self._digests: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def chat(self, request: ChatRequest) -> ChatReply:
        started = time.perf_counter()
        response = self.client.chat(
            model=request.model, messages=list(request.messages), format=request.schema,
            options=dict(request.options), keep_alive=request.keep_alive, think=request.think)
        duration_ms = (time.perf_counter() - started) * 1000
        return ChatReply(
            content=response.message.content or "", model=request.model,
            digest=self.digest(request.model), tokens_in=response.prompt_eval_count or 0,
            tokens_out=response.eval_count or 0, duration_ms=duration_ms,
            done_reason=response.done_reason)

    def digest(self, model: str) -> str | None:
        """The model's digest from ``list()`` (cached per model; None when unknown)."""
        with self._lock:
            if model not in self._digests:
                self._digests.update(self.installed())
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
    return (f"Cannot reach the Ollama server at {host or 'the default host'}: start it with "
            f"`ollama serve` (or set OLLAMA_HOST / --host to where it runs).")


def missing_message(model: str, host: str | None = None) -> str:
    where = f" at {host}" if host else ""
    return (f"The Ollama server{where} does not have model {model!r}: run "
            f"`seorap models pull {model}` (or `ollama pull {model}`).")


def translate_error(exc: BaseException, host: str | None, model: str) -> ModelError | None:
    """A one-sentence ModelError for a known Ollama failure, or None for an unknown exception."""
    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, (ConnectionError, httpx.ConnectError)):
        return ModelUnavailable(unavailable_message(host))
    if isinstance(exc, ollama.ResponseError):
        if exc.status_code == 404:
            return ModelMissing(missing_message(model, host))
        return ModelError(f"Ollama at {host} failed for model {model!r}: {exc.error} "
                          f"(status {exc.status_code}); check `ollama ps` and the server log.")
    if isinstance(exc, httpx.TimeoutException):
        return ModelError(f"Ollama at {host} did not answer for model {model!r} in time; raise "
                          f"timeout_s in the config or check that the server is not overloaded.")
    if isinstance(exc, httpx.TransportError):  # connection reset or closed mid-request: it went away
        return ModelUnavailable(unavailable_message(host))
    return None


def is_transient(exc: BaseException) -> bool:
    """Worth a retry: a 5xx, an error line inside a stream (-1), a timeout, a dropped connection."""
    if isinstance(exc, ollama.ResponseError):
        return exc.status_code >= 500 or exc.status_code == -1
    return isinstance(exc, (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError,
                            httpx.WriteError))
