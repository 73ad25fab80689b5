"""The tour's compensation candidate comes from a model's answers before an offline reader's, and
the tour says whose answers it shows or why the runs a model answered offer none
(engine/views/demo.py: model_answerers, real_answers_note)."""

import json

import sqlite_utils

from seorap.engine.corpus import load_corpus
from seorap.engine.store.database import open_db
from seorap.engine.views.demo import demo_tour, model_answerers, real_answers_note

KO_MINI = load_corpus("fixtures/ko-mini")


def _db(tmp_path, runs: dict[str, tuple[str, list[dict]]]) -> sqlite_utils.Database:
    """run id -> (its answerer, its trajectories' cards); the run card names the answerer."""
    db = open_db(tmp_path / "t.db")
    rows = []
    for n, (run_id, (answerer, cards)) in enumerate(runs.items()):
        rows.append((run_id, "", {"answerer": answerer, "judge": "lexical"}, n))
        rows += [(run_id, f"t{i}", card, n) for i, card in enumerate(cards)]
    db["scores"].insert_all(
        {
            "run_id": r,
            "trajectory_id": t,
            "scoring": "s",
            "card": json.dumps(c),
            "created_at": str(n),
        }
        for r, t, c, n in rows
    )
    return db


COMPENSATION = {"quadrant": "compensation", "intrinsic_full": 0.25, "extrinsic": {"compound": 0.75}}


def test_a_models_compensation_case_comes_before_a_wider_one_from_an_offline_reader(tmp_path):
    db = _db(
        tmp_path,
        {
            "oracle-run": ("reader", [{**COMPENSATION, "signed_diff": -0.75}]),
            "model-run": ("qwen2.5-coder:0.5b", [{**COMPENSATION, "signed_diff": -0.5}]),
        },
    )
    assert model_answerers(db) == {"model-run": "qwen2.5-coder:0.5b"}
    stop = demo_tour(db, KO_MINI)["compensation"]
    assert stop is not None and stop.run_id == "model-run"
    assert real_answers_note(db, stop.run_id) == (
        "Its answers are a real model's (qwen2.5-coder:0.5b)."
    )


def test_the_tour_says_why_the_run_a_model_answered_offers_no_case(tmp_path):
    card = {
        "quadrant": None,
        "quadrant_raw": "healthy",
        "intrinsic_full": 2 / 3,
        "extrinsic": {"compound": 0.5},
        "signed_diff": 1 / 6,
        "intrinsic": {"stale_facts": 0},
        "judge_unreliable": "compound PARTIAL share 1.00 > 0.80",
    }
    db = _db(tmp_path, {"oracle-run": ("reader", []), "model-run": ("qwen2.5-coder:0.5b", [card])})
    note = real_answers_note(db, "oracle-run")
    assert note == (
        "model-run, answered by qwen2.5-coder:0.5b, offers no compensation case on t0: "
        "intrinsic 0.67, extrinsic 0.50; the healthy quadrant by its figures; 0 stale facts in "
        "its final store; its judge cannot carry a diagnosis (compound PARTIAL share 1.00 > 0.80)."
    )


def test_with_no_model_answers_the_tour_says_so(tmp_path):
    db = _db(tmp_path, {"oracle-run": ("reader", [{**COMPENSATION, "signed_diff": -0.5}])})
    assert model_answerers(db) == {}
    assert "No run in this database was answered by a model" in real_answers_note(db, None)
