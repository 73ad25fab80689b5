"""The claim journey (engine/scoring/journey.py) on one small bundled trajectory, against tables
built by hand, and the cases that would fool each stage's rule."""

import csv
import io
import json
from types import SimpleNamespace

import pytest
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import journey
from seorap.engine.scoring.intrinsic import ClaimJudging, StoreView, judge_claims
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import to_csv, to_json, to_markdown
from seorap.engine.scoring.score import score_run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
TRAJECTORY = "ko-c3-hiring-plan"
SYSTEMS = ["oracle", "oracle-stale", "oracle-merged", "raw"]

# The six distinct claims of ko-c3-hiring-plan, in order of first appearance:
#   s0/c0 백엔드 3명 (stale after state 2: nobody asks for it)   s0/c1 프론트엔드 1명 (single/2)
#   s0/c2 마감일 8월 28일 (compound/0, single/1)                 s0/c3 1차 면접 9월 (no question)
#   s2/c0 백엔드 2명 (compound/0, single/0)                      s2/c4 1명 2027년 1분기로 연기 (compound/0)
# One letter per stage said, extracted, stored, kept, retrieved, used, credited:
# P pass, F fail, - n/a.
TABLE = {
    # every claim stored and kept; single/0's answer states 2명 without the postponed seat (PARTIAL)
    "oracle": ["PPPP---", "PPPPPPP", "PPPPPPP", "PPPP---", "PPPPPPF", "PPPPPPP"],
    # the stale 백엔드 3명 stays active: lost at kept; the reader then answers the compound
    # question from the stale value (2명 missing: lost at used) and it is never YES
    "oracle-stale": ["PPPF---", "PPPPPPP", "PPPPPPF", "PPPP---", "PPPPPFF", "PPPPPPF"],
    # one blob per state holds every claim (kept as part of it); the stale value leaves the blob
    "oracle-merged": ["PPPP---", "PPPPPPP", "PPPPPPF", "PPPP---", "PPPPPPP", "PPPPPPP"],
    # append-only: the stale sentence stays (kept); the compound question's facts rank below 5
    "raw": ["PPPF---", "PPPPPPF", "PPPPFFF", "PPPP---", "PPPPFFF", "PPPPFFF"],
}
LETTER = {"pass": "P", "fail": "F", "n/a": "-"}


def funnel_by_hand(rows: list[str]) -> dict[str, dict[str, int]]:
    """Counts per stage from a table: n = claims the stage applies to, survived = of those, the ones
    with no F up to and including it."""
    out = {}
    for n, stage in enumerate(journey.STAGES):
        applies = [r for r in rows if r[n] != "-"]
        out[stage] = {
            "n": len(applies),
            "survived": sum("F" not in r[: n + 1] for r in applies),
        }
    return out


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    corpus = load_corpus(CORPUS)
    corpus.trajectories[:] = [t for t in corpus.trajectories if t.id == TRAJECTORY]
    db = open_db(tmp_path_factory.mktemp("journey") / "runs.db")
    config = Config.offline()
    ids = run(corpus, SYSTEMS, db, config, offline=True, score=False)
    out = {}
    for system, rid in zip(SYSTEMS, ids):
        name = score_run(db, rid, config, corpus=corpus)
        row = next(
            db.query(
                "SELECT card FROM scores WHERE run_id=? AND scoring=? AND trajectory_id=?",
                [rid, name, TRAJECTORY],
            )
        )
        out[system] = json.loads(row["card"])["journey"]
    out["_db"], out["_ids"] = db, dict(zip(SYSTEMS, ids))
    return out


def _letters(claims: list[dict]) -> list[str]:
    return ["".join(LETTER[c["stages"][s]["status"]] for s in journey.STAGES) for c in claims]


@pytest.mark.parametrize("system", SYSTEMS)
def test_journeys_equal_the_table_built_by_hand(scored, system):
    claims = scored[system]["claims"]
    assert [c["item"] for c in claims] == ["s0/c0", "s0/c1", "s0/c2", "s0/c3", "s2/c0", "s2/c4"]
    assert _letters(claims) == TABLE[system]
    assert scored[system]["counts"] == funnel_by_hand(TABLE[system])


