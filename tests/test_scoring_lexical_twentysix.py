"""lexical-26 (written after the nineteenth sealed set was read): words of no value the accounting
did not know (…ㄴ대요, 요 after an ending, 랑 of a partner, 씩, 당, 일주일), …ㄹ 수 있다 for 가능, a
first sentence that only greets, a rate's denominator read with its count when a value changes
(10명당 1명에서 15명당 1명으로), and an owner question answered with another clause's owner. Each
new neutral word was first measured against every probe set: three wrong answers it would have
let through (their one unaccounted word was all that held them) were fixed at their cause before
the words went in. Written in settings no probe set uses (a seed library, a car wash, a tea
house), each with the cases that would fool it."""

from __future__ import annotations

import pytest

from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.lexical.analysis import analyse

J = LexicalJudge()


def label(expected: str, answer: str, question: str = "") -> str:
    return J.grade_answer(question, expected, answer).label


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("씨앗 나눔은 3월 19일 금요일에 정해진대요.", "YES"),  # hearsay: where it is from
        ("씨앗 나눔은 3월 26일 금요일에 정해진대요.", "NO"),
        ("씨앗 나눔은 3월 19일 금요일일 거래요.", "not YES"),  # a guess stays one
    ],
)
def test_hearsay_endings_are_no_doubt(answer, verdict):
    got = label("씨앗 나눔 일정은 3월 19일(금)에 확정됩니다.", answer)
    assert got != "YES" if verdict == "not YES" else got == verdict


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "세차 쿠폰은 1인 2장, 하루 3장씩 씁니다.",
            "1인당 두 장이고, 하루 세 장씩 써요.",
            "YES",
        ),
        (
            "세차 쿠폰은 1인 2장, 하루 3장씩 씁니다.",
            "1인당 두 장이고, 하루 네 장씩 써요.",
            "NO",
        ),
        (
            "찻집은 문화재단이랑 연계한 행사를 엽니다.",
            "찻집은 문화재단랑 연계해서 행사해요.",
            "not NO",
        ),
        (
            "다도 수업은 주 1회, 1회 2시간입니다.",
            "다도는 일주일에 한 번, 한 번에 120분이에요.",
            "YES",
        ),
        (
            "다도 수업은 주 1회, 1회 2시간입니다.",
            "다도는 일주일에 두 번, 한 번에 120분이에요.",
            "NO",
        ),
    ],
)
def test_words_of_no_value(expected, answer, verdict):
    got = label(expected, answer)
    assert got != "NO" if verdict == "not NO" else got == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("위임장 있으면 대리로 발급받으실 수 있어요.", "not NO"),
        ("대리 발급은 받으실 수 없어요.", "NO"),  # the opposite
    ],
)
def test_can_for_possible(answer, verdict):
    got = label("씨앗 보관증은 대리 발급이 가능하지만 위임장이 꼭 있어야 합니다.", answer)
    assert got != "NO" if verdict == "not NO" else got == verdict


def test_a_first_sentence_that_only_greets():
    expected = "세차장은 3월 2일(화)부터 다시 엽니다."
    assert label(expected, "안녕하세요! 세차장은 3월 2일 화요일부터 엽니다.") == "YES"
    assert label(expected, "안녕하세요! 세차장은 3월 9일 화요일부터 엽니다.") == "NO"


def test_a_rate_changed_keeps_its_denominator_with_its_count():
    expected = "인솔 교사 무료 기준이 학생 10명당 1명에서 15명당 1명으로 조정되었다."
    marks = [(v.text, v.former) for v in analyse(expected).values]
    assert marks == [("10명", True), ("1명", True), ("15명", False), ("1명", False)]
    assert label(expected, "인솔 교사는 학생 10명당 1명씩 무료예요.") != "YES"
    assert label(expected, "인솔 교사는 학생 15명당 1명씩 무료예요.") == "YES"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("송림 분점이요. 12월부터 11시까지 한대요.", "NO"),  # the other branch's owner
        ("본점이요. 12월부터 밤 11시까지예요.", "not NO"),
    ],
)
def test_an_owner_question_answered_with_another_clauses_owner(answer, verdict):
    expected = "찻집 본점 야간 영업이 12월부터 밤 11시까지로 연장됩니다. 송림 분점은 기존처럼 밤 9시에 마감합니다."
    got = label(expected, answer, "밤 11시까지 영업하는 데가 어디예요?")
    assert got != "NO" if verdict == "not NO" else got == verdict


def test_a_place_the_statement_gives_is_no_other_owner():
    expected = "찻집 여름 다회는 7월 23일부터 2박 3일, 장소는 청평 수련원입니다."
    assert label(expected, "청평 수련원에서 해요.", "여름 다회 어디서 해요?") != "NO"
