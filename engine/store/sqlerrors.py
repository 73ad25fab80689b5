"""The SQLite errors a user can cause (a full disk, a read-only or locked file), as one sentence."""

from __future__ import annotations

import sqlite3

from seorap.engine.errors import StoreError


class ReadOnlyStore(StoreError):
    """A command that writes was given a file (or a database opened) read-only."""


class DatabaseBusy(StoreError):
    """Another process is writing the database."""


class LeaseLost(DatabaseBusy):
    """This process's writer lease lapsed (it was paused or starved past the lease's expiry) and
    another writer may have taken the file: it stops without writing another row."""


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
