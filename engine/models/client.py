"""ModelClient: the ONE wrapper around a chat backend (docs/models.md).

Why every model concern lives here and nowhere else: the memory system, the answerer and the judge
must stay plain "messages in, object out" code, and the guarantees the product makes — re-scoring
costs zero model calls, ``--replay`` never touches a server, a killed run repeats no finished call,
malformed output is a counted failure and never a crash, Ollama down / a model missing is one
sentence with the fix — only hold if they are implemented once, around every call. So this class
owns, for every call:

- request building: temperature, seed, num_ctx, num_predict (per role), keep_alive, ``think`` (False
  by default: qwen3-family models otherwise spend tokens thinking and break JSON), ``format`` = the
  pydantic model's JSON schema;
- streaming: every call reads its reply chunk by chunk; the waits measure silence, never work: the
  first chunk may take ``first_token_s`` (model load, the server's queue), later chunks at most
  ``timeout_s`` apart, so a slow model that keeps producing is never cut; one watchdog thread closes
  a stream that waited too long (closing is how a call is cancelled: the server then stops);
- loops: a reply whose tail is the same span of >= LOOP_MIN_TOKENS tokens LOOP_REPEATS times over is
  stopped there (done_reason "loop") and counted;
- cancelling: :meth:`cancel` closes every open stream from any thread and makes every later call
  raise :class:`CallCancelled` (Ctrl+C, or a fatal error in another worker);
- the cache: a request whose :meth:`ChatRequest.key` is in the ``calls`` table is served from it;
- replay: with ``replay=True`` only the log answers; a miss raises :class:`ReplayMiss`;
- the call log: every backend call, failed ones included, with tokens, duration, run and phase;
- malformed output: repair once (strip ``` fences / trailing text, cut to the outermost JSON
  object), retry once (re-ask with the validation error), then ``Structured(value=None, failure=..)``;
- cut replies (``done_reason`` "length" at ``num_predict``, or "loop"): with ``salvage=True``
  (list-shaped replies: extraction) the complete items are kept (pydantic-core partial JSON; the
  last, unfinished item dropped) and the result is ``partial``, with no re-ask; otherwise one
  re-ask with twice the room (at most ``num_ctx``), then a counted failure;
- prompt truncation: ``tokens_in >= num_ctx`` is flagged in the log and in the stats;
- errors: a 5xx (or an error line in a stream) is retried up to ``SERVER_ERROR_ATTEMPTS`` times in all
  with a doubling backoff (a flaky server answering 10% 500s must not stop a run of thousands of
  calls: one retry stops it with probability 1 - 0.99^calls), a timeout once (it already waited);
  then Ollama's exceptions become :class:`ModelUnavailable` / :class:`ModelMissing` /
  :class:`ModelTimeout` / :class:`ModelError` with one sentence naming the fix;
- thread safety: the runner calls from a thread pool; database access and counters take a lock,
  backend calls run outside it; an identical request already in flight on another thread is
  waited for and then served from the log (one model call, not two).
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import from_json
from seorap.engine.config import Config
from seorap.engine.models import calllog
from seorap.engine.models.base import (
    CallCancelled,
    ChatBackend,
    ChatReply,
    ChatRequest,
    ModelError,
    ModelTimeout,
    ReplayMiss,
    ReplyStream,
    open_stream,
)
from seorap.engine.models.ollama_chat import is_transient, translate_error
from seorap.engine.run import accounting
from sqlite_utils import Database

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger(__name__)


@dataclass
class Structured(Generic[T]):
    value: T | None
    """Parsed pydantic object; None on failure."""
    raw: str
    """Last raw text the model returned."""
    failure: str | None
    """None, or why it failed ("invalid JSON after repair and retry: ...", "cut at num_predict ...")."""
    cached: bool
    """Served from the call log (no backend call)."""
    call_key: str | None
    """ChatRequest.key() of the call that produced ``value`` (or the last attempt on failure)."""
    repaired: bool = False
    """The value needed the repair step (fences / trailing text stripped)."""
    retried: bool = False
    """The value (or failure) came from the re-ask after invalid output."""
    truncated: bool = False
    """The prompt reached num_ctx: Ollama may have silently cut it."""
    partial: bool = False
    """The reply was cut (num_predict or a loop) and ``value`` holds only its complete items."""
    salvaged: int = 0
    """Items kept from a cut reply (``partial``)."""


@dataclass
class ClientStats:
    """Counters since the client was made. ``calls`` = backend calls (cache hits excluded)."""

    calls: int = 0
    cached: int = 0
    by_role: dict[str, int] = field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    failures: int = 0
    repairs: int = 0
    retries: int = 0
    transient_retries: int = 0
    truncated_prompts: int = 0
    errors: int = 0
    cut_replies: int = 0
    """Backend replies cut at num_predict (done_reason "length")."""
    loops: int = 0
    """Backend replies stopped because they repeated themselves."""
    salvaged_items: int = 0
    """Items kept from cut replies (partial results)."""
    timeouts: int = 0
    """Streams closed for waiting too long (first token or silence)."""

    def __getitem__(self, key: str):
        return getattr(self, key)

    def as_dict(self) -> dict:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in vars(self).items()}


@dataclass
class _Outcome:
    reply: ChatReply
    cached: bool
    key: str
    truncated: bool
    parsed: tuple = (None, None, False)
    """parse_reply(reply, response_model) when a response model was given: parsed ONCE per reply."""
    role: str = ""
    run_id: str | None = None
    phase: str = ""


class ModelClient:
    def __init__(
        self,
        backend: ChatBackend | None,
        db: Database | None = None,
        *,
        replay: bool = False,
        run_id: str | None = None,
        keep_alive: str | None = "10m",
        seed: int = 0,
        num_ctx: int = 8192,
        num_predict: int | dict[str, int] = 1024,
        temperature: float = 0.0,
        retry_backoff_s: float = 0.5,
        timeout_s: float = 120.0,
        first_token_s: float = 900.0,
    ):
        self.backend = backend
        self.db = db
        self.replay = replay
        self.run_id = run_id
        self.keep_alive = keep_alive
        default_predict = num_predict if isinstance(num_predict, int) else 1024
        self.options = {
            "temperature": temperature,
            "seed": seed,
            "num_ctx": num_ctx,
            "num_predict": default_predict,
        }
        self.num_predict: dict[str, int] = (
            dict(num_predict) if isinstance(num_predict, dict) else {}
        )
        """num_predict per role (a role not listed gets ``options['num_predict']``)."""
        self.retry_backoff_s = retry_backoff_s
        self.timeout_s = timeout_s
        """Longest silence between two chunks once a reply has started."""
        self.first_token_s = first_token_s
        """Longest wait for the first chunk (model load + the server's queue)."""
        self.stats = ClientStats()
        self.key_filter: Callable[[list[dict]], list[dict]] | None = None
        """Messages -> what the cache key reads of them (ChatRequest.key_messages); None: all."""
        self._lock = threading.RLock()
        self._cancelled = threading.Event()
        self._watch = threading.Condition()
        self._open: set[_OpenStream] = set()
        """Streams being read now; the watchdog (and :meth:`cancel`) close them from its thread."""
        self._watcher: threading.Thread | None = None
        self._inflight: dict[str, threading.Event] = {}
        """Request keys being fetched from the backend now: an identical request on another
        thread waits for that reply (then a cache hit) instead of calling the model twice."""
        self._served: set[tuple[str | None, str]] = set()
        """(run, key) pairs this client already answered: serving one again is a re-read of a reply
        (the write phase re-reads extractions from the log), not a call saved by the cache."""
        if db is not None:
            calllog.ensure_calls_table(db)
            accounting.ensure_tables(db)
        if replay and db is None:
            raise ValueError("replay needs a database holding the call log")

    @classmethod
    def from_config(
        cls,
        config: Config,
        db: Database | None = None,
        *,
        backend: ChatBackend | None = None,
        replay: bool = False,
        run_id: str | None = None,
    ) -> ModelClient:
        """A client for a :class:`engine.config.Config`; the backend defaults to the config's
        (:func:`engine.models.hosts.make_chat_backend`: Ollama at host, several hosts, or openai)."""
        if backend is None and not replay:
            from seorap.engine.models.hosts import make_chat_backend

            backend = make_chat_backend(config)
        limits = config.num_predict
        predict = limits if isinstance(limits, int) else limits.model_dump()
        return cls(
            backend,
            db,
            replay=replay,
            run_id=run_id,
            keep_alive=config.keep_alive,
            seed=config.seed,
            num_ctx=config.num_ctx,
            num_predict=predict,
            temperature=config.temperature,
            timeout_s=config.timeout_s,
            first_token_s=config.first_token_s,
        )

    # ---- cancelling ---------------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop now: close every open stream (from any thread) and refuse every later call with
        :class:`CallCancelled`. Idempotent; there is no way back (make a new client)."""
        self._cancelled.set()
        with self._watch:
            for entry in list(self._open):
                entry.stop("cancel")
            self._watch.notify_all()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def open_streams(self) -> int:
        with self._watch:
            return len(self._open)

    # ---- public API -------------------------------------------------------------------------
    def structured(
        self,
        role: str,
        model: str,
        messages: list[dict],
        response_model: type[T],
        *,
        phase: str = "",
        think: bool | None = False,
        run_id: str | None = None,
        salvage: bool = False,
    ) -> Structured[T]:
        """One JSON answer parsed into ``response_model``; never raises for malformed output.

        ``salvage``: ``response_model`` has one list field (e.g. extraction's observations); a cut
        reply then keeps its complete items (``partial=True``) instead of being re-asked."""
        schema = json_schema(response_model)
        request = self._request(role, model, messages, schema, think)
        first = self._complete(request, phase, run_id, response_model)
        value, error, repaired = first.parsed
        if value is not None:
            return self._ok(first, value, repaired=repaired)
        if salvage and first.reply.done_reason in CUT_REASONS:
            return self._salvaged(first, response_model)
        with self._lock:
            self.stats.retries += 1
        retry_request = self._request(
            role,
            model,
            retry_messages(messages, first.reply, error),
            schema,
            think,
            num_predict=self._retry_room(request, first.reply),
        )
        second = self._complete(retry_request, phase, run_id, response_model)
        if not second.cached:
            with self._lock:
                self._account("retries", role, model, run_id, phase)
        value, error2, repaired = second.parsed
        if value is not None:
            return self._ok(second, value, repaired=repaired, retried=True)
        with self._lock:
            self.stats.failures += 1
            if not (first.cached and second.cached):
                self._account("failures", role, model, run_id, phase)
        failure = failure_text(second.reply, error2, retry_request.options)
        return Structured(
            value=None,
            raw=second.reply.content,
            failure=failure,
            cached=first.cached and second.cached,
            call_key=second.key,
            retried=True,
            truncated=first.truncated or second.truncated,
        )

    def _salvaged(self, outcome: _Outcome, response_model: type[T]) -> Structured[T]:
        reply = outcome.reply
        value, kept, dropped = salvage_items(reply.content, response_model)
        why = cut_text(reply, self.options)
        base: dict[str, Any] = dict(
            raw=reply.content,
            cached=outcome.cached,
            call_key=outcome.key,
            truncated=outcome.truncated,
        )
        with self._lock:
            if value is None:
                self.stats.failures += 1
            else:
                self.stats.salvaged_items += kept
            if (
                not outcome.cached
            ):  # stored per run (engine/run/accounting.py); a re-read is not new
                self._account(
                    "failures" if value is None else "salvaged",
                    outcome.role,
                    outcome.reply.model,
                    outcome.run_id,
                    outcome.phase,
                    1 if value is None else kept,
                )
        if value is None:
            return Structured(value=None, failure=f"{why}: no complete item to keep", **base)
        return Structured(
            value=value,
            partial=True,
            salvaged=kept,
            failure=f"{why}: kept {kept} complete item(s), dropped {dropped} unfinished",
            **base,
        )

    def _retry_room(self, request: ChatRequest, reply: ChatReply) -> int | None:
        """A reply cut at num_predict is re-asked with twice the room, at most num_ctx."""
        if reply.done_reason != "length":
            return None
        current = int(request.options.get("num_predict") or 0)
        ctx = int(request.options.get("num_ctx") or 0)
        return min(2 * current, ctx) if ctx else 2 * current

    def text(
        self,
        role: str,
        model: str,
        messages: list[dict],
        *,
        phase: str = "",
        think: bool | None = False,
        run_id: str | None = None,
    ) -> str:
        """Plain chat (answers); same cache, log, replay and error handling. A reply cut at
        num_predict (or stopped as a loop) is re-asked once with twice the room (at most num_ctx);
        cut again, it counts as a failure and its text is returned as it is."""
        request = self._request(role, model, messages, None, think)
        first = self._complete(request, phase, run_id)
        if first.reply.done_reason not in CUT_REASONS:
            return first.reply.content
        with self._lock:
            self.stats.retries += 1
        again = (
            list(messages)
            if first.reply.done_reason == "length"
            else retry_messages(messages, first.reply, None, structured=False)
        )
        second = self._complete(
            self._request(
                role, model, again, None, think, num_predict=self._retry_room(request, first.reply)
            ),
            phase,
            run_id,
        )
        if second.reply.done_reason in CUT_REASONS:
            with self._lock:
                self.stats.failures += 1
        return second.reply.content

    def build_request(
        self,
        role: str,
        model: str,
        messages: list[dict],
        schema: dict | None = None,
        think: bool | None = False,
    ) -> ChatRequest:
        """The exact request a call would send (the planner counts prompts and cache hits with it)."""
        return self._request(role, model, messages, schema, think)

    # ---- internals --------------------------------------------------------------------------
    def predict_for(self, role: str) -> int:
        return int(self.num_predict.get(role, self.options["num_predict"]))

    def _request(
        self, role, model, messages, schema, think, *, num_predict: int | None = None
    ) -> ChatRequest:
        options = {**self.options, "num_predict": num_predict or self.predict_for(role)}
        return ChatRequest(
            role=role,
            model=model,
            messages=tuple(dict(m) for m in messages),
            schema=schema,
            options=options,
            keep_alive=self.keep_alive,
            think=think,
            key_messages=tuple(self.key_filter(list(messages))) if self.key_filter else None,
        )

    def _account(
        self, name: str, role: str, model: str, run_id: str | None, phase: str, n: int = 1
    ) -> None:
        """Store one accounting counter for the run (engine/run/accounting.py); call under the lock."""
        if self.db is not None:
            accounting.bump(self.db, run_id or self.run_id, phase, role, model, name, n)

    def _ok(self, outcome: _Outcome, value, *, repaired=False, retried=False) -> Structured:
        if repaired:
            with self._lock:
                self.stats.repairs += 1
                if not outcome.cached:
                    self._account(
                        "repairs", outcome.role, outcome.reply.model, outcome.run_id, outcome.phase
                    )
        return Structured(
            value=value,
            raw=outcome.reply.content,
            failure=None,
            cached=outcome.cached,
            call_key=outcome.key,
            repaired=repaired,
            retried=retried,
            truncated=outcome.truncated,
        )

    def _complete(
        self,
        request: ChatRequest,
        phase: str,
        run_id: str | None,
        response_model: type[BaseModel] | None = None,
    ) -> _Outcome:
        key = request.key()
        while True:
            with self._lock:
                row = self._lookup(key)
                waiting = self._inflight.get(key) if row is None else None
                if row is None and waiting is None:
                    self._inflight[key] = threading.Event()
            if row is not None:
                served = (run_id or self.run_id, key)
                with self._lock:
                    self.stats.cached += 1
                    if served not in self._served:  # a re-read of our own reply is no saving
                        self._served.add(served)
                        self._account("cached", request.role, request.model, run_id, phase)
                reply = calllog.reply_from_row(row)
                return _Outcome(
                    reply,
                    True,
                    key,
                    bool(row.get("prompt_truncated")),
                    _parse(reply, response_model),
                    request.role,
                    run_id,
                    phase,
                )
            if waiting is None:
                break
            waiting.wait()  # the same request is in flight on another thread: reuse its reply
        try:
            return self._fetch(request, key, phase, run_id, response_model)
        finally:
            with self._lock:
                self._inflight.pop(key).set()

    def _fetch(
        self,
        request: ChatRequest,
        key: str,
        phase: str,
        run_id: str | None,
        response_model: type[BaseModel] | None,
    ) -> _Outcome:
        if self.replay:
            raise ReplayMiss(
                f"--replay: no logged call for role {request.role!r} with model {request.model!r} "
                f"(key {key[:12]}); run once without --replay to record it."
            )
        reply = self._call_backend(request, phase, run_id)
        truncated = reply.tokens_in >= int(request.options.get("num_ctx") or 0) > 0
        if truncated:
            log.warning(
                "prompt for %s/%s reached num_ctx=%s tokens; Ollama may have cut it",
                request.role,
                request.model,
                request.options.get("num_ctx"),
            )
        outcome = _parse(reply, response_model)
        parsed = outcome[0].model_dump(mode="json") if outcome[0] is not None else None
        with self._lock:
            self._count(request.role, reply, truncated)
            self._served.add((run_id or self.run_id, key))
            if self.db is not None:
                calllog.put_call(
                    self.db,
                    request,
                    reply=reply,
                    run_id=run_id or self.run_id,
                    phase=phase,
                    parsed=parsed,
                    prompt_truncated=truncated,
                    key=key,
                )
        return _Outcome(reply, False, key, truncated, outcome, request.role, run_id, phase)

    def _lookup(self, key: str) -> dict | None:
        if self.db is None:
            return None
        with self._lock:
            return calllog.get_call(self.db, key)

    def _call_backend(self, request: ChatRequest, phase: str, run_id: str | None) -> ChatReply:
        if self.backend is None:
            raise ModelError(
                "No chat backend is configured; run without --replay or pass --offline."
            )
        attempt = 0
        while True:
            attempt += 1
            if self._cancelled.is_set():
                raise CallCancelled("the model client was cancelled")
            try:
                reply = self._stream_call(request)
                host = getattr(self.backend, "host", None)
                if (
                    reply.host is None
                    and isinstance(host, str)
                    and not hasattr(self.backend, "backends")
                ):
                    reply = replace(reply, host=host)
                return reply
            except CallCancelled:
                raise
            except Exception as exc:  # noqa: BLE001 - classified below
                if self._cancelled.is_set():
                    raise CallCancelled("the model client was cancelled") from exc
                self._log_error(request, phase, run_id, exc)
                if attempt < attempts_for(exc, self.backend):
                    with self._lock:
                        self.stats.transient_retries += 1
                    if self._cancelled.wait(
                        min(self.retry_backoff_s * 2 ** (attempt - 1), 8 * self.retry_backoff_s)
                    ):
                        raise CallCancelled("the model client was cancelled") from exc
                    continue
                translated = self._translate(exc, request, attempt)
                if translated is None:
                    raise
                raise translated from exc

    def _translate(
        self, exc: BaseException, request: ChatRequest, attempts: int
    ) -> ModelError | None:
        host = getattr(self.backend, "host", None) or "the server"
        if isinstance(exc, StreamTimeout):
            tries = "once" if attempts == 1 else f"on each of {attempts} attempts"
            if exc.first_token:
                return ModelTimeout(
                    f"{host} sent no reply from model {request.model!r} within {self.first_token_s:g} s "
                    f"({tries}); raise first_token_s in the config if the model is slow to load, or "
                    f"check that the server is not stuck."
                )
            return ModelTimeout(
                f"{host} stopped sending in the middle of a reply from model {request.model!r} "
                f"(silent for {self.timeout_s:g} s, {tries}); check the server, or raise timeout_s "
                f"in the config."
            )
        translate = getattr(self.backend, "translate_error", None) or translate_error
        return translate(exc, getattr(self.backend, "host", None), request.model)

    def _stream_call(self, request: ChatRequest) -> ChatReply:
        """Read one reply chunk by chunk under the two waits; stop it on a loop."""
        stream = open_stream(self.backend, request)
        entry = _OpenStream(stream)
        self._register(entry)
        pieces: list[str] = []
        size = 0
        # a reply computed in one piece is finished when it arrives: nothing left to stop
        checked = float("inf") if isinstance(stream, ReplyStream) else 0
        try:
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
                    reply = stream.result()
            except Exception as exc:
                if entry.reason in ("first", "silent"):
                    raise StreamTimeout(entry.reason == "first") from exc
                if entry.reason == "cancel":
                    raise CallCancelled("the model client was cancelled") from exc
                if entry.reason != "loop":
                    raise
            if entry.reason in ("first", "silent"):
                raise StreamTimeout(entry.reason == "first")
            if entry.reason == "cancel":
                raise CallCancelled("the model client was cancelled")
            if entry.reason == "loop":
                text = "".join(pieces)
                reply = ChatReply(
                    content=text,
                    model=request.model,
                    digest=_digest(self.backend, request.model),
                    tokens_out=len(pieces),
                    done_reason="loop",
                    duration_ms=(time.monotonic() - entry.opened) * 1000,
                )
            elif reply.done_reason == "length" and find_loop(reply.content):
                reply = ChatReply(**{**vars(reply), "done_reason": "loop"})
            # both measured here, from the moment the call was registered (connect included)
            first = (
                round((entry.first - entry.opened) * 1000, 1) if entry.first is not None else None
            )
            reply = ChatReply(
                **{
                    **vars(reply),
                    "first_token_ms": first,
                    "duration_ms": (time.monotonic() - entry.opened) * 1000,
                }
            )
        finally:
            self._unregister(entry)
            stream.close()
        with self._lock:
            self.stats.cut_replies += reply.done_reason == "length"
            self.stats.loops += reply.done_reason == "loop"
        return reply

    # ---- the watchdog: one thread per client, alive while a stream is open --------------------
    def _register(self, entry: _OpenStream) -> None:
        with self._watch:
            if self._cancelled.is_set():
                entry.stop("cancel")
            self._open.add(entry)
            if self._watcher is None:  # a running watchdog sees the new stream on its next tick
                self._watcher = threading.Thread(
                    target=self._watchdog, name="seorap-model-watchdog", daemon=True
                )
                self._watcher.start()

    def _unregister(self, entry: _OpenStream) -> None:
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
                        with self._lock:
                            self.stats.timeouts += 1
                self._watch.wait(tick)
            self._watcher = None

    def _log_error(self, request, phase, run_id, exc) -> None:
        with self._lock:
            self.stats.errors += 1
            if self.db is not None:
                calllog.put_call(
                    self.db,
                    request,
                    run_id=run_id or self.run_id,
                    phase=phase,
                    error=f"{type(exc).__name__}: {exc}"[:2000],
                )

    def _count(self, role: str, reply: ChatReply, truncated: bool) -> None:
        s = self.stats
        s.calls += 1
        s.by_role[role] = s.by_role.get(role, 0) + 1
        s.tokens_in += reply.tokens_in
        s.tokens_out += reply.tokens_out
        s.truncated_prompts += int(truncated)


SERVER_ERROR_ATTEMPTS = 6
"""Attempts in all for a 5xx / stream error line (backoff 0.5, 1, 2, 4, 4 s at the default 0.5)."""
TIMEOUT_ATTEMPTS = 2
"""Attempts in all for a timeout: each one already waited ``timeout_s``."""


class StreamTimeout(Exception):
    """The watchdog closed a stream: no first chunk in time (``first_token``) or silence."""

    def __init__(self, first_token: bool) -> None:
        super().__init__("no first token in time" if first_token else "silent mid-reply")
        self.first_token = first_token


class _OpenStream:
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


def _digest(backend, model: str) -> str | None:
    fn = getattr(backend, "digest", None)
    return fn(model) if callable(fn) else None


CUT_REASONS = ("length", "loop")
LOOP_MIN_TOKENS = 20
"""A loop: the same span of at least this many tokens ..."""
LOOP_REPEATS = 3
"""... repeated this many times in a row at the end of the reply."""
LOOP_MAX_SPAN = 600
"""Longest span looked for (tokens); longer repetitions end at num_predict anyway."""
LOOP_CHECK_CHARS = 96
"""Look for a loop each time the reply grew by this many characters."""
_TOKEN = re.compile(r"\w+|[^\w\s]")


def find_loop(text: str, min_tokens: int = LOOP_MIN_TOKENS, repeats: int = LOOP_REPEATS) -> bool:
    """True when ``text`` ends in the same span of >= ``min_tokens`` tokens ``repeats`` times in a
    row. Tokens are words and single punctuation marks (whitespace ignored), a model-independent
    stand-in for the model's own tokens (one of them is usually shorter than a word)."""
    tokens = _TOKEN.findall(text)
    n = len(tokens)
    for span in range(min_tokens, min(LOOP_MAX_SPAN, n // repeats) + 1):
        last = tokens[-1]
        if any(tokens[-1 - k * span] != last for k in range(1, repeats)):
            continue
        tail = tokens[n - span :]
        if all(tokens[n - (k + 1) * span : n - k * span] == tail for k in range(1, repeats)):
            return True
    return False


def attempts_for(exc: BaseException, backend=None) -> int:
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


# ---- parsing (pure functions) ---------------------------------------------------------------
_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?|\n?\s*```\s*$")


def repair_json(raw: str) -> str:
    """Strip ``` fences and cut to the outermost JSON object (drops leading/trailing prose)."""
    text = _FENCE.sub("", raw.strip())
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def parse_reply(reply: ChatReply, response_model: type[T]) -> tuple[T | None, str | None, bool]:
    """(value, error, repaired). A reply cut at num_predict (or stopped as a loop) is never
    accepted whole (see :func:`salvage_items`)."""
    if reply.done_reason == "length":
        return None, "the reply was cut at num_predict", False
    if reply.done_reason == "loop":
        return None, "the reply repeated itself (a loop) and was stopped", False
    try:
        return response_model.model_validate_json(reply.content), None, False
    except ValidationError as first:
        fixed = repair_json(reply.content)
        if fixed != reply.content:
            try:
                return response_model.model_validate_json(fixed), None, True
            except ValidationError as second:
                return None, _short(second), False
        return None, _short(first), False


def list_field(response_model: type[BaseModel]) -> str:
    """The name of the model's (first) list-typed field: the one a cut reply is salvaged from."""
    for name, info in response_model.model_fields.items():
        if getattr(info.annotation, "__origin__", None) is list:
            return name
    raise TypeError(f"{response_model.__name__} has no list field to salvage")


def salvage_items(content: str, response_model: type[T]) -> tuple[T | None, int, int]:
    """(value, kept, dropped) from a reply cut mid-way: pydantic-core's partial JSON parser reads
    what was written; the last item is dropped unless it was closed; every complete item that
    validates is kept. ``value`` is None when no item survives."""
    name = list_field(response_model)
    item_type = TypeAdapter(get_args(response_model.model_fields[name].annotation)[0])
    text = _FENCE.sub("", content.strip())
    start = text.find("{")
    text = text[start:] if start >= 0 else text
    try:
        data = from_json(text, allow_partial=True)
    except ValueError:
        return None, 0, 0
    items = data.get(name) if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        return None, 0, 0
    if not _last_item_closed(text, name, len(items)):
        items = items[:-1]
    kept = []
    for item in items:
        try:
            kept.append(item_type.validate_python(item))
        except ValidationError:
            continue
    dropped = len(data[name]) - len(kept)
    if not kept:
        return None, 0, dropped
    try:
        return response_model.model_validate({name: kept}), len(kept), dropped
    except ValidationError:
        return None, 0, dropped + len(kept)


def _last_item_closed(text: str, name: str, count: int) -> bool:
    """Whether the list's last item ended with its closing brace: the text up to the last "}",
    closed by "]}", must parse strictly with the same number of items."""
    end = text.rfind("}")
    if end < 0:
        return False
    try:
        data = from_json(text[: end + 1] + "]}")
    except ValueError:
        try:  # the list itself was closed (the cut came after it)
            data = from_json(text[: end + 1])
        except ValueError:
            return False
    items = data.get(name) if isinstance(data, dict) else None
    return isinstance(items, list) and len(items) == count


def cut_text(reply: ChatReply, options: dict) -> str:
    if reply.done_reason == "loop":
        return "stopped: the reply repeated itself"
    return f"cut at num_predict ({reply.tokens_out or options.get('num_predict')} tokens)"


def retry_messages(
    messages: list[dict], reply: ChatReply, error: str | None, *, structured: bool = True
) -> list[dict]:
    if not structured:
        ask = "Your reply repeated the same text over and over and was stopped. Answer again, briefly."
        return [
            *messages,
            {"role": "assistant", "content": reply.content},
            {"role": "user", "content": ask},
        ]
    if reply.done_reason == "length":
        ask = (
            "Your reply was cut off at the token limit. Reply again with a shorter, complete "
            "JSON object that matches the schema, and nothing else."
        )
    elif reply.done_reason == "loop":
        ask = (
            "Your reply repeated the same text over and over and was stopped. Reply again with "
            "a short, complete JSON object that matches the schema, and nothing else."
        )
    else:
        ask = (
            f"Your reply was not valid JSON for the schema: {error}. Reply again with only a "
            f"JSON object that matches the schema, and nothing else."
        )
    return [
        *messages,
        {"role": "assistant", "content": reply.content},
        {"role": "user", "content": ask},
    ]


def failure_text(reply: ChatReply, error: str | None, options: dict) -> str:
    if reply.done_reason == "length":
        return f"cut at num_predict ({options.get('num_predict')} tokens) after retry"
    if reply.done_reason == "loop":
        return "stopped: the reply repeated itself (a loop) after retry"
    return f"invalid JSON after repair and retry: {error}"


def _short(exc: ValidationError) -> str:
    errs = exc.errors()
    first: dict = dict(errs[0]) if errs else {}
    loc = ".".join(str(p) for p in first.get("loc", ())) or "(root)"
    more = f" (+{len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{loc}: {first.get('msg', str(exc))}{more}"[:300]


def _parse(reply: ChatReply, response_model: type[BaseModel] | None) -> tuple:
    """parse_reply, or (None, None, False) for plain text calls."""
    if response_model is None:
        return None, None, False
    return parse_reply(reply, response_model)


@functools.cache
def _schema_json(response_model: type[BaseModel]) -> str:
    return json.dumps(response_model.model_json_schema())


def json_schema(response_model: type[BaseModel]) -> dict:
    """``response_model.model_json_schema()``, generated once per class (it costs ~1 ms, a quarter
    of the engine's time per call before it was cached); each call gets its own copy."""
    return json.loads(_schema_json(response_model))
