"""Read-time asks about the slot, not the answer (engine/scoring/slot_questions.py).

A lookup asked with the claim carries its answer in the query: retrieval and the reader are handed
the value they should find. The slot question is the claim with its typed values removed outside
its subject; a corpus may write its own (``slotQuestions``), ``validate`` refuses one that states a
value of its claim, and every lookup a run stores asks a question free of its claim's values.
"""

from __future__ import annotations

import json

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.corpus.validate import validate_path
from seorap.engine.run.runner import run
from seorap.engine.scoring import slot_questions as sq
from seorap.engine.store.database import open_db


@pytest.mark.parametrize(
    ("claim", "question"),
    [
        ("한빛물류 월 이용료는 120만 원", "한빛물류 월 이용료는?"),
        ("하반기 채용 지원 마감일은 8월 28일", "하반기 채용 지원 마감일은?"),
        # the particle fastened to a value goes with it; the subject stays
        ("주문 API 실행 환경은 ECS Fargate로 결정", "주문 API 실행 환경은 결정?"),
        ("Lambda는 콜드 스타트 문제로 제외", "Lambda는 스타트 문제로 제외?"),
        # words bound to a value go with it (약, 말, 이하)
        (
            "도담리테일 통합 알림 시스템 오픈 목표는 5월 말",
            "도담리테일 통합 알림 시스템 오픈 목표는?",
        ),
        ("가람상사 운영 DB 용량 약 3TB", "가람상사 운영 용량?"),
        # no typed value outside the subject: the subject alone
        ("이사 업체는 한마음익스프레스", "이사 업체는?"),
        # no topic particle, no value: every word but the last
        ("세미나 진행 방식 재검토 중", "세미나 진행 방식 재검토?"),
    ],
)
def test_generated_slot_question(claim, question):
    assert sq.generate(claim) == question
    assert sq.leaks(claim, question) == []


def test_leaks_names_the_value_a_question_states():
    assert sq.leaks("한빛물류 월 이용료는 120만 원", "한빛물류 월 이용료는 120만 원?") == [
        "120만 원"
    ]
    # the same amount in another notation is still the value
    assert sq.leaks("한빛물류 월 이용료는 120만 원", "이용료가 1,200,000원인가?") == ["120만 원"]


def test_corpus_question_wins_and_is_marked(tmp_path):
    t = _trajectory({"회의실은 5층": "회의실은 몇 층?"})
    corpus = _corpus(tmp_path, t)
    [traj] = corpus.trajectories
    assert sq.question_for(traj, "회의실은 5층") == sq.SlotQuestion("회의실은 몇 층?", sq.CORPUS)
    assert sq.question_for(traj, "회의실은 3층").kind == sq.GENERATED


def test_validate_refuses_a_slot_question_that_states_the_value(tmp_path):
    _write(tmp_path, _trajectory({"회의실은 5층": "회의실은 5층인가?", "없는 주장": "무엇?"}))
    report = validate_path(tmp_path / "corpus")
    text = "\n".join(str(p) for p in report.problems)
    assert not report.ok
    assert "slotQuestions['회의실은 5층']" in text and "states the claim's value(s): 5층" in text
    assert "slotQuestions['없는 주장']: not a claim" in text


def test_every_stored_lookup_of_a_bundled_run_asks_without_its_values(tmp_path):
    """The bundled corpus written by the oracle (no scoring): every stored lookup's query is a
    slot question, free of every expected value of its claim."""
    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(bundled_corpus("ko-mini"))
    run(corpus, ["oracle"], db, Config.offline(), offline=True, score=False)
    rows = list(db.query("SELECT claim, query, query_kind FROM read_lookups"))
    assert len(rows) > 100
    for r in rows:
        assert r["query"] and r["query"] != r["claim"]
        assert r["query_kind"] in (sq.CORPUS, sq.GENERATED)
        assert sq.leaks(r["claim"], r["query"]) == [], r


def _trajectory(asked: dict[str, str]) -> dict:
    def state(i, text, claims, stale=()):
        return {
            "index": i,
            "timestamp": f"2026-0{i + 1}-01",
            "action": "create" if i == 0 else "update",
            "confidence": 0.8,
            "claims": claims,
            "staleClaims": list(stale),
            "document": {"id": f"m-d{i}", "type": "slack", "author": {"name": "가"}, "text": text},
        }

    return {
        "id": "m",
        "title": "m",
        "category": "C3",
        "difficulty": "L1",
        "trajectoryType": "linear-evolution",
        "slotQuestions": asked,
        "states": [
            state(0, "회의실은 3층입니다.", ["회의실은 3층"]),
            state(1, "회의실은 5층으로 옮겼습니다.", ["회의실은 5층"], ["회의실은 3층"]),
        ],
    }


def _write(tmp_path, t: dict):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    return folder


def _corpus(tmp_path, t: dict):
    return load_corpus(_write(tmp_path, t))
