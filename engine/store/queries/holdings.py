"""The ``holdings`` table: every (claim, text) verdict a scoring pass decided — does the text state
the claim — with the rule that decided it (engine/scoring/holding.py; docs/store.md). The claim and
the text are stored as ids of ``texts`` (engine/store/compact.py), where the facts and verdicts keep
them already."""

from __future__ import annotations

from sqlite_utils import Database

from seorap.engine.store.compact import text_id
from seorap.engine.store.queries.catalog import readable_names
from seorap.engine.store.txn import checked

TABLE = "holdings"


def replace(
    db: Database,
    run_id: str,
    trajectory_id: str,
    scoring: str,
    rows: list[dict],
) -> None:
    """One trajectory's verdicts of one scoring pass ({claim, text, holds, rules} each),
    replacing the pass's earlier ones (the caller's transaction, or a checked write of its own,
    holds the writer lease)."""
    with checked(db):
        db.execute(
            "DELETE FROM holdings WHERE run_id=? AND trajectory_id=? AND scoring=?",
            [run_id, trajectory_id, scoring],
        )
        db.conn.executemany(
            "INSERT OR REPLACE INTO holdings (run_id, trajectory_id, scoring, claim_id, text_id, "
            "holds, rules) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                [
                    run_id,
                    trajectory_id,
                    scoring,
                    text_id(db, r["claim"]),
                    text_id(db, r["text"]),
                    int(r["holds"]),
                    r["rules"],
                ]
                for r in rows
            ],
        )


def of_trajectory(db: Database, run_id: str, trajectory_id: str, scoring: str) -> list[dict]:
    """(claim, text, holds, rules) of one trajectory under one scoring pass, in one query; empty
    when none are stored or the file has no such table."""
    if TABLE not in readable_names(db):
        return []
    return list(
        db.query(
            "SELECT c.text AS claim, t.text AS text, h.holds AS holds, h.rules AS rules "
            "FROM holdings h JOIN texts c ON c.id = h.claim_id JOIN texts t ON t.id = h.text_id "
            "WHERE h.run_id=? AND h.trajectory_id=? AND h.scoring=?",
            [run_id, trajectory_id, scoring],
        )
    )


def pass_stored(db: Database, run_id: str, scoring: str) -> bool:
    """The scoring pass stored verdicts for some trajectory of the run (a pass made before the
    table existed stored none)."""
    if TABLE not in readable_names(db):
        return False
    row = db.execute(
        "SELECT 1 FROM holdings WHERE run_id=? AND scoring=? LIMIT 1", [run_id, scoring]
    ).fetchone()
    return row is not None


def set_holds(
    db: Database, run_id: str, trajectory_id: str, scoring: str, claim: str, text: str, holds: bool
) -> int:
    """Change one stored verdict; returns the rows changed. For the tests that alter a stored
    verdict and check that every view follows it (tests/test_views_one_verdict.py)."""
    with checked(db):
        return db.execute(
            "UPDATE holdings SET holds=? WHERE run_id=? AND trajectory_id=? AND scoring=? "
            "AND claim_id IN (SELECT id FROM texts WHERE text=?) "
            "AND text_id IN (SELECT id FROM texts WHERE text=?)",
            [int(holds), run_id, trajectory_id, scoring, claim, text],
        ).rowcount
