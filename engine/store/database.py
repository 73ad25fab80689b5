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
import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlite_utils

from seorap.engine.errors import StoreError, why
from seorap.engine.store import compact, compact_layout
from seorap.engine.store.compact import count_where, data_table, delete_where, unzip_function
from seorap.engine.store.connstate import state
from seorap.engine.store.schema import (
    APPLICATION_ID,
    CORE_TABLES,
    SCHEMA_VERSION,
    all_tables,
    ensure_schema,
    readonly_shims,
    table_columns,
)
from seorap.engine.store.sqlerrors import DatabaseBusy, ReadOnlyStore
from seorap.engine.store.txn import db_file as db_file  # re-exported: callers read it here
from seorap.engine.store.txn import transaction as transaction  # re-exported


def open_db(path: str | Path | None, *, readonly: bool = False) -> sqlite_utils.Database:
    """Open a run database. ``None`` or ':memory:' gives an in-memory one.

    A missing or empty file becomes a new seorap database (unless ``readonly``). An existing file
    must be ours: our ``application_id``, or (written before the id existed) an application id of 0
    and our core tables; anything else — another program's SQLite file, a corrupt or non-SQLite
    file — raises :class:`StoreError` and is never modified. A writable open of an older database
    migrates and stamps it. ``readonly`` opens the file read-only (it works on a read-only file)
    and never writes to it; tables or columns an older database lacks are supplied as empty
    temporary ones for that connection only.
    """
    if path is None or str(path) == ":memory:":
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        unzip_function(conn)
        db = sqlite_utils.Database(conn)
        _initialise(db, "new")
        return db
    path = _check_path(path, readonly)
    if readonly:
        db = _connect_readonly(path)
        kind = _identify(db, path)
        if kind == "new":
            db.conn.close()
            raise StoreError(
                f"{path} holds no seorap runs yet (an empty database); "
                "write one with `seorap run` first"
            )
        if kind != "current" or not _complete(db):
            readonly_shims(db)
        state(db).readonly = True
        return db
    if path.exists() and not _writable(path):
        raise ReadOnlyStore(
            f"{path} is read-only: this command writes to the database "
            "(reading commands such as `seorap report` work on it as it is)"
        )
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30, isolation_level=None)
    unzip_function(conn)
    db = sqlite_utils.Database(conn)
    kind = _identify(db, path)
    if kind != "new" and str(path.resolve()) not in _INTACT:
        try:  # never write into a damaged file: writing would spread the damage
            check_intact(db)
        except StoreError:
            conn.close()
            raise
        _INTACT.add(str(path.resolve()))
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        if kind != "current" or not _complete(db):
            _initialise(db, kind)
            if kind == "older":
                db.execute("VACUUM")  # rows moved into compact form: give the space back
    except sqlite3.OperationalError as exc:
        conn.close()
        raise StoreError(f"cannot write to {path}: {exc}") from None
    return db


def _writable(path: Path) -> bool:
    """False for a file we may not write, or one with no write permission bit at all (a file
    someone made read-only stays so, even for root)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def _check_path(path: str | Path, readonly: bool) -> Path:
    if not str(path).strip():
        raise StoreError("the database path is empty: give a file name (e.g. --db runs.db)")
    path = Path(path)
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file")
    for part in (path, *[p for p in path.parents if not p.exists()]):
        suffix = next((s for s in SIDECARS if part.name.endswith(s)), None)
        if suffix is not None:  # SQLite's own file beside a database: never ours to make
            raise StoreError(
                f"{part} is named like the {suffix[1:]} file SQLite keeps beside a database; "
                "give the database file itself, or another name"
            )
    if not path.exists():
        if readonly:
            raise StoreError(f"{path} does not exist")
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise StoreError(f"cannot create {path}: {parent} is a file, not a folder")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {path}: {why(exc)}") from None
        return path
    # No open()/close() of the file here: closing any descriptor of a database file drops every
    # POSIX lock this process holds on it, which would let another process's last connection
    # checkpoint and delete the WAL under ours. SQLite itself says when a file is not a database.
    if not os.access(path, os.R_OK):
        raise StoreError(f"cannot read {path}: permission denied")
    if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe could block, a device never ends
        raise StoreError(
            f"{path} is not a regular file (a pipe or a device), so not a database; "
            "it was left untouched"
        )
    return path


def is_sqlite_file(path: str | Path) -> bool:
    """True when ``path`` is an existing file that starts with the SQLite header."""
    return _head(path, 16) == b"SQLite format 3\x00"


def _head(path: str | Path, n: int) -> bytes:
    """The first ``n`` bytes of a regular file (b"" for anything else: a pipe or a device is never
    opened, it could block or never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""
        with open(path, "rb") as fh:
            return fh.read(n)
    except OSError:
        return b""


SIDECARS = ("-wal", "-shm", "-journal")
"""Files SQLite keeps beside a database while it is written: part of the database."""

_LOG_MAGIC = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83", b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7")
"""How a write-ahead log and a rollback journal begin."""


