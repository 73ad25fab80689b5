"""The tour picks its cases by a clear margin and says why it has none (engine/views/demo.py)."""

import json

import sqlite_utils

from seorap.engine.views.demo import TOUR_MARGIN, tour_gaps


def _db(cards: list[dict]) -> sqlite_utils.Database:
    db = sqlite_utils.Database(memory=True)
    db["scores"].insert_all(
        {
            "run_id": "r",
            "trajectory_id": f"t{n}",
            "scoring": "s",
            "card": json.dumps(card),
            "created_at": str(n),
        }
        for n, card in enumerate(cards)
    )
    return db


def test_a_case_just_across_the_line_is_no_tour_case():
    # intrinsic 0.48 against extrinsic 0.50: the compensation quadrant, a gap of 0.02
    db = _db([{"quadrant": "compensation", "signed_diff": -0.02}])
    gaps = tour_gaps(db)
    assert "none by a clear margin" in gaps["compensation"] and "0.02" in gaps["compensation"]
    assert f"{TOUR_MARGIN:.2f}" in gaps["compensation"]
    assert "no trajectory" in gaps["bottleneck"]


def test_a_clear_case_leaves_no_gap():
    db = _db([{"quadrant": "bottleneck", "signed_diff": 0.5}])
    assert "bottleneck" not in tour_gaps(db)


def test_an_unreliable_judge_is_named_as_the_reason():
    db = _db([{"quadrant": None, "quadrant_raw": "compensation", "signed_diff": -0.6}])
    assert "judge is unreliable" in tour_gaps(db)["compensation"]


def test_one_database_one_stale_case_whatever_run_is_selected(tmp_path):
    """The tour and side by side ask for the stale-fact case of every run (no selection): the same
    case, so one database tells one story; a case whose journeys tell the story comes first."""
    from seorap.engine import views
    from seorap.engine.config import Config
    from seorap.engine.corpus import load_corpus
    from seorap.engine.run.runner import run
    from seorap.engine.store.database import open_db

    corpus = load_corpus("fixtures/ko-mini")
    corpus.trajectories[:] = [t for t in corpus.trajectories if t.id == "ko-c1-hanbit-plan"]
    db = open_db(tmp_path / "r.db")
    ids = run(
        corpus, ["oracle-stale", "oracle-merged", "oracle"], db, Config.offline(), offline=True
    )
    shared = views.stale_case(db, corpus)
    assert shared is not None and shared.run_id in ids
    assert views.stale_case(db, corpus) == shared
    card = views.score_cards(db)[(shared.run_id, shared.trajectory_id)]
    lost = [
        c for c in card["journey"]["claims"] if c.get("loss") in ("extracted", "stored", "kept")
    ]
    assert lost  # its journeys tell the compensation story
