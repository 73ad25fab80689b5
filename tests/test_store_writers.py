"""Every command that writes takes the writer lease (docs/store.md, "One writer at a time"), the app
browses read-only and takes write access only to write, and SQLite errors a user can cause are one
located sentence — each by its reproduction, in a subprocess."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from store_support import seorap_env

from seorap.engine.store.database import open_db
from seorap.engine.store.lease import writer

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
SEORAP = str(Path(sys.executable).parent / "seorap")


def seorap(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [SEORAP, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        env=seorap_env(SEORAP_LOG_DIR=str(cwd / "logs")),
    )


def last_line(out: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in out.stderr + out.stdout
    return [line for line in out.stderr.strip().splitlines() if line.strip()][-1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("writers")
    made = seorap(
        "run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", "runs.db", cwd=d
    )
    assert made.returncode == 0, made.stderr
    (d / "none.json").write_text("[]")
    return d


@pytest.fixture
def db_copy(scored, tmp_path) -> Path:
    for name in ("runs.db", "none.json"):
        shutil.copy(scored / name, tmp_path / name)
    return tmp_path


HOLD = """
import sys, time
from seorap.engine.store.database import open_db
from seorap.engine.store.lease import writer
db = open_db(sys.argv[1])
with writer(db, "run", ["oracle-holding"]):
    print("held", flush=True)
    time.sleep(120)
