"""How often a failed model call is tried again, and the sentence it ends with (docs/models.md).

A 5xx (or an error line in a stream) is retried up to :data:`SERVER_ERROR_ATTEMPTS` times in all
with a doubling backoff (a flaky server answering 10% 500s must not stop a run of thousands of
calls: one retry stops it with probability 1 - 0.99^calls), a timeout once (it already waited).
"""

from __future__ import annotations

from seorap.engine.models.base import ChatReply, ChatRequest, ModelError, ModelTimeout
from seorap.engine.models.ollama_chat import is_transient, translate_error
from seorap.engine.models.streaming import StreamTimeout

SERVER_ERROR_ATTEMPTS = 6
"""Attempts in all for a 5xx / stream error line (backoff 0.5, 1, 2, 4, 4 s at the default 0.5)."""
TIMEOUT_ATTEMPTS = 2
"""Attempts in all for a timeout: each one already waited ``timeout_s``."""


def attempts_for(exc: BaseException, backend: object = None) -> int:
    """How many attempts in all a call gets when it fails with ``exc`` (1: not transient). A backend
    with its own ``is_transient`` (another server kind) decides for its exceptions."""
    if isinstance(exc, StreamTimeout):
        return TIMEOUT_ATTEMPTS
    transient = getattr(backend, "is_transient", None) or is_transient
    if not transient(exc):
        return 1
    return (
        SERVER_ERROR_ATTEMPTS if getattr(exc, "status_code", None) is not None else TIMEOUT_ATTEMPTS
    )


def final_error(
    backend: object,
    exc: BaseException,
    request: ChatRequest,
    attempts: int,
    waits: tuple[float, float],
) -> ModelError | None:
    """The one-sentence error a call ends with after ``attempts`` tries (None: unknown exception).
    ``waits``: (timeout_s, first_token_s) of the client."""
    timeout_s, first_token_s = waits
    host = getattr(backend, "host", None) or "the server"
    if isinstance(exc, StreamTimeout):
        tries = "once" if attempts == 1 else f"on each of {attempts} attempts"
        if exc.first_token:
            return ModelTimeout(
                f"{host} sent no reply from model {request.model!r} within {first_token_s:g} s "
                f"({tries}); raise first_token_s in the config if the model is slow to load, or "
                f"check that the server is not stuck."
            )
        return ModelTimeout(
            f"{host} stopped sending in the middle of a reply from model {request.model!r} "
            f"(silent for {timeout_s:g} s, {tries}); check the server, or raise timeout_s "
            f"in the config."
        )
    translate = getattr(backend, "translate_error", None) or translate_error
    return translate(exc, getattr(backend, "host", None), request.model)


def retry_room(request: ChatRequest, reply: ChatReply) -> int | None:
    """A reply cut at num_predict is re-asked with twice the room, at most num_ctx."""
    if reply.done_reason != "length":
        return None
    current = int(request.options.get("num_predict") or 0)
    ctx = int(request.options.get("num_ctx") or 0)
    return min(2 * current, ctx) if ctx else 2 * current
