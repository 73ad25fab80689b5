"""lexical-25 (written after the eighteenth sealed set was read, before the nineteenth was): who did
what to whom with honorific endings (보호자님 = 보호자분), a former value said instead of the new one,
another clause's value given for the one a question asks, words that deny (동결), 통 as a counter,
…ㄴ 분 (a person, no guess) and the plain copula ending 이야. Written in settings no probe set
uses (a bicycle repair stand, a hair salon's booking book, a bakery's oven log), each with the
cases that would fool it."""

from __future__ import annotations

import pytest

from seorap.engine.scoring.judges import LexicalJudge

J = LexicalJudge()


def label(expected: str, answer: str, question: str = "") -> str:
    return J.grade_answer(question, expected, answer).label


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("보호자님께서 원장님께 보내 주셨어요.", "NO"),  # sender and receiver turned round
        ("원장님께서 보호자님께 보내 주셨어요.", "YES"),
    ],
)
def test_who_sent_to_whom_with_honorific_endings(answer, verdict):
    expected = "원장님께서 보호자분께 정비 일지를 직접 보내 드렸습니다."
    assert label(expected, answer, "정비 일지 누가 보냈어요?") == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("3월 2일부터 마감은 밤 11시입니다.", "NO"),  # the time it changed from
        ("3월 2일부터 마감은 밤 12시입니다.", "YES"),
        ("원래 밤 11시였는데 3월 2일부터 밤 12시예요.", "not NO"),  # the old one said as old
    ],
)
def test_a_former_value_said_instead_of_the_new_one(answer, verdict):
    expected = "3월 2일부터 미용실 예약 마감을 밤 11시에서 밤 12시로 변경합니다."
    got = label(expected, answer)
    assert got != "NO" if verdict == "not NO" else got == verdict


@pytest.mark.parametrize(
    ("question", "answer", "verdict"),
    [
        ("지금 몇 명 신청했어요?", "열다섯 명이요.", "NO"),  # the capacity, another clause's
        ("지금 몇 명 신청했어요?", "아홉 명이요.", "YES"),
        ("정원이랑 신청자 각각 몇 명이에요?", "정원은 열다섯 명이에요.", "not NO"),  # two asks
    ],
)
def test_another_clauses_value_for_the_asked_one(question, answer, verdict):
    expected = "자전거 수리 교실 정원은 15명이고, 현재 신청자는 9명입니다."
    got = label(expected, answer, question)
    assert got != "NO" if verdict == "not NO" else got == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("5월 빵 가격은 오르지 않고 그대로예요.", "YES"),
        ("5월 빵 가격은 올라요.", "NO"),
    ],
)
def test_a_freeze_is_no_rise(answer, verdict):
    assert label("5월 빵 가격은 동결됩니다.", answer) == verdict


def test_tong_is_a_counter_and_a_person_is_no_guess():
    assert label("오븐 청소한 반죽 통은 총 15통입니다.", "열다섯 통이요.", "몇 통 했어요?") == "YES"
    assert label("오븐 청소한 반죽 통은 총 15통입니다.", "열세 통이요.", "몇 통 했어요?") == "NO"
    expected = "주소 불명 소포는 반송 처리했습니다."
    assert label(expected, "주소 불명이라 보내신 분께 반송했어요.") != "NO"


def test_the_plain_copula_ending():
    assert label("미용실 휴무는 월요일.", "휴무는 월요일이야.") == "YES"
    assert label("미용실 휴무는 월요일.", "휴무는 화요일이야.") == "NO"
