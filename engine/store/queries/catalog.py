"""What the database holds: its tables and views, a table's columns, whether a table has rows. The
views read defensively with these (an older file lacks newer tables and columns)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlite_utils import Database


def readable_names(db: Database) -> set[str]:
    """Tables and views a query can read (the compact tables are views; a read-only open of an
    older file adds temporary ones)."""
    return {
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') UNION "
            "SELECT name FROM sqlite_temp_master WHERE type IN ('table', 'view')"
        )
    }


def has_rows(db: Database, table: str, where: str = "", args: Iterable = ()) -> bool:
    """``table`` exists and has a row (matching ``where``, with ``args`` bound, when given)."""
    if table not in readable_names(db):
        return False
    sql = f"SELECT 1 FROM [{table}]" + (f" WHERE {where}" if where else "") + " LIMIT 1"
    return next(db.query(sql, list(args)), None) is not None


def columns(db: Database, table: str) -> set[str]:
    """The columns of a table or view (empty when there is none)."""
    if table not in readable_names(db):
        return set()
    return {r[1] for r in db.execute(f"PRAGMA table_info([{table}])")}


def row_count_and_max(db: Database, table: str, column: str) -> tuple:
    """(rows, largest ``column``) of a table: a cheap signature of what it holds."""
    return tuple(
        next(db.query(f"SELECT COUNT(*) AS n, MAX([{column}]) AS m FROM [{table}]"), {}).values()
    )


def content_state(db: Database) -> tuple[int, int]:
    """What changes whenever the database's content may have, as this connection sees it: SQLite's
    ``PRAGMA data_version`` (another connection committed) and the connection's own
    ``total_changes`` (it wrote). Two equal states read the same rows."""
    (version,) = db.execute("PRAGMA data_version").fetchone()
    return (version, db.conn.total_changes)


def count_by_run(db: Database, table: str) -> dict[str, int]:
    """run id -> rows of ``table``."""
    return {
        r["run_id"]: r["n"]
        for r in db.query(f"SELECT run_id, COUNT(*) AS n FROM [{table}] GROUP BY run_id")
    }
