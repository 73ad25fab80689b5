"""The call log as a cache around every backend call (docs/models.md, "Call log and cache").

A request whose :meth:`ChatRequest.key` is in the ``calls`` table is served from it; with
``replay`` only the log answers (a miss raises :class:`ReplayMiss`); every backend call, failed
ones included, is logged with tokens, duration, run and phase; an identical request already in
flight on another thread is waited for and then served from the log (one model call, not two).
:class:`engine.models.client.ModelClient` mixes this in.
"""

from __future__ import annotations

import logging
import threading

from pydantic import BaseModel
from sqlite_utils import Database

from seorap.engine.models import calllog
from seorap.engine.models.base import ChatReply, ChatRequest, ReplayMiss
from seorap.engine.models.replies import parse_or_none
from seorap.engine.models.results import ClientStats, Outcome
from seorap.engine.models.slots import HostSlots
from seorap.engine.run import accounting
from seorap.engine.run.pacer import Pacer
from seorap.engine.store.queries import calls as call_log

log = logging.getLogger("seorap.engine.models.client")


class CallLogMixin:
    """Cache lookups, in-flight sharing and logging; the client provides the backend call."""

    db: Database | None
    replay: bool
    pacer: Pacer | None
    run_id: str | None
    stats: ClientStats
    _lock: threading.RLock
    _inflight: dict[str, threading.Event]
    _served: set[tuple[str | None, str]]
    slots: HostSlots
    _slots_noted: set[tuple[str, str]]

    def _call_backend(self, request: ChatRequest, phase: str, run_id: str | None) -> ChatReply:
        raise NotImplementedError

    def _note_slots(self, run_id: str | None) -> None:
        """Store every learned slot count in the run's accounting once (call under the lock)."""
        if self.db is None or run_id is None:
            return
        for host, n in list(self.slots.learned.items()):
            if (run_id, host) not in self._slots_noted:
                self._slots_noted.add((run_id, host))
                accounting.set_slots(self.db, run_id, host, n)

    def _account(
        self, name: str, role: str, model: str, run_id: str | None, phase: str, n: int = 1
    ) -> None:
        """Store one accounting counter for the run (engine/run/accounting.py); call under the lock."""
        if self.db is not None:
            accounting.bump(self.db, run_id or self.run_id, phase, role, model, name, n)

    def _complete(
        self,
        request: ChatRequest,
        phase: str,
        run_id: str | None,
        response_model: type[BaseModel] | None = None,
    ) -> Outcome:
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
                    first = served not in self._served  # a re-read of our own reply: no saving
                    if first:
                        self._served.add(served)
                        self._account("cached", request.role, request.model, run_id, phase)
                reply = calllog.reply_from_row(row)
                if self.replay and self.pacer is not None and first:  # as long as it once took
                    self.pacer.call(
                        reply.duration_ms / 1000, role=request.role, reply=reply.content
                    )
                return Outcome(
                    reply,
                    True,
                    key,
                    bool(row.get("prompt_truncated")),
                    parse_or_none(reply, response_model),
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
    ) -> Outcome:
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
        outcome = parse_or_none(reply, response_model)
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
            if reply.loop_kind == "template":
                self._account("template_loops", request.role, request.model, run_id, phase)
            if reply.queued_behind:
                self.stats.queued += 1
                self._account("queued", request.role, request.model, run_id, phase)
            self._note_slots(run_id or self.run_id)
        return Outcome(reply, False, key, truncated, outcome, request.role, run_id, phase)

    def _lookup(self, key: str) -> dict | None:
        if self.db is None:
            return None
        with self._lock:
            return call_log.get_call(self.db, key)

    def _log_error(
        self, request: ChatRequest, phase: str, run_id: str | None, exc: BaseException
    ) -> None:
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
