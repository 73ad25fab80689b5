"""lexical-47 (written after the thirty-ninth sealed set was read): the values an answer need not
state are told by the value, not its text (the end a question asks, written as the other booking's
end is); the other end of a former range is not asked; 1g → 500mg is one measure's change; a
decimal said in words (육십오 점 오 도); a time said without a number as a rate's denominator
(시간당, 분당 before a number); a decade (1970년대 = 70년대); a given name with 이 (지훈이); km/h.
Written in settings no probe set uses (a candle workshop, a calligraphy class, a smart farm, a
delivery scooter depot), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse

HALLS = "양초 공방 대관 – 1번 방 '소라' 오후 2시~5시, 2번 방 '노을' 오후 3시~5시."
DOSE = "처방 정정: 진통제 1g → 500mg으로 감량."
CANDLE = "공방 장식 촛대 – 1970년대 제작품."
FEES = "공방 회비 – 서하 3만 원, 지훈 4만 원."

CASES = [
    # The asked end written as another clause's end is still asked.
    ("몇 시부터 몇 시까지 잡혀 있어요?", HALLS, "소라는 오후 2시부터예요.", "not YES"),
    ("몇 시부터 몇 시까지 잡혀 있어요?", HALLS, "소라는 오후 2시부터 5시까지예요.", "not NO"),
    # The other end of a former range is not asked.
    (
        "토요일 수업 몇 시까지 해요?",
        "캘리그라피 토요일 수업 10:00~12:00에서 10:00~13:00으로 1시간 연장.",
        "토요일은 오후 1시까지 해요.",
        "YES",
    ),
    # 1g → 500mg: a change of one measure; the old dose kept is NO.
    ("", DOSE, "진통제 500mg으로 줄였어요.", "YES"),
    ("", DOSE, "진통제 1g 그대로예요.", "NO"),
    # A decimal said in words.
    ("", "양초 녹이는 온도 65.5도.", "육십오 점 오 도에서 녹여요.", "YES"),
    ("", "양초 녹이는 온도 65.5도.", "육십오 점 칠 도에서 녹여요.", "NO"),
    # 시간당 before a number is a rate; 분당 before a place is a town.
    ("", "공방 대관료 시간당 2만 원.", "시간당 2만 원이에요.", "YES"),
    ("", "공방 대관료 시간당 2만 원.", "하루에 2만 원이에요.", "not YES"),
    ("", "스마트팜 직원 분당 정자동 출퇴근.", "분당 정자동에서 다녀요.", "not NO"),
    # A decade of four digits or two.
    ("", CANDLE, "70년대에 만든 촛대예요.", "not NO"),
    ("", CANDLE, "60년대에 만든 촛대예요.", "NO"),
    # 지훈이 is 지훈; the values swapped between them are still swapped.
    ("", FEES, "지훈이는 4만 원, 서하는 3만 원 내요.", "YES"),
    ("", FEES, "지훈이는 3만 원, 서하는 4만 원 내요.", "NO"),
    # km/h is the speed in km.
    ("", "배달 킥보드 최고 속도 시속 25km.", "최고 속도는 25km/h예요.", "YES"),
    ("", "배달 킥보드 최고 속도 시속 25km.", "최고 속도는 30km/h예요.", "NO"),
]
"""(question, expected, answer, verdict): each rule with the cases that would fool it."""


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}" for i in range(len(CASES))])
def test_each_rule_and_what_would_fool_it(case):
    question, expected, answer, verdict = case
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("삼십구 점 이 도", [("℃", ("39.2",))]),
        ("분당 180원", [("per", ("분",)), ("원", ("180",))]),
        ("분당 정자동", [("name", ("분당",)), ("name", ("정자동",))]),  # a town, no rate
        ("1980년대", [("decade", (1980,))]),
        ("'90년대", [("decade", (1990,))]),
        ("10년대", [("decade", (2010,))]),
        ("25km/h", [("speed", ("125/18",))]),  # since lexical-52 a speed, in metres per second
    ],
)
def test_values_read(text, values):
    assert [(v.type, v.key) for v in analyse(text).values] == values
