"""Runs and trajectories (view 1)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlite_utils

from seorap.engine.corpus import CATEGORY_NAMES, Corpus
from seorap.engine.corpus.gold import default_ledger
from seorap.engine.store.database import db_file, loads
from seorap.engine.store.lease import run_statuses
from seorap.engine.store.queries.catalog import count_by_run, row_count_and_max
from seorap.engine.store.queries.facts import fact_texts
from seorap.engine.store.queries.runs import all_runs
from seorap.engine.store.queries.writes import documents_by_trajectory
from seorap.engine.store.recording import recordings
from seorap.engine.views.common import (
    REFERENCE_SYSTEMS,
    _scores_table,
    judge_headline,
    judge_withheld,
    quadrant,
)


@dataclass(frozen=True)
class RunSummary:
    run_id: str
    system: str
    status: str
    created_at: str
    documents: int
    facts: int
    scored: bool
    standin: bool = False
    """Written by the offline stand-in model (no LLM): its variants ignore their prompts."""
    recording: str = ""
    """Imported from a shipped recording, or a replay of one: 'recorded: MODEL (SIZE), MACHINE,
    DATE' (engine/store/recording.py), shown wherever the run's system is named."""
    scope: tuple[str, ...] | None = None
    """The trajectories the run was asked to write (None: the whole corpus)."""

    @property
    def reference(self) -> bool:
        return self.system in REFERENCE_SYSTEMS

    @property
    def label(self) -> str:
        """The system as the app names it: 'A (stand-in)' for a stand-in run, 'A (recorded: ...)'
        for a shipped recording."""
        return system_label(self.system, self.standin, self.recording)

    @property
    def short_label(self) -> str:
        """The label a table cell shows: 'A (recorded)' for a recording, whose model, machine and
        date (85 cells) the full ``label`` gives in the views' status lines."""
        return system_label(self.system, self.standin, RECORDED if self.recording else "")


STANDIN = "stand-in"
RECORDED = "recorded"


def system_label(system: str, standin: bool, recording: str = "") -> str:
    if standin:
        return f"{system} ({STANDIN})"
    return f"{system} ({recording})" if recording else system


def _standin(manifest: str | None) -> bool:
    """The manifest names the stand-in backend for a write-path model role."""
    try:
        models = (loads(manifest, {}) or {}).get("models") or {}
    except ValueError:
        return False
    return any(isinstance(m, dict) and m.get("backend") == "standin" for m in models.values())


@dataclass(frozen=True)
class TrajectoryRow:
    run_id: str
    system: str
    trajectory_id: str
    title: str
    category: str
    difficulty: str
    trajectory_type: str
    documents_done: int
    documents_total: int
    intrinsic: float | None
    extrinsic: float | None
    judge_unreliable: str | None = None
    """Why the scoring's judge cannot carry a quadrant (None: it can)."""

    @property
    def delta(self) -> float | None:
        """Intrinsic − extrinsic (the paper's and the report's signed difference,
        engine.scoring.stats.signed_mean): positive when the store looks better than the answers."""
        if self.intrinsic is None or self.extrinsic is None:
            return None
        return self.intrinsic - self.extrinsic

    @property
    def quadrant(self) -> str | None:
        """The engine's quadrant of the stored figures, or "judge unreliable — see audit" ("judge
        unverified — …" when nothing shows it either way) when the run's judge cannot carry one."""
        if self.judge_unreliable:
            return judge_headline(self.judge_unreliable)
        return quadrant(self.intrinsic, self.extrinsic)

    def haystack(self) -> str:
        return " ".join(
            [
                self.trajectory_id,
                self.title,
                self.system,
                self.run_id,
                self.category,
                CATEGORY_NAMES.get(self.category, ""),
                self.difficulty,
                self.trajectory_type,
                self.quadrant or "",
            ]
        ).lower()


def list_runs(db: sqlite_utils.Database) -> list[RunSummary]:
    """Every run in the order it was made: created_at has whole seconds, so runs made in one second
    (one `seorap run` of several systems) keep the order they were inserted in (rowid), not the
    order of their ids, and a second boundary falling between them changes nothing."""
    docs = count_by_run(db, "documents")
    facts = count_by_run(db, "facts")
    scored = set(_scores_table(db))
    statuses = run_statuses(db)  # `running` with no live writer reads `interrupted`
    rows = all_runs(db)
    recorded = recordings(rows)
    return [
        RunSummary(
            r["run_id"],
            r["system"] or "?",
            statuses.get(r["run_id"], r["status"] or ""),
            r["created_at"] or "",
            docs.get(r["run_id"], 0),
            facts.get(r["run_id"], 0),
            any(k[0] == r["run_id"] for k in scored),
            _standin(r.get("manifest")),
            recorded.get(r["run_id"], ""),
            scope_of(r.get("manifest")),
        )
        for r in rows
    ]


