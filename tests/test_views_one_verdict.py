"""One (claim, text), one verdict: walking every trajectory of the bundled corpus, the views that
say whether a fact text states a claim — the read-time hits, the claim journey's stored, kept and
retrieved stages, the stepper's stale marks — never disagree about one pair (tests/one_verdict_support.py
gathers them view by view)."""

from __future__ import annotations

import pytest
from one_verdict_support import pairs

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

SYSTEMS = ["oracle-stale", "raw"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    corpus = load_corpus(bundled_corpus("ko-mini"))
    db = open_db(tmp_path_factory.mktemp("one-verdict") / "r.db")
    ids = run(corpus, SYSTEMS, db, Config.offline(), offline=True)
    return db, corpus, dict(zip(SYSTEMS, ids))


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_two_views_disagree_about_one_pair(runs, system):
    db, corpus, ids = runs
    seen = pairs(db, corpus, ids[system])
    views = {v for by in seen.values() for v in by}
    assert {"read-time hit", "journey stored", "stepper stale mark"} <= views
    shared = {k: v for k, v in seen.items() if len(v) > 1}
    assert shared  # the views do meet on some pairs
    disagree = {k: v for k, v in shared.items() if len(set(v.values())) > 1}
    assert disagree == {}
