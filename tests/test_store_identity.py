"""A seorap database knows it is one (docs/store.md, "Identity"): foreign, corrupt and non-SQLite
files are refused and never modified; older databases are recognised and stamped on their first
write; reading commands open read-only and work on a read-only file; `-o` never overwrites a
database and `--db ""` is refused. CLI cases run `seorap` in a subprocess."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_support import copy_db, seorap_env

from seorap.engine.store.database import StoreError, open_db
from seorap.engine.store.schema import APPLICATION_ID, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def seorap(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(Path(sys.executable).parent / "seorap"), *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=seorap_env(),
        timeout=120,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def last_line(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


@pytest.fixture(scope="module")
def scored_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("identity") / "runs.db"
    from seorap.engine.config import load_config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import run

    db = open_db(path)
    run(load_corpus(FILE), ["oracle"], db, load_config(offline=True), offline=True)
    db.conn.close()
    return path


def test_new_database_is_stamped(tmp_path):
    db = open_db(tmp_path / "new.db")
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def foreign_db(path: Path) -> Path:
    """An SQLite file of another program (one table of its own)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("readonly", [False, True])
def test_foreign_sqlite_file_is_refused_untouched(tmp_path, readonly):
    path = foreign_db(tmp_path / "other.db")
    before = digest(path)
    with pytest.raises(StoreError, match="not a seorap database"):
        open_db(path, readonly=readonly)
    assert digest(path) == before
    tables = [r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")]
    assert tables == ["notes"]


def test_corrupt_and_non_sqlite_files_are_refused(tmp_path, scored_db):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all")
    with pytest.raises(StoreError, match="not an SQLite file"):
        open_db(text)
    corrupt = tmp_path / "corrupt.db"
    data = bytearray(scored_db.read_bytes())
    data[100:8192] = bytes(8092)
    corrupt.write_bytes(bytes(data))
    before = digest(corrupt)
    for readonly in (False, True):
        with pytest.raises(StoreError, match="not a readable SQLite database"):
            open_db(corrupt, readonly=readonly)
    assert digest(corrupt) == before


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.db"
    open_db(path).execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer seorap"):
        open_db(path)


def _make_older(path: Path) -> None:
    """What a database of the first schema looked like (scoring tables appeared only once a run was
    scored: verdicts dropped)."""
    from store_support import downgrade

    downgrade(path, drop=("verdicts",))


def test_older_database_read_only_untouched_then_stamped_on_first_write(tmp_path, scored_db):
    path = copy_db(scored_db, tmp_path / "old.db")
    _make_older(path)
    before = digest(path)
    db = open_db(path, readonly=True)
    assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM verdicts").fetchone()[0] == 0  # supplied, not created
    db.conn.close()
    assert digest(path) == before
    db = open_db(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert "verdicts" in db.view_names() and "verdicts_data" in db.table_names()


def test_report_works_on_a_read_only_file_and_writers_say_so(tmp_path, scored_db):
    path = copy_db(scored_db, tmp_path / "ro.db")
    os.chmod(path, 0o444)
    before = digest(path)
    out = seorap("report", "--db", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    assert '"runs"' in out.stdout
    assert digest(path) == before
    scored = seorap("score", "--db", str(path), "--offline")
    assert scored.returncode == 2
    assert "read-only" in last_line(scored.stderr) and "Traceback" not in scored.stderr


def test_cli_refuses_foreign_file_with_one_sentence(tmp_path):
    path = foreign_db(tmp_path / "other.db")
    before = digest(path)
    for args in (["report"], ["score", "--offline"], ["diff", "--run", "x"]):
        out = seorap(*args, "--db", str(path))
        assert out.returncode == 2, (args, out.stderr)
        assert "not a seorap database" in last_line(out.stderr)
        assert "Traceback" not in out.stderr
    assert digest(path) == before


def test_output_never_overwrites_a_database(tmp_path, scored_db):
    path = copy_db(scored_db, tmp_path / "v.db")
    before = digest(path)
    same = seorap("report", "--db", str(path), "-o", str(path))
    assert same.returncode == 2 and "the run database itself" in same.stderr
    other = copy_db(scored_db, tmp_path / "other.db")
    over = seorap("report", "--db", str(path), "--format", "md", "-o", str(other))
    assert over.returncode == 2 and "SQLite database" in over.stderr
    missing = seorap("report", "--db", str(path), "-o", str(tmp_path / "nowhere" / "r.md"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    assert digest(path) == before


def test_empty_db_path_is_refused(tmp_path):
    out = seorap(
        "run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", "", cwd=tmp_path
    )
    assert out.returncode == 2 and "--db" in out.stderr and "empty" in out.stderr
    assert list(tmp_path.iterdir()) == []
