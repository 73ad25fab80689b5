"""Score cards are read once per state of the database, and any change to it is read again: by
this connection, by another one, and one that keeps the row count and the newest time (which a
count-and-max signature would miss)."""

import json

import sqlite_utils

from seorap.engine.store.queries.catalog import content_state
from seorap.engine.views.common import score_cards


def _card(db, run, trajectory, at, **card):
    db["scores"].insert(
        {
            "run_id": run,
            "trajectory_id": trajectory,
            "scoring": "lexical+extractive",
            "created_at": at,
            "card": json.dumps(card),
        }
    )


def test_score_cards_are_read_once_per_database_state(tmp_path):
    path = tmp_path / "s.db"
    db = sqlite_utils.Database(path)
    _card(db, "r1", "t1", "2026-12-06T00:00:01", intrinsic_full=0.5)
    first = score_cards(db)
    assert first[("r1", "t1")]["intrinsic_full"] == 0.5
    assert score_cards(db) is first  # nothing changed: not read again

    _card(db, "r1", "t2", "2026-12-06T00:00:02", intrinsic_full=0.25)  # this connection writes
    assert set(score_cards(db)) == {("r1", "t1"), ("r1", "t2")}

    other = sqlite_utils.Database(path)  # another connection (another process, to SQLite)
    _card(other, "r2", "t1", "2026-12-06T00:00:03", intrinsic_full=1.0)
    assert ("r2", "t1") in score_cards(db)

    before = content_state(db)
    other.execute(
        "UPDATE scores SET card = ? WHERE run_id = 'r1' AND trajectory_id = 't1'",
        [json.dumps({"intrinsic_full": 0.75})],
    )
    other.conn.commit()
    assert content_state(db) != before  # same rows, same newest time, other content
    assert score_cards(db)[("r1", "t1")]["intrinsic_full"] == 0.75


def test_a_database_without_scores_has_no_cards_and_then_has_them(tmp_path):
    db = sqlite_utils.Database(tmp_path / "e.db")
    assert score_cards(db) == {}
    _card(db, "r1", "t1", "2026-12-06T00:00:01", intrinsic_full=0.5)
    assert list(score_cards(db)) == [("r1", "t1")]
