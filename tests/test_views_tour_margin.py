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
