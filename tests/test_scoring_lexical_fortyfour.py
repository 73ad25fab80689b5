"""lexical-44 (written after the thirty-sixth sealed set was read): a compound verb the analyser
splits (들어왔어요: 들 + 어 + 오) says its pole; a label in brackets that names both poles ([입출고])
labels what follows; a question offering two answers picks the clause it names; 대신 after a
particle (on someone's behalf) sets nothing aside; a weekday list with one 요일 (화·목요일) lists no
new member; 와트 and 킬로와트; 거나 in the condition of a -면 is no hedge; the end of a month (이번
달 말) is its last day. Written in settings no probe set uses (a cheese workshop, a fertiliser
shop, a milk agency, a guest house's rooms), each with the cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest
from judge_support import check

DAYS_AUGUST = {"expected_date": dt.date(2027, 8, 10), "answer_date": dt.date(2027, 8, 12)}
DAYS_SEPTEMBER = {"expected_date": dt.date(2027, 9, 5), "answer_date": dt.date(2027, 9, 6)}

CASES = [
    (
        "",
        "치즈 공방 모차렐라 3박스 입고. 체다 1박스는 유통기한 임박으로 반품 출고.",
        "모차렐라 세 박스랑 체다 한 박스 들어왔어요.",
        "NO",
    ),
    (
        "",
        "치즈 공방 모차렐라 3박스 입고. 체다 1박스는 유통기한 임박으로 반품 출고.",
        "모차렐라 세 박스 들어왔고 체다 한 박스는 반품으로 나갔어요.",
        "not NO",
    ),
    (
        "비료는 들어온 거예요, 나간 거예요?",
        "[입출고] 비료 20포 입고, 농약 15병 출고.",
        "비료 20포 나갔어요.",
        "NO",
    ),
    (
        "비료는 들어온 거예요, 나간 거예요?",
        "[입출고] 비료 20포 입고, 농약 15병 출고.",
        "비료 20포 들어왔어요.",
        "not NO",
    ),
    (
        "301호는 들어오는 거예요, 나가는 거예요?",
        "105호 입실 4월 2일, 301호 퇴실 4월 6일.",
        "나가요. 4월 6일에 퇴실해요.",
        "YES",
    ),
    (
        "301호는 들어오는 거예요, 나가는 거예요?",
        "105호 입실 4월 2일, 301호 퇴실 4월 6일.",
        "들어와요. 4월 6일에 입실해요.",
        "NO",
    ),
    (
        "",
        "우유 대리점 메모: 총무가 302호 우유 대신 받아 둠.",
        "302호 우유는 총무님이 대신 받아 두셨어요.",
        "YES",
    ),
    (
        "",
        "우유 대리점 메모: 302호 우유는 총무가 받아 둠.",
        "302호 우유는 총무 대신 경비원이 받아 두셨어요.",
        "NO",
    ),
    ("", "치즈 공방 체험은 화·목요일만 운영.", "체험은 화요일하고 목요일에만 운영해요.", "YES"),
    ("", "치즈 공방 체험은 화·목요일만 운영.", "체험은 화요일하고 금요일에만 운영해요.", "NO"),
    ("", "우유 대리점 냉장고 소비전력 1.5kW.", "냉장고 소비전력은 1,500와트예요.", "YES"),
    ("", "우유 대리점 냉장고 소비전력 1.5kW.", "냉장고 소비전력은 2,000와트예요.", "NO"),
    (
        "",
        "배달 중단 기준: 적설 5cm 이상 또는 도로 결빙 예보.",
        "눈이 5센티 이상 쌓이거나 도로 결빙 예보가 있으면 배달 중단해요.",
        "not NO",
    ),
    (
        "",
        "배달 중단 기준: 적설 5cm 이상 또는 도로 결빙 예보.",
        "눈이 5센티거나 7센티 이상 쌓이면 배달 중단해요.",
        "not YES",
    ),
    ("", "비료 대금 정산: 이번 달 말.", "비료 대금은 이번 달 31일에 정산해요.", "YES", DAYS_AUGUST),
    (
        "",
        "비료 대금 정산: 이번 달 말.",
        "비료 대금은 이번 달 28일에 정산해요.",
        "not YES",
        DAYS_AUGUST,
    ),
    ("", "비료 대금 정산: 이번 달 말.", "비료 대금은 9월 30일에 정산해요.", "YES", DAYS_SEPTEMBER),
    (
        "",
        "비료 대금 정산: 이번 달 말.",
        "비료 대금은 10월 31일에 정산해요.",
        "not YES",
        DAYS_SEPTEMBER,
    ),
]
"""(question, expected, answer, verdict[, dates]): each rule with the cases that would fool it."""


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}" for i in range(len(CASES))])
def test_each_rule_and_what_would_fool_it(case):
    question, expected, answer, verdict, *dates = case
    check(expected, answer, verdict, question, **(dates[0] if dates else {}))
