"""lexical-41 (written after the thirty-third sealed set was read): a stay (1박 2일) is no day of a
month; a mass in kilograms and grams is one value (52킬로 500그램 = 52.5kg); N개입 counts pieces;
장사/수색 접다 closes the work, no plan given up, and 빠지다 after an amount takes a price off;
a team in a head naming where the text was written is no value. Written in a setting no probe set
uses (an archery team), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse


def test_a_stay_is_no_day_of_a_month():
    values = analyse("합숙 훈련은 3월 6일 토요일부터 1박 2일로 해요.").values
    assert [(v.type, v.key) for v in values if v.type == "박일"] == [("박일", ("1", "2"))]
    assert not any(v.type == "일" for v in values)
    expected = "양궁장 합숙 훈련: 27.03.06(토)~03.07(일), 진천."
    check(expected, "합숙 훈련은 3월 6일 토요일부터 1박 2일로 해요.", "not NO")
    check(expected, "합숙 훈련은 3월 13일 토요일부터 1박 2일로 해요.", "NO")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("52킬로 500그램이에요.", "YES"), ("52킬로 300그램이에요.", "NO"), ("52킬로예요.", "NO")],
)
def test_kilograms_and_grams_are_one_mass(answer, verdict):
    check("선수 체중 52.5kg", answer, verdict)


def test_gaeip_counts_pieces():
    check("화살 1세트 = 12개입.", "화살 1세트에 열두 개 들었어요.", "not NO")
    check("화살 1세트 = 12개입.", "화살 1세트에 열 개 들었어요.", "NO")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("활 가게는 3월 말에 장사 접었어요.", "not NO"),  # the work closed: what 폐업 says
        ("활 가게는 3월 말에 폐업 안 하기로 했어요.", "NO"),
        ("활 가게는 3월 말에 폐업하려다 접었어요.", "not YES"),  # the plan given up
    ],
)
def test_folding_up_the_work_is_its_end(answer, verdict):
    check("양궁장 앞 활 가게 3월 말 폐업.", answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("3월엔 가죽 암가드랑 손가락 보호대 20프로씩 빠져요.", "YES"),
        ("3월엔 가죽 암가드랑 손가락 보호대 30프로씩 빠져요.", "NO"),
        ("3월엔 손가락 보호대는 할인에서 빠졌어요.", "not YES"),  # left out of the sale
    ],
)
def test_a_price_taken_off(answer, verdict):
    check("3월 할인 품목: 가죽 암가드, 손가락 보호대(각 20% 할인).", answer, verdict)


def test_a_team_in_a_source_head_is_no_value():
    assert not any(v.type == "team" for v in analyse("중계팀 공지: 토요일 오전 9시 집결").values)
    # a team in the content stays one
    assert any(v.type == "team" for v in analyse("공지: 토요일 오전 9시 중계팀 집결").values)
