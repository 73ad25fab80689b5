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


@pytest.mark.parametrize(
    ("claim", "question", "said"),
    [
        # how often is the answer: it goes like a value, with its particle and 씩
        (
            "다온헬스케어 진료 데이터 복구 테스트는 분기마다 1회",
            "다온헬스케어 진료 데이터 복구 테스트는?",
            "분기마다",
        ),
        ("백업은 매일 새벽 3시에 수행", "백업은 수행?", "매일 새벽"),
        (
            "성능 점검은 매주 월요일 성능 리뷰에서 한다",
            "성능 점검은 성능 리뷰에서 한다?",
            "매주 월요일",
        ),
        ("보고서는 매달 말 발송", "보고서는 발송?", "매달"),  # 말 is bound to it
        ("주간 회의는 격주로 진행", "주간 회의는 진행?", "격주로"),
        ("백업은 주 2회", "백업은?", "주 2회"),
        ("약 복용은 하루 세 번", "약 복용은?", "하루 세 번"),
        ("감사는 연 2회", "감사는?", "연 2회"),
        ("서버 점검은 월 1회 진행", "서버 점검은 진행?", "월 1회"),
        ("로그 확인은 일주일에 두 번씩", "로그 확인은?", "일주일에 두 번씩"),
        ("보안 교육은 3개월마다 실시", "보안 교육은 실시?", "3개월마다"),
        ("정산은 분기별로 한다", "정산은 한다?", "분기별로"),
        ("동기화 주기는 매 5분", "동기화 주기는?", "매 5분"),
        # the words that say when in the period go with it (새벽 alone would be half the answer)
        ("가나물류 백업 주기는 매일 새벽", "가나물류 백업 주기는?", "매일 새벽"),
        ("주간 회의는 매주 월요일 아침에 진행", "주간 회의는 진행?", "매주 월요일 아침에"),
    ],
)
def test_a_frequency_is_removed_like_a_value(claim, question, said):
    assert [f.text for f in sq.frequencies(claim)] == [said]
    assert sq.generate(claim) == question
    assert sq.leaks(claim, question) == []
    # the question that kept it leaks it (beside a typed value inside it: 주 2회 states 2회 too)
    assert said in sq.leaks(claim, f"{question[:-1]} {said}?")


@pytest.mark.parametrize(
    ("claim", "question"),
    [
        # in the subject it is not the answer: it stays
        ("매주 회의 참석자는 5명", "매주 회의 참석자는?"),
        ("분기마다 하는 점검은 복구 테스트", "분기마다 하는 점검은?"),
        # a word that only begins like one is not one
        ("매일유업 담당자는 김철수", "매일유업 담당자는?"),
        ("매연 저감 목표는 30%", "매연 저감 목표는?"),
        # a monthly amount is not how often (the issue's own example keeps 월)
        ("한빛물류는 월 49만 원 요금제를 쓴다", "한빛물류는 월 요금제를 쓴다?"),
        # no frequency and no value outside the subject: unchanged
        ("주간 회의 장소는 본사", "주간 회의 장소는?"),
    ],
)
def test_a_frequency_word_that_is_not_the_answer_stays(claim, question):
    assert sq.generate(claim) == question
    assert sq.leaks(claim, question) == []


def test_frequencies_by_hand():
    """The period and the count of each form (a period in days, months, hours or minutes)."""
    got = {
        f.text: (f.every, f.times)
        for f in sq.frequencies(
            "격주 · 격월 · 매분기 · 2주마다 · 월요일마다 · 한 달에 한 번 · 1년에 두 번 · 6시간마다 · 반기별"
        )
    }
    assert got == {
        "격주": ((14, "day"), None),
        "격월": ((2, "month"), None),
        "매분기": ((3, "month"), None),
        "2주마다": ((14, "day"), None),
        "월요일마다": ((7, "day"), None),
        "한 달에 한 번": ((1, "month"), 1),
        "1년에 두 번": ((12, "month"), 2),
        "6시간마다": ((6, "hour"), None),
        "반기별": ((6, "month"), None),
    }
    assert sq.frequencies("10월 2회차 점검, 10월 2회 점검, 월 49만 원") == []


def test_leaks_names_a_frequency_in_another_notation():
    claim = "복구 테스트는 분기마다 1회"
    assert sq.leaks(claim, "복구 테스트는 매 분기 하나?") == ["분기마다"]
    assert sq.leaks(claim, "복구 테스트는 분기별로?") == ["분기마다"]
    assert sq.leaks(claim, "복구 테스트는 3개월마다?") == ["분기마다"]  # the same period
    assert sq.leaks(claim, "복구 테스트는 매월?") == []  # another period: not this answer
    assert sq.leaks("회의는 격주 화요일", "회의는 2주마다?") == ["격주 화요일"]
    assert sq.leaks(claim, "복구 테스트 주기는?") == []


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


def test_validate_refuses_a_slot_question_that_states_the_frequency(tmp_path):
    t = _trajectory({})
    claims = ["점검은 분기마다 1회", "점검은 격주로 진행"]
    t["states"][0]["claims"] = [claims[0]]
    t["states"][1]["claims"], t["states"][1]["staleClaims"] = [claims[1]], [claims[0]]
    t["slotQuestions"] = {claims[0]: "점검은 매 분기 몇 회?", claims[1]: "점검 주기는?"}
    report = validate_path(_write(tmp_path, t))
    text = "\n".join(str(p) for p in report.problems)
    assert "states the claim's value(s): 분기마다" in text  # 매 분기: the same period
    assert claims[1] not in text  # asks about the slot only


def test_every_stored_lookup_of_a_bundled_run_asks_without_its_values(tmp_path):
    """The bundled corpus written by the oracle (no scoring): every stored lookup's query is a
    slot question, free of every expected value of its claim."""
    db = open_db(tmp_path / "r.db")
    corpus = load_corpus(bundled_corpus("ko-mini"))
    run(corpus, ["oracle"], db, Config.offline(), offline=True, score=False)
    rows = list(db.query("SELECT claim, query, query_kind FROM read_lookups"))
    assert len(rows) > 100
    often = 0
    for r in rows:
        assert r["query"] and r["query"] != r["claim"]
        assert r["query_kind"] in (sq.CORPUS, sq.GENERATED)
        assert sq.leaks(r["claim"], r["query"]) == [], r
        # how often is an expected value too (분기마다, 매일, 매주 in this corpus)
        end, _ = sq.subject_end(r["claim"])
        stated = [f.text for f in sq.frequencies(r["claim"]) if f.start >= end]
        often += bool(stated)
        assert not [f for f in stated if f in r["query"]], r
        assert not sq.frequencies(r["query"]), r
    assert often >= 3  # the check above was exercised (three claims of the corpus say how often)
    # and it fails on the question that kept the answer (before frequencies were values)
    kept = "다온헬스케어 진료 데이터 복구 테스트는 분기마다?"
    assert sq.leaks("다온헬스케어 진료 데이터 복구 테스트는 분기마다 1회", kept) == ["분기마다"]


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
