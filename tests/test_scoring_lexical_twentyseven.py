"""lexical-27 (written after the twentieth sealed set was read): a counter the question asks by
another name than its values' (몇 번: 회), a list inside a bracket or after a colon is one clause
(its members all asked), and two owners' poles of one scale swapped. Written in settings no probe
set uses (a laundromat, a ferry ticket desk, a herbal tea shop), each with the cases that would
fool it."""

from __future__ import annotations

import pytest

from seorap.engine.scoring.judges import LexicalJudge

J = LexicalJudge()
SHOPS = "찻집은 리모델링으로 5월 한 달간 문을 닫고, 매점은 정상 영업합니다."
TEAS = "한방차는 식후에, 생강차는 식전에 드시도록 안내해 주세요."


def label(expected: str, answer: str, question: str = "") -> str:
    return J.grade_answer(question, expected, answer).label


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("1번, 4번, 6번이요.", "not NO"),  # 3대 outside the bracket is asked (fail closed)
        ("1번이랑 6번이요.", "not YES"),  # 4번 left out of the asked list
        ("1번이랑 5번이요.", "NO"),
    ],
)
def test_the_asked_counter_and_a_bracketed_list(answer, verdict):
    expected = "세탁기 3대(1번, 4번, 6번)가 고장 나서 수리 요청했습니다."
    got = label(expected, answer, "고장 난 세탁기 몇 번이에요?")
    if verdict.startswith("not "):
        assert got != verdict[4:]
    else:
        assert got == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("1번 건조기, 2번 세탁기, 동전 교환기요.", "YES"),
        ("1번 건조기랑 2번 세탁기요.", "not YES"),  # a member left out
    ],
)
def test_members_after_a_colon_are_one_clause(answer, verdict):
    expected = "4월 점검 대상: 1번 건조기, 2번 세탁기, 동전 교환기."
    got = label(expected, answer, "4월 점검 대상이 뭐예요?")
    assert got != "YES" if verdict == "not YES" else got == verdict


def test_a_slot_after_a_colon_stays_its_own_clause():
    """Two times after a colon are two slots (오전 반, 오후 반): asked one, the other is not."""
    expected = "요가 — 오전 반 10:00~12:00 / 오후 반 14:00~16:00."
    assert label(expected, "오후 반은 두 시에 시작해요.", "오후 반은 몇 시에 시작해요?") == "YES"


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (SHOPS, "매점이 5월 한 달 문을 닫고, 찻집은 그대로 영업한대요.", "NO"),  # swapped
        (SHOPS, "찻집은 5월 한 달 문을 닫고, 매점은 그대로 영업한대요.", "not NO"),
        (TEAS, "한방차는 식전에, 생강차는 식후에 드세요.", "NO"),
        (TEAS, "한방차는 식후에, 생강차는 식전에 드세요.", "not NO"),
    ],
)
def test_two_owners_poles_swapped(expected, answer, verdict):
    got = label(expected, answer)
    assert got != "NO" if verdict == "not NO" else got == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("10월 14일 오전 10시에 해요.", "not YES"),  # the place left out (the twenty-first set)
        ("10월 14일 오전 10시, 세탁실 2층 휴게실이요.", "YES"),
    ],
)
def test_a_kind_the_question_names_by_a_noun_is_asked(answer, verdict):
    """lexical-28: 날짜 is a question word of a kind, 장소 names a kind no question word types;
    asked both, the place's clause is asked too."""
    expected = "세탁기 사용 교육은 10월 14일 오전 10시, 세탁실 2층 휴게실에서 합니다."
    got = label(expected, answer, "교육 날짜랑 장소 알려 주세요.")
    assert got != "YES" if verdict == "not YES" else got == verdict
