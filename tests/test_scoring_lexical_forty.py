"""lexical-40 (written after the thirty-second sealed set was read): 인원 asks a count of people by
any of its counters (120인분); "기존 A → B" leaves A former (기존 marked the new value too); "A가
아니라 B" in an answer sets only A aside, not the topic before it, and the negation is A's; a
route's two ends are no change (출발지 A → 목적지 B, A에서 출발해서); seasons and roads by their
Sino-Korean and native names; 목적지 the arriving end; native numerals before 까진, 엔, 부턴.
Written in settings no probe set uses (a hanji paper workshop, a camper van rental), each with the
cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.analysis import analyse


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("다음 달 3일이에요.", "not YES"),  # the count asked beside the date is left out
        ("다음 달 3일이고 40인분이요.", "YES"),
        ("다음 달 3일이고 50인분이요.", "NO"),
    ],
)
def test_inwon_asks_a_count_of_people_by_any_counter(answer, verdict):
    expected = "한지 공방 단체 체험 다음 달 3일, 40인분 재료 확정."
    check(expected, answer, verdict, "체험 날짜랑 인원 확정됐어요?")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("열한 시요.", "NO"),  # the old return time
        ("열 시 반에 반납해요.", "YES"),
    ],
)
def test_a_value_after_gijon_before_an_arrow_is_former(answer, verdict):
    check("캠핑카 반납 시간 변경: 기존 11:00 반납 → 10:30 반납", answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("5월 1일부터는 열한 시가 아니라 열 시 반에 반납해요.", "YES"),
        ("5월 1일부터는 열 시 반이 아니라 열한 시에 반납해요.", "NO"),  # the two turned round
    ],
)
def test_a_garisa_anira_sets_only_the_value_aside(answer, verdict):
    expected = "캠핑카 반납 시간 변경: 기존 11:00 반납 → 10:30 반납, 5월 1일부터 적용."
    check(expected, answer, verdict)


def test_the_topic_before_anira_is_set_aside_only_without_a_value_after_it():
    said = analyse("5월 1일부터는 열한 시가 아니라 열 시 반에 반납해요.")
    assert [(a, w) for a, _, w in said.aside] == [(8, "아니")]  # from 열한 시, not 5월 1일
    plain = analyse("한지 200장은 기계 뜨기가 아니라 외발 뜨기로 한다.")
    assert [(a, w) for a, _, w in plain.aside] == [(0, "아니")]  # no value is what is set aside


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("부산에서 출발해요.", "not YES"),  # the destination said as the start
        ("강릉에서 떠나서 부산으로 가요.", "not NO"),
    ],
)
def test_a_routes_two_ends_are_no_change(answer, verdict):
    check("캠핑카 출발지 강릉 → 목적지 부산", answer, verdict)
    assert not any(v.former for v in analyse("강릉에서 출발해서 부산에 도착해요.").values)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("여름 특강은 7월 5일이에요.", "YES"),
        ("겨울 특강은 7월 5일이에요.", "NO"),
    ],
)
def test_seasons_by_their_two_names(answer, verdict):
    check("한지 공방 하계 특강 7월 5일", answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("열두 시부터 한 시까진 점심시간이에요.", "not NO"),
        ("열두 시부터 두 시까진 점심시간이에요.", "NO"),
    ],
)
def test_native_numerals_before_a_contracted_particle(answer, verdict):
    check("한지 공방 점심시간 12:00~13:00", answer, verdict)
    values = analyse("세 시부턴 쉬고 열 시엔 열어요.").values
    assert [v.key for v in values] == [(3, 0), (10, 0)]
