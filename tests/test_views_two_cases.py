"""Issue 34's two right answers once graded NO, through the app on a hand-made trajectory (not the
bundled corpus): a team of 네 명 stored for the claim's 4명, and a move date answered beside the
first workday (a value of another slot). Run offline by two systems that store different text (raw:
the document's sentences; oracle-merged: one fact joining the claims), scored with the reference
reader and, for raw, with the extractive answerer (which hands the judge both dates): the journey,
the stepper's claim marks, the questions view's ★ marks and the tour all tell the same outcome —
both claims kept, retrieved and credited, and no tour case made of them. The assertions read
outcomes, not which function computed them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tui_support import reference_db

pytest.importorskip("kiwipiepy")

from seorap.engine import views  # noqa: E402
from seorap.engine.config import Config  # noqa: E402
from seorap.engine.corpus import load_corpus  # noqa: E402
from seorap.engine.run.runner import run  # noqa: E402
from seorap.engine.store.database import open_db  # noqa: E402
from seorap.engine.views.common import latest_card  # noqa: E402
from seorap.tui.factory import make_app  # noqa: E402
from seorap.tui.widgets.detail import DetailPane  # noqa: E402

TID = "ko-two-cases"
MOVE = "사무실 이전 날짜는 6월 13일 토요일"
WORK = "새 사무실 첫 출근일은 6월 15일 월요일"
TEAM = "플랫폼팀은 4명 팀"
NEEDED = (MOVE, TEAM)
"""The claims a question needs (the first workday is asked by none: its journey ends at kept)."""


def _doc(n: int, title: str, text: str) -> dict:
    author = {"name": "한지수", "role": "총무팀장"}
    return {"id": f"{TID}-d{n}", "type": "email", "author": author, "title": title, "text": text}


def write_corpus(folder: Path) -> Path:
    data = {
        "id": TID,
        "title": "사무실 이전과 팀 구성",
        "subject": "하늬디자인",
        "category": "C1",
        "difficulty": "L1",
        "trajectoryType": "linear-evolution",
        "extrinsicQA": [
            {
                "question": "사무실 이전 날짜는 언제이고, 플랫폼팀은 몇 명인가요?",
                "answer": "사무실 이전 날짜는 6월 13일 토요일이고, 플랫폼팀은 4명 팀이다.",
            }
        ],
        "singleQA": [
            {"question": "사무실 이전 날짜는 언제인가요?", "answer": "6월 13일 토요일", "state": 0},
            {"question": "플랫폼팀은 몇 명인가요?", "answer": "4명", "state": 1},
        ],
        "states": [
            {
                "index": 0,
                "timestamp": "2026-06-01",
                "action": "create",
                "confidence": 0.9,
                "claims": [MOVE, WORK],
                "docClaims": [MOVE, WORK],
                "staleClaims": [],
                "document": _doc(
                    0,
                    "사무실 이전 안내",
                    "사무실 이전 날짜는 6월 13일 토요일이고, 새 사무실 첫 출근일은 6월 15일 "
                    "월요일입니다.",
                ),
            },
            {
                "index": 1,
                "timestamp": "2026-06-05",
                "action": "update",
                "confidence": 0.9,
                "claims": [MOVE, WORK, TEAM],
                "docClaims": [TEAM],
                "staleClaims": [],
                "document": _doc(1, "팀 구성 안내", "플랫폼팀은 네 명 팀입니다."),
            },
        ],
    }
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False)
    (folder / f"{TID}.json").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def read_by_reader(tmp_path_factory):
    """raw and oracle-merged, scored offline with the reference reader."""
    root = tmp_path_factory.mktemp("two-cases")
    db, corpus, ids = reference_db(
        root / "runs.db", ["raw", "oracle-merged"], write_corpus(root / "corpus")
    )
    return root / "runs.db", corpus, ids


@pytest.fixture(scope="module")
def read_by_extractive(tmp_path_factory):
    """raw scored with the extractive answerer: the move-date answer carries the first workday."""
    root = tmp_path_factory.mktemp("two-cases-extractive")
    corpus = load_corpus(write_corpus(root / "corpus"))
    config = Config.offline().with_overrides({"models.answerer": "extractive"})
    [rid] = run(corpus, ["raw"], open_db(root / "runs.db"), config, offline=True)
    return root / "runs.db", corpus, {"raw": rid}


def assert_views_agree(db_path: Path, corpus, rid: str) -> None:
    db, t = open_db(db_path), corpus.get(TID)
    paths = views.stored_paths(db, rid, t)
    questions = {q.item: q for q in views.questions_view(db, rid, TID).questions}
    # the journey: stored and kept (네 명 read as 4명), and each needed claim reached and credited
    for claim in (MOVE, WORK, TEAM):
        marks = dict(paths[claim].marks)
        assert paths[claim].loss is None, (claim, paths[claim].why)
        assert marks["extracted"] == marks["stored"] == marks["kept"] == "✓", claim
    for claim in NEEDED:
        marks = dict(paths[claim].marks)
        assert marks["retrieved"] == marks["used"] == marks["credited"] == "✓", claim
        # the questions view's ★ marks the fact the journey found at that rank
        q = questions[paths[claim].question]
        assert paths[claim].rank in q.answer_ranks, (claim, q.answer_ranks)
        assert q.ranking[paths[claim].rank - 1].fact_id == paths[claim].ranked_fact
    assert {q.item: q.verdict for q in questions.values()} == {
        "compound/0": "YES",
        "single/0": "YES",
        "single/1": "YES",
    }
    # the stepper's claim rows at the last document: the stored verdicts and the same journeys
    last = views.step_view(db, corpus, rid, TID, position=1)
    rows = {r.claim: r for r in last.claims}
    assert {c: rows[c].verdict for c in (MOVE, WORK, TEAM)} == dict.fromkeys(
        (MOVE, WORK, TEAM), "YES"
    )
    assert all(rows[c].path is not None and rows[c].path.loss is None for c in NEEDED)
    assert not last.stale_facts
    # the card the tour reads: healthy, so neither case is offered as a tour stop
    card = latest_card(db, rid, TID)
    assert card["quadrant"] == "healthy"
    assert not any(c.get("loss") for c in card["journey"]["claims"])


def test_the_views_agree_under_the_reference_reader(read_by_reader):
    db_path, corpus, ids = read_by_reader
    for rid in ids.values():
        assert_views_agree(db_path, corpus, rid)
    db = open_db(db_path)
    assert views.demo_tour(db, corpus) == {"compensation": None, "bottleneck": None}
    gaps = views.tour_gaps(db)
    assert "no trajectory of the scored runs falls in the bottleneck quadrant" in gaps["bottleneck"]


def test_the_views_agree_when_the_answer_carries_another_slots_value(read_by_extractive):
    db_path, corpus, ids = read_by_extractive
    db = open_db(db_path)
    answers = {q.item: q.answer for q in views.questions_view(db, ids["raw"], TID).questions}
    assert "6월 15일" in answers["single/0"]  # the first workday beside the move date
    assert_views_agree(db_path, corpus, ids["raw"])
    assert views.demo_tour(db, corpus)["bottleneck"] is None


async def test_the_stepper_shows_the_team_claim_not_lost(read_by_reader):
    db_path, _, ids = read_by_reader
    app = make_app(db_path, run_id=ids["raw"], trajectory_id=TID)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("right")  # the second document: 플랫폼팀은 네 명 팀입니다
        await pilot.pause()
        assert app.ctx.selection.position == 1
        await pilot.press("c")  # the claims pane
        await pilot.pause()
        for _ in range(3):
            detail = app.screen.query_one(DetailPane).content
            if TEAM in detail:
                break
            await pilot.press("down")
            await pilot.pause()
        assert TEAM in detail and "not lost" in detail and "lost at" not in detail
