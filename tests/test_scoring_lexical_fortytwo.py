"""lexical-42 (written after the thirty-fourth sealed set was read): a weekday the question asks for
(무슨 요일) is a value of its own, not read into its date; a value written in error (…게시 →
오기재, …로 정정) is the former one, 오기재 no name, and an answer stating the corrected value
alone need not carry the retraction. Written in a setting no probe set uses (a ski rental shop),
each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("12월 19일이요.", "PARTIAL"),  # the weekday asked is left out
        ("12월 19일 일요일이요.", "YES"),
        ("12월 19일 토요일이요.", "NO"),  # the wrong weekday
        ("12월 26일 일요일이요.", "NO"),
    ],
)
def test_a_weekday_the_question_asks_for_is_a_value_of_its_own(answer, verdict):
    expected = "스키 대여점 공지: 시즌 개장 2027.12.19(일)."
    check(expected, answer, verdict, "개장이 몇 월 며칠, 무슨 요일이에요?")


def test_a_weekday_not_asked_is_still_the_dates():
    check("스키 대여점 공지: 시즌 개장 2027.12.19(일).", "12월 19일이요.", "YES", "개장 언제예요?")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("스키 대여료는 하루 31,000원으로 정정됐어요.", "YES"),
        ("스키 대여료는 하루 31,000원이에요.", "not NO"),
        ("스키 대여료는 하루 13,000원이에요.", "NO"),  # the value written in error
    ],
)
def test_a_value_written_in_error_is_the_former_one(answer, verdict):
    expected = "스키 대여료 하루 13,000원 게시 → 오기재, 31,000원으로 정정."
    check(expected, answer, verdict)
    values = analyse(expected).values
    assert [v.text for v in values if v.former] == ["13,000원"]
    assert not any(v.type == "name" for v in values)  # 오기재 is no name
