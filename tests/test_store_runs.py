"""One writer at a time, runs you can manage (docs/store.md, "One writer at a time"): a second
`seorap run` on a database being written refuses with one sentence naming the run; a lease that
lapses (kill -9) never blocks a resume and the run reads `interrupted`; a failed replay leaves no
empty run; `seorap runs` lists and `seorap runs rm` deletes."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from store_support import seorap_env

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.errors import StoreError
from seorap.engine.models.base import ReplayMiss
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.engine.store.lease import LEASE_SECONDS, run_statuses, writer

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
SEORAP = str(Path(sys.executable).parent / "seorap")
ENV = seorap_env()


def seorap(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([SEORAP, *args], capture_output=True, text=True, env=ENV, timeout=300)


def last_line(stderr: str) -> str:
    return [line for line in stderr.strip().splitlines() if line.strip()][-1]


def hold_lease(db, pid: int, run_ids: list[str], expires: float) -> None:
    db["writers"].insert(
        {
            "holder": f"{socket.gethostname()}:{pid}",
            "host": socket.gethostname(),
            "pid": pid,
            "command": "run",
            "run_ids": json.dumps(run_ids),
            "started_at": "2026-12-01T20:00:00+00:00",
            "expires": expires,
        }
    )


def test_second_writer_refused_naming_the_run_then_resumes_after_the_writer_dies(tmp_path):
    path = tmp_path / "runs.db"
    db = open_db(path)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        hold_lease(db, sleeper.pid, ["oracle-aaaa"], time.time() + 60)
        busy = seorap(
            "run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", str(path)
        )
        assert busy.returncode == 2, busy.stderr
        assert "oracle-aaaa" in last_line(busy.stderr) and "being written" in last_line(busy.stderr)
        assert "Traceback" not in busy.stderr
        assert db["runs"].count == 0
    finally:
        sleeper.kill()
        sleeper.wait()
    # the holder is gone (as after kill -9): its lease no longer blocks anyone
    done = seorap(
        "run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", str(path)
    )
    assert done.returncode == 0, done.stderr
    assert set(run_statuses(db).values()) == {"done"}


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_two_runs_at_once_one_writes_the_other_says_why(tmp_path):
    path = tmp_path / "runs.db"
    corpus = str(ROOT / "fixtures" / "ko-mini")
    first = subprocess.Popen(
        [SEORAP, "run", "--corpus", corpus, "--system", "raw", "--offline", "--db", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    deadline = time.time() + 60
    while time.time() < deadline:  # wait until the first one holds the lease
        try:
            if open_db(path, readonly=True)["writers"].count:
                break
        except StoreError:  # not created yet
            pass
        time.sleep(0.1)
    second = seorap("run", "--corpus", corpus, "--system", "oracle", "--offline", "--db", str(path))
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert second.returncode == 2 and "being written" in last_line(second.stderr)
    statuses = run_statuses(open_db(path, readonly=True))
    assert list(statuses.values()) == ["done"]


def test_expired_lease_reads_interrupted(tmp_path):
    db = open_db(tmp_path / "runs.db")
    run(load_corpus(FILE), ["oracle"], db, Config.offline(), offline=True, score=False)
    [run_id] = [r["run_id"] for r in db.query("SELECT run_id FROM runs")]
    db["runs"].update(run_id, {"status": "running"})  # as a run killed mid-write leaves it
    hold_lease(db, 999_999_999, [run_id], time.time() + LEASE_SECONDS)  # no such pid: dead
    assert run_statuses(db) == {run_id: "interrupted"}
    listed = seorap("runs", "--db", str(tmp_path / "runs.db"))
    assert listed.returncode == 0 and "interrupted" in listed.stdout
    with writer(db, "run", [run_id]):  # a live lease (this process): it is running
        assert run_statuses(db) == {run_id: "running"}


def test_failed_replay_leaves_no_empty_run(tmp_path):
    db = open_db(tmp_path / "runs.db")
    with pytest.raises(ReplayMiss):
        run(
            load_corpus(FILE), ["A"], db, Config.offline(), replay=True, label="replay", score=False
        )
    assert db["runs"].count == 0


def test_runs_lists_and_rm_deletes_but_keeps_the_call_log(tmp_path):
    path = tmp_path / "runs.db"
    db = open_db(path)
    run(load_corpus(FILE), ["oracle", "A"], db, Config.offline(), offline=True)
    calls = db["calls"].count
    assert calls > 0
    listed = seorap("runs", "--db", str(path))
    assert listed.returncode == 0
    assert sorted(line.split()[1] for line in listed.stdout.splitlines()[1:]) == ["A", "oracle"]
    assert all(line.split()[-1] == "yes" for line in listed.stdout.splitlines()[1:])
    removed = seorap("runs", "rm", "oracle", "--yes", "--db", str(path))
    assert removed.returncode == 0, removed.stderr
    assert [r["system"] for r in db.query("SELECT system FROM runs")] == ["A"]
    for table in ("documents", "facts", "verdicts", "scores"):
        assert (
            db.execute(f"SELECT count(*) FROM {table} WHERE run_id LIKE 'oracle%'").fetchone()[0]
            == 0
        )
    assert db["calls"].count == calls
    again = seorap("runs", "rm", "oracle", "--yes", "--db", str(path))
    assert again.returncode == 2 and "no run 'oracle'" in again.stderr
    gone = seorap("runs", "rm", "A", "--calls", "--yes", "--db", str(path))
    assert gone.returncode == 0 and open_db(path, readonly=True)["calls"].count == 0
