"""One (claim, text), one verdict, stored at score time (engine/scoring/holding.py): walking every
trajectory of the bundled corpus, the views that say whether a fact text states a claim — the
stored verdicts, the read-time hits, the claim journey's stored, kept and retrieved stages, the
stepper's stale marks and retrieval marks, the tour's cases, the diagnoses — never disagree about
one pair, and every pair they read was stored (tests/one_verdict_support.py gathers them view by
view). A verdict altered as it is stored changes every view the same way: a view that computed its
own verdict would not follow it. A database scored before the table existed is read, labelled."""

from __future__ import annotations

import dataclasses

import pytest
from one_verdict_support import (
    JUDGED,
    STORED,
    diagnosis_stale_count,
    pairs,
    stale_fact_views,
)
from store_support import copy_db

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import holding, lexical
from seorap.engine.scoring.score import score_run
from seorap.engine.store.database import facts_at, open_db
from seorap.engine.store.queries.holdings import set_holds
from seorap.engine.views import step_view
from seorap.engine.views.common import latest_card, latest_scoring
from seorap.engine.views.demo import stale_case
from seorap.engine.views.holdings import held_for

SYSTEMS = ["oracle-stale", "raw"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    corpus = load_corpus(bundled_corpus("ko-mini"))
    path = tmp_path_factory.mktemp("one-verdict") / "r.db"
    db = open_db(path)
    ids = run(corpus, SYSTEMS, db, Config.offline(), offline=True)
    return db, corpus, dict(zip(SYSTEMS, ids)), path


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_two_views_disagree_about_one_pair(runs, system):
    db, corpus, ids, _ = runs
    seen = pairs(db, corpus, ids[system])
    views = {v for by in seen.values() for v in by}
    assert {
        STORED,
        "read-time hit",
        "journey stored",
        "stepper stale mark",
        "stepper retrieval mark",
    } <= views
    shown = {k: {n: h for n, h in v.items() if n != STORED} for k, v in seen.items()}
    shared = {k: v for k, v in shown.items() if len(v) > 1}
    assert shared  # the views do meet on some pairs
    disagree = {k: v for k, v in shared.items() if len(set(v.values())) > 1}
    assert disagree == {}
    unstored = {k: v for k, v in seen.items() if set(v) - JUDGED and STORED not in v}
    assert unstored == {}  # every pair a view reads was decided at score time
    off = {
        k: v
        for k, v in seen.items()
        if STORED in v and any(h != v[STORED] for n, h in v.items() if n not in JUDGED)
    }
    assert off == {}  # and it shows the stored verdict


def test_the_tour_reads_the_stored_verdicts(runs):
    db, corpus, ids, _ = runs
    case = stale_case(db, corpus)
    assert case is not None and case.stale_facts and case.verdicts_note == ""
    seen = pairs(db, corpus, case.run_id, {case.trajectory_id})
    tour = {k: v for k, v in seen.items() if "tour stale case" in v}
    assert any(v["tour stale case"] for v in tour.values())
    assert all(v["tour stale case"] == v[STORED] for v in tour.values())


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_view_names_the_same_stale_facts(runs, system):
    """The stepper's marks, the score card (which the diagnosis and the tour read) and the
    questions view name the same stale facts; a diagnosis that counts them says that count."""
    db, corpus, ids, _ = runs
    named = 0
    for t in corpus.trajectories:
        by_view = stale_fact_views(db, corpus, ids[system], t)
        assert len(set(by_view.values())) == 1, (t.id, by_view)
        count = diagnosis_stale_count(latest_card(db, ids[system], t.id))
        if count is not None:
            assert count == len(by_view["stepper"]), t.id
        named += len(by_view["stepper"])
    assert named or system == "raw"


@pytest.fixture(scope="module")
def flipped(runs, tmp_path_factory):
    """A copy of the database whose stale-case trajectory is re-scored with every verdict about
    its stale claims decided False as it is stored (the one function altered for that pass)."""
    db, corpus, ids, path = runs
    case = stale_case(db, corpus)
    t = corpus.get(case.trajectory_id)
    retired = {c for s in t.states for c in s.stale_claims}
    flipped_path = copy_db(path, tmp_path_factory.mktemp("flipped") / "f.db")
    copy = open_db(flipped_path)
    real = holding._compute
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(holding, "_compute", lambda c, x: False if c in retired else real(c, x))
        score_run(
            copy,
            case.run_id,
            Config.offline(),
            corpus=dataclasses.replace(corpus, trajectories=[t]),
        )
    return copy, corpus, case, t, retired


def test_a_verdict_altered_as_stored_changes_every_view(runs, flipped):
    db, corpus, ids, _ = runs
    copy, _, case, t, retired = flipped
    before = held_for(db, case.run_id, t.id).pairs
    altered = {k for k, v in before.items() if v and k[0] in retired}
    assert altered  # the stale case's facts stated its stale claims
    assert all(holding.verdict(*k) for k in altered)  # computed today, they still hold
    after = held_for(copy, case.run_id, t.id).pairs
    assert all(after[k] is False for k in altered)
    seen = pairs(copy, corpus, case.run_id, {t.id})
    for k in altered:  # every view that reads the pair shows the altered verdict
        views = {v: held for v, held in seen.get(k, {}).items() if v not in JUDGED}
        assert set(views.values()) <= {False}, (k, views)
    assert any(len(seen.get(k, {})) > 1 for k in altered)
    by_view = stale_fact_views(copy, corpus, case.run_id, t)
    assert set(by_view.values()) == {frozenset()}  # stepper, card, diagnosis, questions view
    assert all(
        j["stages"]["kept"].get("why") != "stale value still active"
        for j in (latest_card(copy, case.run_id, t.id).get("journey") or {}).get("claims", [])
    )
    moved = stale_case(copy, corpus)  # the tour's case choice follows the stored count
    assert moved is None or (moved.run_id, moved.trajectory_id) != (case.run_id, t.id)


def test_a_stored_verdict_edited_in_the_table_reaches_the_views_that_read_it(flipped):
    copy, corpus, case, t, retired = flipped
    last = max(a.position for a in t.arrivals())
    fact = next(f for f in facts_at(copy, case.run_id, t.id, last) if f.status == "active")
    claim = step_view(copy, corpus, case.run_id, t.id, last).stale_claims[0]
    scoring = latest_scoring(copy, case.run_id)
    assert set_holds(copy, case.run_id, t.id, scoring, claim, fact.text, True) == 1
    try:
        step = step_view(copy, corpus, case.run_id, t.id, last)
        assert [(f.id, f.stale) for f in step.stale_facts] == [(fact.id, claim)]
    finally:
        set_holds(copy, case.run_id, t.id, scoring, claim, fact.text, False)


@pytest.mark.parametrize("readonly", [False, True])
def test_a_database_scored_before_the_table_is_read_and_labelled(runs, tmp_path, readonly):
    """An older file (no holdings table): the views compute each verdict on read, say so, and
    agree with the card wherever the rules did not change; nothing crashes."""
    db, corpus, ids, path = runs
    old = copy_db(path, tmp_path / "old.db")
    writable = open_db(old)
    writable.table("holdings").drop()
    writable.conn.close()
    reader = open_db(old, readonly=readonly)
    case = stale_case(reader, corpus)
    assert case is not None and "computed on read" in case.verdicts_note
    assert "re-score" in case.verdicts_note
    t = corpus.get(case.trajectory_id)
    step = step_view(reader, corpus, case.run_id, t.id, max(a.position for a in t.arrivals()))
    assert "computed on read" in step.verdicts_note and step.stale_checked
    card = latest_card(reader, case.run_id, t.id)
    assert sorted(f.id for f in step.stale_facts) == sorted(card["intrinsic"]["stale_fact_ids"])


def test_stored_stale_marks_need_no_judge(runs, monkeypatch):
    """The app asks for a step while the judge's analyser still loads (``stale_checks`` False):
    the stored verdicts are read, so the marks are there at once and no pair is judged."""
    db, corpus, ids, _ = runs
    case = stale_case(db, corpus)
    t = corpus.get(case.trajectory_id)

    def not_ready(claim, text):
        raise lexical.NotReady("the analyser is loading")

    monkeypatch.setattr(holding, "_compute", not_ready)
    last = max(a.position for a in t.arrivals())
    step = step_view(db, corpus, case.run_id, t.id, last, stale_checks=False)
    card = latest_card(db, case.run_id, t.id)
    assert step.stale_checked and step.stale_facts
    assert sorted(f.id for f in step.stale_facts) == sorted(card["intrinsic"]["stale_fact_ids"])
