"""Write transactions under the writer lease (docs/store.md, "One writer at a time").

:func:`transaction` is every atomic write; :func:`checked` makes a write that would run on its own
one too while this process holds the file's lease, so the lease is confirmed before it. Kept apart
from ``database`` (which imports the schema) so the call log, the accounting and the scoring tables
can use it without an import cycle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlite_utils

from seorap.engine.store.connstate import commit_guard, state


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """One atomic write (BEGIN IMMEDIATE ... COMMIT); rolled back on any exception. When this
    process holds the file's writer lease, the lease is confirmed first, inside the transaction
    (no other writer can change it before the COMMIT): a writer that lost it writes nothing."""
    db.execute("BEGIN IMMEDIATE")
    try:
        guard = commit_guard(_path_of(db))
        if guard is not None:
            guard(db)
        yield
    except BaseException:
        db.execute("ROLLBACK")
        state(db).forget_ids()  # ids handed out inside it are gone
        raise
    else:
        db.execute("COMMIT")


@contextmanager
def checked(db: sqlite_utils.Database) -> Iterator[None]:
    """A write that may run on its own (a logged call, stored vectors, a counter): while this
    process holds the file's writer lease it becomes a :func:`transaction` of its own, so the lease
    is confirmed before the write and a writer that lost it writes nothing; inside a transaction
    already, or with no lease held (an in-memory database, a file nobody leases), it runs as is."""
    if db.conn.in_transaction or commit_guard(_path_of(db)) is None:
        yield
        return
    with transaction(db):
        yield


def _path_of(db: sqlite_utils.Database) -> str:
    """:func:`db_file`, asked once per connection."""
    st = state(db)
    if st.path is None:
        st.path = db_file(db)
    return st.path


def db_file(db: sqlite_utils.Database) -> str:
    """The file behind a connection ('' for an in-memory database)."""
    rows = db.execute("PRAGMA database_list").fetchall()
    return next((r[2] for r in rows if r[1] == "main"), "") or ""
