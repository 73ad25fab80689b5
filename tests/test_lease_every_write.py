"""Every write a writer makes goes through its lease check (docs/store.md, "One writer at a time"):
not only a document's transaction but the call log, the texts it interns, stored vectors, call
counters, phase rows, audit verdicts and overrides. A writer that lost its lease writes none of
them. The end-to-end probe (SIGSTOP, a second writer) is tests/test_adversarial_lease.py."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from seorap.engine.corpus import load_corpus
from seorap.engine.models import calllog, embedders
from seorap.engine.models.base import ChatReply, ChatRequest
from seorap.engine.run import accounting
from seorap.engine.store import database
from seorap.engine.store.connstate import commit_guard
from seorap.engine.store.lease import writer
from seorap.engine.store.sqlerrors import LeaseLost

ROOT = Path(__file__).parent.parent
WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP)\b", re.I)


def _traced(path, outside: list[str], **kw):
    """open_db that records every write statement run outside a transaction while this process
    holds the file's lease (the check runs only inside a transaction: such a write is unchecked)."""
    db = database.open_db(path, **kw)
    conn, name = db.conn, str(Path(path).resolve())

    def seen(sql: str) -> None:
        if WRITE.match(sql) and not conn.in_transaction and commit_guard(name) is not None:
            outside.append(" ".join(sql.split())[:100])

    conn.set_trace_callback(seen)
    return db


def test_every_write_of_a_run_and_its_scoring_is_checked_under_the_lease(tmp_path, monkeypatch):
    # start-up: the runner loads the memory systems and scoring
    from seorap.engine.run import runner

    outside: list[str] = []
    monkeypatch.setattr(runner, "open_db", lambda path, **kw: _traced(path, outside, **kw))
    db = _traced(tmp_path / "r.db", outside)
    corpus = load_corpus(ROOT / "fixtures" / "ko-mini")
    ids = runner.run(
        corpus,
        ["A", "C"],
        db,
        offline=True,
        concurrency=2,
        trajectories=["ko-c1-daon-backup"],
    )
    assert len(ids) == 2
    calls = db.execute("SELECT count(*) FROM calls").fetchone()[0]
    phases = db.execute("SELECT count(*) FROM phases").fetchone()[0]
    assert calls > 0 and phases > 0  # the run did log calls and phases
    assert outside == []


def _take_over(path: Path, holder: str) -> None:
    """What a second writer does on finding our lease lapsed: remove our row, insert its own."""
    other = sqlite3.connect(path)
    other.execute("DELETE FROM writers WHERE holder = ?", [holder])
    other.execute(
        "INSERT INTO writers (holder, host, pid, command, run_ids, started_at, expires) "
        "VALUES ('elsewhere:1', 'elsewhere', 1, 'run', '[]', '', 9e12)"
    )
    other.commit()
    other.close()


def _rows(db) -> dict[str, object]:
    return {
        table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("calls", "texts", "embeddings", "call_counters", "phases")
    }


def test_a_writer_that_lost_its_lease_writes_no_call_text_vector_counter_or_phase(tmp_path):
    path = tmp_path / "w.db"
    db = database.open_db(path)
    calllog.ensure_calls_table(db)
    accounting.ensure_tables(db)
    vectors = embedders.CachedEmbedder(embedders.HashingEmbedder(dim=8), db)
    request = ChatRequest("extractor", "m", ({"role": "user", "content": "문서 하나"},))
    reply = ChatReply("답", "m")
    with pytest.raises(LeaseLost, match="lost its writer lease"):
        with writer(db, "run", ["r"]) as lease:
            calllog.put_call(db, request, reply=reply, run_id="r", phase="extract")
            vectors.embed(["첫 문장"])
            before = _rows(db)
            assert before["calls"] == 1 and before["embeddings"] == 1
            _take_over(path, lease.holder)
            with pytest.raises(LeaseLost):
                calllog.put_call(db, request, reply=reply, run_id="r", phase="extract")
            with pytest.raises(LeaseLost):
                vectors.embed(["다른 문장"])
            with pytest.raises(LeaseLost):
                accounting.bump(db, "r", "extract", "extractor", "m", "cached")
            with pytest.raises(LeaseLost):
                accounting.record_phase(db, ["r"], "write", 1.0, 1)
            with accounting.phase_timer(db, ["r"], "score"):  # swallowed, and nothing written
                pass
            assert _rows(db) == before
    assert db.execute("SELECT holder FROM writers").fetchall() == [("elsewhere:1",)]


def test_lone_writes_without_a_lease_stay_plain_statements(tmp_path):
    """No lease held (a command that only reads, an in-memory database): a logged call is one
    statement as before, not a transaction of its own."""
    for db in (database.open_db(tmp_path / "n.db"), database.open_db(None)):
        calllog.ensure_calls_table(db)
        statements: list[str] = []
        db.conn.set_trace_callback(statements.append)
        calllog.put_call(db, ChatRequest("judge", "m", ({"role": "user", "content": "q"},)))
        db.conn.set_trace_callback(None)
        assert not any(s.startswith("BEGIN") for s in statements), statements