def database_of(path: str | Path, db_path: str | Path | None = None) -> str | None:
    """The database ``path`` belongs to (an SQLite file, or a -wal, -shm or -journal name, whether
    its database exists yet or not), through links, hard links and relative paths; ``db_path``
    counts even before it exists. None for any other file."""
    real = Path(os.path.realpath(path))
    if is_sqlite_file(real):
        return str(real)
    if db_path is not None and str(db_path).strip():
        db_real = Path(os.path.realpath(db_path))
        own = [db_real] + [db_real.with_name(db_real.name + s) for s in SIDECARS]
        if real in own or any(_same(real, f) for f in own):
            return str(db_real)
    for name in (Path(path), real):  # a journal's name is SQLite's, database or not (yet)
        for suffix in SIDECARS:
            if name.name.endswith(suffix):
                return str(name.with_name(name.name[: -len(suffix)]))
    head = _head(real, 8)
    return str(real) if head and any(head.startswith(m) for m in _LOG_MAGIC) else None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _connect_readonly(path: Path) -> sqlite_utils.Database:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=30, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        # a WAL database in a folder we cannot write (no -shm possible): read the file as it is
        conn.close()
        conn = sqlite3.connect(
            f"{uri}&immutable=1", uri=True, check_same_thread=False, isolation_level=None
        )
    except sqlite3.DatabaseError:
        pass  # corrupt: _identify says so in one sentence
    unzip_function(conn)
    return sqlite_utils.Database(conn)


def _identify(db: sqlite_utils.Database, path: Path) -> str:
    """'current', 'older' (ours, earlier schema or no id yet) or 'new' (no tables); raises
    StoreError for a foreign, corrupt or newer file (the connection is closed, nothing written)."""
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            r[0]
            for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        }
    except sqlite3.DatabaseError as exc:
        db.conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise DatabaseBusy(
                f"{path} is locked by another program ({exc}); try again when it is done"
            ) from None
        if "file is not a database" in str(exc):
            raise StoreError(
                f"{path} is not a seorap database (not an SQLite file); it was left untouched"
            ) from None
        raise StoreError(
            f"{path} is not a readable SQLite database ({exc}); it was left untouched"
        ) from None
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            db.conn.close()
            raise StoreError(
                f"{path} was written by a newer seorap (schema {version}; this one "
                f"reads up to {SCHEMA_VERSION}): upgrade seorap to open it"
            )
        return "current" if version == SCHEMA_VERSION else "older"
    if app_id == 0 and not tables:
        return "new"
    if app_id == 0 and set(CORE_TABLES) <= tables and "run_id" in table_columns(db, "runs"):
        return "older"
    db.conn.close()
    raise StoreError(
        f"{path} is not a seorap database (another program's SQLite file); it was left untouched"
    )


def _complete(db: sqlite_utils.Database) -> bool:
    """Every table and column today's code uses is in the file (a column added to the schema
    later reaches files of the same version this way)."""

    kinds = {r[0]: r[1] for r in db.execute("SELECT name, type FROM sqlite_master")}
    if "texts" not in kinds or "scopes" not in kinds:
        return False
    for name, columns in all_tables().items():
        if name in compact.COMPACT:
            data = f"{name}_data"
            if (
                kinds.get(name) != "view"
                or data not in kinds
                or not set(compact_layout.data_columns(name, columns)) <= table_columns(db, data)
            ):
                return False
        elif name not in kinds or not set(columns) <= table_columns(db, name):
            return False
    return True


_INTACT: set[str] = set()
"""Files this process found intact before its first write to them (checked once per process)."""


def check_intact(db: sqlite_utils.Database) -> None:
    """Raise StoreError when the file's pages are damaged (``PRAGMA quick_check``): for the app,
    which would otherwise meet the damage in the middle of a screen."""
    try:
        rows = [r[0] for r in db.execute("PRAGMA quick_check(3)").fetchall()]
    except sqlite3.DatabaseError as exc:
        rows = [str(exc)]
    if rows != ["ok"]:
        path = db_file(db) or "the database"
        raise StoreError(
            f"{path} is damaged ({rows[0][:160]}); restore it from a copy or write "
            "the runs again to a new --db"
        )


def is_readonly(db: sqlite_utils.Database) -> bool:
    """True for a connection opened with ``open_db(..., readonly=True)``."""
    return state(db).readonly


def _initialise(db: sqlite_utils.Database, kind: str) -> None:
    """Create (new) or bring up to date (older) the schema and stamp the file, in one transaction."""
    with transaction(db):
        ensure_schema(db)
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


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


