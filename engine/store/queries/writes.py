"""What a run wrote, document by document: ``documents`` (one row per document written, the resume
marker) and the rows of each trajectory (observations, facts, versions, decisions, failures)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlite_utils import Database

from seorap.engine.store.compact import delete_where


def document_count(db: Database, run_id: str) -> int:
    n: int = db.execute("SELECT COUNT(*) FROM documents WHERE run_id = ?", [run_id]).fetchone()[0]
    return n


def documents_saved(db: Database, run_ids: Sequence[str], trajectory_ids: Sequence[str]) -> int:
    """Documents written by these runs in these trajectories."""
    if not run_ids or not trajectory_ids:
        return 0
    n: int = db.execute(
        f"SELECT count(*) FROM documents WHERE run_id IN ({','.join('?' for _ in run_ids)}) "
        f"AND trajectory_id IN ({','.join('?' for _ in trajectory_ids)})",
        [*run_ids, *trajectory_ids],
    ).fetchone()[0]
    return n


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


def observations_at(db: Database, run_id: str, trajectory_id: str, position: int) -> list[dict]:
    """The observations extracted from one document, in order."""
    return list(
        db.query(
            "SELECT * FROM observations WHERE run_id=? AND trajectory_id=? AND position=? ORDER BY seq",
            [run_id, trajectory_id, position],
        )
    )


def observation_texts(
    db: Database, run_id: str, trajectory_id: str, position: int
) -> list[tuple[str, str | None]]:
    """(id, text) of the observations extracted from one document, in the order stored."""
    return [
        (r["id"], r["text"])
        for r in db.query(
            "SELECT id, text FROM observations WHERE run_id=? AND trajectory_id=? AND "
            "position=? ORDER BY rowid",
            [run_id, trajectory_id, position],
        )
    ]


def decisions_at(db: Database, run_id: str, trajectory_id: str, position: int) -> list[dict]:
    """The decisions made on one document, in the order made."""
    return list(
        db.query(
            "SELECT * FROM decisions WHERE run_id=? AND trajectory_id=? AND position=? ORDER BY rowid",
            [run_id, trajectory_id, position],
        )
    )


def failures_at(db: Database, run_id: str, trajectory_id: str, position: int) -> list[dict]:
    """The write failures of one document."""
    return list(
        db.query(
            "SELECT * FROM write_failures WHERE run_id=? AND trajectory_id=? AND position=?",
            [run_id, trajectory_id, position],
        )
    )


def written_positions(db: Database, run_id: str, trajectory_id: str) -> set[int]:
    """The positions of a trajectory's documents a run has written."""
    return {
        r["position"]
        for r in db.query(
            "SELECT position FROM documents WHERE run_id=? AND trajectory_id=?",
            [run_id, trajectory_id],
        )
    }


def last_position_of(db: Database, run_id: str, trajectory_id: str, state_index: int) -> int | None:
    """The last written position of one state's documents, or None."""
    last: int | None = db.execute(
        "SELECT max(position) FROM documents WHERE run_id=? AND trajectory_id=? AND state_index=?",
        [run_id, trajectory_id, state_index],
    ).fetchone()[0]
    return last


def documents_by_trajectory(db: Database) -> dict[tuple[str, str], int]:
    """(run id, trajectory id) -> documents written."""
    return {
        (r["run_id"], r["trajectory_id"]): r["n"]
        for r in db.query(
            "SELECT run_id, trajectory_id, COUNT(*) AS n FROM documents GROUP BY run_id, trajectory_id"
        )
    }


def read_lookups_at(db: Database, run_id: str, trajectory_id: str, position: int) -> list[dict]:
    """What the memory system read back after one document (one row per claim looked up)."""
    return list(
        db.query(
            "SELECT * FROM read_lookups WHERE run_id=? AND trajectory_id=? AND position=?",
            [run_id, trajectory_id, position],
        )
    )


def own_position(db: Database, run_id: str, trajectory_id: str, state_index: int) -> int | None:
    """The position of a state's own document (the first that is not a distractor), or None."""
    row = next(
        db.query(
            "SELECT position FROM documents WHERE run_id=? AND trajectory_id=? AND "
            "state_index=? AND is_distractor=0 ORDER BY position LIMIT 1",
            [run_id, trajectory_id, state_index],
        ),
        None,
    )
    return None if row is None else row["position"]


def values_at(
    db: Database,
    table: str,
    column: str,
    run_id: str,
    trajectory_id: str,
    position: int,
    *,
    active: bool = False,
) -> list:
    """The non-null ``column`` values of ``table``'s rows written at one document, in order;
    ``active``: only rows whose status is active."""
    extra = " AND status = 'active'" if active else ""
    return [
        r[column]
        for r in db.query(
            f"SELECT {column} FROM {table} WHERE run_id=? AND trajectory_id=? AND position=?{extra} "
            f"ORDER BY rowid",
            [run_id, trajectory_id, position],
        )
        if r[column] is not None
    ]


def failure_count(db: Database, run_id: str, trajectory_id: str, *, partial: bool = False) -> int:
    """A trajectory's write failures; ``partial``: only those that kept part of a reply (0 on a
    database older than that column)."""
    table = db.table("write_failures")
    if not partial:
        return table.count_where("run_id = ? AND trajectory_id = ?", [run_id, trajectory_id])
    if "partial" not in table.columns_dict:
        return 0
    return table.count_where(
        "run_id = ? AND trajectory_id = ? AND partial = 1", [run_id, trajectory_id]
    )


def read_lookups_by_item(
    db: Database, run_id: str, trajectory_id: str, position: int
) -> list[dict]:
    """:func:`read_lookups_at`, ordered by item."""
    return list(
        db.query(
            "SELECT * FROM read_lookups WHERE run_id = ? AND trajectory_id = ? AND position = ? "
            "ORDER BY item",
            [run_id, trajectory_id, position],
        )
    )


def document_written(db: Database, run_id: str, trajectory_id: str) -> bool:
    """A run has written at least one document of this trajectory."""
    return (
        db.table("documents").count_where(
            "run_id = ? AND trajectory_id = ?", [run_id, trajectory_id]
        )
        > 0
    )


def quarantined_observations(db: Database, run_id: str, trajectory_id: str) -> dict[str, str]:
    """{observation id: why} of the observations a run kept out of the store in one trajectory
    (engine/memory/quarantine.py); empty for a database made before the quarantine."""
    if "quarantine" not in {c.name for c in db["observations"].columns}:
        return {}
    return {
        r["id"]: r["quarantine"]
        for r in db.query(
            "SELECT id, quarantine FROM observations WHERE run_id=? AND trajectory_id=? "
            "AND quarantine IS NOT NULL AND quarantine != ''",
            [run_id, trajectory_id],
        )
    }


def question_lookups(db: Database, run_id: str, trajectory_id: str) -> dict[str, dict]:
    """item -> what a system's own search returned for that question after the trajectory's last
    document (empty: none stored, e.g. a database older than the table)."""
    if "question_lookups" not in db.table_names():
        return {}
    return {
        r["item"]: r
        for r in db.query(
            "SELECT * FROM question_lookups WHERE run_id = ? AND trajectory_id = ? ORDER BY id",
            [run_id, trajectory_id],
        )
    }
