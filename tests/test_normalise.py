"""engine/normalise.py: Korean dates, relative dates, numbers and quantities, as tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from seorap.engine import normalise as n

D = dt.date

ABSOLUTE = [
    ("2026-03-05", (2026, 3, 5)),
    ("2026.03.05", (2026, 3, 5)),
    ("2026. 3. 5.", (2026, 3, 5)),
    ("2026. 3. 5", (2026, 3, 5)),
    ("2026/3/5", (2026, 3, 5)),
    ("26/03/05", (2026, 3, 5)),
    ("3/5", (None, 3, 5)),
    ("2026년 3월 5일", (2026, 3, 5)),
    ("3월 5일", (None, 3, 5)),
    ("2026년3월5일", (2026, 3, 5)),
    ("계약은 2026. 12. 31.에 끝", (2026, 12, 31)),
    ("마감 2027.1.9까지", (2027, 1, 9)),
]


@pytest.mark.parametrize(("text", "key"), ABSOLUTE)
def test_absolute_dates(text, key):
    found = n.dates(text)
    assert [f.key for f in found] == [key]


@pytest.mark.parametrize(
    "text", ["2026. 2. 30.", "13/40", "버전 1.2.3", "1,2차", "3.5배", "2026.13.01"]
)
def test_not_dates(text):
    assert [f.key for f in n.dates(text) if f.key is not None] == []


REF = D(2026, 3, 4)  # a Wednesday
RELATIVE = [
    ("오늘", (2026, 3, 4)),
    ("어제", (2026, 3, 3)),
    ("내일", (2026, 3, 5)),
    ("모레", (2026, 3, 6)),
    ("글피", (2026, 3, 7)),
    ("그저께", (2026, 3, 2)),
    ("그제", (2026, 3, 2)),
    ("이번 주 금요일", (2026, 3, 6)),
    ("이번주 월요일", (2026, 3, 2)),
    ("다음 주 화요일", (2026, 3, 10)),
    ("다음주 일요일", (2026, 3, 15)),
    ("지난주 화요일", (2026, 2, 24)),
    ("저번 주 목요일", (2026, 2, 26)),
    ("이번 달 말일", (2026, 3, 31)),
    ("다음 달 말일", (2026, 4, 30)),
    ("지난달 말일", (2026, 2, 28)),
    ("다음 달 15일", (2026, 4, 15)),
    ("10일 후", (2026, 3, 14)),
    ("3일 뒤", (2026, 3, 7)),
    ("5일 전", (2026, 2, 27)),
    ("30일 후", (2026, 4, 3)),
]


@pytest.mark.parametrize(("text", "key"), RELATIVE)
def test_relative_dates_against_the_reference(text, key):
    found = n.dates(f"점검은 {text}에 한다", REF)
    assert [(f.key, f.relative) for f in found] == [(key, True)]


@pytest.mark.parametrize(
    "text", ["이번 달 말", "다음 달 초", "다음 달 중순", "다음 분기", "다음 주 초", "이번 주 중"]
)
def test_periods_are_vague(text):
    found = n.dates(f"점검은 {text}에 한다", REF)
    assert len(found) == 1 and found[0].key is None


def test_days_counted_from_an_event_are_no_date():
    assert n.dates("인증서 만료 30일 전 알림 설정", REF) == []
    assert [f.key for f in n.dates("점검은 3일 뒤에 한다", REF)] == [(2026, 3, 7)]


def test_no_reference_leaves_a_relative_date_unresolved():
    assert [f.key for f in n.dates("점검은 다음 주 화요일")] == [None]
    assert n.same_date(None, (2026, 3, 10)) is False


def test_year_end_rollover():
    assert n.dates("다음 주 월요일", D(2026, 12, 30))[0].key == (2027, 1, 4)
    assert n.dates("다음 달 말일", D(2026, 12, 5))[0].key == (2027, 1, 31)
    assert n.dates("다음 달 말일", D(2028, 1, 10))[0].key == (2028, 2, 29)


NUMBERS = [
    ("1,200", "1200"),
    ("1200", "1200"),
    ("3만", "30000"),
    ("310만", "3100000"),
    ("3,100,000", "3100000"),
    ("1억 2천만", "120000000"),
    ("1.2억", "120000000"),
    ("3억 5천만", "350000000"),
    ("35,000,000", "35000000"),
    ("2.5억", "250000000"),
    ("1조 2000억", "1200000000000"),
    ("천", "1000"),
    ("5천", "5000"),
    ("0.5만", "5000"),
    ("12.75", "12.75"),
]


@pytest.mark.parametrize(("text", "value"), NUMBERS)
def test_numbers(text, value):
    assert n.number(text) == Decimal(value)


SAME = [
    ("ms", "200", "초", "0.2", True),
    ("초", "90", "분", "1.5", True),
    ("분", "40", "시간", "1", False),
    ("시간", "48", "일", "2", True),
    ("일", "14", "주", "2", True),
    ("개월", "18", "년", "1.5", True),
    ("개월", "24", "년", "2", True),
    ("개월", "18", "년", "2", False),
    ("개월", "1", "일", "30", False),
    ("tb", "1.5", "gb", "1500", True),
    ("gb", "2", "mb", "2000", True),
    ("kb", "1", "mb", "1", False),
    ("원", "3100000", "원", "3100000", True),
    ("원", "3100000", "달러", "3100000", False),
    ("달러", "10", "유로", "10", False),
    ("명", "3", "명", "3", True),
    ("명", "3", "회", "3", False),
]


@pytest.mark.parametrize(("ua", "a", "ub", "b", "same"), SAME)
def test_same_quantity(ua, a, ub, b, same):
    assert n.same_quantity(ua, Decimal(a), ub, Decimal(b)) is same


def test_dimensions_fill_one_slot():
    assert n.dimension("ms") == n.dimension("년") == "duration"
    assert n.dimension("원") == n.dimension("달러") == "money"
    assert n.dimension("tb") == "size" and n.dimension("명") is None
