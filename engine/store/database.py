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
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlite_utils
from seorap.engine.errors import StoreError
from seorap.engine.store.compact import unzip_function
from seorap.engine.store.connstate import state

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
    "writers": (WRITERS_COLUMNS, "holder"),
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
    ("read_lookups", ["run_id", "trajectory_id", "position"]),
]


APPLICATION_ID = 0x53524150
"""``PRAGMA application_id`` of every seorap database ("SRAP"): how a file says it is ours."""

CORE_TABLES = ("runs", "documents")
"""A file without our application id is an earlier seorap database when it has these tables."""


class ReadOnlyStore(StoreError):
    """A command that writes was given a file (or a database opened) read-only."""


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
            _readonly_shims(db)
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
        raise StoreError(f"{path} is a directory, not a database file")
    if not path.exists():
        if readonly:
            raise StoreError(f"{path} does not exist")
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            raise StoreError(f"cannot create {path}: {parent} is a file, not a folder")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from None
        return path
    # No open()/close() of the file here: closing any descriptor of a database file drops every
    # POSIX lock this process holds on it, which would let another process's last connection
    # checkpoint and delete the WAL under ours. SQLite itself says when a file is not a database.
    if not os.access(path, os.R_OK):
        raise StoreError(f"cannot read {path}: permission denied")
    return path


