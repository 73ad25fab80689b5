"""A fact's life: ``fact_versions`` (every version, with the document position that wrote it) and
``decisions`` (what the memory system decided, why, and what the temporal guard changed)."""

from __future__ import annotations

from sqlite_utils import Database

from seorap.engine.store.queries.catalog import columns


def versions_with_observations(db: Database, run_id: str, fact_id: str) -> list[dict]:
    """Every version of one fact, oldest first, with the text and document of its observation."""
    return list(
        db.query(
            "SELECT v.*, o.text AS obs_text, o.doc_id AS obs_doc FROM fact_versions v "
            "LEFT JOIN observations o ON o.id = v.observation_id "
            "WHERE v.run_id=? AND v.fact_id=? ORDER BY v.version",
            [run_id, fact_id],
        )
    )


def decisions_about(db: Database, run_id: str, fact_id: str) -> list[dict]:
    """The decisions that changed a fact (named, or carried in ``before``), in the order made."""
    return list(
        db.query(
            "SELECT position, reason, guard_effect, before FROM decisions WHERE run_id=? "
            "AND (fact_id=? OR instr(before, ?) > 0) ORDER BY rowid",
            [run_id, fact_id, f'"{fact_id}"'],
        )
    )


def supersedes(db: Database, run_id: str, trajectory_id: str) -> list[dict]:
    """(fact_id, position, successor_id) of every superseded version, by position; successor_id
    is None on a database older than that column."""
    has_link = "successor_id" in columns(db, "fact_versions")
    link_col = "successor_id" if has_link else "NULL AS successor_id"
    return list(
        db.query(
            f"SELECT fact_id, position, {link_col} FROM fact_versions WHERE run_id=? AND trajectory_id=? "
            "AND operation='supersede' AND status='superseded' ORDER BY position, fact_id",
            [run_id, trajectory_id],
        )
    )


def supersede_decisions(db: Database, run_id: str, trajectory_id: str) -> list[dict]:
    """(position, fact_id, before, guard_effect, reason) of a trajectory's supersede decisions;
    reason is '' on a database older than that column."""
    reason_col = "reason" if "reason" in columns(db, "decisions") else "'' AS reason"
    return list(
        db.query(
            f"SELECT position, fact_id, before, guard_effect, {reason_col} FROM decisions "
            "WHERE run_id=? AND trajectory_id=? AND operation='supersede'",
            [run_id, trajectory_id],
        )
    )


def positions_matching(db: Database, run_id: str, trajectory_id: str, needle: str) -> set[int]:
    """Positions where a fact version whose lower-cased text contains ``needle`` was written."""
    return {position for position, _ in versions_matching(db, run_id, trajectory_id, needle)}


def positions_of_fact(db: Database, run_id: str, trajectory_id: str, fact_id: str) -> list[int]:
    """Positions where a version of ``fact_id`` (a full id) was written."""
    return [
        r["position"]
        for r in db.query(
            "SELECT DISTINCT position FROM fact_versions WHERE run_id=? AND trajectory_id=? "
            "AND fact_id=?",
            [run_id, trajectory_id, fact_id],
        )
    ]


def versions_matching(
    db: Database, run_id: str, trajectory_id: str, needle: str
) -> list[tuple[int, str]]:
    """(position, fact id) of each fact version whose lower-cased text contains ``needle``."""
    return [
        (r["position"], r["fact_id"])
        for r in db.query(
            "SELECT DISTINCT position, fact_id FROM fact_versions WHERE run_id=? AND "
            "trajectory_id=? AND instr(lower(text), ?) > 0",
            [run_id, trajectory_id, needle],
        )
    ]


def observations_matching(
    db: Database, run_id: str, trajectory_id: str, needle: str
) -> list[tuple[int, str]]:
    """(position, observation id) of each observation whose lower-cased text contains
    ``needle``."""
    return [
        (r["position"], r["id"])
        for r in db.query(
            "SELECT position, id FROM observations WHERE run_id=? AND trajectory_id=? "
            "AND instr(lower(text), ?) > 0",
            [run_id, trajectory_id, needle],
        )
    ]


def last_dated_change_before(
    db: Database, run_id: str, trajectory_id: str, position: int
) -> dict | None:
    """(doc_date, position) of the latest-dated version written before ``position`` that changed
    something (a reinforce changes nothing), or None."""
    return next(
        db.query(
            "SELECT doc_date, position FROM fact_versions WHERE run_id=? AND trajectory_id=? AND "
            "position<? AND operation != 'reinforce' ORDER BY doc_date DESC, position DESC LIMIT 1",
            [run_id, trajectory_id, position],
        ),
        None,
    )


def fact_texts(db: Database, run_id: str) -> list[dict]:
    """(trajectory_id, text, status) of a run's final facts."""
    return list(db.query("SELECT trajectory_id, text, status FROM facts WHERE run_id=?", [run_id]))
