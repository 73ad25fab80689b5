"""ModelClient: the ONE wrapper around a chat backend (docs/models.md).

Why every model concern lives here and nowhere else: the memory system, the answerer and the judge
must stay plain "messages in, object out" code, and the guarantees the product makes — re-scoring
costs zero model calls, ``--replay`` never touches a server, a killed run repeats no finished call,
malformed output is a counted failure and never a crash, Ollama down / a model missing is one
sentence with the fix — only hold if they are implemented once, around every call. So this class
owns, for every call:

- request building: temperature, seed, num_ctx, num_predict, keep_alive, ``think`` (False by default:
  qwen3-family models otherwise spend tokens thinking and break JSON), ``format`` = the pydantic
  model's JSON schema;
- the cache: a request whose :meth:`ChatRequest.key` is in the ``calls`` table is served from it;
- replay: with ``replay=True`` only the log answers; a miss raises :class:`ReplayMiss`;
- the call log: every backend call, failed ones included, with tokens, duration, run and phase;
- malformed output: repair once (strip ``` fences / trailing text, cut to the outermost JSON
  object), retry once (re-ask with the validation error), then ``Structured(value=None, failure=..)``;
  a reply cut at ``num_predict`` (``done_reason == "length"``) counts as malformed;
- prompt truncation: ``tokens_in >= num_ctx`` is flagged in the log and in the stats;
- errors: a 5xx (or an error line in a stream) is retried up to ``SERVER_ERROR_ATTEMPTS`` times in all
  with a doubling backoff (a flaky server answering 10% 500s must not stop a run of thousands of
  calls: one retry stops it with probability 1 - 0.99^calls), a timeout once (it already waited
  ``timeout_s``); then Ollama's exceptions become
  :class:`ModelUnavailable` / :class:`ModelMissing` / :class:`ModelError` with one sentence naming the fix;
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
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from engine.models import calllog
from engine.models.base import ChatBackend, ChatReply, ChatRequest, ModelError, ReplayMiss
from engine.models.ollama_chat import is_transient, translate_error

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


class ModelClient:
    def __init__(self, backend: ChatBackend | None, db=None, *, replay: bool = False,
                 run_id: str | None = None, keep_alive: str | None = "10m", seed: int = 0,
                 num_ctx: int = 8192, num_predict: int = 1024, temperature: float = 0.0,
                 retry_backoff_s: float = 0.5):
        self.backend = backend
        self.db = db
        self.replay = replay
        self.run_id = run_id
        self.keep_alive = keep_alive
        self.options = {"temperature": temperature, "seed": seed, "num_ctx": num_ctx,
                        "num_predict": num_predict}
        self.retry_backoff_s = retry_backoff_s
        self.stats = ClientStats()
        self._lock = threading.RLock()
        self._inflight: dict[str, threading.Event] = {}
        """Request keys being fetched from the backend now: an identical request on another
        thread waits for that reply (then a cache hit) instead of calling the model twice."""
        if db is not None:
            calllog.ensure_calls_table(db)
        if replay and db is None:
            raise ValueError("replay needs a database holding the call log")

    @classmethod
    def from_config(cls, config, db=None, *, backend: ChatBackend | None = None, replay: bool = False,
                    run_id: str | None = None) -> "ModelClient":
        """A client for a :class:`engine.config.Config`; the backend defaults to OllamaChat(host)."""
        if backend is None and not replay:
            from engine.models.ollama_chat import OllamaChat

            backend = OllamaChat(config.host, config.timeout_s)
        return cls(backend, db, replay=replay, run_id=run_id, keep_alive=config.keep_alive,
                   seed=config.seed, num_ctx=config.num_ctx, num_predict=config.num_predict,
                   temperature=config.temperature)

    # ---- public API -------------------------------------------------------------------------
    def structured(self, role: str, model: str, messages: list[dict], response_model: type[T], *,
                   phase: str = "", think: bool | None = False,
                   run_id: str | None = None) -> Structured[T]:
        """One JSON answer parsed into ``response_model``; never raises for malformed output."""
        schema = json_schema(response_model)
        request = self._request(role, model, messages, schema, think)
        first = self._complete(request, phase, run_id, response_model)
        value, error, repaired = first.parsed
        if value is not None:
            return self._ok(first, value, repaired=repaired)
        with self._lock:
            self.stats.retries += 1
        retry_request = self._request(role, model, retry_messages(messages, first.reply, error),
                                      schema, think)
        second = self._complete(retry_request, phase, run_id, response_model)
        value, error2, repaired = second.parsed
        if value is not None:
            return self._ok(second, value, repaired=repaired, retried=True)
        with self._lock:
            self.stats.failures += 1
        failure = failure_text(second.reply, error2, self.options)
        return Structured(value=None, raw=second.reply.content, failure=failure,
                          cached=first.cached and second.cached, call_key=second.key, retried=True,
                          truncated=first.truncated or second.truncated)

    def text(self, role: str, model: str, messages: list[dict], *, phase: str = "",
             think: bool | None = False, run_id: str | None = None) -> str:
        """Plain chat (answers); same cache, log, replay and error handling."""
        return self._complete(self._request(role, model, messages, None, think), phase, run_id).reply.content

    # ---- internals --------------------------------------------------------------------------
    def _request(self, role, model, messages, schema, think) -> ChatRequest:
        return ChatRequest(role=role, model=model, messages=tuple(dict(m) for m in messages),
                           schema=schema, options=dict(self.options), keep_alive=self.keep_alive,
                           think=think)

    def _ok(self, outcome: _Outcome, value, *, repaired=False, retried=False) -> Structured:
        if repaired:
            with self._lock:
                self.stats.repairs += 1
        return Structured(value=value, raw=outcome.reply.content, failure=None, cached=outcome.cached,
                          call_key=outcome.key, repaired=repaired, retried=retried,
                          truncated=outcome.truncated)

    def _complete(self, request: ChatRequest, phase: str, run_id: str | None,
                  response_model: type[BaseModel] | None = None) -> _Outcome:
        key = request.key()
        while True:
            with self._lock:
                row = self._lookup(key)
                waiting = self._inflight.get(key) if row is None else None
                if row is None and waiting is None:
                    self._inflight[key] = threading.Event()
            if row is not None:
                with self._lock:
                    self.stats.cached += 1
                reply = calllog.reply_from_row(row)
                return _Outcome(reply, True, key, bool(row.get("prompt_truncated")),
                                _parse(reply, response_model))
            if waiting is None:
                break
            waiting.wait()  # the same request is in flight on another thread: reuse its reply
        try:
            return self._fetch(request, key, phase, run_id, response_model)
        finally:
            with self._lock:
                self._inflight.pop(key).set()

    def _fetch(self, request: ChatRequest, key: str, phase: str, run_id: str | None,
               response_model: type[BaseModel] | None) -> _Outcome:
        if self.replay:
            raise ReplayMiss(
                f"--replay: no logged call for role {request.role!r} with model {request.model!r} "
                f"(key {key[:12]}); run once without --replay to record it.")
        reply = self._call_backend(request, phase, run_id)
        truncated = reply.tokens_in >= int(request.options.get("num_ctx") or 0) > 0
        if truncated:
            log.warning("prompt for %s/%s reached num_ctx=%s tokens; Ollama may have cut it",
                        request.role, request.model, request.options.get("num_ctx"))
        outcome = _parse(reply, response_model)
        parsed = outcome[0].model_dump(mode="json") if outcome[0] is not None else None
        with self._lock:
            self._count(request.role, reply, truncated)
            if self.db is not None:
                calllog.put_call(self.db, request, reply=reply, run_id=run_id or self.run_id,
                                 phase=phase, parsed=parsed, prompt_truncated=truncated, key=key)
        return _Outcome(reply, False, key, truncated, outcome)

    def _lookup(self, key: str) -> dict | None:
        if self.db is None:
            return None
        with self._lock:
            return calllog.get_call(self.db, key)

    def _call_backend(self, request: ChatRequest, phase: str, run_id: str | None) -> ChatReply:
        if self.backend is None:
            raise ModelError("No chat backend is configured; run without --replay or pass --offline.")
        attempt = 0
        while True:
            attempt += 1
            try:
                return self.backend.chat(request)
            except Exception as exc:  # noqa: BLE001 - classified below
                self._log_error(request, phase, run_id, exc)
                if attempt < attempts_for(exc):
                    with self._lock:
                        self.stats.transient_retries += 1
                    time.sleep(min(self.retry_backoff_s * 2 ** (attempt - 1), 8 * self.retry_backoff_s))
                    continue
                translated = translate_error(exc, getattr(self.backend, "host", None), request.model)
                if translated is None:
                    raise
                raise translated from exc

    def _log_error(self, request, phase, run_id, exc) -> None:
        with self._lock:
            self.stats.errors += 1
            if self.db is not None:
                calllog.put_call(self.db, request, run_id=run_id or self.run_id, phase=phase,
                                 error=f"{type(exc).__name__}: {exc}"[:2000])

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


def attempts_for(exc: BaseException) -> int:
    """How many attempts in all a call gets when it fails with ``exc`` (1: not transient)."""
    if not is_transient(exc):
        return 1
    return SERVER_ERROR_ATTEMPTS if getattr(exc, "status_code", None) is not None else TIMEOUT_ATTEMPTS


# ---- parsing (pure functions) ---------------------------------------------------------------
_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?|\n?\s*```\s*$")


def repair_json(raw: str) -> str:
    """Strip ``` fences and cut to the outermost JSON object (drops leading/trailing prose)."""
    text = _FENCE.sub("", raw.strip())
    start, end = text.find("{"), text.rfind("}")
    return text[start:end + 1] if 0 <= start < end else text


def parse_reply(reply: ChatReply, response_model: type[T]) -> tuple[T | None, str | None, bool]:
    """(value, error, repaired). A reply cut at num_predict is never accepted."""
    if reply.done_reason == "length":
        return None, "the reply was cut at num_predict", False
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


def retry_messages(messages: list[dict], reply: ChatReply, error: str | None) -> list[dict]:
    if reply.done_reason == "length":
        ask = ("Your reply was cut off at the token limit. Reply again with a shorter, complete "
               "JSON object that matches the schema, and nothing else.")
    else:
        ask = (f"Your reply was not valid JSON for the schema: {error}. Reply again with only a "
               f"JSON object that matches the schema, and nothing else.")
    return [*messages, {"role": "assistant", "content": reply.content}, {"role": "user", "content": ask}]


def failure_text(reply: ChatReply, error: str | None, options: dict) -> str:
    if reply.done_reason == "length":
        return f"cut at num_predict ({options.get('num_predict')} tokens) after retry"
    return f"invalid JSON after repair and retry: {error}"


def _short(exc: ValidationError) -> str:
    errs = exc.errors()
    first = errs[0] if errs else {}
    loc = ".".join(str(p) for p in first.get("loc", ())) or "(root)"
    more = f" (+{len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{loc}: {first.get('msg', str(exc))}{more}"[:300]


def _parse(reply: ChatReply, response_model: type[BaseModel] | None) -> tuple:
    """parse_reply, or (None, None, False) for plain text calls."""
    if response_model is None:
        return None, None, False
    return parse_reply(reply, response_model)


@functools.lru_cache(maxsize=None)
def _schema_json(response_model: type[BaseModel]) -> str:
    return json.dumps(response_model.model_json_schema())


def json_schema(response_model: type[BaseModel]) -> dict:
    """``response_model.model_json_schema()``, generated once per class (it costs ~1 ms, a quarter
    of the engine's time per call before it was cached); each call gets its own copy."""
    return json.loads(_schema_json(response_model))
