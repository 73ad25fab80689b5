"""lexical-51 (written after the forty-third sealed set was read): values swapped between owners
named by words, an exception's case asked, half a unit, the end of a dotted range, a negation in
a bracket about a thing the answer leaves out, a person named by another word of one meaning, a
member of a denied list said allowed, and labels naming people. Written in a setting no probe set
uses (a river cruise dock), with the cases that would fool each rule."""

from __future__ import annotations

import pytest
from judge_support import check

BERTHS = "정박 배정: 누리호 3번 부두, 한결호 8번 부두."
FARE = "승선료 성인 2만 원, 단 외국인 관광객은 1만 8천 원."


@pytest.mark.parametrize(
    ("question", "expected", "answer", "verdict"),
    [
        # owners named by words, each said once: their values swapped
        ("", BERTHS, "누리호가 8번이고 한결호가 3번 부두예요.", "NO"),
        ("", BERTHS, "누리호는 3번 부두, 한결호는 8번 부두예요.", "YES"),
        # a word of both clauses names no owner (청소 in both)
        ("", "선실 청소 2만 원, 갑판 전체 청소 5만 원.", "선실 청소는 2만 원이에요.", "not NO"),
        # the exception's case asked: the general value is another case's
        ("외국인 관광객은 얼마예요?", FARE, "2만 원이요.", "NO"),
        ("외국인 관광객은 얼마예요?", FARE, "만 팔천 원이요.", "YES"),
        ("승선료 얼마예요?", FARE, "2만 원이요.", "PARTIAL"),
    ],
)
def test_owners_and_cases(question, expected, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict", "question"),
    [
        # half a unit
        ("승객 1인당 생수 500mL 제공.", "한 분께 반 리터짜리 생수 드려요.", "not NO", ""),
        ("승객 1인당 생수 1L 제공.", "한 분께 반 리터짜리 생수 드려요.", "NO", ""),
        ("선상 간식 새우튀김 500g 준비.", "새우튀김 반 킬로 준비했어요.", "YES", ""),
        # the end of a dotted range in the start's year
        ("운항 기간 2027. 4. 1. ~ 10. 31.", "4월 1일부터 10월 31일까지 운항해요.", "YES", ""),
        ("운항 기간 2027. 4. 1. ~ 10. 31.", "4월 1일부터 9월 30일까지 운항해요.", "NO", ""),
        # a negation in a bracket about a thing the answer does not name
        ("야경 코스 1시간 30분 (중간 정박 없음).", "90분 걸려요.", "not NO", "얼마나 걸려요?"),
        ("야경 코스 1시간 30분 (중간 정박 없음).", "90분 걸리고 중간에 정박해요.", "not YES", ""),
    ],
)
def test_values_and_asides(expected, answer, verdict, question):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # a person named by another word of one meaning class (강사 / 선생님)
        (
            "강사님이 체험객들에게 노 젓는 법 알려 주심.",
            "체험객이 선생님께 알려 드렸대요.",
            "NO",
        ),
        (
            "강사님이 체험객들에게 노 젓는 법 알려 주심.",
            "선생님이 체험객들한테 노 젓는 법 알려 주셨어요.",
            "not NO",
        ),
        # a member of a denied list said allowed
        ("우천 취소 티켓은 환불·교환 불가.", "교환은 안 되고 환불만 돼요.", "NO"),
        ("우천 취소 티켓은 환불·교환 불가.", "환불도 교환도 안 돼요.", "not NO"),
        ("우천 취소 티켓은 환불·교환 불가.", "교환은 안 돼요.", "not NO"),
        # labels naming people
        (
            "[안내] 오전 운항 선장: 김태호 / 오후 운항 선장: 이준수",
            "오전은 이준수 선장님이 맡으세요.",
            "NO",
        ),
        (
            "[안내] 오전 운항 선장: 김태호 / 오후 운항 선장: 이준수",
            "오전은 김태호 선장님, 오후는 이준수 선장님이에요.",
            "not NO",
        ),
    ],
)
def test_people_and_denials(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    "text",
    ["가가및" * 3000 + "가가 x", "가가 및 " * 3000 + "x", "첫째·" * 3000, "첫째와 " * 3000],
)
def test_hostile_text_is_read_in_one_pass(text):
    # members joined by 및 were once read two ways each (2^n tries: 22 of them took 8 s), and a
    # run of ordinals was rescanned from every start; the patterns now read such text at once
    import time

    from seorap.engine.scoring.lexical.denied_members import _MEMBERS
    from seorap.engine.scoring.lexical.nth_weekdays import _RUN

    began = time.perf_counter()
    list(_MEMBERS.finditer(text)), list(_RUN.finditer(text))
    assert time.perf_counter() - began < 5  # a hang guard, not a speed goal
