"""The pace of a replay: recorded calls served as slowly as the model once answered them.

A replay (engine/run/runner.py ``replay_run``) serves every model call from the call log. With no
pacer it is as fast as the database; with one, each served call is held for its recorded duration
divided by the speed (``2x`` halves it), or each document takes a fixed time (``30s``), so a room
watches the store fill as it did in the run. With a time per document the calls still move: each
is held for its recorded time (at most what is left of the document's time), its reply streaming
at the recorded rate, and what is left is held after the document's last call. That time is kept
in *paced* seconds, counted only while holding, so a pause, a step or a speed change in the middle
of a document neither shortens nor lengthens the rest of it. A presenter can pause, step one call or one document,
and change the speed while a call is held; cancelling releases every wait at once.

The pacer never changes what is replayed, only when: the replayed run is the recorded one whatever
the pace. Every method is thread-safe (the runner's workers wait in :meth:`Pacer.call`, the app's
keys call the others). The clock and the wait are injectable so tests run on a fake clock.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seorap.engine.run.progress import Progress

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, math.inf)  # the last: at once
SLICE_S = 0.1  # the longest uninterrupted wait: keys and cancel are seen within it

_FACTOR = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*$", re.IGNORECASE)
_PER_DOC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*s(?:\s*/\s*doc(?:ument)?)?\s*$", re.IGNORECASE)


class PaceError(ValueError):
    """A pace that cannot be read (one sentence for the user)."""


@dataclass(frozen=True)
class Pace:
    """How fast a replay goes: ``factor`` times the recorded speed, or ``per_document_s`` seconds
    for each document whatever its calls took."""

    factor: float = 1.0
    per_document_s: float | None = None

    @classmethod
    def parse(cls, text: str) -> Pace:
        """``2x``, ``0.5x``, ``1×`` (recorded speed times the factor) or ``30s`` / ``30s/doc``."""
        if m := _FACTOR.match(text):
            factor = float(m.group(1))
            if not 0.01 <= factor <= 1000:
                raise PaceError(
                    f"pace {text.strip()!r}: the factor must be between 0.01x and 1000x"
                )
            return cls(factor=factor)
        if m := _PER_DOC.match(text):
            seconds = float(m.group(1))
            if not 0 <= seconds <= 86_400:
                raise PaceError(f"pace {text.strip()!r}: the time per document must be ≤ 86400s")
            return cls(per_document_s=seconds)
        raise PaceError(
            f"pace {text.strip()!r} is not understood: give a speed such as 1x, 2x or 0.5x, "
            "or a time per document such as 30s"
        )

    def describe(self) -> str:
        if self.per_document_s is not None:
            return f"{self.per_document_s:g} s per document"
        return f"{self.factor:g}× the recorded speed"


@dataclass(frozen=True)
class PacerState:
    """What the pacer is doing, for a status line."""

    speed: float  # multiplies the starting pace (1.0 at start; + and - move it along SPEEDS)
    paused: bool
    calls: int  # calls served so far
    documents: int  # documents finished so far
    role: str  # the role of the call being held ("" between calls)
    reply_shown: str  # the part of that call's reply "streamed" so far
    held_s: float  # wall time spent holding calls and documents
    rest_s: float = 0.0  # paced seconds left before the next document (per-document pace)
    jump_to: int | None = None  # the document a jump runs to (1-based), None when not jumping


def _condition_wait(cond: threading.Condition, timeout: float) -> None:
    cond.wait(timeout)


class Pacer:
    """Holds replayed calls for their recorded time (see the module's docstring)."""

    def __init__(
        self,
        pace: Pace | None = None,
        *,
        cancel: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[threading.Condition, float], None] = _condition_wait,
    ) -> None:
        self.pace = pace or Pace()
        self.cancel = cancel or threading.Event()
        self._clock = clock
        self._wait = wait
        self._cond = threading.Condition()
        self._speed = 1.0
        self._paused = False
        self._step_calls = 0  # calls let through while paused
        self._to_document = False  # let calls through until the current document ends
        self._calls = 0
        self._documents = 0
        self._role = ""
        self._reply = ""
        self._shown = 0.0  # share of the held reply shown
        self._held = 0.0
        self._doc_spent = 0.0  # paced seconds of the current document held so far
        self._rest = 0.0  # paced seconds left of the end-of-document hold
        self._until: int | None = None  # documents to let through at once (a jump)

    # ---- keys ---------------------------------------------------------------------------------

    def toggle_pause(self) -> bool:
        """Pause or resume; returns True when now paused."""
        with self._cond:
            self._paused = not self._paused
            self._cond.notify_all()
            return self._paused

    def resume(self) -> None:
        with self._cond:
            self._paused = False
            self._cond.notify_all()

    def step(self, unit: str = "call") -> None:
        """While paused, let one call through (``call``) or every call up to the end of the
        current document (``document``); the pacer is paused again after it. While playing, a
        step pauses first, so the key does what it says from either state."""
        if unit not in ("call", "document"):
            raise ValueError(f"step unit {unit!r}: call or document")
        with self._cond:
            self._paused = True
            if unit == "call":
                self._step_calls += 1
            else:
                self._to_document = True
            self._cond.notify_all()

    def jump(self, document: int) -> None:
        """Let every call through at once until ``document`` (1-based) is the current one, then
        go on at the pace (paused if it was). A document already reached is a no-op."""
        with self._cond:
            if document - 1 > self._documents:
                self._until = document - 1
                self._cond.notify_all()

    def faster(self) -> float:
        return self._move(+1)

    def slower(self) -> float:
        return self._move(-1)

    def _move(self, by: int) -> float:
        with self._cond:
            i = SPEEDS.index(self._speed)  # the speed only ever takes a value of the ladder
            self._speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + by))]
            self._cond.notify_all()
            return self._speed

    def snapshot(self) -> PacerState:
        with self._cond:
            shown = self._reply[: int(len(self._reply) * min(1.0, self._shown))]
            return PacerState(
                self._speed,
                self._paused,
                self._calls,
                self._documents,
                self._role,
                shown,
                self._held,
                self._rest,
                None if self._until is None else self._until + 1,
            )

    # ---- the replay's side --------------------------------------------------------------------

    def call(self, recorded_s: float, *, role: str = "", reply: str = "") -> None:
        """Hold one served call: ``recorded_s`` (its recorded duration) divided by the pace and
        the current speed; with a time per document, its recorded time at most what is left of
        the document's. Returns at once when cancelled; a step while paused lets it through
        without its time."""
        with self._cond:
            self._role, self._reply, self._shown = role, reply, 0.0
            try:
                stepped = self._gate()
                budget = self.pace.per_document_s
                if not stepped and budget is None:
                    self._hold(max(0.0, recorded_s), self.pace.factor)
                elif not stepped and budget is not None:
                    self._hold(max(0.0, min(recorded_s, budget - self._doc_spent)), 1.0)
                self._calls += 1
            finally:
                self._role, self._reply, self._shown = "", "", 0.0

    def document(self, counted: bool = True) -> None:
        """A document is finished. ``counted`` is False for a phase that goes over the documents
        before they are written (extraction): it ends a document step but is not a document of
        the count, and holds nothing. With a per-document pace, hold what is left of its time."""
        with self._cond:
            budget = self.pace.per_document_s
            if counted and budget is not None and not self._skipping() and self._speed != math.inf:
                self._rest = max(0.0, budget - self._doc_spent)
                self._hold(self._rest, 1.0, rest=True)
                self._rest = 0.0
            if counted:
                self._documents += 1
                self._doc_spent = 0.0
                if self._until is not None and self._documents >= self._until:
                    self._until = None  # the jump arrived: on at the pace
            if self._to_document:
                self._to_document = False  # the stepped document is over: paused again

    def _skipping(self) -> bool:
        """A document step or a jump lets calls through without their time."""
        return self._to_document or self._until is not None

    def _gate(self) -> bool:
        """Wait while paused; True when a step let this call through (it then takes no time).
        Call under the lock."""
        while self._paused and not self.cancel.is_set():
            if self._skipping():
                return True
            if self._step_calls:
                self._step_calls -= 1
                return True
            self._timed_wait(SLICE_S)
        return self._skipping()

    def _hold(self, recorded_s: float, factor: float, *, rest: bool = False) -> None:
        """Spend ``recorded_s`` of recorded time at ``factor`` × the current speed, in slices so
        that pause, step, speed and cancel act within one slice (call under the lock). The
        paced time held adds to the document's; ``rest``: the end-of-document hold."""
        left = recorded_s  # in recorded seconds
        while left > 1e-9 and not self.cancel.is_set():
            if self._paused:
                if self._skipping():
                    return
                if self._step_calls and not rest:  # a step finishes the held call at once
                    self._step_calls -= 1
                    return
                self._timed_wait(SLICE_S)
                continue
            rate = factor * self._speed
            if self._skipping() or rate == math.inf:
                return
            started = self._clock()
            self._timed_wait(min(left / rate, SLICE_S))
            done = min(left, (self._clock() - started) * rate)
            left -= done
            self._doc_spent += done / factor
            self._shown = 1.0 - left / recorded_s if recorded_s else 1.0
            if rest:
                self._rest = left

    def _timed_wait(self, seconds: float) -> None:
        started = self._clock()
        self._wait(self._cond, seconds)
        self._held += self._clock() - started