def test_hand_counts_spelled_out():
    # the helper itself, on the raw row: retrieved applies to 4 claims and 1 survives it
    assert funnel_by_hand(TABLE["raw"])["retrieved"] == {"n": 4, "survived": 1}
    assert funnel_by_hand(TABLE["oracle-stale"])["kept"] == {"n": 6, "survived": 5}


def test_oracle_stale_differs_from_oracle_only_from_kept_onward(scored):
    before = journey.STAGES.index("kept")
    a, b = _letters(scored["oracle"]["claims"]), _letters(scored["oracle-stale"]["claims"])
    assert [r[:before] for r in a] == [r[:before] for r in b]
    assert a != b
    lost = scored["oracle-stale"]["claims"][0]["stages"]["kept"]
    assert lost["why"] == "stale value still active" and lost["fact"].endswith("f0001")


def test_the_report_carries_the_funnel_stored_at_score_time(scored):
    db, rid = scored["_db"], scored["_ids"]["raw"]
    report = build_report(db, [rid])
    (run_report,) = report.runs
    stages = run_report.journey.stages
    by_hand = funnel_by_hand(TABLE["raw"])
    assert {s: {"n": f.n, "survived": f.survived} for s, f in stages.items()} == by_hand
    assert stages["retrieved"].share.mean == pytest.approx(1 / 4)
    assert run_report.journey.losses == {"kept": 1, "retrieved": 3, "credited": 1}
    assert json.loads(to_json(report))["runs"][0]["journey"]["stages"]["kept"]["survived"] == 5
    line = "journey: said 6/6 → extracted 6/6 → stored 6/6 → kept 5/6 → retrieved 1/4 → used 1/4"
    md = to_markdown(report)
    assert line + " → credited 0/4 · lost at: kept 1, retrieved 3, credited 1" in md
    header, first = list(csv.reader(io.StringIO(to_csv(report))))[:2]
    row = dict(zip(header, first))
    assert (row["run_journey_retrieved_survived"], row["run_journey_retrieved_n"]) == ("1", "4")
    # the report reads the stored funnel: it is in the run's extras row, not recomputed
    extras = next(db.query("SELECT card FROM scores WHERE run_id=? AND trajectory_id=''", [rid]))
    assert json.loads(extras["card"])["journey"]["stages"]["credited"]["survived"] == 0


def test_oracle_loses_only_at_used_or_credited(scored):
    assert set(scored["oracle"]["losses"]) <= {"used", "credited"}


def test_evidence_names_fact_rank_and_answer_span(scored):
    claim = scored["oracle"]["claims"][5]["stages"]
    assert claim["stored"]["fact"].endswith("f0006") and claim["stored"]["state"] == 2
    (hit,) = claim["retrieved"]["per_question"]
    assert hit["question"] == "compound/0" and hit["rank"] == 3
    assert hit["in_top"] == {"1": False, "3": True, "5": True, "10": True}
    assert claim["used"]["per_question"][0]["span"]  # where the answer states its values
    assert scored["oracle"]["claims"][0]["stages"]["extracted"]["observation"]


# ---- the cases that would fool a stage's rule (hand-built stores, no run) -------------------------


def _trajectory():
    corpus = load_corpus(CORPUS)
    return next(t for t in corpus.trajectories if t.id == TRAJECTORY)


def _store(after: list[dict[str, str]]) -> StoreView:
    n = len(after)
    return StoreView(after, list(range(n)), [[]] * n, [None] * n, [[]] * n, 0)


def _journeys(traj, store, observations=None):
    rows = judge_claims(traj, store, LexicalJudge(), ClaimJudging("full"))
    empty = SimpleNamespace(retrievals=[], answers=[], verdicts=[])
    return {c["item"]: c for c in journey.journeys(traj, store, rows, empty, observations)}


