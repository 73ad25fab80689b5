"""A recorded live run re-enacted from the call log alone (docs/design.md#who-it-is-for: the demo never
depends on the model's mood): same store, zero requests to the server, a clear error on a miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ReplayMiss
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import replay_run, run
from seorap.engine.store.database import facts_at, open_db

CORPUS = Path(__file__).parent.parent / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def store(db, run_id):
    return [
        (f.text, f.status, round(f.confidence, 6), f.version)
        for f in facts_at(db, run_id, "ko-c3-hiring-plan")
    ]


@pytest.fixture
def recorded(ollama_server, tmp_path):
    ollama_server.handler = ollama_handler(StandinBackend())
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "runs.db")
    [run_id] = run(corpus, ["A"], db, Config.offline(host=ollama_server.url), score=False)
    return db, run_id, corpus


def test_replay_reenacts_a_recorded_run_with_no_model(recorded, ollama_server):
    db, run_id, corpus = recorded
    sent = len(ollama_server.requests)
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    replayed = replay_run(db, run_id, corpus, label="demo")
    assert replayed == f"{run_id}~demo"
    assert len(ollama_server.requests) == sent
    assert store(db, replayed) == store(db, run_id) != []
    positions = db.execute(
        "SELECT COUNT(*) FROM documents WHERE run_id = ?", [replayed]
    ).fetchone()[0]
    assert (
        positions
        == db.execute("SELECT COUNT(*) FROM documents WHERE run_id = ?", [run_id]).fetchone()[0]
    )


def test_replay_miss_is_a_clear_error(recorded):
    db, run_id, corpus = recorded
    db.execute("DELETE FROM calls WHERE role = 'synthesizer'")
    with pytest.raises(ReplayMiss, match="synthesizer"):
        replay_run(db, run_id, corpus, label="broken")


def test_offline_runs_have_nothing_to_replay(tmp_path):
    corpus = load_corpus(CORPUS)
    db = open_db(tmp_path / "off.db")
    [run_id] = run(corpus, ["A"], db, offline=True, score=False)
    with pytest.raises(ValueError, match="written offline by the stand-in model"):
        replay_run(db, run_id, corpus)
    [oracle] = run(corpus, ["oracle"], db, offline=True, score=False)
    with pytest.raises(
        ValueError, match="reference system's run .written from the corpus's ground"
    ):
        replay_run(db, oracle, corpus)
