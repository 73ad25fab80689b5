"""lexical-38 (written after the thirtieth sealed set was read): a title before 선생님 names the
person (원장 선생님 is 원장님); a value's pole read from the verb after it when a clause holds
several; an upper limit said as what is not allowed past it; 미포함 answered with 없이; meaning
classes for one's own, painting, what comes after and free of charge; 7월 한 달간 one month; a
weekday in brackets after a dotted date; a place a day-or-time question does not ask; a leading
tag and an address to the readers carry no content. Written in settings no probe set uses (a
bowling alley, an aikido dojo), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check


def test_a_title_before_seonsaengnim_names_the_person():
    expected = "관장 선생님께서 회원들에게 직접 볼링공을 나눠 주셨습니다."
    check(expected, "회원들이 관장님께 볼링공을 드렸대요.", "NO")
    check(expected, "관장님이 회원들한테 볼링공을 나눠 주셨어요.", "not NO")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (
            "중고 볼링공은 3만 원에 들여와서 닦은 다음 5만 원에 팔아요.",
            "not NO",
        ),  # one clause, two poles' values
        ("중고 볼링공은 5만 원에 사 드리고 3만 원에 팔아요.", "NO"),  # swapped
    ],
)
def test_a_values_pole_is_the_verb_after_it(answer, verdict):
    check("중고 볼링공 매입가 3만 원, 판매가 5만 원", answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("한 레인에 여섯 명 넘으면 안 돼요.", "YES"),
        ("한 레인에 여섯 명 이하는 안 돼요.", "NO"),  # no condition of passing it: the opposite
        ("한 레인에 여덟 명 넘으면 안 돼요.", "NO"),  # another limit
    ],
)
def test_an_upper_limit_said_as_what_is_not_allowed_past_it(answer, verdict):
    check("레인 이용 인원은 한 레인당 최대 6명", answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("대여화는 양말 미포함", "대여화 빌리시면 양말은 없이 드려요.", "not NO"),
        ("대여화는 양말 미포함", "대여화 빌리시면 양말도 포함해서 드려요.", "NO"),
        ("개인 볼링공 지참 가능", "본인 볼링공 가져오셔도 돼요.", "not NO"),
        ("레인 도장 작업 완료 후 개장", "레인 페인트 작업 끝난 다음 문 열어요.", "not NO"),
        ("첫 게임 무료", "첫 게임은 공짜예요.", "YES"),
        (
            "첫 게임 무료",
            "첫 게임은 2천 원이에요.",
            "not YES",
        ),  # a price for a free one: unverified
        ("7월 한 달간 주말 요금 20% 할인", "7월엔 주말 요금 20% 할인돼요.", "YES"),
        ("7월 한 달간 주말 요금 20% 할인", "8월엔 주말 요금 20% 할인돼요.", "NO"),
        ("합기도 승급 심사 2027. 9. 10.(금)", "승급 심사는 9월 10일 금요일이에요.", "YES"),
        ("합기도 승급 심사 2027. 9. 10.(금)", "승급 심사는 9월 11일이에요.", "NO"),
    ],
)
def test_words_and_dates_read_more(expected, answer, verdict):
    check(expected, answer, verdict)


def test_a_day_or_time_question_does_not_ask_the_place():
    expected = "승급 심사는 9월 18일 오전 10시, 2층 도장에서 합니다."
    check(expected, "9월 18일 오전 10시예요.", "YES", "승급 심사 언제예요?")
    check(expected, "9월 18일 오전 10시, 3층에서 해요.", "not YES", "승급 심사 언제예요?")
    check(expected, "9월 18일 오전 10시예요.", "PARTIAL", "승급 심사 언제 어디서 해요?")
    check(expected, "9월 18일 오전 10시예요.", "PARTIAL", "승급 심사 날짜랑 장소 알려 주세요.")


def test_a_tag_and_an_address_carry_no_content():
    expected = "[공지] 관원 여러분, 승급 심사 도복은 흰색 상하의입니다."
    check(expected, "승급 심사 도복은 흰색 상하의예요.", "YES")
    check(expected, "승급 심사 도복은 검은색 상하의예요.", "not YES")
