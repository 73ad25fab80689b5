"""lexical-30 (written after the twenty-second sealed set was read): the giving verb found behind
an auxiliary (나눠 드렸다), 각각 asks each thing, one meaning one marker (정지 = 중단), a word that
denies (미완료, 불허) saying what the expected statement negates, two owners the question names
apart, "per one …" (한 달에), a light noun (폐기 처리), a noun of the statement said by a word of its
meaning class, and the negating 안 the analyser read as a noun. Written in settings no probe set
uses (a fish farm office, a drone permit desk, a pottery kiln), each with the cases that would
fool it."""

from __future__ import annotations

import pytest
from judge_support import check

TANKS = "1번 수조 소독은 3월 3일, 2번 수조 소독은 3월 5일입니다."


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("어민들이 양식장장님께 치어를 받았어요.", "YES"),
        ("양식장장님께서 어민들한테서 치어를 받으셨어요.", "NO"),  # the giver said to receive
    ],
)
def test_a_giving_verb_behind_an_auxiliary_is_read(answer, verdict):
    check("양식장장님께서 어민들에게 치어를 나눠 주셨다.", answer, verdict)


@pytest.mark.parametrize(
    ("question", "answer", "verdict"),
    [
        ("1번이랑 2번 수조 소독 각각 언제예요?", "1번 수조는 3월 3일이에요.", "PARTIAL"),
        ("1번이랑 2번 수조 소독 각각 언제예요?", "1번은 3월 3일, 2번은 3월 5일이에요.", "YES"),
        ("1번 수조 소독 언제예요?", "1번 수조는 3월 3일이에요.", "YES"),
        ("2번 수조 소독 언제예요?", "2번 수조는 3월 3일이에요.", "NO"),
    ],
)
def test_each_asks_every_thing_and_two_owners_named_are_both_asked(question, answer, verdict):
    check(TANKS, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "양식장 펌프는 오후 2시까지 가동을 중단한다.",
            "양식장 펌프는 오후 2시까지 정지합니다.",
            "YES",
        ),
        (
            "양식장 펌프는 오후 2시까지 가동을 중단한다.",
            "양식장 펌프는 오후 2시까지 정지 안 해요.",
            "NO",
        ),
        (
            "양식장 펌프는 오후 2시까지 정상 가동한다.",
            "양식장 펌프는 오후 2시까지 정지합니다.",
            "NO",
        ),
        ("사료 탱크 점검은 아직 끝나지 않았다.", "사료 탱크 점검은 아직 미완료예요.", "YES"),
        ("사료 탱크 점검은 아직 끝나지 않았다.", "사료 탱크 점검은 완료됐어요.", "NO"),
        ("사료 탱크 점검은 끝났다.", "사료 탱크 점검은 아직 미완료예요.", "NO"),
        ("사료 탱크 점검은 아직 끝나지 않았다.", "사료 탱크 점검 미완료 아니에요.", "not YES"),
        ("드론 촬영은 허가되지 않았다.", "드론 촬영은 불허됐어요.", "YES"),
        ("드론 촬영은 허가되지 않았다.", "드론 촬영은 허가됐어요.", "NO"),
        ("드론 촬영은 허가됐다.", "드론 촬영은 불허됐어요.", "NO"),
        ("드론 촬영은 허가되지 않았다.", "드론 촬영은 승인됐어요.", "NO"),
    ],
)
def test_one_meaning_one_marker_and_a_denying_word(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("도예 강좌 수강료는 월 3만 원입니다.", "한 달에 삼만 원이에요.", "YES"),
        ("도예 강좌 수강료는 월 3만 원입니다.", "한 달에 5만 원이에요.", "NO"),
        ("도예 강좌 수강료는 주 3만 원입니다.", "한 달에 3만 원이에요.", "not YES"),
        ("깨진 도자기는 폐기한다.", "깨진 도자기는 폐기 처리합니다.", "YES"),
        ("깨진 도자기는 보관한다.", "깨진 도자기는 폐기 처리합니다.", "NO"),
        ("가마 기록은 5년간 보관한다.", "가마 기록은 5년 동안 보존합니다.", "YES"),
        ("토요일 가마실 개방 10:00~16:00.", "토요일엔 가마실 안 열어요.", "NO"),
    ],
)
def test_per_one_a_light_noun_a_class_word_and_the_negating_an(expected, answer, verdict):
    check(expected, answer, verdict)
