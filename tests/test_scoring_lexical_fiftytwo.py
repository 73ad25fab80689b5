"""lexical-52 (written after the forty-fourth sealed set was read): a weekday after a dotted or a
slashed date, the end day of a range said with its weekday, everyday verbs for acts (틀다 for
상영, 빼다 for 철거), a date moved later or earlier, a clause without a value that a question for an
amount does not ask, one night (하룻밤), speeds, an act asked for and then done, a prohibition said
with 말다, loanwords and their Korean words, and A/S read as one name. Written in a setting no probe
set uses (a river cruise dock), with the cases that would fool each rule."""

from __future__ import annotations

import pytest
from judge_support import check

CLOSED = "선착장 정비 휴무 2027. 7. 12.(월) ~ 7. 14.(수)"
CRUISE = "야경 크루즈 2월 19일 금요일 오후 8시 출항"
CURTAIN = "선실 커튼 주문: 가로 120cm, 세로 90cm, 색상 네이비"
SPEED = "유람선 최고 속도 시속 36km"


@pytest.mark.parametrize(
    ("question", "expected", "answer", "verdict"),
    [
        # a weekday after a dotted date; the end day of a range said with its weekday
        ("", CLOSED, "7월 12일 월요일부터 14일 수요일까지 쉬어요.", "YES"),
        ("", CLOSED, "7월 12일 월요일부터 15일 목요일까지 쉬어요.", "NO"),
        ("", CLOSED, "7월 12일부터 14일 목요일까지 쉬어요.", "NO"),  # 14 July 2027 is a Wednesday
        # a weekday of one syllable after a slashed date (월 and 일 alone stay a month and a day)
        ("야경 크루즈 언제예요?", CRUISE, "2/19 금 오후 8시요.", "YES"),
        ("야경 크루즈 언제예요?", CRUISE, "2/19 토 오후 8시요.", "NO"),
        # an amount asked: a clause without a value is not asked of the answer ...
        ("세로 얼마로 했어?", CURTAIN, "세로 90센티요.", "YES"),
        # ... but a question for a thing asks every clause
        ("무슨 색으로 했어?", CURTAIN, "세로 90센티요.", "not YES"),
        # one night
        ("", "선상 숙박 1박 12만 원", "하룻밤에 십이만 원이에요.", "YES"),
        ("", "선상 숙박 1박 12만 원", "이틀 밤에 12만 원이에요.", "not YES"),
        # speeds, read as metres per second
        ("", SPEED, "초속 10미터예요.", "YES"),
        ("", SPEED, "분당 600m예요.", "YES"),
        ("", SPEED, "초속 36미터예요.", "NO"),
        ("", SPEED, "36미터 가는 데 1초 걸려요.", "not YES"),  # a length and a time, no speed
        ("", "엔진 A/S 접수 3건", "엔진 A/S 세 건 접수됐어요.", "YES"),
        ("", "엔진 A/S 접수 3건", "엔진 A/S 네 건 접수됐어요.", "NO"),
    ],
)
def test_values(question, expected, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # everyday verbs for acts
        (
            "선상 영화관 토요일 상영작 '바다의 노래'",
            "선상 영화관에서 토요일엔 바다의 노래 틀어요.",
            "YES",
        ),
        ("선상 영화관 토요일 상영작 '바다의 노래'", "토요일엔 바다의 노래 안 틀어요.", "NO"),
        ("2번 선착장 매표소 철거 완료", "2번 선착장 매표소 뺐어요.", "YES"),
        ("2번 선착장 매표소 철거 완료", "2번 선착장 매표소 새로 달았어요.", "not YES"),
        ("승무원 유니폼 헤어 장식 포함", "승무원 유니폼에 머리 장식 들어 있어요.", "YES"),
        ("승무원 유니폼 헤어 장식 포함", "승무원 유니폼에 머리 장식은 빠져요.", "not YES"),
        # a period made longer, answered as brought forward
        ("운항 기간 연장 — 11월 30일까지 운항", "11월 30일로 앞당겨졌어요.", "NO"),
        ("운항 기간 연장 — 11월 30일까지 운항", "11월 30일까지로 늘어났어요.", "not NO"),
        # an act asked for, then done: one cancellation, not two
        (
            "선상 파티 예약 고객 요청으로 취소 완료",
            "선상 파티 예약은 고객님이 취소해 달라고 하셔서 취소했어요.",
            "not NO",
        ),
        (
            "선상 파티 예약 고객 요청으로 취소 완료",
            "선상 파티 예약은 고객님이 취소해 달라고 하셨는데 아직 취소 안 했어요.",
            "NO",
        ),
        # a prohibition said with 말다, of the act a -기 noun names
        ("갑판 난간 기대기 금지", "갑판 난간에 기대지 마세요.", "YES"),
        ("갑판 난간 기대기 금지", "갑판 난간에 기대셔도 돼요.", "NO"),
        ("선실 내 휴대폰 사용 금지", "선실에서는 휴대전화를 사용하지 마십시오.", "YES"),
        ("선실 내 휴대폰 사용 금지", "선실에서는 휴대전화를 사용하셔도 됩니다.", "NO"),
    ],
)
def test_acts(expected, answer, verdict):
    check(expected, answer, verdict)