"""

WRITERS = [
    ("override", ["override", "--db", "runs.db", "--file", "none.json"]),
    ("report --overrides", ["report", "--db", "runs.db", "--overrides", "none.json"]),
    ("score", ["score", "--db", "runs.db", "--offline"]),
    ("runs rm", ["runs", "rm", "oracle", "--yes", "--db", "runs.db"]),
    ("judge-audit", ["judge-audit", "--corpus", str(FILE), "--db", "runs.db"]),
    ("run", ["run", "--corpus", str(FILE), "--system", "raw", "--offline", "--db", "runs.db"]),
]


def test_every_writer_refuses_while_another_process_writes(db_copy):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db_copy / "runs.db")],
        stdout=subprocess.PIPE,
        text=True,
        env=seorap_env(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for name, args in WRITERS:
            out = seorap(*args, cwd=db_copy)
            assert out.returncode == 2, (name, out.stderr)
            line = last_line(out)
            assert "is being written by `seorap run` (oracle-holding; pid" in line, (name, line)
        reading = seorap("report", "--db", "runs.db", "--format", "json", cwd=db_copy)
        assert reading.returncode == 0, reading.stderr  # readers never wait for the writer
    finally:
        holder.kill()
        holder.wait()
    # the holder was killed (kill -9): the next writer goes ahead at once
    out = seorap("override", "--db", "runs.db", "--file", "none.json", cwd=db_copy)
    assert out.returncode == 0, out.stderr
    assert list(open_db(db_copy / "runs.db", readonly=True).query("SELECT * FROM writers")) == []


def test_override_writes_under_the_lease_and_releases_it(db_copy):
    db = open_db(db_copy / "runs.db", readonly=True)
    vid = next(db.query("SELECT id FROM verdicts WHERE setup='full' LIMIT 1"))["id"]
    (db_copy / "one.json").write_text(
        json.dumps([{"verdict_id": vid, "label": "NO", "reason": "r"}])
    )
    out = seorap("override", "--db", "runs.db", "--file", "one.json", cwd=db_copy)
    assert out.returncode == 0, out.stderr
    assert [r["label"] for r in db.query("SELECT label FROM overrides")] == ["NO"]
    assert list(db.query("SELECT * FROM writers")) == []


@pytest.mark.parametrize("name,args", WRITERS, ids=[w[0] for w in WRITERS])
def test_writers_on_a_read_only_file_say_so_and_leave_it_untouched(db_copy, name, args):
    path = db_copy / "runs.db"
    path.chmod(0o444)
    before = digest(path)
    out = seorap(*args, cwd=db_copy)
    assert out.returncode == 2, (name, out.stderr)
    assert "runs.db is read-only" in last_line(out), (name, out.stderr)
    assert digest(path) == before
    assert seorap("report", "--db", "runs.db", "--format", "json", cwd=db_copy).returncode == 0


def test_app_browses_read_only_and_takes_write_access_for_an_override(db_copy):
    """The app's score and compare views open read-only; an override opens the file for writing
    under the lease and, on a read-only file or while another process writes, says so."""
    from seorap.engine import views
    from seorap.tui.overrides import store

    path = db_copy / "runs.db"
    path.chmod(0o444)
    before = digest(path)
    browsing = open_db(path, readonly=True)
    [run_id] = [r["run_id"] for r in browsing.query("SELECT run_id FROM runs")]
    assert views.run_report(browsing, run_id) is not None  # the score view's figures
    vid = next(browsing.query("SELECT id FROM verdicts WHERE setup='full' LIMIT 1"))["id"]
    ctx = SimpleNamespace(db_path=path, db=browsing)
    said = store(ctx, vid, "NO", "wrong")
    assert said is not None and "is read-only" in said
    assert digest(path) == before
    path.chmod(0o644)
    other = open_db(path)
    with writer(other, "run", ["oracle-x"]):
        # the same process shares its lease; another process's lease is what blocks (test above)
        assert store(ctx, vid, "NO", "wrong") is None
    assert [r["label"] for r in browsing.query("SELECT label FROM overrides")] == ["NO"]
    for screen in ("scores", "compare"):
        source = (ROOT / "tui" / "screens" / f"{screen}.py").read_text()
        assert (
            "ctx.worker_db()" in source and "open_db(" not in source  # worker_db reads only
        )


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_sqlite_errors_in_score_are_one_sentence(db_copy):
    path = db_copy / "runs.db"
    # damaged pages in a table score reads (the schema itself is intact)
    bad = db_copy / "bad.db"
    shutil.copy(path, bad)
    conn = sqlite3.connect(bad)
    pages = [
        r[0]
        for r in conn.execute(
            "SELECT pageno FROM dbstat WHERE name IN ('facts', 'scores', "
            "'verdicts_data') AND pagetype = 'leaf'"
        )
    ]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(bad, "r+b") as fh:
        for n in pages:
            fh.seek((n - 1) * page + 8)
            fh.write(b"\xff" * (page - 8))
    for args in (
        ["score", "--db", "bad.db", "--offline"],
        ["report", "--db", "bad.db"],
        ["inspect", "--db", "bad.db"],
    ):
        out = seorap(*args, cwd=db_copy)
        assert out.returncode == 2, (args, out.stderr)
        assert "bad.db is damaged" in last_line(out), (args, out.stderr)
    # a file another program keeps locked: waits for the busy timeout, then one sentence
    locker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sqlite3, sys, time\n"
                "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute('PRAGMA journal_mode=DELETE'); c.execute('BEGIN EXCLUSIVE')\n"
                "print('locked', flush=True); time.sleep(120)"
            ),
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        out = seorap("score", "--db", "runs.db", "--offline", cwd=db_copy)
        assert out.returncode == 2, out.stderr
        assert "runs.db" in last_line(out) and "locked" in last_line(out), out.stderr
    finally:
        locker.kill()
        locker.wait()


async def test_app_on_a_read_only_file_browses_and_says_so_for_a_replay(db_copy):
    """`seorap inspect` on a read-only file: the app opens and shows the runs; a replay (p in the
    live view) needs write access and says the file is read-only; the file is never written."""
    from seorap.tui.factory import make_app

    path = db_copy / "runs.db"
    writable = open_db(path)
    writable.execute(
        "DELETE FROM score_figures"
    )  # so the score view computes them in the background
    writable.conn.close()
    path.chmod(0o444)
    before = digest(path)
    db = open_db(path, readonly=True)
    [run_id] = [r["run_id"] for r in db.query("SELECT run_id FROM runs")]
    app = make_app(path, run_id=run_id, db=db)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("4")  # the score cards, computed from a read-only connection
        await app.workers.wait_for_complete()
        await pilot.pause()
        scores = str(app.screen.query_one("#scores-status").content)
        assert "failed" not in scores and "run 1/1" in scores, scores
        await pilot.press("5")  # compare: read-only too
        await app.workers.wait_for_complete()
        await pilot.press("6", "p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#live-status").content)
    assert "is read-only" in status, status
    assert digest(path) == before


def test_a_writer_whose_lease_was_taken_says_so_even_with_nothing_left_to_write(tmp_path):
    """A writer paused past its lease while another took the file over and finished can wake with
    nothing left to commit: it never meets the commit guard, yet it must not leave as if its run
    were its own. Leaving the block says the lease was lost (the command exits 2 with that)."""
    from seorap.engine.store.sqlerrors import LeaseLost

    db = open_db(tmp_path / "w.db")
    with pytest.raises(LeaseLost, match="lost its writer lease"):
        with writer(db, "run") as lease:
            # what the second writer does on finding our lease lapsed: it removes our row
            other = sqlite3.connect(tmp_path / "w.db")
            other.execute("DELETE FROM writers WHERE holder = ?", [lease.holder])
            other.commit()
            other.close()
    assert list(db.query("SELECT * FROM writers")) == []
    with writer(db, "run"):  # the file is free again
        pass
