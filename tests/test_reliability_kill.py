"""kill -9 of `seorap run` at seeded random points of a live-path run (issue 6 item 3;
docs/design.md#quality-bars).

tests/test_runner_resume.py kills an offline (stand-in) run once, by polling the database. Here the
run talks to the local fake Ollama server, and the server itself SIGKILLs the run process when the
k-th chat request arrives — so the kill lands while a model call is in flight and, with two
workers, possibly while the other one is inside a document's transaction. For each of three seeded
points: the restart finishes with the store of an uninterrupted run, makes exactly the calls that
were not finished (no finished call key is requested again), and the file passes integrity_check.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading

import pytest
from test_reliability_support import (
    SEORAP,
    CountingHandler,
    call_keys,
    copy_corpus,
    integrity,
    live_toml,
    orphan_rows,
    seorap,
    store_of,
)

from seorap.engine.config import load_config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

SEED = 8
TRAJECTORIES = ("ko-c1-daon-backup", "ko-c5-seminar")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    from ollama_fake import FakeOllama

    tmp = tmp_path_factory.mktemp("kill-reference")
    corpus_dir, toml = copy_corpus(tmp / "corpus", TRAJECTORIES), live_toml(tmp)
    server = FakeOllama().start()
    server.handler = ollama_handler(StandinBackend())
    try:
        db_path = tmp / "whole.db"
        run(
            load_corpus(corpus_dir),
            ["A"],
            open_db(db_path),
            load_config(toml, host=server.url),
            score=False,
            concurrency=2,
        )
        total = len(server.bodies("/api/chat"))
    finally:
        server.stop()
    return {"db": db_path, "corpus": corpus_dir, "toml": toml, "requests": total}


def kill_points(total: int) -> list[int]:
    """Three chat-request numbers to kill at: one per third of the run, seeded."""
    rng = random.Random(SEED)
    third = total // 3
    return [rng.randrange(max(2, i * third), (i + 1) * third) for i in range(3)]


def args(reference, db_path):
    return [
        "run",
        "--corpus",
        str(reference["corpus"]),
        "--system",
        "A",
        "--db",
        str(db_path),
        "--no-score",
        "--concurrency",
        "2",
        "--config",
        str(reference["toml"]),
    ]


def run_and_kill_at(reference, db_path, kill_at: int) -> int:
    """Start `seorap run`; the fake server SIGKILLs it when chat request ``kill_at`` arrives."""
    from ollama_fake import FakeOllama

    server = FakeOllama().start()
    started = threading.Event()
    proc: list[subprocess.Popen] = []

    def kill(n):
        if n == kill_at:
            started.wait(10)
            os.kill(proc[0].pid, signal.SIGKILL)

    server.handler = CountingHandler(ollama_handler(StandinBackend()), kill)
    try:
        proc.append(
            subprocess.Popen(
                [SEORAP, *args(reference, db_path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "OLLAMA_HOST": server.url},
            )
        )
        started.set()
        code = proc[0].wait(timeout=60)
    finally:
        server.stop()
    return code


@pytest.mark.parametrize("which", [0, 1, 2], ids=["first-third", "second-third", "last-third"])
def test_kill_9_at_a_seeded_point_then_restart(reference, tmp_path, which):
    from ollama_fake import FakeOllama

    kill_at = kill_points(reference["requests"])[which]
    db_path = tmp_path / "killed.db"
    assert run_and_kill_at(reference, db_path, kill_at) == -signal.SIGKILL
    assert integrity(db_path) == "ok"
    assert set(orphan_rows(db_path).values()) == {0}, "a half-written document survived the kill"
    finished = call_keys(db_path)
    assert 0 < len(finished) < reference["requests"]

    server = FakeOllama().start()
    server.handler = ollama_handler(StandinBackend())
    try:
        restart = seorap(*args(reference, db_path), env={**os.environ, "OLLAMA_HOST": server.url})
        asked = server.bodies("/api/chat")
    finally:
        server.stop()
    assert restart.returncode == 0, restart.stderr
    assert store_of(db_path) == store_of(reference["db"])
    assert integrity(db_path) == "ok"
    keys = call_keys(db_path)
    assert keys[: len(finished)] == finished and len(keys) == len(set(keys))
    assert set(keys) == set(call_keys(reference["db"]))
    # the restart asked the server exactly for the calls that had not finished
    assert len(asked) == reference["requests"] - len(finished)