def scope_of(manifest: str | None) -> tuple[str, ...] | None:
    """The trajectories a run's manifest says it was asked to write (None: the whole corpus)."""
    try:
        scope = (loads(manifest, {}) or {}).get("scope")
    except ValueError:
        return None
    return tuple(str(t) for t in scope) if isinstance(scope, list) else None


def run_labels(db: sqlite_utils.Database, short: bool = False) -> dict[str, str]:
    """run id -> the system as the app names it ('A (stand-in)' for stand-in runs); ``short``:
    as a table cell names it ('A (recorded)', :attr:`RunSummary.short_label`)."""
    return {r.run_id: r.short_label if short else r.label for r in list_runs(db)}


def standin_twins(
    db: sqlite_utils.Database, runs: list[RunSummary] | None = None
) -> list[tuple[str, str]]:
    """Pairs of stand-in runs (systems in run order) whose stores hold exactly the same fact texts:
    the stand-in ignores the prompt, so A and B (B = A without its bias lines) come out identical."""
    runs = [r for r in (runs if runs is not None else list_runs(db)) if r.standin]
    stores = {
        r.run_id: frozenset(
            (f["trajectory_id"], f["text"], f["status"]) for f in fact_texts(db, r.run_id)
        )
        for r in runs
    }
    return [
        (a.system, b.system)
        for i, a in enumerate(runs)
        for b in runs[i + 1 :]
        if stores[a.run_id] and stores[a.run_id] == stores[b.run_id]
    ]


def trajectory_rows(
    db: sqlite_utils.Database, corpus: Corpus, run_ids: Iterable[str] | None = None
) -> list[TrajectoryRow]:
    """One row per (run, trajectory) of the run's scope, scores from the scoring tables when
    present."""
    runs = list_runs(db)
    wanted = set(run_ids) if run_ids is not None else {r.run_id for r in runs}
    done = documents_by_trajectory(db)
    scores = _scores_table(db)
    withheld = judge_withheld(db)
    rows = []
    for run in (r for r in runs if r.run_id in wanted):
        for t in corpus.trajectories:
            if run.scope is not None and t.id not in run.scope:
                continue  # a run of some trajectories lists only those
            intrinsic, extrinsic = scores.get((run.run_id, t.id), (None, None))
            rows.append(
                TrajectoryRow(
                    run.run_id,
                    run.label,
                    t.id,
                    t.title,
                    t.category or "",
                    t.difficulty or "",
                    t.trajectory_type or "",
                    done.get((run.run_id, t.id), 0),
                    sum(1 for _ in t.arrivals()),
                    intrinsic,
                    extrinsic,
                    withheld.get((run.run_id, t.id)),
                )
            )
    return rows


def filter_rows(
    rows: Iterable[TrajectoryRow],
    text: str = "",
    category: str | None = None,
    difficulty: str | None = None,
    quadrant_: str | None = None,
) -> list[TrajectoryRow]:
    """Pure filter: free text over ids/titles/system, and exact category/difficulty/quadrant."""
    words = text.lower().split()
    return [
        r
        for r in rows
        if (category is None or r.category == category)
        and (difficulty is None or r.difficulty == difficulty)
        and (quadrant_ is None or r.quadrant == quadrant_)
        and all(w in r.haystack() for w in words)
    ]


SORT_KEYS = ("trajectory", "category", "difficulty", "intrinsic", "extrinsic", "delta", "system")


def sort_rows(
    rows: Iterable[TrajectoryRow], key: str, reverse: bool = False
) -> list[TrajectoryRow]:
    """Sort by one of SORT_KEYS; rows without a score go last either way."""
    attr = {"trajectory": "trajectory_id"}.get(key, key)
    rows = list(rows)
    present = [r for r in rows if getattr(r, attr) is not None]
    missing = [r for r in rows if getattr(r, attr) is None]
    return (
        sorted(present, key=lambda r: (getattr(r, attr), r.trajectory_id), reverse=reverse)
        + missing
    )


def data_version(db: sqlite_utils.Database) -> tuple:
    """A cheap signature of what the runs view shows (runs, written documents, score cards and
    overrides): equal signatures mean nothing to reload."""
    parts = [
        ("runs", "run_id"),
        ("documents", "position"),
        ("scores", "created_at"),
        ("overrides", "id"),
    ]
    tables = set(db.table_names())
    counts = tuple(row_count_and_max(db, t, col) if t in tables else None for t, col in parts)
    return (*counts, ledger_signature(db))


def ledger_signature(db: sqlite_utils.Database) -> tuple[int, int] | None:
    """(size, modification time) of the gold ledger beside the database (None: none): a contest,
    from the app or the CLI, changes the figures every view shows (docs/metrics.md#gold-ledger)."""

    path = db_file(db)
    if not path:
        return None
    try:
        st = default_ledger(path).stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)
