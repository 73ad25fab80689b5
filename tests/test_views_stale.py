"""The stepper's stale-fact marking is the scoring rule: per state, the app's count equals the
score card's ``stale_per_state`` for every trajectory of the oracle-stale reference run."""

from __future__ import annotations

from test_tui_support import CORPUS

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.scoring import intrinsic
from seorap.engine.store.database import last_position_of_state, open_db


def test_app_stale_count_per_state_equals_scoring(ref):
    path, ids = ref
    db, corpus = open_db(path), load_corpus(CORPUS)
    run_id = ids["oracle-stale"]
    cards = views.score_cards(db)
    checked = 0
    for t in corpus.trajectories:
        per_state = {
            int(k): v for k, v in cards[(run_id, t.id)]["intrinsic"]["stale_per_state"].items()
        }
        recomputed = intrinsic._precision(
            t, intrinsic.load_store(db, run_id, t), [s.index for s in t.states]
        )["stale_per_state"]
        assert per_state == recomputed
        for state in t.states:
            position = last_position_of_state(db, run_id, t.id, state.index)
            step = views.step_view(db, corpus, run_id, t.id, position)
            assert len(step.stale_facts) == per_state[state.index], (t.id, state.index)
            checked += 1
    assert checked and any(
        cards[(run_id, t.id)]["intrinsic"]["stale_facts"] for t in corpus.trajectories
    )


def test_current_value_is_not_marked_stale(ref):
    """The repro: f0006 states the current 170ms target; only facts stating 180ms are stale."""
    path, ids = ref
    db, corpus = open_db(path), load_corpus(CORPUS)
    run_id, tid = ids["oracle-stale"], "ko-c2-byeolmuri-latency"
    t = corpus.get(tid)
    last = views.step_view(db, corpus, run_id, tid, 10**6)
    card = views.score_cards(db)[(run_id, tid)]["intrinsic"]
    assert sorted(f.id for f in last.stale_facts) == sorted(card["stale_fact_ids"])
    for f in last.store:
        if f.status == "active" and "170ms" in f.text and "180ms" not in f.text:
            assert f.stale is None
    assert len(t.states) - 1 == last.state_index
