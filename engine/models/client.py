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
- streaming: every call reads its reply chunk by chunk under two waits that measure silence, never
  work (engine/models/streaming.py); a reply that repeats itself is stopped there and counted
  (engine/models/loops.py);
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
- errors: retried as engine/models/retries.py says, then one sentence naming the fix
  (:class:`ModelUnavailable` / :class:`ModelMissing` / :class:`ModelTimeout` / :class:`ModelError`);
- thread safety: the runner calls from a thread pool; database access and counters take a lock,
  backend calls run outside it; an identical request already in flight on another thread is
  waited for and then served from the log (one model call, not two).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.models import calllog
from seorap.engine.models.base import (
    CallCancelled,
    ChatBackend,
    ChatReply,
    ChatRequest,
    ModelError,
)
from seorap.engine.models.cached import CallLogMixin
from seorap.engine.models.hosts import make_chat_backend
from seorap.engine.models.loops import find_loop, find_template_loop, prompt_words, repeat_start
from seorap.engine.models.replies import (
    CUT_REASONS,
    cut_text,
    failure_text,
    json_schema,
    repair_json,
    retry_messages,
    salvage_items,
)
from seorap.engine.models.results import ClientStats, Outcome, Structured
from seorap.engine.models.retries import (
    SERVER_ERROR_ATTEMPTS,
    TIMEOUT_ATTEMPTS,
    attempts_for,
    final_error,
    retry_room,
)
from seorap.engine.models.slots import HostSlots
from seorap.engine.models.streaming import StreamTimeout, StreamWatch, read_reply
from seorap.engine.run import accounting
from seorap.engine.run.pacer import Pacer

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger(__name__)


def _options(
    temperature: float, seed: int, num_ctx: int, num_predict: int | dict[str, int]
) -> dict[str, float]:
    """The sampling options sent with every call. Their num_predict is ``num_predict`` when that is
    one number, and 1024 (for the roles not listed) when it is given per role."""
    default_predict = num_predict if isinstance(num_predict, int) else 1024
    return {
        "temperature": temperature,
        "seed": seed,
        "num_ctx": num_ctx,
        "num_predict": default_predict,
    }


class ModelClient(CallLogMixin):
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
        slots: int | str | dict = "learn",
    ):
        self.backend = backend
        self.db = db
        self.replay = replay
        self.pacer: Pacer | None = None  # a replay's pace (engine/run/pacer.py); None: at once
        self.run_id = run_id
        self.keep_alive = keep_alive
        self.options = _options(temperature, seed, num_ctx, num_predict)
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
        self.slots = HostSlots(backend, slots)
        """Each host's slots: configured, or learned from first-token times (engine/models/slots.py)."""
        self._streams = StreamWatch(timeout_s, first_token_s, self._timed_out, self.slots.learner)
        """Streams being read now; the watchdog (and :meth:`cancel`) close them from its thread."""
        self._cancelled = self._streams.cancelled
        self._streams.extra_waiting = self.slots.waiting
        self._inflight: dict[str, threading.Event] = {}
        """Request keys being fetched from the backend now: an identical request on another
        thread waits for that reply (then a cache hit) instead of calling the model twice."""
        self._slots_noted: set[tuple[str, str]] = set()
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
            slots=config.slots,
        )

    # ---- cancelling ---------------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop now: close every open stream (from any thread) and refuse every later call with
        :class:`CallCancelled`. Idempotent; there is no way back (make a new client)."""
        self._streams.cancel()

    def note(
        self, name: str, role: str, model: str, run_id: str | None, phase: str, n: int = 1
    ) -> None:
        """Add ``n`` to one of the run's accounting counters from outside the client (e.g. the
        memory system's ``ungrounded`` observations)."""
        with self._lock:
            self._account(name, role, model, run_id, phase, n)

    def queued(self) -> dict[str, int]:
        """{host: our calls waiting in line there now} — behind our own streams on the server, or
        for one of the host's slots in our queue (the live view: "queued behind N of ours")."""
        out = dict(self._streams.queued())
        for host, n in self.slots.waiting().items():
            out[host] = out.get(host, 0) + n
        return out

    def streaming(self) -> dict[str, int]:
        """{host: our calls the host is streaming now}."""
        return self._streams.streaming()

    def on_queue(self, show: Callable[[str], None]) -> None:
        """``show(line)`` whenever the line "queued behind N of ours on HOST" changes ("" when
        nothing waits): the live view and the CLI progress show it."""
        self._streams.on_queue = show

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def open_streams(self) -> int:
        return self._streams.count()

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
            return self._salvaged(first, response_model, prompt_words(messages))
        with self._lock:
            self.stats.retries += 1
        retry_request = self._request(
            role,
            model,
            retry_messages(messages, first.reply, error),
            schema,
            think,
            num_predict=retry_room(request, first.reply),
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

    def _salvaged(
        self, outcome: Outcome, response_model: type[T], known: set[str]
    ) -> Structured[T]:
        """The complete items of a cut reply; a loop's repetitions are not items: the reply is
        read up to where a template began, or up to the first copy of a repeated span."""
        reply = outcome.reply
        content = reply.content
        kind = reply.loop_kind
        if reply.done_reason == "loop":
            start = find_template_loop(content, known)
            kind = kind or ("template" if start is not None else "repeat")
            if kind == "repeat":
                start = repeat_start(content)
            content = content[:start] if start is not None else content
        value, kept, dropped = salvage_items(content, response_model)
        why = cut_text(replace(reply, loop_kind=kind), self.options)
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
            loop_kind=kind if reply.done_reason == "loop" else None,
            failure=f"{why}: kept {kept} complete item(s), dropped {dropped} unfinished",
            **base,
        )

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
                role, model, again, None, think, num_predict=retry_room(request, first.reply)
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
        self,
        role: str,
        model: str,
        messages: list[dict],
        schema: dict | None,
        think: bool | None,
        *,
        num_predict: int | None = None,
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

    def _ok(
        self, outcome: Outcome, value: T, *, repaired: bool = False, retried: bool = False
    ) -> Structured[T]:
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
        return final_error(
            self.backend, exc, request, attempts, (self.timeout_s, self.first_token_s)
        )

    def _stream_call(self, request: ChatRequest) -> ChatReply:
        """Read one reply chunk by chunk under the two waits (and the host's slots); stop it on a
        loop."""
        assert self.backend is not None  # _call_backend said so in one sentence before
        with self.slots.hold(self._cancelled) as waited:
            reply = read_reply(self._streams, self.backend, request)
        if waited and not reply.queued_behind:
            reply = replace(reply, queued_behind=1)
        with self._lock:
            self.stats.cut_replies += reply.done_reason == "length"
            self.stats.loops += reply.done_reason == "loop"
            self.stats.template_loops += reply.loop_kind == "template"
        return reply

    def _timed_out(self) -> None:
        with self._lock:
            self.stats.timeouts += 1


__all__ = [
    "SERVER_ERROR_ATTEMPTS",
    "TIMEOUT_ATTEMPTS",
    "ClientStats",
    "ModelClient",
    "StreamTimeout",
    "Structured",
    "find_loop",
    "json_schema",
    "repair_json",
    "salvage_items",
]
