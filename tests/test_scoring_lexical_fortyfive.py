"""lexical-45 (written after the thirty-seventh sealed set was read): a member the statement sets
apart in brackets is not one of its list's; owners told apart by a word (초급 강습, 중급 강습)
whose values changed places; the limit of a scope the question asks for; offsets of days or weeks
(2주 뒤) before a clock time counted from the day the statement was written; native numerals
before two-syllable counters; t, Mbps and Gbps, 메가 and 기가 said alone; a month's last day (9월
말일); 알바, 신입, 증속 and WOD said another way. Written in settings no probe set uses (a surf
school, a perfume workshop, a handmade shoe workshop, a natural dyeing workshop, a salt
warehouse), each with the cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest
from judge_support import J, check

from seorap.engine import normalise
from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.value import spelled

JUNE = {"expected_date": dt.date(2027, 6, 2), "answer_date": dt.date(2027, 6, 9)}
MAY = {"expected_date": dt.date(2027, 5, 10), "answer_date": dt.date(2027, 5, 11)}
TYPHOON = "태풍 시 휴강: 초급반, 중급반 (상급반은 정상 진행)"
PERFUME = "조향 체험 재료비 포함: 공병, 라벨 (향료 원액 제외)"
SURF = "서핑 초급 강습 토요일 9시 / 중급 강습 일요일 11시"
SHOES = "수제화 무상 수선 6개월 – 굽 교체는 제외"

CASES = [
    # A member set apart in brackets, listed with the list: a member added (NO).
    ("태풍 오면 어느 반이 쉬어요?", TYPHOON, "초급반, 중급반, 상급반이요.", "NO"),
    ("태풍 오면 어느 반이 쉬어요?", TYPHOON, "초급반, 중급반이요. 상급반은 그대로 해요.", "not NO"),
    ("재료비에 뭐가 포함돼요?", PERFUME, "공병, 라벨, 향료 원액이요.", "NO"),
    ("재료비에 뭐가 포함돼요?", PERFUME, "공병이랑 라벨이요. 향료 원액은 따로예요.", "not NO"),
    # Owners told apart by a word: the values changed places (NO); each kept (YES); another
    # owner named (상급) is no swap but a wrong owner; a value both owners hold is no swap.
    ("", SURF, "초급 강습은 일요일 11시, 중급은 토요일 9시예요.", "NO"),
    ("", SURF, "초급 강습은 토요일 아침 9시고요, 중급 강습은 일요일 오전 11시예요.", "YES"),
    ("", SURF, "초급 강습은 토요일 9시, 상급 강습은 일요일 11시예요.", "not YES"),
    (
        "초급 강습 언제예요?",
        "서핑 초급 강습 토요일 9시 / 중급 강습 토요일 11시",
        "초급 강습은 토요일 9시예요.",
        "not NO",
    ),
    # The scope asked: its limit left out is PARTIAL; not asked, nothing is missing.
    ("수선 보증 기간이랑 범위 알려 주세요.", SHOES, "6개월 동안 무상으로 고쳐 드려요.", "PARTIAL"),
    ("수선 보증 기간이랑 범위 알려 주세요.", SHOES, "6개월이고, 굽 교체는 빼고요.", "not NO"),
    ("무상 수선 기간이 얼마예요?", SHOES, "6개월이요.", "YES"),
    ("무상 수선 대상이 어떻게 돼요?", SHOES, "6개월이요.", "PARTIAL"),
    # 조건 and 적용 are said of any terms: "조건은 몇 개월 적용돼요?" asks the period.
    ("무상 수선 조건은 몇 개월 적용돼요?", SHOES, "6개월이요.", "YES"),
    # 2주 뒤 from the statement's day; 3일 뒤 before a clock time from the statement's day too,
    # but 입금 3일 후 counts from the payment (no day to compare with).
    (
        "",
        "서핑 보드 점검 2주 뒤 오전 10시",
        "보드 점검은 다음 주 수요일 오전 10시예요.",
        "YES",
        JUNE,
    ),
    (
        "",
        "서핑 보드 점검 2주 뒤 오전 10시",
        "보드 점검은 이번 주 금요일 오전 10시예요.",
        "NO",
        JUNE,
    ),
    ("", "천연 염색 시제품 확인 3일 뒤 저녁 7시", "5월 13일 저녁 7시에 확인해요.", "YES", MAY),
    ("", "천연 염색 시제품 확인 3일 뒤 저녁 7시", "5월 14일 저녁 7시에 확인해요.", "NO", MAY),
    ("", "스카프 주문: 입금 3일 후 발송", "5월 13일에 발송돼요.", "not YES", MAY),
    # Without a day to count from, 4주 뒤 and 4주 후 are one offset.
    ("", "완성 스카프는 4주 후 택배 발송", "완성 스카프는 4주 뒤에 택배로 발송해요.", "YES"),
    ("", "완성 스카프는 4주 후 택배 발송", "완성 스카프는 3주 뒤에 택배로 발송해요.", "NO"),
    # A native numeral before a two-syllable counter; a particle after a one-syllable one.
    ("소금 몇 가마 실었어요?", "천일염 선적 38가마", "서른여덟 가마요.", "YES"),
    ("소금 몇 가마 실었어요?", "천일염 선적 38가마", "서른일곱 가마요.", "NO"),
    ("", "음료 냉장고 탄산수 재고 48캔", "탄산수 마흔여덟 캔이 있어요.", "not NO"),
    # t = 톤; Mbps and Gbps; 메가 and 기가 read by the statement's unit.
    ("", "서핑 보드 출고 총중량 2.5t", "보드 출고 총중량은 2,500킬로예요.", "not NO"),
    ("", "서핑 보드 출고 총중량 2.5t", "보드 출고 총중량은 250킬로예요.", "NO"),
    ("", "서핑 숍 와이파이 속도 500Mbps", "와이파이 속도는 0.5기가예요.", "not NO"),
    ("", "서핑 숍 와이파이 속도 500Mbps", "와이파이 속도는 5기가예요.", "NO"),
    ("", "강습 사진 파일 용량 20MB", "강습 사진 파일은 20메가예요.", "YES"),
    ("", "강습 사진 파일 용량 20MB", "강습 사진 파일은 20기가예요.", "NO"),
    # A month's last day; February's needs a year.
    ("재료비 언제까지 내요?", "조향 공방 재료비 납부 마감 2027.09.30", "9월 말일까지요.", "YES"),
    ("재료비 언제까지 내요?", "조향 공방 재료비 납부 마감 2027.09.29", "9월 말일까지요.", "NO"),
    (
        "재료비 언제까지 내요?",
        "조향 공방 재료비 납부 마감 2027.02.28",
        "2월 말일까지요.",
        "not YES",
    ),
    # Words said another way: 알바 = 아르바이트, WOD = 와드.
    ("", "서핑 숍 주말 알바 시급 11,000원", "주말 아르바이트 시급은 만 천 원이에요.", "not NO"),
    ("", "서핑 숍 주말 알바 시급 11,000원", "주말 아르바이트 시급은 만 원이에요.", "NO"),
    ("", "토요일 WOD 09:00 시작", "토요일 와드는 아침 9시에 시작해요.", "YES"),
    ("", "토요일 WOD 09:00 시작", "토요일 와드는 아침 10시에 시작해요.", "NO"),
]
"""(question, expected, answer, verdict[, dates]): each rule with the cases that would fool it."""


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}" for i in range(len(CASES))])
def test_each_rule_and_what_would_fool_it(case):
    question, expected, answer, verdict, *dates = case
    check(expected, answer, verdict, question, **(dates[0] if dates else {}))


@pytest.mark.parametrize(
    ("text", "ref", "key"),
    [
        ("9월 말일까지", None, (None, 9, 30)),
        ("2028년 2월 말일", None, (2028, 2, 29)),
        ("2월 말일", dt.date(2027, 1, 5), (None, 2, 28)),
        ("2월 말일", None, None),
        ("점검은 2주 뒤", dt.date(2027, 6, 2), (2027, 6, 16)),
        ("재측정 3일 뒤 저녁 7시", dt.date(2027, 4, 20), (2027, 4, 23)),
    ],
)
def test_dates_read(text, ref, key):
    (found,) = normalise.dates(text, ref)
    assert found.key == key


def test_an_offset_after_an_event_counts_from_the_event():
    # 입금 3일 후 발송: three days after the payment, not after the memo
    assert all(f.key is None for f in normalise.dates("입금 3일 후 발송", dt.date(2027, 5, 10)))


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("서른일곱 가마요.", [("수", ("37",))]),
        ("마흔여덟 캔이 남았어요", [("수", ("48",))]),
        ("4.8t", [("톤", ("4.8",))]),
        ("1Gbps", [("gbps", ("1",))]),
    ],
)
def test_values_read(text, values):
    assert [(v.type, v.key) for v in analyse(text).values] == values


def test_line_speeds_compare_across_units():
    assert normalise.same_quantity("gbps", normalise.Decimal(1), "mbps", normalise.Decimal(1000))
    assert not normalise.same_quantity("gbps", normalise.Decimal(1), "mb", normalise.Decimal(1000))


def test_wod_is_said_as_a_word():
    assert spelled("WOD", "와드")
    assert not spelled("WOD", "워드")


def test_a_swap_names_the_statements_words_on_its_side():
    v = J.grade_answer(
        "",
        "매입가는 정가의 20퍼센트, 판매가는 정가의 50퍼센트",
        "정가 50%에 사 드리고 20%에 팔아요",
    )
    assert v.label == "NO"
    assert "expected 50퍼센트" in v.rationale
