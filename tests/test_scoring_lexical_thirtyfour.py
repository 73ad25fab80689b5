"""lexical-34 (written after the twenty-sixth sealed set was read): an owner named by a value gets
a clause of its own (3학년 …, 5학년은 …) and the question that names one owner leaves the other's
clause unasked; a name the question says need not be said again; 확정은 아직 is not settled;
imperial, nautical and hectare units; 11.19 read as a date beside the expected one; 이달 and 담달;
되, 자루, 송이, 포기 after a native numeral; a period that misses the expected day; a percentage of
change against a share left. Written in settings no probe set uses (an observatory, a salt farm,
a kite festival), each with the cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest
from judge_support import check

FEES = "2학년 관측 체험비는 8천 원, 4학년은 1만 2천 원입니다."
ASKED_FEE = "4학년 관측 체험비 얼마예요?"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("4학년은 12,000원이에요.", "YES"),
        ("만 이천 원이에요.", "YES"),
        ("8천 원이에요.", "NO"),
        ("4학년은 8천 원이에요.", "NO"),
        ("2학년은 8천 원이고 4학년은 만 원이에요.", "NO"),
    ],
)
def test_the_owner_a_question_names_by_a_value_picks_its_clause(answer, verdict):
    check(FEES, answer, verdict, ASKED_FEE)


def test_a_question_asking_for_each_owner_asks_every_clause():
    check(FEES, "4학년은 12,000원이에요.", "PARTIAL", "학년별 관측 체험비 얼마예요?")
    check(FEES, "2학년은 8천 원, 4학년은 만 이천 원이에요.", "YES", "학년별 관측 체험비 얼마예요?")


def test_a_person_the_question_names_is_context_not_the_owner():
    check(
        "김도윤 연구원은 3월 8일부터 12일까지 휴가이고, 그동안 야간 관측은 박서진 연구원이 맡는다.",
        "박서진 연구원이 맡아요.",
        "not NO",
        "김도윤 연구원 휴가 때 야간 관측은 누가 해요?",
    )


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("0.6m예요.", "YES"), ("1.4m예요.", "NO"), ("60cm 아니면 1.4m요.", "NO")],
)
def test_a_name_the_question_says_need_not_be_said_again(answer, verdict):
    check(
        "염수 깊이는 성인 체험장 1.4m, 유아풀 60cm입니다.",
        answer,
        verdict,
        "유아풀 깊이가 얼마예요?",
    )


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "관측회 날짜 8월 12일로 확정.",
            "관측회 8월 12일로 하자는 말만 있고 확정은 아직이에요.",
            "NO",
        ),
        ("관측회 날짜 8월 12일로 확정.", "관측회 8월 12일로 확정됐어요.", "YES"),
    ],
)
def test_a_settled_word_said_to_be_not_yet(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.xfail(
    strict=True,
    reason="known limit: the rule of a slot's opposite words reads 결정 against 미정 without the "
    "아직 that denies it (a right answer graded NO, as before lexical-34)",
)
def test_not_yet_against_a_word_of_the_open_state():
    check("관측회 날짜는 아직 미정이다.", "관측회 날짜 결정은 아직이에요.", "not NO")


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("섬까지 뱃길은 19.5km다.", "섬까지 19.5해리예요.", "NO"),
        ("대회용 연줄 길이는 100피트입니다.", "연줄은 30.48m예요.", "YES"),
        ("대회용 연줄 길이는 100피트입니다.", "연줄은 100m예요.", "NO"),
        ("새 염전 면적은 2ha다.", "새 염전은 2만 ㎡예요.", "YES"),
        ("새 염전 면적은 2ha다.", "새 염전은 2천 ㎡예요.", "NO"),
    ],
)
def test_imperial_nautical_and_hectare_units(expected, answer, verdict):
    check(expected, answer, verdict)


KITES = "연날리기 축제는 10월 9일(토)부터 10월 11일(월)까지 열린다."


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (KITES, "축제 10.9~10.11이에요.", "YES"),
        (KITES, "축제 10.19~10.21이에요.", "NO"),
        ("별자리 강연은 4월 5일이다.", "별자리 강연 평점이 4.5예요.", "not YES"),
        ("별자리 강연은 4월 5일이다.", "별자리 강연은 4.5 정도 걸려요.", "not YES"),
    ],
)
def test_a_month_and_day_written_with_a_dot(expected, answer, verdict):
    check(expected, answer, verdict)


REPORT = "관측 보고서는 이번 달 말까지 천문대에 낸다."


@pytest.mark.parametrize(
    ("answer", "said_on", "verdict"),
    [
        ("관측 보고서 이달 말까지 내요.", dt.date(2027, 3, 12), "YES"),
        ("관측 보고서 이달 말까지 내요.", dt.date(2027, 4, 2), "not YES"),
        ("관측 보고서 담달 말까지 내요.", dt.date(2027, 2, 20), "YES"),
    ],
)
def test_this_month_and_next_said_short(answer, said_on, verdict):
    check(REPORT, answer, verdict, expected_date=dt.date(2027, 3, 10), answer_date=said_on)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("기념품 천일염 주문은 5되로 바뀌었어요.", "천일염 주문 다섯 되로 변경됐어요.", "YES"),
        ("기념품 천일염 주문은 5되로 바뀌었어요.", "천일염 주문 여섯 되로 변경됐어요.", "NO"),
        ("체험용 붓은 12자루 준비한다.", "붓 열두 자루 준비해요.", "YES"),
        ("체험용 붓은 12자루 준비한다.", "붓 열 자루 준비해요.", "NO"),
    ],
)
def test_more_counters_after_a_native_numeral(expected, answer, verdict):
    check(expected, answer, verdict)


CHECKS = "망원경 정비는 2027년 3월 2일에 시작했다."


@pytest.mark.parametrize(
    ("said_on", "verdict"),
    [(dt.date(2027, 4, 5), "NO"), (dt.date(2027, 3, 20), "not NO")],
)
def test_a_period_that_misses_the_day(said_on, verdict):
    check(CHECKS, "망원경 정비는 이달 초에 시작했어요.", verdict, answer_date=said_on)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "관람 대기 시간이 기존 대비 30% 단축되었다.",
            "대기 시간이 기존의 30% 수준으로 줄었어요.",
            "NO",
        ),
        ("관람 대기 시간이 기존 대비 30% 단축되었다.", "대기 시간이 30%로 줄었어요.", "NO"),
        ("관람 대기 시간이 기존 대비 30% 단축되었다.", "대기 시간이 30% 줄었어요.", "not NO"),
        ("전력 사용량이 기존의 70% 수준으로 줄었다.", "전력 사용량이 70% 줄었어요.", "NO"),
        ("전력 사용량이 기존의 70% 수준으로 줄었다.", "전력 사용량이 70%로 줄었어요.", "not NO"),
    ],
)
def test_a_change_is_not_the_share_left(expected, answer, verdict):
    check(expected, answer, verdict)
