"""lexical-37 (written after the twenty-ninth sealed set was read): a hedge over some of the
values is PARTIAL, and NO only when it states none, says too little, offers another value (또는,
…ㄹ 수도 있다 beside a value of another reading) or gives another value of a missing one's kind;
denials read through a list's head, the next clause and meaning classes; the giver and the given-to
told apart; owners told apart by what their topics do not share; values held by the two poles of a
scale; grades with plus signs; ranges, counted lists, counters after an arrow. Written in settings
no probe set uses (a knitting workshop, a snack bar), each with the cases that would fool it."""

from __future__ import annotations

import datetime as dt

import pytest
from judge_support import check

CLASS = "목도리 클래스 수강료는 4만 원, 수업은 매주 토요일 오후 2시"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("수강료는 아마 4만 원일 거예요.", "PARTIAL"),  # hedged, the time left out
        ("아마 4만 원이고 토요일 오후 2시일 거예요.", "PARTIAL"),
        ("글쎄요, 잘 모르겠어요.", "NO"),  # hedged, nothing stated
        ("아마 한 3만 원쯤일 거예요.", "NO"),  # another fee, hedged
        ("4만 원이에요. 근데 5만 원으로 오를 수도 있어요.", "NO"),  # another fee offered
        ("4만 원이고 토요일 오후 2시예요. 변경될 수도 있어요.", "PARTIAL"),  # no other value
    ],
)
def test_a_hedge_over_some_values_is_partial(answer, verdict):
    check(CLASS, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # a denying noun denies the act before it, through a list under its head, by a synonym
        ("분식집 반입 금지: 외부 음식, 주류, 풍선", "풍선은 갖고 들어오실 수 없어요.", "not NO"),
        ("분식집 반입 금지: 외부 음식, 주류, 풍선", "풍선은 갖고 들어오셔도 돼요.", "NO"),
        ("배달 오토바이 일요일 미운행", "일요일엔 배달 오토바이 안 다녀요.", "not NO"),
        ("배달 오토바이 일요일 미운행", "일요일에도 배달 오토바이 다녀요.", "NO"),
        ("떡볶이 밀키트 재고 소진", "밀키트는 남은 거 없어요.", "not NO"),
        ("떡볶이 밀키트 재고 소진", "밀키트 아직 남아 있어요.", "NO"),
        ("매장 안 전 구역 금연", "매장 안에서는 담배 못 피워요.", "not NO"),
        ("매장 안 전 구역 금연", "매장 안에서도 담배 피워도 돼요.", "not YES"),
        # the negation belongs to the next clause, the one whose act the answer negates
        (
            "공방 정기 점검: 2027/03/15, 당일 공방 이용 불가",
            "3월 15일은 점검이라 공방 못 써요.",
            "not NO",
        ),
        ("공방 정기 점검: 2027/03/15, 당일 공방 이용 불가", "3월 15일은 점검 안 해요.", "NO"),
        # a list's last predicate is said of every member
        (
            "수세미, 코스터, 모자는 주문 제작하지 않는다.",
            "수세미랑 코스터는 주문 제작 안 해요.",
            "not NO",
        ),
        (
            "수세미, 코스터, 모자는 주문 제작하지 않는다.",
            "수세미, 코스터, 모자 다 주문 제작해요.",
            "NO",
        ),
    ],
)
def test_denials_read_through_lists_and_clauses(expected, answer, verdict):
    check(expected, answer, verdict)


