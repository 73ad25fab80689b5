"""engine/scoring/diagnosis.py: stale facts are marked stale in every list a diagnosis gives, and
the store's stale facts are counted when the quadrant says bottleneck (hand-built rows)."""

from __future__ import annotations

import json

from seorap.engine.scoring import diagnosis
from seorap.engine.scoring.extrinsic import TOP_K


def _hit(rank, fid, text, hybrid):
    return {
        "fact_id": fid,
        "text": text,
        "bm25": 0.0,
        "bm25_norm": 0.5,
        "dense": 0.25,
        "hybrid": hybrid,
        "rank": rank,
    }


RANKING = [
    _hit(1, "r/t/f0001", "해솔물산 워크숍 일자는 4월 3일", 0.61),
    _hit(2, "r/t/f0002", "워크숍 장소는 양평 연수원", 0.42),  # stale: the venue moved
    _hit(3, "r/t/f0003", "워크숍 장소는 가평 수련관으로 변경", 0.30),
    _hit(4, "r/t/f0004", "워크숍 장소 가평 수련관 확정", 0.20),  # stale too, holds the answer
]
RETRIEVALS = [
    {
        "source": "memory",
        "kind": "single",
        "item": "single/0",
        "ranking": json.dumps(RANKING, ensure_ascii=False),
        "answer_fact_ids": json.dumps(["r/t/f0003", "r/t/f0004"]),
    }
]
VERDICTS = [
    {
        "source": "memory",
        "k": TOP_K,
        "kind": "single",
        "item": "single/0",
        "score": 0.0,
        "label": "NO",
    }
]


def _explain(quadrant, stale_ids, extrinsic):
    return diagnosis.explain(
        quadrant,
        1.0 if quadrant == "bottleneck" else 0.25,
        extrinsic,
        stale_ids=stale_ids,
        final_claims=["워크숍 장소는 가평 수련관"],
        final_missed=[],
        retrievals=RETRIEVALS,
        verdicts=VERDICTS,
    )


def test_bottleneck_lists_say_which_facts_are_stale_and_count_them():
    text = _explain("bottleneck", ["r/t/f0002", "r/t/f0004"], 0.0)
    assert "the store holds 2 stale fact(s)" in text
    assert "answer-holding fact(s) at rank 3, 4 (stale)" in text
    assert '#2 "워크숍 장소는 양평 연수원" (stale; hybrid 0.42' in text
    assert '#1 "해솔물산 워크숍 일자는 4월 3일" (hybrid 0.61' in text  # not stale: no mark


def test_without_stale_facts_the_bottleneck_reads_as_before():
    text = _explain("bottleneck", [], 0.0)
    assert "stale" not in text
    assert text.endswith("(hybrid 0.42, bm25 0.50, cos 0.25)")


def test_compensation_lists_mark_stale_facts_too():
    verdicts = [dict(VERDICTS[0], score=1.0, label="YES")]
    text = diagnosis.explain(
        "compensation",
        0.25,
        1.0,
        stale_ids=["r/t/f0002"],
        final_claims=["워크숍 장소는 가평 수련관"],
        final_missed=[],
        retrievals=RETRIEVALS,
        verdicts=verdicts,
    )
    assert 'rank 2 stale fact "워크숍 장소는 양평 연수원"' in text


def test_oracle_stale_on_the_seminar_names_its_stale_venue(ref_db_path):
    """The issue's case, scored by the engine: oracle-stale on ko-c5-seminar holds 3 stale facts;
    its diagnosis counts them and marks '세미나 장소는 코엑스 E홀' stale where it outranks."""
    from seorap.engine.store.database import open_db

    db = open_db(ref_db_path)
    run_id = next(db.query("SELECT run_id FROM runs WHERE system = 'oracle-stale'"))["run_id"]
    card = json.loads(db["scores"].get((run_id, "ko-c5-seminar", "lexical+reader"))["card"])
    stale = card["intrinsic"]["stale_fact_ids"]
    text = card["diagnosis"]
    assert f"the store holds {len(stale)} stale fact(s)" in text and len(stale) == 3
    assert '"세미나 장소는 코엑스 E홀" (stale;' in text


def test_the_questions_ranking_marks_the_stale_facts_too(ref_db_path):
    """The ranking the tour's `a` opens (view 3): '세미나 장소는 코엑스 E홀' carries ✗ (stale)."""
    from seorap.engine import views
    from seorap.engine.store.database import open_db
    from seorap.tui.screens.questions import render_detail

    db = open_db(ref_db_path)
    run_id = next(db.query("SELECT run_id FROM runs WHERE system = 'oracle-stale'"))["run_id"]
    view = views.questions_view(db, run_id, "ko-c5-seminar")
    assert len(view.stale_ids) == 3
    lines = [
        line
        for q in view.questions
        for line in render_detail(q, stale=view.stale_ids).plain.splitlines()
        if "세미나 장소는 코엑스 E홀" in line and line.lstrip()[:1].isdigit()  # ranking lines
    ]
    assert lines and all("✗ 세미나 장소는 코엑스 E홀" in line for line in lines)
    fresh = [h for q in view.questions for h in q.ranking if h.fact_id not in view.stale_ids]
    plain = render_detail(view.questions[0], stale=view.stale_ids).plain
    assert fresh and "✗ " + fresh[0].text not in plain
