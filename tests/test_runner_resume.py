"""The runner: resume after SIGKILL, replay, preflight, reference systems, cancel."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.progress import RecordingProgress
from seorap.engine.run.runner import RunCancelled, run
from seorap.engine.store.database import active_facts_at, open_db

ROOT = Path(__file__).parent.parent
SEORAP = str(Path(sys.executable).parent / "seorap")
PICK = ("ko-c3-hiring-plan", "ko-c4-late-memo", "ko-c5-garam-db")


@pytest.fixture
def corpus_dir(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in PICK:
        shutil.copy(ROOT / "fixtures" / "ko-mini" / f"{name}.json", folder)
    return folder


def seorap(*args, env=None, **kw):
    return subprocess.run(
        [SEORAP, *args], capture_output=True, text=True, env=env, timeout=120, **kw
    )


def store_of(db_path):
    con = sqlite3.connect(db_path)
    facts = con.execute(
        "SELECT id, text, status, round(confidence, 6), version, observation_ids, "
        "authors FROM facts ORDER BY id"
    ).fetchall()
    versions = con.execute(
        "SELECT fact_id, version, position, text, operation FROM fact_versions "
        "ORDER BY fact_id, version"
    ).fetchall()
    decisions = con.execute(
        "SELECT id, raw_operation, operation, fact_id, candidates FROM decisions ORDER BY id"
    ).fetchall()
    return facts, versions, decisions


def test_kill_9_then_resume_matches_uninterrupted(corpus_dir, tmp_path):
    args = [
        "run",
        "--corpus",
        str(corpus_dir),
        "--system",
        "A",
        "--offline",
        "--no-score",
        "--concurrency",
        "2",
    ]
    whole = tmp_path / "whole.db"
    assert seorap(*args, "--db", str(whole)).returncode == 0

    killed = tmp_path / "killed.db"
    env = {**os.environ, "SEORAP_STANDIN_LATENCY": "0.004"}
    proc = subprocess.Popen(
        [SEORAP, *args, "--db", str(killed)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.05)
        try:
            with sqlite3.connect(killed, timeout=1) as con:
                if con.execute("SELECT count(*) FROM documents").fetchone()[0] >= 3:
                    break
        except sqlite3.OperationalError:
            continue
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(killed) as con:
        partial = con.execute("SELECT count(*) FROM documents").fetchone()[0]
        calls_before = con.execute("SELECT count(*) FROM calls WHERE error IS NULL").fetchone()[0]
    total = sum(1 for t in load_corpus(corpus_dir).trajectories for _ in t.arrivals())
    assert 3 <= partial < total, "the kill should land mid-way"

    assert seorap(*args, "--db", str(killed)).returncode == 0
    assert store_of(killed) == store_of(whole)
    with sqlite3.connect(killed) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        repeated = con.execute(
            "SELECT key FROM calls WHERE error IS NULL GROUP BY key HAVING count(*) > 1"
        ).fetchall()
        assert repeated == []
        calls_after = con.execute("SELECT count(*) FROM calls WHERE error IS NULL").fetchone()[0]
    with sqlite3.connect(whole) as con:
        assert calls_after == con.execute("SELECT count(*) FROM calls").fetchone()[0]
    assert calls_after > calls_before


def test_replay_makes_zero_calls_and_a_miss_is_clear(corpus_dir, tmp_path):
    db_path = tmp_path / "r.db"
    base = ["run", "--corpus", str(corpus_dir), "--offline", "--no-score", "--db", str(db_path)]
    assert seorap(*base, "--system", "B").returncode == 0
    with sqlite3.connect(db_path) as con:
        con.execute("DELETE FROM documents")  # force a rewrite that must come from the log
        con.execute("DELETE FROM facts")
        con.execute("DELETE FROM fact_versions")
        con.execute("DELETE FROM decisions")
        con.execute("DELETE FROM observations")
        n = con.execute("SELECT count(*) FROM calls").fetchone()[0]
    assert seorap(*base, "--system", "B", "--replay").returncode == 0
    with sqlite3.connect(db_path) as con:
        assert con.execute("SELECT count(*) FROM calls").fetchone()[0] == n
    miss = seorap(*base, "--system", "A:guard=merge", "--replay")
    assert miss.returncode == 2 and "--replay: no logged call" in miss.stderr


def test_ollama_down_stops_before_any_work(corpus_dir, tmp_path):
    from ollama_fake import closed_port_url

    db_path = tmp_path / "down.db"
    env = {**os.environ, "OLLAMA_HOST": closed_port_url()}
    result = seorap(
        "run",
        "--corpus",
        str(corpus_dir),
        "--system",
        "A",
        "--db",
        str(db_path),
        "--no-score",
        env=env,
    )
    assert result.returncode == 2
    assert "ollama serve" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not db_path.exists()  # nothing written, not even an empty database


def test_missing_model_stops_before_any_work(ollama_server, corpus_dir, tmp_path):
    ollama_server.models = {"bge-m3:latest": "sha256:" + "c" * 64}
    env = {**os.environ, "OLLAMA_HOST": ollama_server.url}
    result = seorap(
        "run",
        "--corpus",
        str(corpus_dir),
        "--system",
        "A",
        "--db",
        str(tmp_path / "m.db"),
        "--no-score",
        env=env,
    )
    assert result.returncode == 2 and "qwen3.5:9b" in result.stderr and "pull" in result.stderr
    assert ollama_server.bodies("/api/chat") == []


def test_reference_systems_offline(corpus_dir, tmp_path):
    corpus = load_corpus(corpus_dir)
    db = open_db(tmp_path / "ref.db")
    progress = RecordingProgress()
    ids = run(
        corpus,
        ["oracle", "oracle-stale", "oracle-merged", "raw"],
        db,
        Config.offline(),
        offline=True,
        score=False,
        progress=progress,
    )
    oracle, stale, merged, raw = ids
    for t in corpus.trajectories:
        last = max(a.position for a in t.arrivals())
        assert sorted(f.text for f in active_facts_at(db, oracle, t.id, last)) == sorted(
            t.final.claims
        )
        held = {f.text for f in active_facts_at(db, stale, t.id, last)}
        assert set(t.all_claims()) <= held
        [blob] = active_facts_at(db, merged, t.id, last)
        assert all(c in blob.text for c in t.final.claims)
        for state in t.states:  # oracle is exact after every state
            pos = max(a.position for a in t.arrivals() if a.state_index == state.index)
            assert sorted(f.text for f in active_facts_at(db, oracle, t.id, pos)) == sorted(
                state.claims
            )
    assert db["facts"].count_where("run_id=?", [raw]) > 3 * len(corpus.trajectories)
    assert db["decisions"].count_where("run_id=? AND operation='supersede'", [oracle]) > 0
    assert progress.of("fact") and {r["status"] for r in db["runs"].rows} == {"done"}
    # same call again: nothing to do, same run ids
    assert run(corpus, ["oracle"], db, Config.offline(), offline=True, score=False) == [oracle]


def test_cancel_stops_between_documents(corpus_dir, tmp_path):
    corpus = load_corpus(corpus_dir)
    db = open_db(tmp_path / "c.db")
    cancel = threading.Event()

    class CancelAfterTwo(RecordingProgress):
        def advance(self, trajectory_id, n=1, note=""):
            super().advance(trajectory_id, n, note)
            if len(self.of("advance")) >= 2:
                cancel.set()

    with pytest.raises(RunCancelled):
        run(
            corpus,
            ["raw"],
            db,
            Config.offline(),
            offline=True,
            score=False,
            concurrency=1,
            progress=CancelAfterTwo(),
            cancel=cancel,
        )
    assert db["documents"].count == 2
    assert next(db["runs"].rows)["status"] == "cancelled"
    [run_id] = run(corpus, ["raw"], db, Config.offline(), offline=True, score=False)
    assert db["documents"].count == sum(1 for t in corpus.trajectories for _ in t.arrivals())
    assert db["runs"].get(run_id)["status"] == "done"
