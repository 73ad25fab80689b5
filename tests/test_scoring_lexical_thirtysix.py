"""lexical-36 (written after the twenty-eighth sealed set was read): 오전 and 오후 said without an
hour are a value of the time kind (a half of the day), and a question mark with a second question
after it asks two things. Written in settings no probe set uses (a planetarium shop, a paragliding
school), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

DELIVERY = "천체 망원경 30대 금요일 오후 입고 예정"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("망원경 30대 금요일 오후에 입고돼요.", "YES"),
        ("망원경 30대 금요일 오후 3시에 들어와요.", "not NO"),
        ("망원경 30대 금요일 15:00에 들어와요.", "not NO"),
        ("망원경 30대 금요일 오전에 들어와요.", "NO"),
        ("망원경 30대 금요일 오전 10시에 들어와요.", "NO"),
        ("망원경 30대 금요일에 입고돼요.", "PARTIAL"),
    ],
)
def test_a_half_of_the_day_is_a_value(answer, verdict):
    check(DELIVERY, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # a group named by the half of the day is no time (오전 반, 오후반, 오후 반은 …)
        (
            "패러글라이딩 오전 반 10:00~12:00 / 오후 반 14:00~16:00",
            "오후 반은 두 시에 시작해요.",
            "YES",
        ),
        ("패러글라이딩 오후반 강사는 김하늘 코치", "오후반은 김하늘 코치예요.", "YES"),
        ("패러글라이딩 셔틀은 오전에만 운행합니다.", "셔틀은 오전 타임에만 있어요.", "not NO"),
        ("패러글라이딩 셔틀은 오전에만 운행합니다.", "셔틀은 오후에만 있어요.", "NO"),
    ],
)
def test_groups_and_sessions_named_by_a_half_of_the_day(expected, answer, verdict):
    question = "오후 반은 몇 시에 시작해요?" if "반 14" in expected else ""
    check(expected, answer, verdict, question)


def test_a_second_question_after_a_question_mark_is_asked():
    check(DELIVERY, "금요일에 들어와요.", "PARTIAL", "망원경 언제 들어와요? 몇 시쯤이요?")
    check(DELIVERY, "금요일 오후에 들어와요.", "YES", "망원경 언제 들어와요? 몇 시쯤이요?")
