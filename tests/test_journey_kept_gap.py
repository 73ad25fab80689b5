"""The journey's *kept* stage checks every written state where the claim is stale, the gaps
between two of its states included: X -> Y -> X with a store that keeps the old value (oracle-stale)
holds "3층" while the corpus lists it as stale at state 1, so the claim is lost at kept there, even
though it is current again (and held) at state 2."""

from __future__ import annotations

import json

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.engine.views.verdicts import claim_journeys

X, Y = "회의실은 3층", "회의실은 5층"


def _state(i, text, claims, stale=()):
    return {
        "index": i,
        "timestamp": f"2026-0{i + 1}-01",
        "action": "create" if i == 0 else "update",
        "confidence": 0.8,
        "claims": claims,
        "docClaims": claims,
        "staleClaims": list(stale),
        "document": {"id": f"x-d{i}", "type": "slack", "author": {"name": "가"}, "text": text},
    }


def _journey(tmp_path, system):
    t = {
        "id": "x",
        "title": "x",
        "category": "C3",
        "difficulty": "L1",
        "trajectoryType": "linear-evolution",
        "states": [
            _state(0, "회의실은 3층입니다.", [X]),
            _state(1, "회의실은 5층으로 옮겼습니다.", [Y], [X]),
            _state(2, "회의실은 다시 3층으로 돌아왔습니다.", [X], [Y]),
        ],
    }
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "x.json").write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / "r.db")
    [rid] = run(load_corpus(folder), [system], db, Config.offline(), offline=True)
    return claim_journeys(db, rid, "x")


def test_a_claim_stale_in_a_gap_is_lost_at_kept(tmp_path):
    kept = _journey(tmp_path, "oracle-stale")[X]["stages"]["kept"]
    assert kept["status"] == "fail"
    assert kept["state"] == 1 and kept["why"] == "stale value still active"


def test_the_oracle_keeps_it(tmp_path):
    journeys = _journey(tmp_path, "oracle")
    assert journeys[X]["stages"]["kept"]["status"] == "pass"
    assert journeys[Y]["stages"]["kept"]["status"] == "pass"