class PacedProgress:
    """Passes every event on to ``inner`` and tells the pacer when a document is finished (each
    ``advance`` of a write phase is one document; an extraction phase's advances end a document
    step but are not counted), so a per-document pace, a document step and a jump work."""

    def __init__(self, inner: Progress, pacer: Pacer) -> None:
        self.inner = inner
        self.pacer = pacer
        self.counted = True  # the current phase's advances are documents written

    def start_phase(self, name: str, total: int) -> None:
        self.counted = name.startswith("write")  # extraction goes over the same documents first
        self.inner.start_phase(name, total)

    def advance(self, trajectory_id: str, n: int = 1, note: str = "") -> None:
        self.inner.advance(trajectory_id, n, note)
        for _ in range(n):
            self.pacer.document(self.counted)

    def fact_written(
        self,
        run_id: str,
        trajectory_id: str,
        position: int,
        operation: str,
        fact_id: str | None,
        text: str,
    ) -> None:
        self.inner.fact_written(run_id, trajectory_id, position, operation, fact_id, text)

    def finish_phase(self) -> None:
        self.inner.finish_phase()

    def message(self, text: str) -> None:
        self.inner.message(text)

    def __getattr__(self, name: str) -> Any:  # optional hooks (tokens, queued) pass through
        return getattr(self.inner, name)
