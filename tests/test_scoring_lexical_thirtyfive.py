"""lexical-35 (written after the twenty-seventh sealed set was read): an item a bracket moves
elsewhere (…는 …로 대체) is set apart from the list, and a two-noun item is matched whole; Latin
letters said by their Korean names (KTX = 케이티엑스); kilolitres; 짜리 after a value. Written in
settings no probe set uses (a puppet theatre, a cable car), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

SHOW = "인형극 소품 점검 항목: 줄 인형, 손 인형, 무대 조명 (그림자 인형은 다음 달 점검으로 대체)"
ASKED = "인형극 소품 점검 항목 뭐예요?"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("줄 인형, 손 인형, 무대 조명, 그림자 인형이에요.", "NO"),
        ("그림자 인형이랑 줄 인형, 손 인형, 무대 조명이요.", "NO"),
        ("줄 인형, 손 인형, 무대 조명이에요.", "not NO"),  # 손 인형 is no 그림자 인형
    ],
)
def test_an_item_moved_elsewhere_is_set_apart(answer, verdict):
    check(SHOW, answer, verdict, ASKED)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "케이블카 탑승객 셔틀: KTX 역 오전 9시 출발",
            "케이블카 셔틀은 케이티엑스 역에서 오전 9시에 출발해요.",
            "YES",
        ),
        (
            "케이블카 탑승객 셔틀: KTX 역 오전 9시 출발",
            "케이블카 셔틀은 에스알티 역에서 오전 9시에 출발해요.",
            "NO",
        ),
        ("케이블카 안전 점검은 QA팀이 한다.", "케이블카 안전 점검은 큐에이팀이 해요.", "not NO"),
    ],
)
def test_latin_letters_said_by_their_korean_names(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("물탱크는 2킬로리터짜리예요.", "YES"),
        ("물탱크는 2천 리터예요.", "YES"),
        ("물탱크는 2킬로짜리예요.", "not YES"),  # 킬로 alone: grams or metres, never litres
        ("물탱크는 20킬로리터짜리예요.", "NO"),
    ],
)
def test_kilolitres(answer, verdict):
    check("케이블카 승강장 소방 물탱크 용량 2,000L", answer, verdict)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("인형극 관람료는 한 분에 만 이천 원이에요.", "YES"),
        ("인형극 관람료는 한 분당 만 이천 원이에요.", "YES"),
        ("인형극 관람료는 한 분에 만 오천 원이에요.", "NO"),
        ("인형극 관람료는 만 이천 원인가 만 오천 원인가 그럴 거예요.", "NO"),
        ("인형극 관람료는 만 이천 원 정도일 거예요.", "not YES"),  # the denominator left out too
    ],
)
def test_a_price_per_person_and_two_values_offered_with_a_question_ending(answer, verdict):
    check("인형극 관람료 1인 12,000원", answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "케이블카 물탱크 월 사용량 87㎥",
            "케이블카 물탱크는 한 달에 87세제곱미터 써요.",
            "not NO",
        ),
        ("케이블카 물탱크 월 사용량 87㎥", "케이블카 물탱크는 한 달에 78세제곱미터 써요.", "NO"),
        ("인형극 홍보 사진 보정 3컷 포함", "인형극 홍보 사진은 보정 세 컷 들어가요.", "not NO"),
        ("인형극 홍보 사진 보정 3컷 포함", "인형극 홍보 사진은 보정 네 컷 들어가요.", "NO"),
    ],
)
def test_cubic_metres_and_shots(expected, answer, verdict):
    check(expected, answer, verdict)


POSTPONED = "케이블카 정기 점검은 4월 6일 예정이었으나, 부품 지연으로 4월 13일로 연기됐습니다."
WHEN = "케이블카 정기 점검 언제로 잡혀 있어요?"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("4월 6일이요.", "NO"),
        ("4월 13일이요.", "YES"),
        ("4월 6일이었는데 13일로 밀렸어요.", "not NO"),
    ],
)
def test_a_value_before_a_concession_is_the_former_one_and_its_new_value_is_asked(answer, verdict):
    check(POSTPONED, answer, verdict, WHEN)


def test_a_value_the_question_says_is_no_value_a_hedged_answer_leaves_out():
    check(
        "인형 만들기 재료는 1인당 3세트까지 드립니다.",
        "세 세트 정도요.",
        "PARTIAL",
        "인형 만들기 재료 한 사람당 몇 세트까지 받아요?",
    )
