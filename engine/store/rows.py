"""Inserting one document's rows fast (engine/memory/facts.py commits through these)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, Literal

from sqlite_utils import Database


class _NoLock:
    def __enter__(self) -> _NoLock:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        return False


NO_LOCK = _NoLock()


def insert_rows(
    db: Database, table: str, rows: list[dict[str, Any]], replace: bool = False
) -> None:
    """One prepared ``executemany`` (sqlite-utils' insert_all re-inspects the table per call);
    falls back to insert_all(alter=True) when the table lacks a column (an older database).
    ``replace``: a row with the same key replaces the old one."""
    if not rows:
        return
    columns = list(rows[0])
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    sql = f"{verb} INTO [{table}] ({_names(columns)}) VALUES ({_marks(columns)})"
    _execute_many(
        db,
        sql,
        columns,
        rows,
        lambda: db.table(table).insert_all(rows, alter=True, replace=replace),
    )


def _names(columns: list[str]) -> str:
    return ", ".join(f"[{c}]" for c in columns)


def _marks(columns: list[str]) -> str:
    return ", ".join("?" for _ in columns)


def _execute_many(
    db: Database,
    sql: str,
    columns: list[str],
    rows: list[dict[str, Any]],
    fallback: Callable[[], object],
) -> None:
    """Run a prepared statement over ``rows``; on a missing column (an older database) ``fallback``
    writes them through sqlite-utils with alter=True instead."""
    try:
        db.conn.executemany(sql, [[r.get(c) for c in columns] for r in rows])
    except sqlite3.OperationalError as exc:
        if "no column" not in str(exc):
            raise
        fallback()
