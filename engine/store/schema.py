"""The run database's schema: its tables and columns, how a file says it is ours, and how the
schema is created or brought up to date (see docs/store.md)."""

from __future__ import annotations

import sqlite_utils

from seorap.engine.store import compact_layout
from seorap.engine.store.queries.accounting import ensure_tables as ensure_accounting_tables

SCHEMA_VERSION = 4
"""1: the first schema (no application id); 2: stamped with APPLICATION_ID; 3: compact storage
(texts stored once, raw replies compressed: engine/store/compact.py); 4: statements, facts, versions and
answers compact too, run and trajectory stored once per row as a ``scope``, own ids relative."""

WRITERS_COLUMNS = {
    "holder": str,
    "host": str,
    "pid": int,
    "command": str,
    "run_ids": str,
    "started_at": str,
    "expires": float,
}
"""The writer lease (one row per process writing the file; see :func:`writer`)."""

# table -> (columns, primary key). Every JSON column is TEXT holding JSON.
TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "runs": (
        {
            "run_id": str,
            "system": str,
            "corpus": str,
            "corpus_digest": str,
            "config": str,
            "manifest": str,
            "status": str,
            "created_at": str,
            "finished_at": str,
        },
        "run_id",
    ),
    "documents": (
        {
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "state_index": int,
            "doc_id": str,
            "is_distractor": int,
            "timestamp": str,
            "observations": int,
            "failures": int,
            "duration_ms": float,
            "written_at": str,
        },
        ("run_id", "trajectory_id", "position"),
    ),
    "observations": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "state_index": int,
            "doc_id": str,
            "seq": int,
            "text": str,
            "category": str,
            "who": str,
            "what": str,
            "when_": str,
            "where_": str,
            "why": str,
            "author": str,
            "author_role": str,
            "doc_date": str,
        },
        "id",
    ),
    "facts": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "text": str,
            "confidence": float,
            "status": str,
            "created_at": str,
            "updated_at": str,
            "created_position": int,
            "updated_position": int,
            "observation_ids": str,
            "authors": str,
            "author_count": int,
            "version": int,
        },
        "id",
    ),
    "fact_versions": (
        {
            "fact_id": str,
            "version": int,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "state_index": int,
            "text": str,
            "confidence": float,
            "status": str,
            "operation": str,
            "observation_id": str,
            "authors": str,
            "doc_date": str,
        },
        ("fact_id", "version"),
    ),
    "decisions": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "state_index": int,
            "observation_id": str,
            "candidates": str,
            "raw_operation": str,
            "operation": str,
            "guard": str,
            "guard_effect": str,
            "fact_id": str,
            "before": str,
            "after": str,
            "call_key": str,
        },
        "id",
    ),
    "write_failures": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "stage": str,
            "reason": str,
            "raw": str,
        },
        "id",
    ),
    # What each expected claim's lookup returned after each document (engine/run/readtime.py).
    "read_lookups": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "state_index": int,
            "item": str,
            "claim": str,
            "hits": str,
            "source": str,
            "k": int,
        },
        "id",
    ),
    # What a system's own search returned for each question, after the trajectory's last document
    # (engine/run/readtime.py): its read path for the questions (engine/scoring/answer_path.py).
    "question_lookups": (
        {
            "id": str,
            "run_id": str,
            "trajectory_id": str,
            "position": int,
            "kind": str,
            "item": str,
            "question": str,
            "hits": str,
            "source": str,
            "k": int,
        },
        "id",
    ),
    "writers": (WRITERS_COLUMNS, "holder"),
    "embeddings": (
        {"embedder": str, "text_hash": str, "dim": int, "vector": bytes},
        ("embedder", "text_hash"),
    ),
}

# Columns added after SCHEMA_VERSION 1 shipped (memory system); ensure_schema adds them to old files.
EXTRA_COLUMNS: dict[str, dict[str, type]] = {
    "observations": {"confidence": float, "quarantine": str},
    "decisions": {"model_text": str, "model_confidence": float, "reason": str},
    "write_failures": {"observation_id": str, "call_key": str, "partial": int},
    "runs": {"error": str},
    "fact_versions": {"successor_id": str},
    # the slot question a lookup asked (older lookups asked with the claim: recomputed at scoring)
    "read_lookups": {"query": str, "query_kind": str},
}

