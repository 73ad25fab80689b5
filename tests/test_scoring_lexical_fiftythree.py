"""lexical-53 (written after the forty-fifth sealed set was read): a clause that says the values may
change or limits whom they are for is asked with them, a fare both ways or one way, and everyday
words for taking a medicine, renewing, getting ready, handing out and an elder, with the ending
…이라. Written in a setting no probe set uses (a river cruise dock), with the cases that would fool
each rule."""

from __future__ import annotations

import pytest
from judge_support import check

VOUCHER = "선상 뷔페 이용권 2만 원 지급, 승선일 기준 성인 승객 한정"
SAILING = "야경 크루즈 출항 예정 8월 3일(화), 기상 사정으로 변동 가능"
FARE = "섬 왕복 승선권 3만 원"


@pytest.mark.parametrize(
    ("question", "expected", "answer", "verdict"),
    [
        # a limit on whom the value is for is asked with the value ...
        ("이용권 받을 수 있어요? 얼마예요?", VOUCHER, "2만 원 받으실 수 있어요.", "not YES"),
        ("이용권 받을 수 있어요? 얼마예요?", VOUCHER, "성인 승객이면 3만 원이에요.", "NO"),
        # ... and so is a note that the value may change
        ("야경 크루즈 언제 떠나요?", SAILING, "8월 3일 화요일에 떠나요.", "not YES"),
        ("야경 크루즈 언제 떠나요?", SAILING, "8월 4일 수요일에 떠나요.", "NO"),
        # a clause that neither limits nor may change the value stays unasked
        (
            "야경 크루즈 언제 떠나요?",
            "야경 크루즈 출항 8월 3일(화), 선착장 2번 게이트",
            "8월 3일 화요일이요.",
            "YES",
        ),
        # both ways or one way
        ("섬까지 편도 얼마예요?", FARE, "편도 3만 원이에요.", "NO"),
        ("섬 가는 배 얼마예요?", FARE, "왕복 3만 원이에요.", "YES"),
    ],
)
def test_asked_with_the_value(question, expected, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict", "question"),
    [
        ("멀미약 1회 복용량 1알", "멀미약은 한 번에 한 알씩 먹이세요.", "YES", ""),
        ("멀미약 1회 복용량 1알", "멀미약은 한 번에 두 알씩 드세요.", "NO", ""),
        ("선착장 매점 임대 계약 갱신", "선착장 매점 임대 계약 연장됐어요.", "YES", ""),
        ("선착장 매점 임대 계약 갱신", "선착장 매점 임대 계약 해지됐어요.", "not YES", ""),
        # 어르신 is either elder; 할머니 is not 할아버지
        (
            "승객(3번 객실 할머니) 지팡이 안내소에 맡기심",
            "3번 객실 어르신이 지팡이를 안내소에 맡기셨어요.",
            "YES",
            "",
        ),
        (
            "승객(3번 객실 할머니) 지팡이 안내소에 맡기심",
            "3번 객실 할아버지가 지팡이를 안내소에 맡기셨어요.",
            "not YES",
            "",
        ),
        # …이라: a cause after the copula
        ("매주 월요일 운항 휴무", "월요일은 운항 휴무라 쉬어요.", "YES", "월요일에 배 떠요?"),
        (
            "매주 월요일 운항 휴무",
            "월요일은 운항 휴무라 정상 운항해요.",
            "not YES",
            "월요일에 배 떠요?",
        ),
    ],
)
def test_words(expected, answer, verdict, question):
    check(expected, answer, verdict, question)