def is_sqlite_file(path: str | Path) -> bool:
    """True when ``path`` is an existing file that starts with the SQLite header."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
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
    if app_id == 0 and set(CORE_TABLES) <= tables and "run_id" in _columns(db, "runs"):
        return "older"
    db.conn.close()
    raise StoreError(
        f"{path} is not a seorap database (another program's SQLite file); it was left untouched"
    )


def _columns(db: sqlite_utils.Database, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info([{table}])")}


def _complete(db: sqlite_utils.Database) -> bool:
    """Every table and column today's code uses is in the file (a column added to the schema
    later reaches files of the same version this way)."""
    from seorap.engine.store import compact

    kinds = {r[0]: r[1] for r in db.execute("SELECT name, type FROM sqlite_master")}
    if "texts" not in kinds or "scopes" not in kinds:
        return False
    for name, columns in _all_tables().items():
        if name in compact.COMPACT:
            data = f"{name}_data"
            if (
                kinds.get(name) != "view"
                or data not in kinds
                or not set(compact.data_columns(name, columns)) <= _columns(db, data)
            ):
                return False
        elif name not in kinds or not set(columns) <= _columns(db, name):
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


_SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "FLOAT", bytes: "BLOB"}


def _all_tables() -> dict[str, dict[str, type]]:
    from seorap.engine.models.calllog import CALL_COLUMNS
    from seorap.engine.scoring.tables import TABLES as SCORING_TABLES

    out = {name: dict(columns) for name, (columns, _) in TABLES.items()}
    for name, extra in EXTRA_COLUMNS.items():
        out[name].update(extra)
    out["calls"] = dict(CALL_COLUMNS)
    out.update({name: dict(columns) for name, (columns, _) in SCORING_TABLES.items()})
    return out


def _readonly_shims(db: sqlite_utils.Database) -> None:
    """On a read-only connection to an older database: every table and column today's code reads,
    supplied for this connection only (TEMP objects shadow the file's; the file is not written)."""
    have = {
        r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    }
    for name, columns in _all_tables().items():
        if name not in have:
            cols = ", ".join(f"[{c}] {_SQL_TYPES[t]}" for c, t in columns.items())
            db.execute(f"CREATE TEMP TABLE [{name}] ({cols})")
            continue
        missing = [c for c in columns if c not in _columns(db, name)]
        if missing:
            extra = ", ".join(f"NULL AS [{c}]" for c in missing)
            db.execute(f"CREATE TEMP VIEW [{name}] AS SELECT *, {extra} FROM main.[{name}]")


COMPACT_TABLES = {"decisions", "observations", "facts", "fact_versions"}
"""Stored as ``<name>_data`` with texts and run/trajectory referenced, behind a view of the name
(engine/store/compact.py)."""


def ensure_schema(db: sqlite_utils.Database) -> None:
    from seorap.engine.store import compact

    db.table("texts").create(
        {"id": int, "hash": int, "text": str},
        pk="id",
        not_null={"hash", "text"},
        if_not_exists=True,
    )
    db.table("texts").create_index(["hash"], unique=True, if_not_exists=True)
    for name, (columns, pk) in TABLES.items():
        if name in COMPACT_TABLES:
            compact.ensure(
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
    from seorap.engine.models.calllog import ensure_calls_table
    from seorap.engine.run.accounting import ensure_tables as ensure_accounting_tables
    from seorap.engine.scoring.tables import ensure_tables

    ensure_calls_table(db)
    ensure_tables(db)
    ensure_accounting_tables(db)


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """One atomic write (BEGIN IMMEDIATE ... COMMIT); rolled back on any exception."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        state(db).forget_ids()  # ids handed out inside it are gone
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


# ---- one writer at a time ---------------------------------------------------------------------------
LEASE_SECONDS = 15.0
"""A writer renews its lease every third of this; a writer killed with SIGKILL stops renewing, so its
lease lapses after at most this long (at once when it ran on this machine: its pid is gone)."""

WRITERS = WRITERS_COLUMNS


class DatabaseBusy(StoreError):
    """Another process is writing the database."""


def _holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _stale(row: dict, now: float) -> bool:
    if row["expires"] is None or row["expires"] < now:
        return True
    return row["host"] == socket.gethostname() and not _pid_alive(row["pid"])


def live_writers(db: sqlite_utils.Database) -> list[dict]:
    """Writers whose lease holds (other processes' and this one's)."""
    now = time.time()
    try:
        rows = list(db.query("SELECT * FROM writers"))
    except sqlite3.OperationalError:  # no such table: an older database nobody writes
        return []
    return [r for r in rows if not _stale(r, now)]


def run_statuses(db: sqlite_utils.Database) -> dict[str, str]:
    """run_id -> status as it is now: a run stored as ``running`` that no live writer holds was
    stopped without a word (killed, disk full, power cut) and reads ``interrupted``."""
    held = {rid for w in live_writers(db) for rid in loads(w["run_ids"], [])}
    return {
        r["run_id"]: (
            "interrupted"
            if r["status"] == "running" and r["run_id"] not in held
            else r["status"] or ""
        )
        for r in db.query("SELECT run_id, status FROM runs")
    }


def db_file(db: sqlite_utils.Database) -> str:
    """The file behind a connection ('' for an in-memory database)."""
    rows = db.execute("PRAGMA database_list").fetchall()
    return next((r[2] for r in rows if r[1] == "main"), "") or ""


class WriterLease:
    """This process's claim to write one database file (see :func:`writer`)."""

    _held: dict[str, WriterLease] = {}
    _guard = threading.Lock()

    def __init__(self, path: str, command: str) -> None:
        self.path, self.command = path, command
        self.holder = _holder()
        self.run_ids: list[str] = []
        self.depth = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _conn(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)

    def _acquire(self) -> None:
        conn = self._conn()
        try:
            conn.execute("BEGIN IMMEDIATE")
            now = time.time()
            cols = list(WRITERS)
            for values in conn.execute(f"SELECT {', '.join(cols)} FROM writers").fetchall():
                row = dict(zip(cols, values))
                if row["holder"] == self.holder:
                    continue
                if _stale(row, now):
                    conn.execute("DELETE FROM writers WHERE holder = ?", [row["holder"]])
                    continue
                conn.execute("ROLLBACK")
                runs = ", ".join(loads(row["run_ids"], [])) or "no run yet"
                raise DatabaseBusy(
                    f"{self.path} is being written by `seorap {row['command']}` ({runs}; pid "
                    f"{row['pid']} on {row['host']} since {row['started_at']}): wait for it to "
                    "finish, or write to another --db"
                )
            conn.execute(
                f"INSERT OR REPLACE INTO writers ({', '.join(cols)}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    self.holder,
                    socket.gethostname(),
                    os.getpid(),
                    self.command,
                    dumps(self.run_ids),
                    _utcnow(),
                    now + LEASE_SECONDS,
                ],
            )
            conn.execute("COMMIT")
        finally:
            conn.close()
        self._thread = threading.Thread(target=self._renew, name="seorap-lease", daemon=True)
        self._thread.start()

    def add_runs(self, run_ids: list[str]) -> None:
        self.run_ids += [r for r in run_ids if r not in self.run_ids]
        self._update()

    def _update(self) -> None:
        try:
            conn = self._conn()
            try:
                conn.execute(
                    "UPDATE writers SET expires = ?, run_ids = ? WHERE holder = ?",
                    [time.time() + LEASE_SECONDS, dumps(self.run_ids), self.holder],
                )
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # a missed renewal (disk full, busy) only shortens the lease

    def _renew(self) -> None:
        while not self._stop.wait(LEASE_SECONDS / 3):
            self._update()

    def _release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            conn = self._conn()
            try:
                conn.execute("DELETE FROM writers WHERE holder = ?", [self.holder])
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # the lease lapses on its own


class _NoLease:
    def add_runs(self, run_ids: list[str]) -> None:
        pass


@contextmanager
def writer(db: sqlite_utils.Database, command: str, run_ids: list[str] | None = None):
    """Hold the database's writer lease while the block runs; another process's live lease raises
    :class:`DatabaseBusy` naming its command and runs. Re-entrant within one process (the app's
    live view and its runs share it). In-memory databases need none."""
    path = db_file(db)
    if not path:
        yield _NoLease()
        return
    with WriterLease._guard:
        lease = WriterLease._held.get(path)
        if lease is None:
            lease = WriterLease(path, command)
            lease._acquire()
            WriterLease._held[path] = lease
        lease.depth += 1
    try:
        if run_ids:
            lease.add_runs(run_ids)
        yield lease
    finally:
        with WriterLease._guard:
            lease.depth -= 1
            if lease.depth == 0:
                WriterLease._held.pop(path, None)
                lease._release()


@contextmanager
def writing(
    path: str | Path, command: str, run_ids: list[str] | None = None
) -> Iterator[sqlite_utils.Database]:
    """Open ``path`` for writing and hold its writer lease while the block runs: every command that
    writes (an override, a replay, a run, ``runs rm``) goes through here or :func:`writer`. A
    read-only file raises :class:`ReadOnlyStore`, another live writer :class:`DatabaseBusy`."""
    db = open_db(path)
    try:
        with writer(db, command, run_ids):
            yield db
    finally:
        db.conn.close()


def _utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def translate_sqlite_error(exc: BaseException, path: str) -> StoreError | None:
    """One sentence for the SQLite errors a user can cause (a full disk, a file made read-only or
    locked by another program); None for anything else."""
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc)
    where = path or "the database"
    if "full" in text:
        return StoreError(
            f"the disk holding {where} is full ({text}); finished documents are "
            "saved: free some space and run the same command again to resume"
        )
    if "readonly" in text or "read-only" in text:
        return ReadOnlyStore(f"{where} cannot be written ({text})")
    if "locked" in text or "busy" in text:
        return DatabaseBusy(
            f"{where} is locked by another program ({text}); try again when it is done"
        )
    if "disk I/O error" in text:
        return StoreError(
            f"cannot write {where} ({text}: the disk may be full or the file too "
            "large); finished documents are saved, run the same command again to resume"
        )
    if "malformed" in text or "not a database" in text:
        return StoreError(f"{where} is damaged ({text})")
    if "unable to open" in text:
        return StoreError(
            f"cannot open {where} ({text}): check that its folder exists and may be written"
        )
    return None


RUN_TABLES = (
    "documents",
    "observations",
    "facts",
    "fact_versions",
    "decisions",
    "write_failures",
    "read_lookups",
    "verdicts",
    "answers",
    "retrievals",
    "overrides",
    "scores",
)
"""Tables holding one run's rows (by ``run_id``); ``calls`` is shared and kept unless asked."""


def delete_run(db: sqlite_utils.Database, run_id: str, *, calls: bool = False) -> dict[str, int]:
    """Delete one run's rows in one transaction; returns {table: rows deleted}. A run that another
    process is writing is refused by :func:`writer`, which the caller holds."""
    counts: dict[str, int] = {}
    from seorap.engine.store.compact import data_table, delete_where

    names = set(db.table_names())
    with transaction(db):
        for table in (*RUN_TABLES, *(("calls",) if calls else ())):
            if data_table(db, table) in names:
                counts[table] = delete_where(db, table, "run_id = ?", [run_id])
        db.execute("DELETE FROM scopes WHERE run_id = ?", [run_id])
        db.execute("DELETE FROM runs WHERE run_id = ?", [run_id])
    return counts
