"""lexical-31 (written after the twenty-third sealed set was read): a person value needs a family
name (잔금은 이사 is the balance and the move), more titles name a person (세무사, 원장 …), a body's
short name leaves out 한국/국립 (농관원, 출판진흥원) or keeps a long name's last three syllables
(평가원), an owner said by a word of an expected noun's meaning class (아침 for 조식, 어른 for
성인) is no other subject, a question's negation forgives only what it negates itself, and a few
words said another way (키로, 쌤, 굽다, 넣다, 끝). Written in settings no probe set uses (a towing
company, a kiln workshop, an exam office), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check


@pytest.mark.parametrize(
    ("expected", "question", "answer", "verdict"),
    [
        (
            "견인 계약금은 5만 원이며, 잔금은 이사 당일 작업 후 지불합니다.",
            "계약금은 얼마고, 잔금은 언제 내요?",
            "계약금은 5만 원이에요.",
            "PARTIAL",
        ),
        (
            "김민수 이사가 3월 4일 설명회에서 발표한다.",
            "",
            "박민수 이사가 3월 4일 설명회에서 발표해요.",
            "NO",
        ),
        (
            "윤지아 세무사님이 ㈜한빛상사 건을 담당하십니다.",
            "한빛상사 건 누가 맡아요?",
            "윤지아 세무사가 담당합니다.",
            "YES",
        ),
        (
            "윤지아 세무사님이 ㈜한빛상사 건을 담당하십니다.",
            "한빛상사 건 누가 맡아요?",
            "최지아 세무사가 담당합니다.",
            "NO",
        ),
    ],
)
def test_a_person_needs_a_family_name_and_titles_name_people(expected, question, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("원산지 확인은 국립농산물품질관리원이 한다.", "원산지 확인은 농관원이 해요.", "YES"),
        ("성적 증명은 한국교육과정평가원에서 발급한다.", "성적 증명은 평가원에서 발급해요.", "YES"),
        (
            "성적 증명은 한국교육과정평가원에서 발급한다.",
            "성적 증명은 교육청에서 발급해요.",
            "not YES",
        ),
    ],
)
def test_a_bodys_short_name(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "question", "answer", "verdict"),
    [
        (
            "조식은 전복죽과 백김치입니다.",
            "조식 메뉴가 뭐예요?",
            "아침은 전복죽이랑 백김치예요.",
            "not NO",
        ),
        ("조식은 전복죽과 백김치입니다.", "", "점심은 전복죽이랑 백김치예요.", "not YES"),
        ("입장료는 성인 8,000원이다.", "", "어른은 8천 원이에요.", "YES"),
        ("입장료는 성인 8,000원이다.", "", "어린이는 8천 원이에요.", "not YES"),
        ("심사는 김 선생님이 맡는다.", "", "심사는 김 쌤이 맡아요.", "YES"),
        ("심사는 김 선생님이 맡는다.", "", "심사는 이 쌤이 맡아요.", "not YES"),
        ("출하 단가는 kg당 1만 5천 원이다.", "", "키로당 만 육천 원이에요.", "NO"),
        ("예약금은 4월 30일까지 입금해 주세요.", "", "예약금은 4월 30일까지 넣어 주세요.", "YES"),
        ("단체 예약 마감은 9월 3일입니다.", "", "단체 예약은 9월 3일까지 받아요.", "YES"),
        ("단체 예약 마감은 9월 3일입니다.", "", "단체 예약은 9월 5일까지 받아요.", "NO"),
        (
            "초급반 수업은 4시에 시작해서 5시에 끝납니다.",
            "",
            "초급반은 4시 시작, 5시 끝이에요.",
            "YES",
        ),
    ],
)
def test_words_said_another_way(expected, question, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("네, 8점 다 같이 구웠어요.", "NO"),  # the question negates 마르다, the clause 넣다 too
        ("아니요, 8점은 못 넣었어요.", "not NO"),
    ],
)
def test_a_questions_negation_forgives_only_what_it_negates(answer, verdict):
    check(
        "유약이 안 마른 접시 8점은 이번 가마에 넣지 못했다.",
        answer,
        verdict,
        "유약 안 마른 접시도 이번에 구웠어요?",
    )
