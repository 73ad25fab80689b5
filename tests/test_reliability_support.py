"""Helpers shared by the reliability tests (tests/test_reliability_*.py); no tests here.

The kill -9 helpers of tests/test_runner_resume.py (``seorap``, ``store_of``) are reused, not copied.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from test_runner_resume import ROOT, SEORAP, seorap, store_of  # noqa: F401 - re-exported

# Three small bundled trajectories (3 documents each, ~115 sentences each).
SMALL = ("ko-c1-daon-backup", "ko-c3-hiring-plan", "ko-c5-seminar")
# A config for `seorap run` against the fake server: no bge-m3 weights here, so hashing vectors.
LIVE_TOML = 'embedder_backend = "hashing"\n'


def copy_corpus(folder: Path, names=SMALL) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(ROOT / "fixtures" / "ko-mini" / f"{name}.json", folder)
    return folder


def live_toml(tmp_path: Path) -> Path:
    path = tmp_path / "live.toml"
    path.write_text(LIVE_TOML, encoding="utf-8")
    return path


@contextlib.contextmanager
def fast_retries(backoff_s: float = 0.005):
    """The runner builds its ModelClient itself; shorten the transient-retry backoff in tests."""
    from seorap.engine.models.client import ModelClient

    original = ModelClient.from_config.__func__

    def from_config(cls, *args, **kwargs):
        client = original(cls, *args, **kwargs)
        client.retry_backoff_s = backoff_s
        return client

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ModelClient, "from_config", classmethod(from_config))
        yield


class CountingHandler:
    """Wraps a fake-server chat handler: counts requests and runs ``hook(n)`` before answering n."""

    def __init__(self, inner, hook=None):
        self.inner, self.hook = inner, hook
        self.count = 0
        self._lock = threading.Lock()

    def __call__(self, body: dict):
        with self._lock:
            self.count += 1
            n = self.count
        if self.hook is not None:
            self.hook(n)
        return self.inner(body)


def call_keys(db_path) -> list[str]:
    """Keys of the successful model calls in the log, in order."""
    with sqlite3.connect(db_path) as con:
        return [r[0] for r in con.execute("SELECT key FROM calls WHERE error IS NULL ORDER BY id")]


def integrity(db_path) -> str:
    with sqlite3.connect(db_path) as con:
        return con.execute("PRAGMA integrity_check").fetchone()[0]


def orphan_rows(db_path) -> dict[str, int]:
    """Rows written for a (run, trajectory, position) that has no ``documents`` row: a half-written
    document. Every per-document table must have none."""
    out = {}
    with sqlite3.connect(db_path) as con:
        for table in ("observations", "decisions", "fact_versions", "write_failures"):
            out[table] = con.execute(
                f"SELECT count(*) FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE "
                f"d.run_id = t.run_id AND d.trajectory_id = t.trajectory_id AND d.position = t.position)"
            ).fetchone()[0]
    return out


def document_counts_match(db_path) -> bool:
    """Each documents row's observation/failure counts equal the rows committed with it."""
    with sqlite3.connect(db_path) as con:
        bad = con.execute(
            "SELECT count(*) FROM documents d WHERE d.observations != (SELECT count(*) FROM "
            "observations o WHERE o.run_id=d.run_id AND o.trajectory_id=d.trajectory_id AND "
            "o.position=d.position) OR d.failures != (SELECT count(*) FROM write_failures w WHERE "
            "w.run_id=d.run_id AND w.trajectory_id=d.trajectory_id AND w.position=d.position)"
        ).fetchone()[0]
    return bad == 0