def facts_at(
    db: sqlite_utils.Database, run_id: str, trajectory_id: str, position: int | None = None
) -> list[FactView]:
    """The store after the document at ``position`` (all of it when None), active and superseded."""
    limit = 10**9 if position is None else position
    latest: dict[str, dict] = {}
    for r in db.query(
        "SELECT fact_id, version, text, confidence, status, operation, position, authors "
        "FROM fact_versions WHERE run_id = ? AND trajectory_id = ? AND position <= ?",
        [run_id, trajectory_id, limit],
    ):
        if r["fact_id"] not in latest or r["version"] > latest[r["fact_id"]]["version"]:
            latest[r["fact_id"]] = r
    return [
        FactView(
            r["fact_id"],
            r["text"],
            r["confidence"],
            r["status"],
            r["version"],
            r["operation"],
            r["position"],
            loads(r["authors"], []),
        )
        for _, r in sorted(latest.items())
    ]


def version_texts(
    db: sqlite_utils.Database, run_id: str, trajectory_id: str
) -> list[tuple[str, int]]:
    """(text, position) of every fact version of a trajectory: each text with the document it was
    written at (what its relative dates are read against)."""
    return [
        (r["text"], r["position"])
        for r in db.query(
            "SELECT DISTINCT text, position FROM fact_versions WHERE run_id = ? "
            "AND trajectory_id = ? ORDER BY position, text",
            [run_id, trajectory_id],
        )
    ]


def active_facts_at(
    db: sqlite_utils.Database, run_id: str, trajectory_id: str, position: int | None = None
) -> list[FactView]:
    return [f for f in facts_at(db, run_id, trajectory_id, position) if f.status == "active"]


def last_position_of_state(
    db: sqlite_utils.Database, run_id: str, trajectory_id: str, state_index: int
) -> int | None:
    """The arrival position of the last document (state document or distractor) of a state."""
    row = next(
        db.query(
            "SELECT MAX(position) AS p FROM documents WHERE run_id=? AND trajectory_id=? AND state_index=?",
            [run_id, trajectory_id, state_index],
        ),
        None,
    )
    return None if row is None else row["p"]


def done_positions(db: sqlite_utils.Database, run_id: str, trajectory_id: str) -> set[int]:
    return {
        r["position"]
        for r in db.query(
            "SELECT position FROM documents WHERE run_id=? AND trajectory_id=?",
            [run_id, trajectory_id],
        )
    }


def runs(db: sqlite_utils.Database) -> list[dict]:
    return list(db.query("SELECT * FROM runs ORDER BY created_at"))


RUN_TABLES = (
    "documents",
    "observations",
    "facts",
    "fact_versions",
    "decisions",
    "write_failures",
    "read_lookups",
    "question_lookups",
    "verdicts",
    "answers",
    "retrievals",
    "overrides",
    "scores",
    "score_figures",
    "holdings",
    "phases",
    "call_counters",
)
"""Tables holding one run's rows (by ``run_id``); ``calls`` is shared and kept unless asked."""

AUDIT_ROWS = "verdicts (judge audit)"
"""The judge audit's verdicts of a run, stored under the run id ``audit:<run id>``."""


def _row_sets(run_id: str, calls: bool) -> list[tuple[str, str, str]]:
    """(name shown, table, run id) of every set of rows that belongs to the run."""
    tables = (*RUN_TABLES, *(("calls",) if calls else ()))
    return [(t, t, run_id) for t in tables] + [(AUDIT_ROWS, "verdicts", f"audit:{run_id}")]


def run_rows(db: sqlite_utils.Database, run_id: str, *, calls: bool = False) -> dict[str, int]:
    """{table: rows} that :func:`delete_run` would delete (a dry look; nothing is changed)."""

    names = set(db.table_names())
    return {
        shown: count_where(db, table, "run_id = ?", [rid])
        for shown, table, rid in _row_sets(run_id, calls)
        if data_table(db, table) in names
    }


def delete_run(db: sqlite_utils.Database, run_id: str, *, calls: bool = False) -> dict[str, int]:
    """Delete one run's rows in one transaction; returns {table: rows deleted}. A run that another
    process is writing is refused by :func:`writer`, which the caller holds."""
    counts: dict[str, int] = {}

    names = set(db.table_names())
    with transaction(db):
        for shown, table, rid in _row_sets(run_id, calls):
            if data_table(db, table) in names:
                counts[shown] = delete_where(db, table, "run_id = ?", [rid])
        db.execute("DELETE FROM scopes WHERE run_id IN (?, ?)", [run_id, f"audit:{run_id}"])
        db.execute("DELETE FROM runs WHERE run_id = ?", [run_id])
    # the connection's cached scope ids of the run are gone with its scopes: a run written again
    # under the same id (a replaced rehearsal) gets new ones, or its rows would point at none
    state(db).forget_ids()
    return counts
