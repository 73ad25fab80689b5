"""What scoring judged and answered: ``verdicts`` (one per claim, question and setup), ``answers``,
``retrievals`` (a question's ranking) and ``overrides`` (a person's correction of a verdict)."""

from __future__ import annotations

from collections.abc import Iterator

from sqlite_utils import Database

from seorap.engine.store.compact import delete_where
from seorap.engine.store.queries.catalog import has_rows


def claim_verdicts_at(
    db: Database, run_id: str, trajectory_id: str, scoring: str, setup: str, state_index: int
) -> list[dict]:
    """The claim verdicts of one state under one judge setup."""
    return list(
        db.query(
            "SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND kind='claim' "
            "AND setup=? AND state_index=?",
            [run_id, trajectory_id, scoring, setup, state_index],
        )
    )


def final_verdicts(
    db: Database, run_id: str, trajectory_id: str, scoring: str, setup: str
) -> Iterator[dict]:
    """A trajectory's claim verdicts under ``setup`` and its question verdicts (memory, k=5)."""
    return db.query(
        "SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
        "((kind='claim' AND setup=?) OR (source='memory' AND k=5))",
        [run_id, trajectory_id, scoring, setup],
    )


def question_verdicts(db: Database, run_id: str, trajectory_id: str, scoring: str) -> list[dict]:
    return list(
        db.query(
            "SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND "
            "scoring=? AND kind != 'claim'",
            [run_id, trajectory_id, scoring],
        )
    )


def has_retrievals(db: Database, run_id: str, trajectory_id: str, scoring: str) -> bool:
    return has_rows(
        db,
        "retrievals",
        "run_id=? AND trajectory_id=? AND scoring=?",
        [run_id, trajectory_id, scoring],
    )


def memory_rankings(db: Database, run_id: str, trajectory_id: str, scoring: str) -> Iterator[dict]:
    """Each question's ranking of the memory's facts."""
    return db.query(
        "SELECT * FROM retrievals WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
        "source='memory'",
        [run_id, trajectory_id, scoring],
    )


def answers(db: Database, run_id: str, trajectory_id: str, scoring: str) -> Iterator[dict]:
    return db.query(
        "SELECT * FROM answers WHERE run_id=? AND trajectory_id=? AND scoring=?",
        [run_id, trajectory_id, scoring],
    )


def overrides_of(db: Database, verdict_ids: list[str]) -> Iterator[dict]:
    """The overrides of these verdicts, oldest first (a later one supersedes an earlier)."""
    marks = ",".join("?" * len(verdict_ids))
    return db.query(
        f"SELECT * FROM overrides WHERE verdict_id IN ({marks}) ORDER BY id", verdict_ids
    )


def verdict_run(db: Database, verdict_id: str) -> str | None:
    """The run a verdict belongs to, or None when there is no such verdict."""
    rows = list(db.query("SELECT run_id FROM verdicts WHERE id = ?", [verdict_id]))
    return rows[0]["run_id"] if rows else None


def all_overrides(db: Database) -> Iterator[dict]:
    """Every override, oldest first."""
    return db.query("SELECT * FROM overrides ORDER BY id")


def matching_verdicts(
    db: Database,
    run_id: str,
    trajectory_id: str,
    scoring: str,
    item: str,
    *,
    claim: bool,
    setup: str,
    source: str,
    k: int | None,
    state: int | None,
) -> list[dict]:
    """The verdicts ``item`` may name (an item id or the claim's or question's text): a claim's in
    judge mode ``setup``, or a question's answered from ``source`` (at depth ``k`` for the memory);
    of one state when ``state`` is given."""
    if claim:
        sql = "kind='claim' AND setup=?"
        args: list = [setup]
    else:
        sql = "kind IN ('compound','single') AND source=?"
        args = [source]
        if source == "memory":
            sql += " AND k=?"
            args.append(k)
    if state is not None:
        sql += " AND state_index=?"
        args.append(state)
    text = "expected" if claim else "question"
    return list(
        db.query(
            f"SELECT * FROM verdicts WHERE run_id=? AND trajectory_id=? AND scoring=? AND "
            f"{sql} AND (item=? OR {text}=?) ORDER BY state_index, item",
            [run_id, trajectory_id, scoring, *args, item, item],
        )
    )


def select(db: Database, run_id: str, scoring: str | None, setup: str | None = None) -> list[dict]:
    """Verdict rows of one run and scoring; with ``setup``, only the claims of that judge mode."""
    sql = "SELECT * FROM verdicts WHERE run_id=? AND scoring=?"
    args = [run_id, scoring]
    if setup is not None:
        sql += " AND kind='claim' AND setup=?"
        args.append(setup)
    return list(db.query(sql, args))


def answer_labels(db: Database, run_id: str, scoring: str, k: int) -> Iterator[dict]:
    """(kind, label) of the question verdicts answered from the memory at depth ``k``."""
    return db.query(
        "SELECT kind, label FROM verdicts WHERE run_id=? AND scoring=? AND setup='answer' "
        "AND source='memory' AND k=? ORDER BY rowid",
        [run_id, scoring, k],
    )


def full_claim_verdicts(db: Database, run_id: str, scoring: str) -> list[dict]:
    """The claim verdicts of judge mode ``full``, by trajectory, state and item."""
    return list(
        db.query(
            "SELECT kind, setup, label, expected, candidate, rationale, judge FROM verdicts "
            "WHERE run_id=? AND scoring=? AND kind='claim' AND setup='full' "
            "ORDER BY trajectory_id, state_index, item",
            [run_id, scoring],
        )
    )


def delete_scored(
    db: Database, table: str, run_id: str, scoring: str, trajectory_id: str | None = None
) -> int:
    """Delete a scoring pass's rows of ``table`` (verdicts, answers, retrievals) for a run, or for
    one of its trajectories; returns how many."""
    if trajectory_id is None:
        return delete_where(db, table, "run_id=? AND scoring=?", [run_id, scoring])
    return delete_where(
        db, table, "run_id=? AND trajectory_id=? AND scoring=?", [run_id, trajectory_id, scoring]
    )
