"""What a run wrote, document by document: ``documents`` (one row per document written, the resume
marker) and the rows of each trajectory (observations, facts, versions, decisions, failures)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from seorap.engine.store.compact import delete_where
from sqlite_utils import Database


def document_count(db: Database, run_id: str) -> int:
    return db.execute("SELECT COUNT(*) FROM documents WHERE run_id = ?", [run_id]).fetchone()[0]


def documents_saved(db: Database, run_ids: Sequence[str], trajectory_ids: Sequence[str]) -> int:
    """Documents written by these runs in these trajectories."""
    if not run_ids or not trajectory_ids:
        return 0
    return db.execute(
        f"SELECT count(*) FROM documents WHERE run_id IN ({','.join('?' for _ in run_ids)}) "
        f"AND trajectory_id IN ({','.join('?' for _ in trajectory_ids)})",
        [*run_ids, *trajectory_ids],
    ).fetchone()[0]


def written_trajectories(db: Database, run_id: str) -> list[str]:
    """The trajectories a run wrote at least one document of."""
    return [
        r["trajectory_id"]
        for r in db.query("SELECT DISTINCT trajectory_id FROM documents WHERE run_id = ?", [run_id])
    ]


def delete_trajectory(db: Database, table: str, run_id: str, trajectory_id: str) -> int:
    """Delete one trajectory's rows of a run from ``table``; returns how many."""
    return delete_where(db, table, "run_id = ? AND trajectory_id = ?", [run_id, trajectory_id])


def failures_by_stage(db: Database, run_id: str) -> list[tuple[str, int]]:
    """(stage, write failures) of one run."""
    return db.execute(
        "SELECT stage, COUNT(*) FROM write_failures WHERE run_id = ? GROUP BY stage", [run_id]
    ).fetchall()


def stored_facts(db: Database, run_id: str, trajectory_id: str) -> Iterator[dict]:
    """The ``facts`` rows (each fact's final version) of one trajectory, in the order written."""
    return db.query(
        "SELECT * FROM facts WHERE run_id=? AND trajectory_id=? ORDER BY rowid",
        [run_id, trajectory_id],
    )
