"""The run database: one plain SQLite file (sqlite-utils / Datasette open it as is), many runs.

Schema in docs/store.md. Rules:
- WAL journal, so the app reads while a run writes.
- Each document's write (observations, decisions, fact versions, failures, the ``documents`` row)
  commits in ONE transaction: a killed run never leaves a half-written document, and resume = skip
  every (run, trajectory, position) that has a ``documents`` row.
- The store at any step is reconstructed from ``fact_versions`` (latest version per fact with
  ``position <= p``); the ``facts`` table holds the current (final) version for fast queries.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import sqlite_utils

SCHEMA_VERSION = 1

# table -> (columns, primary key). Every JSON column is TEXT holding JSON.
TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "runs": (
        {"run_id": str, "system": str, "corpus": str, "corpus_digest": str, "config": str,
         "manifest": str, "status": str, "created_at": str, "finished_at": str},
        "run_id",
    ),
    "documents": (
        {"run_id": str, "trajectory_id": str, "position": int, "state_index": int, "doc_id": str,
         "is_distractor": int, "timestamp": str, "observations": int, "failures": int,
         "duration_ms": float, "written_at": str},
        ("run_id", "trajectory_id", "position"),
    ),
    "observations": (
        {"id": str, "run_id": str, "trajectory_id": str, "position": int, "state_index": int,
         "doc_id": str, "seq": int, "text": str, "category": str, "who": str, "what": str,
         "when_": str, "where_": str, "why": str, "author": str, "author_role": str, "doc_date": str},
        "id",
    ),
    "facts": (
        {"id": str, "run_id": str, "trajectory_id": str, "text": str, "confidence": float,
         "status": str, "created_at": str, "updated_at": str, "created_position": int,
         "updated_position": int, "observation_ids": str, "authors": str, "author_count": int,
         "version": int},
        "id",
    ),
    "fact_versions": (
        {"fact_id": str, "version": int, "run_id": str, "trajectory_id": str, "position": int,
         "state_index": int, "text": str, "confidence": float, "status": str, "operation": str,
         "observation_id": str, "authors": str, "doc_date": str},
        ("fact_id", "version"),
    ),
    "decisions": (
        {"id": str, "run_id": str, "trajectory_id": str, "position": int, "state_index": int,
         "observation_id": str, "candidates": str, "raw_operation": str, "operation": str,
         "guard": str, "guard_effect": str, "fact_id": str, "before": str, "after": str,
         "call_key": str},
        "id",
    ),
    "write_failures": (
        {"id": str, "run_id": str, "trajectory_id": str, "position": int, "stage": str,
         "reason": str, "raw": str},
        "id",
    ),
    "embeddings": (
        {"embedder": str, "text_hash": str, "dim": int, "vector": bytes},
        ("embedder", "text_hash"),
    ),
}

# Columns added after SCHEMA_VERSION 1 shipped (memory system); ensure_schema adds them to old files.
EXTRA_COLUMNS: dict[str, dict[str, type]] = {
    "observations": {"confidence": float},
    "decisions": {"model_text": str, "model_confidence": float, "reason": str},
    "write_failures": {"observation_id": str, "call_key": str, "partial": int},
    "runs": {"error": str},
    "fact_versions": {"successor_id": str},
}

INDEXES = [
    ("observations", ["run_id", "trajectory_id", "position"]),
    ("facts", ["run_id", "trajectory_id"]),
    ("fact_versions", ["run_id", "trajectory_id", "position"]),
    ("decisions", ["run_id", "trajectory_id", "position"]),
    ("write_failures", ["run_id", "trajectory_id"]),
]


def open_db(path: str | Path | None) -> sqlite_utils.Database:
    """Open (and create) a run database. ``None`` or ':memory:' gives an in-memory one."""
    if path is None or str(path) == ":memory:":
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30, isolation_level=None)
    db = sqlite_utils.Database(conn)
    if path is not None and str(path) != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    ensure_schema(db)
    return db


def ensure_schema(db: sqlite_utils.Database) -> None:
    for name, (columns, pk) in TABLES.items():
        db.table(name).create(columns, pk=pk, if_not_exists=True)
    for name, extra in EXTRA_COLUMNS.items():
        have = set(db.table(name).columns_dict)
        for column, kind in extra.items():
            if column not in have:
                db.table(name).add_column(column, kind)
    for table, cols in INDEXES:
        db.table(table).create_index(cols, if_not_exists=True)
    from engine.accounting import ensure_tables as ensure_accounting_tables
    from engine.models.calllog import ensure_calls_table

    ensure_calls_table(db)
    ensure_accounting_tables(db)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """One atomic write (BEGIN IMMEDIATE ... COMMIT); rolled back on any exception."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    else:
        db.execute("COMMIT")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def loads(value: str | None, default: Any = None) -> Any:
    return default if value in (None, "") else json.loads(value)


@dataclass(frozen=True)
class FactView:
    """One fact as it stood at some position."""

    id: str
    text: str
    confidence: float
    status: str
    version: int
    operation: str
    position: int
    authors: list[str]


def facts_at(db: sqlite_utils.Database, run_id: str, trajectory_id: str,
             position: int | None = None) -> list[FactView]:
    """The store after the document at ``position`` (all of it when None), active and superseded."""
    limit = 10**9 if position is None else position
    rows = db.query(
        """
        SELECT v.* FROM fact_versions v
        JOIN (SELECT fact_id, MAX(version) AS version FROM fact_versions
              WHERE run_id = ? AND trajectory_id = ? AND position <= ? GROUP BY fact_id) last
          ON v.fact_id = last.fact_id AND v.version = last.version
        ORDER BY v.fact_id
        """,
        [run_id, trajectory_id, limit],
    )
    return [
        FactView(r["fact_id"], r["text"], r["confidence"], r["status"], r["version"],
                 r["operation"], r["position"], loads(r["authors"], []))
        for r in rows
    ]


def active_facts_at(db: sqlite_utils.Database, run_id: str, trajectory_id: str,
                    position: int | None = None) -> list[FactView]:
    return [f for f in facts_at(db, run_id, trajectory_id, position) if f.status == "active"]


def last_position_of_state(db: sqlite_utils.Database, run_id: str, trajectory_id: str,
                           state_index: int) -> int | None:
    """The arrival position of the last document (state document or distractor) of a state."""
    row = next(db.query(
        "SELECT MAX(position) AS p FROM documents WHERE run_id=? AND trajectory_id=? AND state_index=?",
        [run_id, trajectory_id, state_index]), None)
    return None if row is None else row["p"]


def done_positions(db: sqlite_utils.Database, run_id: str, trajectory_id: str) -> set[int]:
    return {r["position"] for r in db.query(
        "SELECT position FROM documents WHERE run_id=? AND trajectory_id=?", [run_id, trajectory_id])}


def runs(db: sqlite_utils.Database) -> list[dict]:
    return list(db.query("SELECT * FROM runs ORDER BY created_at"))
