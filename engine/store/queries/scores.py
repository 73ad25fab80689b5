"""The ``scores`` table: one score card per (run, trajectory, scoring setup); trajectory ``''`` holds
the run's own card."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlite_utils import Database


def scorings(db: Database, run_ids: Sequence[str] = ()) -> list[str]:
    """The scoring setups stored (for these runs, when given), sorted."""
    where = f" WHERE run_id IN ({', '.join('?' for _ in run_ids)})" if run_ids else ""
    return [
        r["scoring"]
        for r in db.query(
            f"SELECT DISTINCT scoring FROM scores{where} ORDER BY scoring", list(run_ids)
        )
    ]


def scored_run_ids(db: Database) -> list[str]:
    """Every run id with a stored card, sorted."""
    return [r["run_id"] for r in db.query("SELECT DISTINCT run_id FROM scores ORDER BY run_id")]


def cards_in_order(db: Database, run_id: str, scoring: str) -> list[tuple[str, str]]:
    """(trajectory id, card JSON text) of every card of a run under one scoring setup, by
    trajectory id: the run's own card (trajectory ``''``) first."""
    return [
        (r["trajectory_id"], r["card"])
        for r in db.query(
            "SELECT trajectory_id, card FROM scores WHERE run_id=? AND scoring=? "
            "ORDER BY trajectory_id",
            [run_id, scoring],
        )
    ]


def latest_scoring(db: Database, run_id: str) -> str | None:
    """The scoring setup a run was scored with last (by its trajectories' cards), or None."""
    row = next(
        db.query(
            "SELECT scoring FROM scores WHERE run_id=? AND trajectory_id != '' "
            "ORDER BY created_at DESC LIMIT 1",
            [run_id],
        ),
        None,
    )
    return row["scoring"] if row else None


def card(db: Database, run_id: str, trajectory_id: str, scoring: str) -> str | None:
    """One stored card (JSON text; trajectory ``''``: the run's own card), or None."""
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id=? AND trajectory_id=? AND scoring=?",
            [run_id, trajectory_id, scoring],
        ),
        None,
    )
    return row["card"] if row else None


def run_card(db: Database, run_id: str, scoring: str) -> str | None:
    """The run's own card (JSON text) under a scoring setup, or None."""
    row = next(
        db.query(
            "SELECT card FROM scores WHERE run_id=? AND trajectory_id='' AND scoring=?",
            [run_id, scoring],
        ),
        None,
    )
    return row["card"] if row else None


def trajectory_score_rows(db: Database) -> Iterator[dict]:
    """Every trajectory's score row (all scorings), oldest first."""
    return db.query("SELECT * FROM scores WHERE trajectory_id != '' ORDER BY created_at")


def trajectory_cards(db: Database, run_id: str, scoring: str | None) -> list[str]:
    """The cards (JSON text) of a run's trajectories under one scoring setup."""
    return [
        r["card"]
        for r in db.query(
            "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id != ''",
            [run_id, scoring],
        )
    ]


def cards_by_trajectory(db: Database, run_id: str, scoring: str) -> dict[str, str]:
    """trajectory id -> its card (JSON text) under one scoring setup."""
    return {
        r["trajectory_id"]: r["card"]
        for r in db.query(
            "SELECT trajectory_id, card FROM scores WHERE run_id=? AND scoring=? AND "
            "trajectory_id != ''",
            [run_id, scoring],
        )
    }


def set_card(db: Database, run_id: str, trajectory_id: str, scoring: str, card: str) -> None:
    """Replace one stored card (trajectory ``''``: the run's own card)."""
    db.execute(
        "UPDATE scores SET card=? WHERE run_id=? AND trajectory_id=? AND scoring=?",
        [card, run_id, trajectory_id, scoring],
    )


def scorings_by_recency(db: Database, run_id: str) -> list[str]:
    """Scoring setups stored for a run, most recent first."""
    return [
        r["scoring"]
        for r in db.query(
            "SELECT scoring, MAX(created_at) AS at FROM scores WHERE run_id=? GROUP BY scoring "
            "ORDER BY at DESC, scoring",
            [run_id],
        )
    ]


def figure_rows(db: Database, run_id: str, scoring: str) -> Iterator[dict]:
    """(kind, figures) rows stored at score time for one scoring pass (``score_figures``)."""
    return db.query(
        "SELECT kind, figures FROM score_figures WHERE run_id=? AND scoring=?", [run_id, scoring]
    )


def delete_figures(db: Database, run_id: str) -> None:
    db.execute("DELETE FROM score_figures WHERE run_id=?", [run_id])