def test_the_one_given_to_is_not_the_giver():
    expected = "원장님께 수강 견적서 보내 드림 (3월 5일 발송)"
    check(expected, "원장님이 견적서를 3월 5일에 보내 주셨어요.", "NO")
    check(expected, "원장님께 견적서 3월 5일에 보내 드렸어요.", "not NO")


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("홍보 영상 DVD 20장 입고 완료", "디브이디 20장 들어왔어요.", "not NO"),
        ("홍보 영상 DVD 20장 입고 완료", "디브이디 30장 들어왔어요.", "NO"),
        # a range said with 에서 … 사이 is no change from the first value
        ("수세미 실 길이 1.5m ~ 2m", "수세미 실 길이는 150센티에서 200센티 사이예요.", "YES"),
        ("수세미 실 길이 1.5m ~ 2m", "수세미 실 길이는 150센티에서 300센티 사이예요.", "not YES"),
        # a counter left out of a value before an arrow: the value is the former one
        ("참기름 주문 8병 → 6병으로 축소", "참기름은 이제 여섯 병만 주문해요.", "YES"),
        ("참기름 주문 8병 → 6병으로 축소", "참기름은 여덟 병 주문해요.", "NO"),
        # a count of the members listed before it is no value of its own
        ("분식 메뉴는 떡볶이, 순대, 튀김", "떡볶이, 순대, 튀김 이렇게 세 가지예요.", "YES"),
        ("분식 메뉴는 떡볶이, 순대, 튀김", "떡볶이, 순대, 튀김 이렇게 네 가지예요.", "not YES"),
        (
            "재료 구입처: 동대문 종합시장, 온라인몰, 공방 매장",
            "동대문 종합시장이랑 온라인몰, 공방 매장 세 군데요.",
            "YES",
        ),
        (
            "재료 구입처: 동대문 종합시장, 온라인몰, 공방 매장",
            "동대문 종합시장이랑 온라인몰, 공방 매장 네 군데요.",
            "not YES",
        ),
    ],
)
def test_spellings_ranges_arrows_and_counts(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        # owners told apart by what their topics do not share, the answer's by its subject
        (
            "목도리반 수강료는 4만 원, 모자반 수강료는 5만 원입니다.",
            "모자반이 4만 원이고 목도리반은 5만 원이에요.",
            "NO",
        ),
        (
            "목도리반 수강료는 4만 원, 모자반 수강료는 5만 원입니다.",
            "목도리반이 4만 원이고 모자반은 5만 원이에요.",
            "YES",
        ),
        # values held by the two poles of a scale (buy/sell)
        (
            "중고 뜨개바늘 매입가는 정가의 30%, 판매가는 정가의 60%",
            "정가 60%에 사 드리고 30%에 팔아요.",
            "NO",
        ),
        (
            "중고 뜨개바늘 매입가는 정가의 30%, 판매가는 정가의 60%",
            "정가 30%에 사 드리고 60%에 팔아요.",
            "not NO",
        ),
        # grades written with a plus sign are names, not the number before it
        ("실 등급별 가격: A+ 8,000원, A- 6,000원", "A+가 6,000원, A-가 8,000원이에요.", "NO"),
        ("실 등급별 가격: 1++ 8,000원, 1+ 6,000원", "1++가 6,000원, 1+가 8,000원이에요.", "NO"),
        ("실 등급별 가격: 1++ 8,000원, 1+ 6,000원", "1++가 8,000원, 1+가 6,000원이에요.", "not NO"),
        # a change target with its counter (2관으로 옮겨): the rooms swapped
        (
            "1관 누수 때문에 오후 수업을 2관으로 옮겨 진행합니다.",
            "2관 누수 때문에 오후 수업이 1관으로 옮겨졌어요.",
            "NO",
        ),
        (
            "1관 누수 때문에 오후 수업을 2관으로 옮겨 진행합니다.",
            "오후 수업은 2관으로 옮겨졌어요.",
            "not NO",
        ),
    ],
)
def test_owners_poles_and_grades(expected, answer, verdict):
    check(expected, answer, verdict)


def test_what_an_answer_adds_to_a_question_is_read():
    # an exception after 다만 qualifies the asked value; a person doing something is a claim
    check(
        "분식집 주말 영업은 밤 10시까지",
        "밤 10시요. 다만 일요일은 8시에 닫아요.",
        "not YES",
        "주말엔 몇 시까지 해요?",
    )
    check(
        "단체 주문 50인분 접수 완료",
        "네, 50인분 접수됐어요. 배달은 김 기사님이 벌써 출발하셨어요.",
        "not YES",
        "단체 주문 접수됐어요?",
    )
    # 며칠 asks a second thing: the days it takes are asked, another figure is no answer
    question = "언제 보내고, 받는 데 며칠 걸려요?"
    expected = "뜨개 키트는 화요일에 발송하며, 도서 산간은 발송 후 3~4일 걸립니다."
    check(expected, "화요일에 보내고 도서 산간은 5~6일 걸려요.", "not YES", question)


def test_the_week_after_next():
    said, asked = dt.date(2027, 3, 3), dt.date(2027, 3, 8)  # a Wednesday, the next Monday
    expected = "다다음 주 월요일 공방 대청소"
    dates = {"expected_date": said, "answer_date": asked}
    check(expected, "대청소는 오늘이에요.", "NO", **dates)  # 3/8 is next week's Monday
    check(expected, "대청소는 다음 주 월요일이에요.", "YES", **dates)  # 3/15
    check(expected, "대청소는 3월 15일이에요.", "YES", **dates)


def test_an_upper_limit_says_what_can_be():
    check("공방 1회 최대 수강 인원 8명", "한 번에 여덟 명까지 들을 수 있어요.", "not NO")
    check("공방 1회 최대 수강 인원 8명", "한 번에 열 명까지 들을 수 있어요.", "NO")


def test_a_clause_with_its_own_topic_is_no_member_of_the_next_clause_list():
    from seorap.engine.scoring.lexical import holds

    fact = "뜨개 공방 봄 특강 일자는 4월 3일, 특강은 온라인으로 진행, 참가 인원 제한 없음."
    assert holds("특강은 온라인으로 진행", fact)
    assert holds("참가 인원 제한 없음", fact)
    assert not holds("특강은 온라인으로 진행하지 않음", fact)
