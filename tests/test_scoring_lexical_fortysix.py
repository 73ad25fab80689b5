"""lexical-46 (written after the thirty-eighth sealed set was read): pairs after a colon (욕실: 태현;
이준호 23번) are clauses of their own, not a list's members; a year of two digits (27년, '27년);
돈, gold's weight; sizes written as dimensions (40×60cm, 90각); two sides of one time threshold
(72시간 전까지 / 안쪽); alternatives the statement offers itself (또는) allow the answer's (거나);
native numbers of two parts said alone (서른여섯); a question naming a thing by its number alone
(512 for 512GB). Written in settings no probe set uses (a candle workshop, a chocolate workshop, a
smart farm, a calligraphy class), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical import statement_clauses
from seorap.engine.scoring.lexical.analysis import analyse

SEATS = "양초 공방 좌석: 서하 4번(창가), 도윤 9번(출입문 옆)."
DUTIES = "[공지] 공방 당번 - 설거지: 민지, 분리수거: 태현, 청소: 서준."
CLASS = "캘리그라피 수업 취소: 48시간 전까지 전액 환불, 그 이후 환불 불가."

CASES = [
    # Pairs after a colon: the question picks one; another's value is another clause's (NO).
    ("도윤이 몇 번 자리예요?", SEATS, "도윤이는 출입문 옆 9번이에요.", "YES"),
    ("도윤이 몇 번 자리예요?", SEATS, "도윤이는 창가 4번이에요.", "NO"),
    ("분리수거는 누가 해요?", DUTIES, "분리수거는 민지가 해요.", "NO"),
    ("분리수거는 누가 해요?", DUTIES, "분리수거는 태현이가 해요.", "not NO"),
    # A year of two digits is this century's.
    ("", "스마트팜 임대 만료일 2027-11-30.", "임대는 27년 11월 30일에 끝나요.", "YES"),
    ("", "스마트팜 임대 만료일 2027-11-30.", "임대는 '27년 11월 30일에 끝나요.", "YES"),
    ("", "스마트팜 임대 만료일 2027-11-30.", "임대는 26년 11월 30일에 끝나요.", "NO"),
    # 돈 weighs 3.75 g; 한돈 (a brand of pork) is no weight.
    ("", "금 목걸이 무게 3돈.", "금 목걸이는 11.25그램 나가요.", "not NO"),
    ("", "금 목걸이 무게 3돈.", "금 목걸이는 3.75그램 나가요.", "NO"),
    ("", "순금 한 돈(3.75g) 매입가 38만 원.", "순금 한 돈짜리 38만 원에 사요.", "YES"),
    ("", "한돈 목살 1근 1만 8천 원.", "한돈 목살 한 근에 1만 8천 원이에요.", "YES"),
    # Dimensions: one value when both write one; number by number against one length.
    ("", "초콜릿 선물 상자 20×15cm.", "상자는 20×15센티예요.", "YES"),
    ("", "초콜릿 선물 상자 20×15cm.", "상자는 200×150밀리예요.", "YES"),
    ("", "초콜릿 선물 상자 20×15cm.", "상자는 15×10센티예요.", "NO"),
    ("높이가 얼마예요?", "양초 틀 크기 80 × 80 × 120 mm (가로×세로×높이).", "12센티요.", "not NO"),
    ("", "공방 선반용 각재 30×30 20본 주문.", "30각 각재 스무 본 시켰어요.", "not NO"),
    ("", "공방 선반용 각재 30×30 20본 주문.", "40각 각재 스무 본 시켰어요.", "NO"),
    # Two sides of one threshold: asked inside it, the early side restated is another clause.
    (
        "수업 48시간 안쪽으로 취소하면 환불돼요?",
        CLASS,
        "48시간 전까지 취소하시면 전액 환불돼요.",
        "NO",
    ),
    ("수업 48시간 안쪽으로 취소하면 환불돼요?", CLASS, "48시간 안쪽이면 환불 안 돼요.", "not YES"),
    (
        "수업 48시간 전에 취소하면 환불돼요?",
        CLASS,
        "48시간 전까지 취소하시면 전액 환불돼요.",
        "not NO",
    ),
    # An alternative the statement offers itself is no hedge in the answer; one it does not is.
    (
        "",
        "스마트팜 양액 미보충 시 생육 지연 또는 고사 가능.",
        "양액 미보충 시 생육이 지연되거나 고사할 수 있어요.",
        "not NO",
    ),
    (
        "",
        "스마트팜 양액 미보충 시 생육 지연 가능.",
        "양액 미보충 시 생육이 지연되거나 고사할 수 있어요.",
        "NO",
    ),
    ("", "스마트팜 양액 보충 주기 3일.", "양액은 3일이나 4일마다 채워요.", "NO"),
    # Native numbers of two parts said alone; before a counter they keep it.
    (
        "",
        "양초 공방 선반 번호: 큰 초 36, 작은 초 24.",
        "큰 초는 서른여섯, 작은 초는 스물넷이에요.",
        "YES",
    ),
    (
        "",
        "양초 공방 선반 번호: 큰 초 36, 작은 초 24.",
        "큰 초는 서른넷, 작은 초는 스물넷이에요.",
        "NO",
    ),
    ("", "양초 재고 37개.", "양초 서른일곱 개 있어요.", "YES"),
    ("", "양초 재고 37개.", "양초 서른여섯 개 있어요.", "NO"),
]
"""(question, expected, answer, verdict): each rule with the cases that would fool it."""


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}" for i in range(len(CASES))])
def test_each_rule_and_what_would_fool_it(case):
    question, expected, answer, verdict = case
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("'27년 2월 7일", [("date", (2027, 2, 7))]),
        ("127년 3월 2일", [("년", ("127",)), ("date", (None, 3, 2))]),
        ("서른여섯, 서른넷으로", [("수", ("36",)), ("수", ("34",))]),
        ("서른여섯 명", [("명", ("36",))]),
        ("스무 세트", [("세트", ("20",))]),
        ("금 5돈", [("돈", ("5",))]),
        ("한돈 목살", []),
        ("40×60cm", [("dims", ("cm", "40", "60"))]),
        ("90각 각재", [("dims", ("", "90", "90"))]),
    ],
)
def test_values_read(text, values):
    assert [(v.type, v.key) for v in analyse(text).values] == values


def test_pairs_after_a_colon_are_clauses_of_their_own():
    clauses = [[v.text for v in c[1]] for c in statement_clauses.clauses(analyse(DUTIES))]
    assert clauses == [["민지"], ["태현"], []]
    clauses = [[v.text for v in c[1]] for c in statement_clauses.clauses(analyse(SEATS))]
    assert clauses == [["4번"], ["도윤", "9번"]]
    # a list's members after a colon stay one clause
    listed = statement_clauses.clauses(analyse("준비물: 신분증, 도장, 통장 사본."))
    assert len(listed) == 1
