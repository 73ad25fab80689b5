"""The ``runs`` table: one row per run (its system, corpus, config, manifest and status)."""

from __future__ import annotations

import json

from sqlite_utils import Database


def all_runs(db: Database) -> list[dict]:
    """Every run row in the order the runs were made: created_at has whole seconds, so runs made in
    one second keep the order they were inserted in (rowid)."""
    return list(db.query("SELECT * FROM runs ORDER BY created_at, rowid"))


def run_ids(db: Database) -> list[str]:
    """Every run id, sorted."""
    return [r["run_id"] for r in db.query("SELECT run_id FROM runs ORDER BY run_id")]


def systems(db: Database) -> set[str]:
    """The systems the database holds runs of."""
    return {r["system"] for r in db.query("SELECT system FROM runs")}


def runs_of_system(db: Database, system: str) -> list[dict]:
    """(run_id, system, corpus_digest, config) of every run of one system, by run id."""
    return list(
        db.query(
            "SELECT run_id, system, corpus_digest, config FROM runs WHERE system=? ORDER BY run_id",
            [system],
        )
    )


def corpus_of(db: Database, run_id: str) -> str | None:
    """The corpus a run was made on, as it was named then (a path), or None."""
    row = db.execute("SELECT corpus FROM runs WHERE run_id = ?", [run_id]).fetchone()
    return row[0] if row else None


def exists(db: Database, run_id: str) -> bool:
    return db.execute("SELECT 1 FROM runs WHERE run_id = ?", [run_id]).fetchone() is not None


def system_of(db: Database, run_id: str) -> str:
    """The system of a run that exists."""
    system: str = db.execute("SELECT system FROM runs WHERE run_id = ?", [run_id]).fetchone()[0]
    return system


def remove(db: Database, run_id: str) -> None:
    """Delete a run's own row, for a run that wrote nothing (database.delete_run deletes a whole
    run)."""
    db.execute("DELETE FROM runs WHERE run_id = ?", [run_id])


def ids_like(db: Database, pattern: str) -> set[str]:
    """Run ids matching an SQL LIKE pattern."""
    return {r["run_id"] for r in db.query("SELECT run_id FROM runs WHERE run_id LIKE ?", [pattern])}


def set_manifest_field(db: Database, run_id: str, key: str, value: object) -> None:
    """Set one field of a run's stored manifest (JSON), e.g. the plan made before it ran."""
    db.execute(
        "UPDATE runs SET manifest = json_set(COALESCE(manifest, '{}'), ?, json(?)) "
        "WHERE run_id = ?",
        [f"$.{key}", json.dumps(value), run_id],
    )


def manifest_field(db: Database, run_id: str, key: str) -> object:
    """One field of a run's stored manifest (None when absent or unreadable)."""
    row = db.execute(
        "SELECT json_extract(manifest, ?) FROM runs WHERE run_id = ? AND json_valid(manifest)",
        [f"$.{key}", run_id],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    value = row[0]
    try:
        return json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return value
