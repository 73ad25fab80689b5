"""One writer at a time: the writer lease every command that writes a database holds."""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from seorap.engine.store.connstate import set_commit_guard
from seorap.engine.store.database import SIDECARS, db_file, dumps, loads, open_db
from seorap.engine.store.schema import WRITERS_COLUMNS
from seorap.engine.store.sqlerrors import DatabaseBusy, LeaseLost

LEASE_SECONDS = 15.0
"""A writer renews its lease every third of this; a writer killed with SIGKILL stops renewing, so its
lease lapses after at most this long (at once when it ran on this machine: its pid is gone)."""

WRITERS = WRITERS_COLUMNS


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
        self.lost = False
        """Set once the lease is found gone or taken: nothing more is written under it."""

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
        set_commit_guard(self.path, self.confirm)
        self._thread = threading.Thread(target=self._renew, name="seorap-lease", daemon=True)
        self._thread.start()

    def confirm(self, db: sqlite_utils.Database) -> None:
        """Inside a write transaction (the file's write lock held): raise :class:`LeaseLost` unless
        this process still holds the lease and no other live writer does; a lease of ours that
        merely expired while nobody else came is renewed on the spot."""
        if not self.lost:
            now = time.time()
            cols = list(WRITERS)
            rows = [
                dict(zip(cols, v)) for v in db.execute(f"SELECT {', '.join(cols)} FROM writers")
            ]
            mine = [r for r in rows if r["holder"] == self.holder]
            others = [r for r in rows if r["holder"] != self.holder and not _stale(r, now)]
            self.lost = not mine or bool(others)
            if not self.lost and (mine[0]["expires"] or 0) < now + LEASE_SECONDS / 3:
                db.execute(
                    "UPDATE writers SET expires = ? WHERE holder = ?",
                    [now + LEASE_SECONDS, self.holder],
                )
        if self.lost:
            raise self.lost_error()

    def lost_error(self) -> LeaseLost:
        return LeaseLost(
            f"this process lost its writer lease on {self.path} (it was paused or starved "
            f"for more than {LEASE_SECONDS:.0f} s and another writer took the file over); "
            "it stopped without writing: run the same command again when the other is done"
        )

    def add_runs(self, run_ids: list[str]) -> None:
        self.run_ids += [r for r in run_ids if r not in self.run_ids]
        self._update()

    def _update(self) -> None:
        try:
            conn = self._conn()
            try:
                if self.lost:
                    return
                done = conn.execute(
                    "UPDATE writers SET expires = ?, run_ids = ? WHERE holder = ?",
                    [time.time() + LEASE_SECONDS, dumps(self.run_ids), self.holder],
                )
                if done.rowcount == 0:  # another writer found our lease lapsed and removed it
                    self.lost = True
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # a missed renewal (disk full, busy) only shortens the lease

    def _renew(self) -> None:
        while not self._stop.wait(LEASE_SECONDS / 3):
            self._update()

    def _release(self) -> None:
        set_commit_guard(self.path, None)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            conn = self._conn()
            try:
                gone = conn.execute("DELETE FROM writers WHERE holder = ?", [self.holder])
                if gone.rowcount == 0:  # another writer found our lease lapsed and removed it
                    self.lost = True
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # the lease lapses on its own


class _NoLease:
    def add_runs(self, run_ids: list[str]) -> None:
        pass


@contextmanager
def writer(
    db: sqlite_utils.Database, command: str, run_ids: list[str] | None = None
) -> Iterator[WriterLease | _NoLease]:
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
    except BaseException:
        _leave(path, lease)
        raise
    if _leave(path, lease):
        # a writer paused past its lease that woke with nothing left to commit (the other writer
        # did its work) still says it lost the file, rather than claim a run it did not finish
        raise lease.lost_error()


def _leave(path: str, lease: WriterLease) -> bool:
    """One holder less; the last one releases the lease. True when it was found lost."""
    with WriterLease._guard:
        lease.depth -= 1
        if lease.depth == 0:
            WriterLease._held.pop(path, None)
            lease._release()
            return lease.lost
    return False


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


@contextmanager
def discard_if_unused(db: sqlite_utils.Database, *, created: bool) -> Iterator[None]:
    """When the block fails and this command ``created`` the file, remove it again if it holds no
    run, no model reply (failed calls only) and nobody else writes it: a refused or failed command
    leaves no empty database behind."""
    try:
        yield
    except BaseException:
        path = db_file(db)
        if created and path:
            try:
                empty = not any(  # no run, no reply worth keeping
                    db.execute(f"SELECT 1 FROM {query} LIMIT 1").fetchall()
                    for query in ("runs", "calls WHERE error IS NULL")
                )
                empty = empty and not live_writers(db)
                # leaving WAL needs every other connection gone: proof nobody else has it open
                empty = empty and db.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
            except sqlite3.Error:
                empty = False
            if empty:
                db.conn.close()
                for name in (path, *(path + s for s in SIDECARS)):
                    Path(name).unlink(missing_ok=True)
        raise
