"""Numbers said in words read as their digits (engine/scoring/lexical/numerals.py), since
lexical-8. Written in settings no probe set uses (a bus depot, a bakery's night shift, a
kindergarten, a recycling centre), with the cases that would fool the reading: words that hold a
numeral's letters and are no number."""

from __future__ import annotations

import pytest

from seorap.engine import normalise
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.numerals import as_digits, sino


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("정비사는 스무 명이다", "정비사는 20명이다"),
        ("노선 서른두 개를 돈다", "노선 32개를 돈다"),
        ("야간조가 열한 시에 들어온다", "야간조가 11시에 들어온다"),
        ("반죽은 세 군데에서 한다", "반죽은 3곳에서 한다"),
        ("적응 기간은 석 달이다", "적응 기간은 3개월이다"),
        ("수거는 닷새 뒤에 한다", "수거는 5일 뒤에 한다"),
        ("하루 뒤에 다시 온다", "1일 뒤에 다시 온다"),
        ("재활용 교육은 시월 이십팔일이다", "재활용 교육은 10월 28일이다"),
        ("원복 값은 삼만 오천 원", "원복 값은 35000원"),
        ("세 차례 점검했다", "3회 점검했다"),
        ("선생님 두 사람이 맡는다", "선생님 2명이 맡는다"),
    ],
)
def test_a_number_in_words_is_written_in_digits(said, digits):
    assert as_digits(said).text == digits


@pytest.mark.parametrize(
    "text",
    [
        "세 대학이 참여한다",  # 세 before a noun that only starts like a counter
        "두 번째 차고지",  # an order, not a count
        "이월 금액은 없다",  # 이월: carried over
        "구월동 차고지",  # a place whose name starts like a month
        "하루에 빵 4만 개",  # 하루에: per day, and 4만 stays one number
        "오일 교체",  # oil, not the fifth
        "백화점 납품",  # 백 starts a word
        "세 시즌째",  # 시즌, not 시
        "네, 맞아요",  # a bare 네 is yes
    ],
)
def test_words_that_hold_a_numerals_letters_stay_words(text):
    assert as_digits(text).text == text


def test_each_value_sits_on_the_words_it_was_read_from():
    text = "차고지 점검은 사흘 뒤, 버스 스물한 대"
    values = analyse(text, normalise.dt.date(2026, 3, 2)).values
    assert [(v.type, v.text) for v in values] == [("date", "사흘 뒤"), ("대", "스물한 대")]
    assert values[0].key == (2026, 3, 5)


def test_sino_numbers():
    assert [sino(w) for w in ("삼천만", "이십오", "만", "일억오천만", "백", "가")] == [
        30_000_000,
        25,
        10_000,
        150_000_000,
        100,
        None,
    ]


def test_a_two_digit_year_with_dots_is_a_date():
    assert [f.key for f in normalise.absolute_dates("26.3.9 마감, 버전 1.2.3")] == [(2026, 3, 9)]


JUDGE = LexicalJudge()


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("1호차 배차 기사는 20명이다.", "1호차 배차 기사는 스무 명이에요.", "YES"),
        ("1호차 배차 기사는 20명이다.", "1호차 배차 기사는 스물두 명이에요.", "NO"),
        ("야간 제빵조는 3곳에서 일한다.", "야간 제빵조는 세 군데에서 일해요.", "YES"),
        ("야간 제빵조는 3곳에서 일한다.", "야간 제빵조는 네 군데에서 일해요.", "NO"),
        ("원아 모집은 3월 4일에 끝난다.", "원아 모집은 삼월 사일에 끝나요.", "YES"),
        ("원아 모집은 3월 4일에 끝난다.", "원아 모집은 삼월 십사일에 끝나요.", "NO"),
        ("폐가전 수거비는 35,000원이다.", "폐가전 수거비는 삼만 오천 원이에요.", "YES"),
        ("폐가전 수거비는 35,000원이다.", "폐가전 수거비는 삼만 원이에요.", "NO"),
    ],
)
def test_the_judge_reads_a_number_in_words_as_its_digits(expected, answer, verdict):
    assert JUDGE.grade_answer("", expected, answer).label == verdict


def test_a_relative_date_in_words_is_resolved_like_its_digits():
    said = JUDGE.grade_answer(
        "",
        "정기 점검은 2026년 3월 5일이다.",
        "정기 점검은 사흘 뒤예요.",
        answer_date=normalise.dt.date(2026, 3, 2),
    )
    wrong = JUDGE.grade_answer(
        "",
        "정기 점검은 2026년 3월 5일이다.",
        "정기 점검은 나흘 뒤예요.",
        answer_date=normalise.dt.date(2026, 3, 2),
    )
    assert (said.label, wrong.label) == ("YES", "NO")


def test_a_year_said_relative_to_the_document_resolves_against_it():
    at = normalise.dt.date(2026, 12, 5)
    expected = "차고지 이전은 2027년 4월 24일이다."
    assert (
        JUDGE.grade_answer("", expected, "차고지 이전은 내년 4월 24일이에요.", answer_date=at).label
        == "YES"
    )
    assert (
        JUDGE.grade_answer("", expected, "차고지 이전은 올해 4월 24일이에요.", answer_date=at).label
        == "NO"
    )
    # without the document's date the year is unknown, as in 4월 24일 (and 내년 is no subject)
    assert [f.key for f in normalise.dates("내년 4월 24일")] == [(None, 4, 24)]
