"""lexical-11: a weekday said beside a date is part of it (checked by the calendar when a year is
known, else against the weekday the expected statement gives; a clash is a wrong value); relative
dates that name the same day are one value, not a swapped word; a number said in words before
요 or a list particle (세 시요, 두 개랑) is read; values the question names, and a bracket after a
word the question names, are not missing from an answer to a question word; a name without its
leading part (농림축산검역본부 → 검역본부) is the name; a few predicate classes (hire, depart,
carry) and neutral words (이렇게 after a list, 참고하세요). Written in settings no probe set uses
(an aquarium, a bowling alley, a tailor's shop, an ice rink, a puppet theatre), each with the
cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest

from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.lexical import abbrev

J = LexicalJudge()
D = dt.date


def grade(expected, answer, question="", expected_date=None, answer_date=None):
    return J.grade_answer(
        question, expected, answer, expected_date=expected_date, answer_date=answer_date
    )


# ---- a weekday beside a date -------------------------------------------------------------------

CLEANING = "수조 대청소는 2027년 3월 2일(화)에 합니다."  # 2027-03-02 is a Tuesday


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("3/2 화요일에 해요.", "YES"),
        ("3월 2일(화)에 해요.", "YES"),
        ("3월 2일에 해요.", "YES"),  # the weekday need not be said again
        ("3/2 수요일에 해요.", "NO"),  # a day that does not exist: a wrong value
        ("3월 3일 화요일에 해요.", "NO"),  # the right weekday, the wrong date
    ],
)
def test_a_weekday_beside_a_date_is_part_of_it(answer, verdict):
    assert grade(CLEANING, answer).label == verdict


def test_without_a_year_the_expected_weekday_decides():
    expected = "볼링장 리그 결승은 12월 4일(금)에 열립니다."
    assert grade(expected, "12월 4일 금요일이요.").label == "YES"
    v = grade(expected, "12월 4일 토요일이요.")
    assert v.label == "NO" and "12월 4일 토요일" in v.rationale


def test_a_weekday_nothing_can_check_stays_unverified():
    """No year, no weekday in the expected statement, no day it was written: the judge cannot know
    whether 12월 4일 is a Friday, so it does not say yes."""
    expected = "볼링장 리그 결승은 12월 4일에 열립니다."
    v = grade(expected, "12월 4일 금요일이요.")
    assert v.label == "PARTIAL" and "금요일" in v.rationale
    on = D(2026, 12, 1)  # written on 2026-12-01: the nearest 12월 4일 is a Friday
    assert grade(expected, "12월 4일 금요일이요.", expected_date=on).label == "YES"
    assert grade(expected, "12월 4일 토요일이요.", expected_date=on).label == "NO"


def test_a_relative_date_and_the_weekday_of_its_day():
    expected = "내일 오전 10시에 정장 가봉 있습니다."
    question = "가봉 언제예요?"
    on = D(2026, 12, 3)  # 내일 = 2026-12-04, a Friday
    assert grade(expected, "12월 4일 금요일 오전 10시요.", question, on).label == "YES"
    assert grade(expected, "12월 4일 목요일 오전 10시요.", question, on).label == "NO"


# ---- relative dates naming one day ---------------------------------------------------------------


def test_two_relative_dates_for_one_day_are_one_value_not_a_swap():
    expected = "이번 주 금요일 오후 3시에 인형극 리허설 있습니다."
    question = "리허설 언제예요?"
    monday, wednesday = D(2027, 3, 8), D(2027, 3, 10)
    assert grade(expected, "모레 오후 세 시요.", question, monday, wednesday).label == "YES"
    assert grade(expected, "내일 오후 세 시요.", question, monday, wednesday).label == "NO"
    # 모레 with no day to read it from: not a swapped word (NO), but not verified either
    assert grade(expected, "모레 오후 세 시요.", question, monday).label == "PARTIAL"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("오후 세 시요.", "YES"), ("오후 네 시요.", "NO"), ("세 시요.", "YES")],
)
def test_a_number_in_words_before_yo_is_read(answer, verdict):
    expected = "빙상장 정빙은 오후 3시에 합니다."
    assert grade(expected, answer, "정빙 몇 시에 해요?").label == verdict


# ---- what the question names -----------------------------------------------------------------------


def test_a_bracket_after_the_named_word_is_not_asked():
    expected = "해온이(담당 사육사 박서윤 님) 건강검진은 1월 19일 오전 9시 30분입니다."
    question = "해온이 건강검진 언제예요?"
    assert grade(expected, "1월 19일 아침 아홉 시 반이요.", question).label == "YES"
    assert grade(expected, "1월 20일 아침 아홉 시 반이요.", question).label == "NO"
    # no question word: a yes/no question's answer must say its values
    assert grade(expected, "네 맞아요.", "해온이 건강검진 1월 19일이에요?").label != "YES"
    # the bracket after a word the question does not name is no setting
    other = "건강검진(담당 박서윤 님)은 1월 19일 오전 9시 30분입니다."
    assert grade(other, "1월 19일 아침 아홉 시 반이요.", "언제예요?").label != "YES"


# ---- a name without its leading part ----------------------------------------------------------------


def test_a_name_without_its_leading_part_is_the_name():
    assert abbrev.tail_of("검역본부", "농림축산검역본부")
    assert not abbrev.tail_of("본부", "농림축산검역본부")  # too short to name one body
    assert not abbrev.tail_of("검역본부장", "농림축산검역본부")
    v = grade("수입 해수어 검역 서류는 농림축산검역본부에 제출합니다.", "검역본부로 내시면 돼요.")
    assert v.label == "YES" and "검역본부 = 농림축산검역본부" in v.rationale


def test_another_body_with_the_same_tail_is_not_the_name():
    expected = "수족관 방역 점검은 인천항만공사가 맡습니다."
    assert grade(expected, "부산항만공사가 맡아요.").label == "NO"
    # only an answer that shortens the expected name: a longer one adds what it was not told
    assert grade("수족관 방역 점검은 항만공사가 맡습니다.", "인천항만공사가 맡아요.").label != "YES"


# ---- predicate classes and neutral words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("아쿠아리움 수조 관리 인력 6명을 채용했습니다.", "수조 관리 인력 6명 뽑았대요.", "YES"),
        ("볼링장 셔틀은 새벽 5시에 출발합니다.", "볼링장 셔틀은 새벽 다섯 시에 나가요.", "YES"),
        (
            "볼링장 셔틀은 새벽 5시에 출발합니다.",
            "볼링장 셔틀은 새벽 다섯 시에 들어와요.",
            "PARTIAL",
        ),
        ("가봉 때 신분증을 지참해 주세요.", "가봉 때 신분증 챙겨 오시면 돼요.", "YES"),
        ("빙상장 자유 스케이팅은 밤 9시까지입니다.", "밤 9시까지예요. 참고하세요.", "YES"),
        (
            "빙상장 자유 스케이팅은 밤 9시까지입니다.",
            "밤 9시까지예요. 참고로 주말은 10시.",
            "PARTIAL",
        ),
    ],
)
def test_predicate_classes_and_neutral_words(expected, answer, verdict):
    assert grade(expected, answer).label == verdict


def test_this_way_after_a_list_is_neutral_but_a_count_is_still_a_value():
    expected = "이번에 들어온 어종은 해파리, 문어, 가오리 세 종류입니다."
    question = "이번에 어떤 어종 들어왔어요?"
    assert grade(expected, "해파리, 문어, 가오리 이렇게 세 종류요.", question).label == "YES"
    assert grade(expected, "해파리랑 가오리 이렇게 두 종류요.", question).label != "YES"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("해파리, 문어, 가오리요.", "YES"),  # 이번 and 어종 are the question's: not said again
        ("해파리랑 문어요.", "PARTIAL"),  # one of the three left out
        ("상어, 문어, 가오리요.", "not YES"),  # another kind in the list (PARTIAL: one missing)
    ],
)
def test_the_questions_own_words_need_not_be_said_again(answer, verdict):
    expected = "이번에 들어온 어종은 해파리, 문어, 가오리 세 종류입니다."
    got = grade(expected, answer, "이번에 어떤 어종 들어왔어요?").label
    assert got != "YES" if verdict == "not YES" else got == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("성인 2만 원이에요.", "YES"),  # the topic both speakers know, dropped
        ("어린이는 2만 원이에요.", "NO"),  # another owner named
        ("주간 개장은 성인 2만 원이에요.", "NO"),  # the other side of the slot
        ("성인 2만 원일 거예요.", "PARTIAL"),  # a hedge still hedges
    ],
)
def test_without_a_question_the_topic_may_be_dropped(answer, verdict):
    assert grade("아쿠아리움 야간 개장 입장료는 성인 2만 원입니다.", answer).label == verdict


def test_a_dropped_topic_does_not_drop_its_values():
    v = grade("볼링장 2층 레인 이용료는 한 게임에 4,000원입니다.", "한 게임에 4천 원이에요.")
    assert v.label == "PARTIAL" and "2층" in v.rationale


# ---- lexical-12: values swapped between the owners of a list (after the eighth set's grading) -----


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("A레인은 밤 10시, B레인은 밤 9시예요.", "NO"),  # the two closing times changed places
        ("A레인 밤 9시, B레인 밤 10시요.", "YES"),
        ("B레인은 밤 10시, A레인은 밤 9시요.", "YES"),  # the pairs in another order
        ("A레인은 밤 9시예요.", "PARTIAL"),  # one pair left out
    ],
)
def test_values_swapped_between_the_owners_of_a_list_are_wrong(answer, verdict):
    expected = "볼링장 마감은 A레인은 밤 9시, B레인은 밤 10시입니다."
    assert grade(expected, answer, "레인별 마감 몇 시예요?").label == verdict


def test_an_owner_the_list_does_not_name_is_no_swap():
    """One pair in the expected statement: nothing to swap with; another owner is the subject
    rules' (a wrong subject), not this one's."""
    from seorap.engine.scoring.lexical import pairs
    from seorap.engine.scoring.lexical.analysis import analyse

    exp = analyse("가봉실 예약은 1번 방 오후 2시입니다.")
    assert pairs.swapped(exp, analyse("2번 방 오후 2시요.")) == []
    # words before values that are no owners of one list (nothing tells them apart but the word):
    # the bundled hiring plan's "채용은 2명이고 … 개발자 1명은" read so made a right answer NO
    exp = analyse("재단사 채용은 2명이고, 연기된 재단사 1명은 3월에 채용한다.")
    assert pairs.swapped(exp, analyse("이번 채용 1명은 3월로 미뤘고, 재단사 2명 뽑아요.")) == []
