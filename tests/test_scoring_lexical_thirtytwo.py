"""lexical-32 (written after the twenty-fourth sealed set was read): a question that asks two
things asks every clause, 내일모레 is 모레, a value one clause retracts while another states the
right one is no current value, and a few words said another way (애 for 어린이, 문 닫다 for 휴무,
나오다 for 발생, 설날 for 설). Written in settings no probe set uses (a test lab, a science
centre, a bathhouse), each with the cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest
from judge_support import check

from seorap.engine import normalise

PORTS = "시료는 1번 포트로 넣고, 시험이 끝나면 2번 포트로 꺼낸다."
FEES = "관람료는 어른 9천 원, 어린이 6천 원이다."
FARE = "견학비를 1인 8천 원으로 안내했으나 정정합니다. 1인 1만 원이 맞습니다."


@pytest.mark.parametrize(
    ("question", "answer", "verdict"),
    [
        ("몇 번 포트로 넣고, 끝나면 어디로 꺼내요?", "1번 포트로 넣으시면 돼요.", "PARTIAL"),
        ("몇 번 포트로 넣고, 끝나면 어디로 꺼내요?", "1번으로 넣고 2번으로 꺼내요.", "YES"),
        ("몇 번 포트로 넣어요?", "1번 포트로 넣으시면 돼요.", "not NO"),
    ],
)
def test_a_question_asking_two_things_asks_every_clause(question, answer, verdict):
    check(PORTS, answer, verdict, question)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("어른은 구천 원이에요.", "PARTIAL"), ("어른 구천 원, 애들은 육천 원이에요.", "YES")],
)
def test_two_owners_asked_by_a_word_of_their_class(answer, verdict):
    check(FEES, answer, verdict, "어른이랑 애 관람료 얼마예요?")


def test_naeilmore_is_the_day_after_tomorrow():
    found = normalise.relative_dates("내일모레 오후 세 시예요", dt.date(2027, 6, 10))
    assert [f.key for f in found] == [(2027, 6, 12)]


@pytest.mark.parametrize(
    ("answer", "written", "verdict"),
    [
        ("내일모레 오후 세 시예요.", dt.date(2027, 6, 11), "NO"),
        ("내일모레 오후 세 시예요.", dt.date(2027, 6, 10), "YES"),
        ("내일 오후 세 시예요.", dt.date(2027, 6, 11), "YES"),
    ],
)
def test_a_relative_day_read_on_the_day_it_was_written(answer, written, verdict):
    check(
        "모레 오후 3시에 정기 점검이 있습니다.",
        answer,
        verdict,
        "점검 언제예요?",
        expected_date=dt.date(2027, 6, 10),
        answer_date=written,
    )


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("견학비는 1인 1만 원으로 정정됐어요.", "YES"),
        ("견학비는 1인 1만 원이에요.", "YES"),
        ("견학비는 1인 8천 원으로 정정됐어요.", "NO"),
        ("견학비는 1인 8천 원이에요.", "NO"),
    ],
)
def test_a_value_retracted_in_one_clause_is_no_current_value(answer, verdict):
    check(FARE, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("목욕탕은 설 당일 휴무입니다.", "설날 당일엔 문 닫아요.", "YES"),
        ("목욕탕은 설 당일 휴무입니다.", "설날 당일에도 문 열어요.", "NO"),
        (
            "이번 호우로 이재민 1,240명이 발생했다.",
            "이번 호우로 이재민이 천이백사십 명 나왔습니다.",
            "YES",
        ),
        (
            "이번 호우로 이재민 1,240명이 발생했다.",
            "이번 호우로 이재민이 천이백 명 나왔습니다.",
            "NO",
        ),
        ("김은영 단원이 총무직을 사임했다.", "김은영 단원이 총무 자리에서 물러났어요.", "not NO"),
    ],
)
def test_words_said_another_way(expected, answer, verdict):
    check(expected, answer, verdict)
