"""lexical-9: a day of the month said alone is a date (engine/scoring/lexical/days.py), a question
word says which expected values an answer must state (engine/scoring/lexical/asked.py), and a few
more numbers in words (네 분, 넉 달, 천오백 상자). Written in settings no probe set uses (a print
shop, a flower market, a laundry plant, a language academy), each rule with the cases that would
fool it: a wrong day said alone, a count of days that looks like a day, a wrong value the question
did not ask for, a question whose kind cannot be told."""

from __future__ import annotations

import pytest

from seorap.engine.scoring import lexical
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.asked import kinds
from seorap.engine.scoring.lexical.days import as_dates
from seorap.engine.scoring.lexical.numerals import as_digits

J = LexicalJudge()


def test_the_rules_are_named_lexical_9():
    assert lexical.RULES_VERSION == "lexical-54" == J.rules


# ---- a day of the month said alone ------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("18일 오전에 명함 인쇄 들어가요.", "YES"),
        ("18일 오전에 명함 인쇄 들어가요", "YES"),
        ("19일 오전에 명함 인쇄 들어가요.", "NO"),  # another day: a wrong date, not a missing one
    ],
)
def test_a_day_said_alone_is_the_expected_months_day(answer, verdict):
    expected = "명함 인쇄는 3월 18일 오전에 들어간다."
    assert J.grade_answer("", expected, answer).label == verdict


@pytest.mark.parametrize(
    "answer",
    [
        "명함 인쇄는 18일간 해요.",  # a count of days
        "명함 인쇄는 18일 동안 해요.",
        "명함 인쇄는 총 18일 걸려요.",
        "명함 인쇄는 18일 뒤에 해요.",  # relative, with no reference date: not the 18th
        "명함 인쇄는 매달 18일에 해요.",  # a day of every month: no one date
    ],
)
def test_a_count_of_days_is_never_read_as_the_day(answer):
    expected = "명함 인쇄는 3월 18일에 한다."
    assert J.grade_answer("", expected, answer).label != "YES"


def test_the_month_of_a_bare_day_is_the_nearest_date_said_before_it():
    exp = analyse("전단 납품은 4월 5일이다.")
    moved = as_dates(analyse("전단 납품은 3월 3일에서 5일로 미뤄졌어요."), exp)
    assert [v.key for v in moved.values if v.type == "date"] == [(None, 3, 3), (None, 3, 5)]
    assert (
        J.grade_answer(
            "", "전단 납품은 4월 5일이다.", "전단 납품은 3월 3일에서 5일로 미뤄졌어요."
        ).label
        == "NO"
    )


def test_a_bare_day_stays_a_count_when_the_month_cannot_be_told():
    exp = analyse("화훼 경매는 3월 30일과 4월 2일에 열린다.")
    cand = as_dates(analyse("화훼 경매는 15일에 열려요."), exp)
    assert [v.type for v in cand.values] == ["일"]
    assert (
        as_dates(analyse("경매 15일"), analyse("경매는 다음 주에 열린다.")).values[0].type == "일"
    )


# ---- what the question asks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("세탁물 몇 시에 나가요?", {"time"}),
        ("세탁물 언제 나가요?", {"date", "weekday", "month", "year", "vague-date", "time"}),
        ("세탁 기사 몇 명 와요?", {"명", "인분", "인"}),  # people by any counter (lexical-40)
        ("세탁물 몇 상자 나가요?", {"상자"}),
        ("어느 공장에서 몇 시에 나가요?", set()),  # an open question word: everything is asked
        ("세탁물 오늘 나가요?", set()),  # a yes/no question: everything is asked
    ],
)
def test_a_question_word_names_the_kinds_it_asks(question, asked):
    assert kinds(analyse(question)) == asked


def test_values_the_question_did_not_ask_for_need_not_be_said():
    expected = "회화반 개강 설명회는 3월 9일 오후 7시 30분에 본관 3층에서 한다."
    q = "회화반 설명회 몇 시에 해요?"
    assert J.grade_answer(q, expected, "저녁 7시 반이요.").label == "YES"
    assert J.grade_answer(q, expected, "저녁 8시 반이요.").label == "NO"
    # not asked, but said wrong: still a wrong value
    assert J.grade_answer(q, expected, "3월 10일 저녁 7시 반이요.").label == "NO"
    # the same answer to a yes/no question, or to an open one, leaves the date unsaid
    assert J.grade_answer("회화반 설명회 하죠?", expected, "저녁 7시 반이요.").label != "YES"
    assert (
        J.grade_answer("회화반 설명회 어디서 몇 시에 해요?", expected, "저녁 7시 반이요.").label
        != "YES"
    )


def test_a_hedged_answer_to_the_asked_value_is_partial_not_no():
    expected = "회화반 개강 설명회는 3월 9일 오후 7시 30분에 본관에서 한다."
    got = J.grade_answer("회화반 설명회 몇 시에 해요?", expected, "아마 저녁 7시 반일 거예요.")
    assert got.label == "PARTIAL"


# ---- numbers in words -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("강사는 네 분이에요", "강사는 4명이에요"),
        ("수강 기간은 넉 달이다", "수강 기간은 4개월이다"),
        ("전단 천오백 장", "전단 1500 장"),  # no counter listed: the digits alone
        ("화분 천오백 상자가 들어왔다", "화분 1500 상자가 들어왔다"),
        ("쉬는 시간은 십 분이다", "쉬는 시간은 10분이다"),  # minutes in Sino-Korean stay minutes
    ],
)
def test_more_numbers_in_words(said, digits):
    assert as_digits(said).text == digits


@pytest.mark.parametrize(
    "text",
    [
        "이천 공장에서 찍는다",  # a town
        "사천 지점 납품",  # a town
        "천만 다행이다",  # a phrase
        "세 분기 연속",  # 분기, not 분
    ],
)
def test_two_syllables_before_a_word_stay_words(text):
    assert as_digits(text).text == text


def test_people_counted_with_the_honorific_counter():
    expected = "3월 강사 면접 대상자는 세 명이다."
    assert J.grade_answer("", expected, "3월 강사 면접 대상자는 세 분이에요.").label == "YES"
    assert J.grade_answer("", expected, "3월 강사 면접 대상자는 네 분이에요.").label == "NO"


# ---- after the sixth sealed set was graded: its two wrong answers credited YES ---------------


def test_a_particle_is_no_verb_of_a_meaning_class():
    # the subject particle 가 of the expected statement matched 가다 (attend: 들어가다, 가다), so a
    # start was credited as a finish
    expected = "인쇄기 교체 작업이 3월 4일 끝났다."
    assert J.grade_answer("", expected, "3월 4일에 교체 작업 들어갔어요.").label != "YES"
    assert J.grade_answer("", expected, "3월 4일에 교체 작업 마쳤어요.").label == "YES"


def test_a_claim_about_another_slot_is_unverified_without_a_question():
    expected = "화훼 직판장은 3월 19일에 연다."
    answer = "19일에 열고, 주차비는 3천 원이에요."
    assert J.grade_answer("", expected, answer).label == "PARTIAL"
    # asked about the opening, what else the answer knows of it is accounted for, as before
    assert J.grade_answer("직판장 언제 열어요?", expected, answer).label == "YES"
