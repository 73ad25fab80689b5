"""The stored (claim, text) verdict (engine/scoring/holding.py) reads relative dates as the judge's
claim verdicts do: a claim's against its state's document, a fact's against its source
document's. Before, holds() read none: on ko-c6-payment-outage the raw system's fact "오늘 새벽
02:14에 …" (from the 2026-04-07 document) was credited by the judge with the claim "4월 7일 새벽 …
장애 발생" and found not to hold it by the journey and the stale check."""

import datetime as dt
import json

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import holding, lexical
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.store.database import open_db
from seorap.engine.views.holdings import held_for

TRAJECTORY = "ko-c6-payment-outage"
CLAIM = "4월 7일 새벽 해솔페이 결제 API 장애 발생"
FACT = "오늘 새벽 02:14에 결제 승인 API 오류율 알림이 울렸습니다."
DAY = dt.date(2026, 4, 7)


def _judge(claim_date, fact_date) -> str:
    return (
        LexicalJudge()
        .grade_claim(CLAIM, [FACT], claim_date=claim_date, fact_dates=[fact_date])
        .label
    )


def test_holds_and_the_judge_read_one_date_alike():
    # 오늘 in a document of 4월 7일 is 4월 7일: both credit the claim
    assert _judge(DAY, DAY) == "YES" and lexical.holds(CLAIM, FACT, DAY, DAY)
    # a day later 오늘 is 4월 8일, another day: neither does
    later = DAY + dt.timedelta(days=1)
    assert _judge(DAY, later) != "YES" and not lexical.holds(CLAIM, FACT, DAY, later)
    # no date: 오늘 stays unresolved, never YES
    assert _judge(None, None) != "YES" and not lexical.holds(CLAIM, FACT)


def test_a_text_met_under_two_dates_has_none():
    other = DAY + dt.timedelta(days=3)
    one = holding._one(iter([("a", DAY), ("b", DAY), ("a", other), ("a", DAY), ("b", DAY)]))
    assert one == {"a": None, "b": DAY}


def test_a_scoring_pass_stores_the_verdict_the_judge_gives(tmp_path):
    db = open_db(tmp_path / "runs.db")
    corpus = load_corpus("fixtures/ko-mini")
    corpus.trajectories[:] = [t for t in corpus.trajectories if t.id == TRAJECTORY]
    [rid] = run(corpus, ["raw"], db, Config.offline(), offline=True)
    # the judge's full-mode verdict on the claim in the first state names the fact as its best
    [row] = db.query(
        "SELECT label, rationale FROM verdicts WHERE run_id=? AND kind='claim' AND setup='full' "
        "AND state_index=0 AND expected=?",
        [rid, CLAIM],
    )
    assert row["label"] == "YES"
    # and the stored (claim, text) verdict every view reads agrees
    held = held_for(db, rid, TRAJECTORY)
    assert held.stored and held.pairs[(CLAIM, FACT)] is True
    card = json.loads(
        next(
            db.query(
                "SELECT card FROM scores WHERE run_id=? AND trajectory_id=?", [rid, TRAJECTORY]
            )
        )["card"]
    )
    kept = [c for c in card["journey"]["claims"] if c["claim"] == CLAIM]
    assert kept and all(c["stages"]["kept"]["status"] == "pass" for c in kept)
