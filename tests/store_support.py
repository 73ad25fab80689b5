"""Test helpers for database files: turn a database of today's schema into the first schema's layout
(plain tables, texts inline, raw replies as text, no application id, user_version 1), to test
recognition and migration of files written by earlier versions; copy a database with its WAL; the
environment of a `seorap` subprocess."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from seorap.engine.store.compact import COMPACT, unzip_function


def downgrade(path: Path, *, drop: tuple[str, ...] = ()) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    unzip_function(conn)
    conn.execute("BEGIN")
    for table in COMPACT:
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info([{table}])") if r[1] != "rowid"]
        select = ", ".join("unzip(raw_z) AS raw" if c == "raw_z" else f"[{c}]" for c in columns)
        conn.execute(f"CREATE TABLE [{table}_plain] AS SELECT {select} FROM [{table}]")
        conn.execute(f"DROP VIEW [{table}]")
        conn.execute(f"DROP TABLE [{table}_data]")
        conn.execute(f"ALTER TABLE [{table}_plain] RENAME TO [{table}]")
    conn.execute("DROP TABLE texts")
    conn.execute("DROP TABLE IF EXISTS scopes")
    conn.execute("DROP TABLE IF EXISTS writers")
    for table in drop:
        conn.execute(f"DROP TABLE [{table}]")
    conn.execute("PRAGMA application_id=0")
    conn.execute("PRAGMA user_version=1")
    conn.execute("COMMIT")
    conn.execute("VACUUM")
    conn.close()


def seorap_env(**extra: str) -> dict[str, str]:
    """Environment for a ``seorap`` subprocess that runs THIS checkout's code: the repository root is
    the package, so PYTHONPATH must name a folder holding a ``seorap`` link to it (PYTHONPATH=ROOT
    would import whatever seorap is installed)."""
    import hashlib
    import os
    import tempfile

    root = Path(__file__).resolve().parents[1]
    folder = (
        Path(tempfile.gettempdir())
        / f"seorap-path-{hashlib.sha1(str(root).encode()).hexdigest()[:10]}"
    )
    link = folder / "seorap"
    if not link.exists():
        folder.mkdir(exist_ok=True)
        try:
            link.symlink_to(root)
        except FileExistsError:
            pass
    return {**os.environ, "PYTHONPATH": str(folder), **extra}


def copy_db(src: Path, dst: Path) -> Path:
    """A copy of the database file ``src`` at ``dst``, with its -wal and -shm files when present."""
    shutil.copy(src, dst)
    for suffix in ("-wal", "-shm"):
        if Path(str(src) + suffix).exists():
            shutil.copy(str(src) + suffix, str(dst) + suffix)
    return dst
