"""The plan learns from the run (docs/models.md, "Planning a run"): the time a run still needs,
re-estimated from what its extraction actually yielded and the rate it measured.

Before the run, the write phase is planned as ``--plan`` plans it (engine/run/planner.py: one
synthesis call per expected observation, rates from the call log, a probe or the default guess)
and the plan per phase is kept in each run's manifest (``plan``: seconds for extract, write,
score), so the report can put it beside the actual wall time. After the extraction phase the
planner runs again on the now-logged extraction calls (their rate is measured) and the number of
synthesis calls is what the extractions hold minus the quarantined observations (kept in the
manifest too: ``replan``, the write phase's seconds as re-estimated then); after each
document the rate is the write phase's own: its wall time so far per synthesis call made. The line
reads ``write phase: plan 4 h 07 min → now 12 min left``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from seorap.engine.run.accounting import seconds
from seorap.engine.store.queries import runs as stored_runs

if TYPE_CHECKING:
    from sqlite_utils import Database

    from seorap.engine.config import Config
    from seorap.engine.corpus import Corpus
    from seorap.engine.run.calibration import Plan

PHASE_ROLES = {"extract": ("extractor",), "write": ("synthesizer",), "score": ("answerer", "judge")}
"""The roles whose calls make each phase's time."""


def phase_seconds(plan: Plan) -> dict[str, float]:
    """Planned seconds per phase (extract, write, score) of a plan."""
    return {
        phase: round(sum(r.seconds or 0.0 for r in plan.roles if r.role in roles), 3)
        for phase, roles in PHASE_ROLES.items()
    }


Key = tuple[str, str, int]
"""(run id, trajectory id, position) of one document."""


@dataclass
class Replan:
    """One run command's plan and its re-estimates (thread-safe)."""

    corpus: Corpus
    systems: list[str]
    config: Config
    db: Database
    trajectories: list[str] | None = None
    variants_dirs: Sequence[str | Path] | None = None
    hosts: list[str] | None = None
    planned: dict[str, float] = field(default_factory=dict)
    """Seconds per phase planned before the run."""
    pending: dict[Key, int] = field(default_factory=dict)
    """Synthesis calls each unwritten document will make (known after extraction)."""
    per_call: float | None = None
    """Seconds per synthesis call: the re-plan's after extraction, then the write phase's own."""
    calls_done: int = 0
    write_started: float | None = None
    run_ids: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _plan(self, score: bool) -> Plan:
        # start-up: the planner loads the memory systems and numpy only when a run plans
        from seorap.engine.run.planner import plan_run

        return plan_run(
            self.corpus,
            self.systems,
            self.config,
            self.db,
            variants_dirs=list(self.variants_dirs or []) or None,
            score=score,
            trajectories=self.trajectories,
            hosts=self.hosts,
        )

    def start(self, run_ids: Sequence[str], score: bool = True) -> None:
        """Plan the run before any call; keep the plan in each run's manifest."""
        self.run_ids = list(run_ids)
        self.planned = phase_seconds(self._plan(score))
        for run_id in run_ids:
            stored_runs.set_manifest_field(self.db, run_id, "plan", self.planned)

    def yielded(self, key: Key, synthesis_calls: int) -> None:
        """What one document's extraction will cost in the write phase."""
        with self._lock:
            self.pending[key] = synthesis_calls

    def after_extraction(self) -> str:
        """Re-plan with the extraction calls logged (their rate measured); the line to show."""
        plan = self._plan(score=False)
        syn = [r for r in plan.roles if r.role == "synthesizer"]
        calls = sum(r.calls for r in syn)
        with self._lock:
            self.per_call = sum(r.seconds or 0.0 for r in syn) / calls if calls else 0.0
            self.write_started = time.monotonic()
        replanned = {"write": round(self.remaining_s(), 3)}
        for run_id in self.run_ids:  # beside the plan: what the run's own yield made of it
            stored_runs.set_manifest_field(self.db, run_id, "replan", replanned)
        return self.line()

    def written(self, key: Key) -> str:
        """One document written: its calls are done; the rate becomes the write phase's own."""
        with self._lock:
            self.calls_done += self.pending.pop(key, 0)
            if self.write_started is not None and self.calls_done:
                self.per_call = (time.monotonic() - self.write_started) / self.calls_done
        return self.line()

    def remaining_s(self) -> float:
        with self._lock:
            return sum(self.pending.values()) * (self.per_call or 0.0)

    def line(self) -> str:
        """``write phase: plan 4 h 07 min → now 12 min left`` (the plan: extraction and
        synthesis, as ``--plan`` shows it; now: the synthesis still to do)."""
        planned = self.planned.get("extract", 0.0) + self.planned.get("write", 0.0)
        return f"write phase: plan {seconds(planned)} → now {seconds(self.remaining_s())} left"