def test_a_claim_stored_under_a_paraphrase_is_stored():
    traj = _trajectory()
    claim = "하반기 채용 지원 마감일은 8월 28일"
    paraphrase = "지원서는 8월 28일까지 받는다 (하반기 채용)"
    assert claim not in paraphrase  # a substring rule would call it lost
    state = {f"f{n}": c for n, c in enumerate(traj.states[0].claims) if c != claim}
    store = _store([{**state, "fp": paraphrase}] * 2 + [{"fp": paraphrase}])
    got = _journeys(traj, store)["s0/c2"]["stages"]
    assert got["stored"] == {
        "status": "pass",
        "state": 0,
        "fact": "fp",
        "position": 0,
        "label": "YES",
    }
    assert got["kept"]["status"] == "pass"
    # an external system reports no observations: extracted is n/a, never a failure
    assert got["extracted"]["status"] == "n/a"


def test_a_claim_kept_only_inside_a_merged_blob_is_kept_and_a_stale_one_in_it_is_not():
    traj = _trajectory()
    blob = [" ".join(s.claims) for s in traj.states]
    out = _journeys(traj, _store([{"b0": blob[0]}, {"b0": blob[1]}, {"b0": blob[2]}]))
    assert all(c["stages"]["kept"]["status"] == "pass" for c in out.values())
    # the last blob still carries the stale 3명 beside the new 2명: the stale value is still active
    stale_blob = blob[2] + " 하반기 백엔드 개발자 채용은 3명"
    out = _journeys(traj, _store([{"b0": blob[0]}, {"b0": blob[1]}, {"b0": stale_blob}]))
    kept = out["s0/c0"]["stages"]["kept"]
    assert kept["status"] == "fail" and kept["fact"] == "b0" and out["s0/c0"]["loss"] == "kept"


def _ranking(texts: list[str]) -> list[dict]:
    return [{"fact_id": f"f{n}", "text": t} for n, t in enumerate(texts)]


def test_a_claim_retrieved_at_k10_but_not_at_k5_is_lost_at_retrieved():
    claim = "하반기 백엔드 개발자 채용은 2명"
    filler = [f"사내 워크숍 {n}회차는 {n + 1}월에 열린다" for n in range(6)]
    # the stale value ranks first: a fact on the same subject with the wrong value does not count
    ranking = _ranking(["하반기 백엔드 개발자 채용은 3명", *filler, claim])
    got = journey.rank_of(claim, ranking)
    assert got["rank"] == 8 and got["fact"] == "f7" and got["ok"] is False
    assert got["in_top"] == {"1": False, "3": False, "5": False, "10": True}
    assert journey.rank_of(claim, _ranking([*filler[:4], claim]))["ok"] is True
    assert journey.rank_of(claim, _ranking([*filler, *filler, claim]))["rank"] is None


def test_used_needs_the_values_the_expected_answer_carries():
    claim = "하반기 백엔드 개발자 채용은 2명"
    expected = "2명 (한 자리는 2027년 1분기로 연기)"
    assert journey.used(claim, expected, "백엔드는 2명을 뽑습니다.")["ok"] is True
    assert journey.used(claim, expected, "백엔드는 3명을 뽑습니다.") == {
        "ok": False,
        "span": None,
        "missing": "2명",
    }


def test_a_question_needs_a_claim_when_its_answer_states_it():
    q = "미리내소프트 하반기 프론트엔드 개발자는 몇 명을 채용하나요?"
    assert journey.needs("하반기 프론트엔드 개발자 채용은 1명", q, "1명")
    # the same number about another role is not this claim
    compound = "연기된 백엔드 개발자 1명은 2027년 1분기에 채용한다."
    assert not journey.needs("하반기 프론트엔드 개발자 채용은 1명", "백엔드 연기는?", compound)


def test_the_stepper_detail_shows_the_selected_claims_journey(scored):
    from seorap.engine.views.stepper import step_view
    from seorap.tui.widgets.detail import render_claim

    db, rid = scored["_db"], scored["_ids"]["oracle-stale"]
    corpus = load_corpus(CORPUS)
    step = step_view(db, corpus, rid, TRAJECTORY, position=0)
    row = next(c for c in step.claims if c.claim == "하반기 백엔드 개발자 채용은 3명")
    line = "said ✓ extracted ✓ stored ✓ kept ✗ retrieved – used – credited – · lost at kept"
    assert journey.marks(row.journey) == line
    assert line in render_claim(row, step).plain
