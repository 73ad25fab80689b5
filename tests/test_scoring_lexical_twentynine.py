"""lexical-29 (written before the twenty-second sealed set was read): verbs of coming and going
said for a Sino-Korean act, 받다 read from the side of who receives, constructions that say an
expected word (연락 드리다, …ㄹ 수 있다, …ㄹ 때), and the markers a replaced value carries. Written in
settings no probe set uses (a piano tuner, a ferry terminal, a sign maker), each with the cases
that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "조율사가 3월 4일 오후에 댁으로 방문합니다.",
            "조율사가 3월 4일 오후에 댁으로 와요.",
            "YES",
        ),
        (
            "조율사가 3월 4일 오후에 댁으로 방문합니다.",
            "3월 4일 오후에 고객님이 조율사한테 오세요.",
            "not YES",
        ),
        ("간판 시안은 5월 2일 출고합니다.", "간판 시안은 5월 2일에 나가요.", "YES"),
        (
            "간판 시안은 5월 2일 출고합니다.",
            "간판 시안은 5월 2일에 들어와요.",
            "not YES",
        ),  # the other way
        ("조율 장비는 4월 8일에 입고됐다.", "조율 장비 4월 8일에 나갔어요.", "not YES"),
        ("간판 설치 공사는 6월 10일에 착수한다.", "6월 10일부터 설치 공사 들어가요.", "YES"),
        ("간판 설치 공사는 6월 10일에 마무리됐다.", "6월 10일에 설치 공사 들어갔어요.", "not YES"),
        ("외벽 균열 2곳이 발견됐다.", "외벽 균열 두 군데 나왔어요.", "YES"),
        ("외벽 누수는 확인되지 않았다.", "외벽 누수 나왔어요.", "NO"),
        (
            "신간 홍보 기사는 4월 3일 자 지면에 실렸다.",
            "신간 홍보 기사 4월 3일 자에 나갔어요.",
            "YES",
        ),
        (
            "신간 홍보 기사는 4월 3일 자 지면에 실렸다.",
            "신간 홍보 기사 4월 5일 자에 나갔어요.",
            "NO",
        ),
    ],
)
def test_verbs_of_coming_and_going_say_the_act_of_their_class(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "선장이 승객들에게 결항 사실을 통보했다.",
            "승객들이 선장한테서 결항 통보를 받았어요.",
            "YES",
        ),
        ("선장이 승객들에게 결항 사실을 통보했다.", "선장이 결항 사실을 통보받았어요.", "NO"),
        ("조율사가 고객에게 영수증을 발급했다.", "조율사가 영수증을 발급받았어요.", "NO"),
        (
            "선장은 결항 사실을 선사에 보고했다.",
            "선장은 선사로부터 결항 보고를 받았어요.",
            "not YES",
        ),
        ("조율 비용은 1회 12만 원입니다.", "조율 한 번에 12만 원 받아요.", "YES"),
        ("조율 비용은 1회 12만 원입니다.", "조율 한 번에 15만 원 받아요.", "NO"),
        ("매표소 카드 결제는 불가합니다.", "매표소에서 카드 받아요.", "NO"),
        ("여객선 정원은 120명이다.", "여객선은 120명까지 받아요.", "YES"),
        ("여객선 정원은 120명이다.", "여객선은 150명까지 받아요.", "NO"),
    ],
)
def test_receiving_is_read_by_who_receives(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("고객에게 수리 일정을 연락했다.", "고객님께 수리 일정 연락 드렸어요.", "YES"),
        ("고객에게서 수리 일정 연락을 받았다.", "고객님께 수리 일정 연락 드렸어요.", "not YES"),
        ("주말에도 간판 상담 가능합니다.", "주말에도 간판 상담하실 수 있어요.", "YES"),
        ("주말에는 간판 상담 불가합니다.", "주말에도 간판 상담하실 수 있어요.", "NO"),
        ("퇴실 시 열쇠를 반납해 주세요.", "퇴실할 때 열쇠 반납해 주세요.", "YES"),
        ("입실 시 열쇠를 받아 가세요.", "퇴실할 때 열쇠 받아 가세요.", "not YES"),
    ],
)
def test_constructions_that_say_an_expected_word(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "간판 요금은 15,000원으로 안내했다가 20,000원으로 정정했다.",
            "간판 요금은 2만 원이에요.",
            "YES",
        ),
        (
            "간판 요금은 15,000원으로 안내했다가 20,000원으로 정정했다.",
            "간판 요금은 15,000원이에요.",
            "NO",
        ),
        (
            "간판 요금은 15,000원으로 안내했다가 20,000원으로 정정했다.",
            "간판 요금 2만 원은 안 받아요.",
            "NO",
        ),
        ("조율 예약은 3시가 아니라 4시입니다.", "조율 예약 4시예요.", "YES"),
        ("조율 예약은 3시가 아니라 4시입니다.", "조율 예약은 4시가 아니에요.", "NO"),
        ("출항은 5월 3일에서 5월 10일로 연기됐다.", "출항은 5월 10일로 밀렸어요.", "YES"),
        ("출항은 5월 3일에서 5월 10일로 연기됐다.", "출항은 5월 10일로 취소됐어요.", "NO"),
        ("출항은 5월 3일에서 5월 10일로 연기됐다.", "출항 5월 3일이에요.", "NO"),
    ],
)
def test_a_replaced_values_markers_are_not_asked_of_the_new_value(expected, answer, verdict):
    check(expected, answer, verdict)
