"""lexical-33 (written after the twenty-fifth sealed set was read): giver and receiver turned round
when both sides say a giving verb (a recipient said between a doer and a clause that modifies a
noun keeps the doer; 연사분께서 is a person; 수강생분들 = 수강생들), and the one E gives to said
to give (제출 / 받아 가시면). Written in settings no probe set uses (a museum shop, a fossil hall,
an event desk), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

GIFTS = "관장님께서 관람객분들께 기념품을 나눠 주셨습니다."
LESSON = "해설사분께서 학생들에게 공룡 화석 보는 법을 가르쳐 주십니다."
FORM = "참가자는 신청서를 운영팀에 제출해야 합니다."


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (GIFTS, "관람객들이 관장님께 기념품을 드렸대요.", "NO"),
        (GIFTS, "관람객들이 관장님께 기념품을 받았대요.", "YES"),
        (GIFTS, "관장님이 관람객들한테 기념품을 나눠 줬어요.", "YES"),
        (LESSON, "학생들이 해설사분께 가르쳐 드려요.", "NO"),
        (LESSON, "해설사분이 학생들한테 화석 보는 법 알려 줘요.", "not NO"),
        (
            "원장님께서 수강생들이 만든 작품을 평가하셨다.",
            "수강생들이 원장님 작품을 평가했어요.",
            "NO",
        ),
    ],
)
def test_giver_and_receiver_turned_round(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (FORM, "신청서는 운영팀에서 받아 가시면 됩니다.", "NO"),
        (
            "참가자는 신청서를 운영팀에서 받아야 합니다.",
            "신청서는 운영팀에서 받아 가시면 됩니다.",
            "YES",
        ),
        (FORM, "운영팀이 참가자한테서 신청서를 받아요.", "not NO"),
    ],
)
def test_the_one_given_to_said_to_give(expected, answer, verdict):
    check(expected, answer, verdict)
