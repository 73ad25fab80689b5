"""lexical-50 (written after the forty-second sealed set was read): words swapped between labels,
weekdays counted within the month, 절반 and 반값 as 50%, a total's breakdown sharing its counter,
a former value written with a slash, the end day of a date range, and smaller readings (정모 =
정기 모임, 석 달 동안, lbs, 시리즈, 발). Written in a setting no probe set uses (a river cruise
dock), with the cases that would fool each rule."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.labels import swapped
from seorap.engine.scoring.lexical.values import _extract

DECKS = "층별 안내 — 선수: 전망 데크, 중앙: 카페, 선미: 기념품점."


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("선수는 카페고 선미는 전망 데크예요. 중앙은 기념품점이에요.", "NO"),
        ("선수엔 전망 데크, 가운데 카페, 뒤쪽 선미엔 기념품점 있어요.", "not NO"),
    ],
)
def test_words_swapped_between_labels(answer, verdict):
    check(DECKS, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (DECKS, "선수랑 선미에 카페랑 전망 데크가 있어요."),  # two labels in one clause: not read
        ("성인: 2만 원, 아동: 1만 원.", "성인은 1만 원이에요."),  # typed values: the value rules'
        ("문의: 매표소.", "매표소 말고 카페에 물어보세요."),  # one pair is no set of labels
    ],
)
def test_no_label_swap_read(expected, answer):
    assert swapped(analyse(expected), analyse(answer)) == []


NIGHT = "야간 운항은 매월 둘째·넷째 토요일."


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("야간 운항은 둘째, 넷째 토요일이에요.", "YES"),
        ("야간 운항은 두 번째랑 네 번째 토요일이에요.", "YES"),
        ("야간 운항은 매달 둘째 토요일이에요.", "PARTIAL"),
        ("야간 운항은 셋째 토요일이에요.", "NO"),
        ("야간 운항은 매주 토요일이에요.", "not YES"),
    ],
)
def test_weekdays_counted_within_the_month(answer, verdict):
    check(NIGHT, answer, verdict)


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("매월 첫째 주 일요일 휴항", [(1, "일")]),
        ("마지막 주 금요일", [(-1, "금")]),
        ("다음 주 금요일", []),  # a week counted from today, not within the month
        ("세 번째로 금요일에 와요", []),  # an order of visits, no weekday of the month
    ],
)
def test_nth_weekday_values(text, keys):
    assert [v.key for v in _extract(text) if v.type == "nth-weekday"] == keys


@pytest.mark.parametrize(
    ("expected", "answer", "verdict", "question"),
    [
        ("단체 승선권 50% 할인.", "단체는 반값이에요.", "YES", ""),
        ("단체 승선권 50% 할인.", "단체는 30% 깎아 드려요.", "NO", ""),
        ("주말 승선권 절반 가격.", "주말엔 50% 가격이에요.", "not NO", ""),
        # a total's breakdown shares its counter
        ("오늘 승객 52명 (성인 40, 아동 12).", "열두 명이요.", "not NO", "아동 몇 명 탔어요?"),
        ("오늘 승객 52명 (성인 40, 아동 12).", "열 명이요.", "NO", "아동 몇 명 탔어요?"),
        # …but not a number with its own counter in the bracket
        (
            "2시간 코스 3만 원 (음료 1잔 포함).",
            "2시간 코스 삼만 원이고 음료 한 잔 드려요.",
            "YES",
            "",
        ),
        # a former value written with a slash is former to its end
        (
            "운항 재개일 7/20로 정정 (기존 공지 7/13은 오류).",
            "7월 13일부터 다시 다녀요.",
            "NO",
            "",
        ),
        # the end day of a range in the start's month
        ("선착장 보수 7월 5일부터 9일까지.", "7/5부터 7/9까지 보수해요.", "YES", ""),
        ("선착장 보수 7월 5일부터 9일까지.", "7/5부터 7/12까지 보수해요.", "NO", ""),
        ("선착장 보수 3월 2일부터 5일 동안.", "3월 2일부터 5일 동안 보수해요.", "YES", ""),
        # smaller readings
        ("선상 정기 모임 매달 첫째 주 금요일.", "정모는 매달 첫째 주 금요일이에요.", "not NO", ""),
        ("계류 로프 장력 300lbs.", "로프 장력 300파운드예요.", "YES", ""),
        ("계류 로프 장력 300lbs.", "로프 장력 200파운드예요.", "NO", ""),
        ("신규 선원 석 달간 수당 50% 지급.", "석 달 동안 수당 반액 나와요.", "not NO", ""),
    ],
)
def test_values_read_by_lexical_50(expected, answer, verdict, question):
    check(expected, answer, verdict, question)