INDEXES = [
    ("observations", ["run_id", "trajectory_id", "position"]),
    ("facts", ["run_id", "trajectory_id"]),
    ("fact_versions", ["run_id", "trajectory_id", "position"]),
    ("decisions", ["run_id", "trajectory_id", "position"]),
    ("write_failures", ["run_id", "trajectory_id"]),
    ("read_lookups", ["run_id", "trajectory_id", "position"]),
    ("question_lookups", ["run_id", "trajectory_id"]),
]


APPLICATION_ID = 0x53524150
"""``PRAGMA application_id`` of every seorap database ("SRAP"): how a file says it is ours."""

CORE_TABLES = ("runs", "documents")
"""A file without our application id is an earlier seorap database when it has these tables."""


def table_columns(db: sqlite_utils.Database, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info([{table}])")}


_SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "FLOAT", bytes: "BLOB"}


def all_tables() -> dict[str, dict[str, type]]:
    # start-up: numpy, pydantic load only when this runs
    from seorap.engine.models.calllog import CALL_COLUMNS
    from seorap.engine.scoring.tables import TABLES as SCORING_TABLES

    out = {name: dict(columns) for name, (columns, _) in TABLES.items()}
    for name, extra in EXTRA_COLUMNS.items():
        out[name].update(extra)
    out["calls"] = dict(CALL_COLUMNS)
    out.update({name: dict(columns) for name, (columns, _) in SCORING_TABLES.items()})
    return out


def readonly_shims(db: sqlite_utils.Database) -> None:
    """On a read-only connection to an older database: every table and column today's code reads,
    supplied for this connection only (TEMP objects shadow the file's; the file is not written)."""
    have = {
        r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    }
    for name, columns in all_tables().items():
        if name not in have:
            cols = ", ".join(f"[{c}] {_SQL_TYPES[t]}" for c, t in columns.items())
            db.execute(f"CREATE TEMP TABLE [{name}] ({cols})")
            continue
        missing = [c for c in columns if c not in table_columns(db, name)]
        if missing:
            extra = ", ".join(f"NULL AS [{c}]" for c in missing)
            db.execute(f"CREATE TEMP VIEW [{name}] AS SELECT *, {extra} FROM main.[{name}]")


COMPACT_TABLES = {"decisions", "observations", "facts", "fact_versions"}
"""Stored as ``<name>_data`` with texts and run/trajectory referenced, behind a view of the name
(engine/store/compact.py)."""


def ensure_schema(db: sqlite_utils.Database) -> None:
    db.table("texts").create(
        {"id": int, "hash": int, "text": str},
        pk="id",
        not_null={"hash", "text"},
        if_not_exists=True,
    )
    db.table("texts").create_index(["hash"], unique=True, if_not_exists=True)
    for name, (columns, pk) in TABLES.items():
        if name in COMPACT_TABLES:
            compact_layout.ensure(
                db,
                name,
                {**columns, **EXTRA_COLUMNS.get(name, {})},
                pk,
                [cols for table, cols in INDEXES if table == name],
            )
            continue
        db.table(name).create(columns, pk=pk, if_not_exists=True)
    for name, extra in EXTRA_COLUMNS.items():
        if name in COMPACT_TABLES:
            continue
        have = set(db.table(name).columns_dict)
        for column, kind in extra.items():
            if column not in have:
                db.table(name).add_column(column, kind)
    for table, cols in INDEXES:
        if table not in COMPACT_TABLES:
            db.table(table).create_index(cols, if_not_exists=True)
    # start-up: numpy, pydantic load only when this runs
    from seorap.engine.models.calllog import ensure_calls_table
    from seorap.engine.scoring.tables import ensure_tables

    ensure_calls_table(db)
    ensure_tables(db)
    ensure_accounting_tables(db)
