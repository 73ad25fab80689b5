"""What the call log cannot hold of a run's cost (engine/run/accounting.py reads and writes it):
``call_counters`` per (run, phase, role, model, name) and ``phases``, wall time per (run, phase)."""

from __future__ import annotations

from sqlite_utils import Database

SLOTS_PREFIX = "slots@"
"""A ``call_counters`` row named ``slots@HOST`` holds the slots learned for HOST (not a sum)."""

_COUNTERS_SQL = """
CREATE TABLE IF NOT EXISTS call_counters (
    run_id TEXT NOT NULL, phase TEXT NOT NULL, role TEXT NOT NULL, model TEXT NOT NULL,
    name TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, phase, role, model, name))
"""
_PHASES_SQL = """
CREATE TABLE IF NOT EXISTS phases (
    run_id TEXT NOT NULL, phase TEXT NOT NULL, started_at TEXT, finished_at TEXT,
    wall_s REAL NOT NULL DEFAULT 0, units INTEGER NOT NULL DEFAULT 0, sessions INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, phase))
"""
_BUMP_SQL = (
    "INSERT INTO call_counters (run_id, phase, role, model, name, n) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (run_id, phase, role, model, name) DO UPDATE SET n = n + excluded.n"
)
_PHASE_SQL = (
    "INSERT INTO phases (run_id, phase, started_at, finished_at, wall_s, units, sessions) "
    "VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT (run_id, phase) DO UPDATE SET "
    "finished_at = excluded.finished_at, wall_s = wall_s + excluded.wall_s, "
    "units = units + excluded.units, sessions = sessions + 1"
)


def ensure_tables(db: Database) -> None:
    db.execute(_COUNTERS_SQL)
    db.execute(_PHASES_SQL)


def add_to_counter(
    db: Database, run_id: str, phase: str, role: str, model: str, name: str, n: int
) -> None:
    db.execute(_BUMP_SQL, [run_id, phase, role, model, name, n])


def set_slots(db: Database, run_id: str, host: str, n: int) -> None:
    db.execute(
        "INSERT OR REPLACE INTO call_counters (run_id, phase, role, model, name, n) "
        "VALUES (?, '', '', '', ?, ?)",
        [run_id, SLOTS_PREFIX + host, n],
    )


def learned_slots(db: Database) -> list[tuple[str, int]]:
    """(host, slots) learned by any run, oldest first (a later row for a host is the newer)."""
    return [
        (name[len(SLOTS_PREFIX) :], n)
        for name, n in db.execute(
            "SELECT name, n FROM call_counters WHERE name LIKE 'slots@%' ORDER BY rowid"
        ).fetchall()
    ]


def add_phase_session(
    db: Database,
    run_id: str,
    phase: str,
    started_at: str,
    finished_at: str,
    wall_s: float,
    units: int,
) -> None:
    db.execute(_PHASE_SQL, [run_id, phase, started_at, finished_at, wall_s, units])


def counter_sums(db: Database, run_id: str) -> list[tuple[str, str, str, int | None]]:
    """(role, model, name, sum of n) of one run's counters, over its phases."""
    return db.execute(
        "SELECT role, model, name, SUM(n) FROM call_counters WHERE run_id = ? "
        "GROUP BY role, model, name",
        [run_id],
    ).fetchall()


def phase_times(db: Database, run_id: str) -> list[tuple[str, float, int, int]]:
    """(phase, wall_s, units, sessions) of one run, in the order the phases started."""
    return db.execute(
        "SELECT phase, wall_s, units, sessions FROM phases WHERE run_id = ? "
        "ORDER BY started_at, phase",
        [run_id],
    ).fetchall()
