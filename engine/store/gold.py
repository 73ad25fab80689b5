"""The reads the gold-error ledger and the claim journey's comparison need from the run database
(engine/corpus/gold.py, engine/scoring/gold_suspects.py, engine/views/journey.py): named queries,
no SQL elsewhere."""

from __future__ import annotations

import sqlite_utils

from seorap.engine.store.damage import stored_json


def _readable(db: sqlite_utils.Database, name: str) -> bool:
    """A query can read ``name``: a table, or a view (the compact tables are views; a read-only
    open of an older file adds temporary ones)."""
    return any(
        db.execute(
            "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name=? UNION "
            "SELECT 1 FROM sqlite_temp_master WHERE type IN ('table', 'view') AND name=?",
            [name, name],
        )
    )


def runs_of_corpus(db: sqlite_utils.Database, digest: str) -> list[dict]:
    """run_id and system of every run made on the corpus with this digest, oldest first."""
    return list(
        db.query(
            "SELECT run_id, system FROM runs WHERE corpus_digest=? ORDER BY created_at, run_id",
            [digest],
        )
    )


def corpus_digests(db: sqlite_utils.Database) -> list[str]:
    """The corpus digests the database holds runs of."""
    return [
        r["corpus_digest"]
        for r in db.query(
            "SELECT DISTINCT corpus_digest FROM runs WHERE corpus_digest IS NOT NULL "
            "ORDER BY corpus_digest"
        )
    ]


def run_verdicts(db: sqlite_utils.Database, run_id: str, scoring: str) -> list[dict]:
    """Every verdict of one run under one scoring setup."""
    if not _readable(db, "verdicts"):
        return []
    return list(db.query("SELECT * FROM verdicts WHERE run_id=? AND scoring=?", [run_id, scoring]))


def judged_items(db: sqlite_utils.Database, run_id: str, scoring: str, k: int) -> list[dict]:
    """The verdicts the suspects are read from: full-mode claim verdicts, and the memory (top-k)
    and full-context answer verdicts, of one run and scoring setup (id, trajectory, kind, item,
    state, text, label, judge)."""
    if not _readable(db, "verdicts"):
        return []
    return list(
        db.query(
            "SELECT id, trajectory_id, kind, source, k, item, state_index, expected, question, "
            "label, judge FROM verdicts WHERE run_id=? AND scoring=? AND ("
            "(kind='claim' AND setup='full') OR (kind IN ('compound','single') AND "
            "((source='memory' AND k=?) OR source='full-context'))) ORDER BY trajectory_id, id",
            [run_id, scoring, k],
        )
    )


def trajectory_cards(db: sqlite_utils.Database, run_id: str, scoring: str) -> dict[str, dict]:
    """trajectory id -> its score card (parsed) under one scoring setup; the run's extras row left
    out."""

    return {
        r["trajectory_id"]: stored_json(r["card"], "score card", run_id, {}) or {}
        for r in db.query(
            "SELECT trajectory_id, card FROM scores WHERE run_id=? AND scoring=? AND "
            "trajectory_id != '' ORDER BY trajectory_id",
            [run_id, scoring],
        )
    }
