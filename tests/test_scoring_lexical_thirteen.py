"""lexical-13: a clause of values alone claims no polarity, and a negation the question carries
need not be repeated by an answer that does not use the negated word; a negation says what a
cancellation says; verbs the analyser cuts in two (들 + 어 + 오) are looked up whole, with more
meaning classes of everyday acts; a name or month before the topic particle (whose the clause is)
need not be repeated when the answer names no other; another owner of the same slot (주말 beside
평일) is no other slot. Written in settings no probe set uses (a climbing gym, a hot spring, a
toy library, a kimchi factory, a hearing-aid shop), each with the cases that would fool it."""

from __future__ import annotations

import pytest

from seorap.engine.scoring.judges import LexicalJudge

J = LexicalJudge()


def verdict(expected: str, answer: str, question: str = "") -> str:
    return J.grade_answer(question, expected, answer).label


# ---- polarity: values alone, a negation the question carries ---------------------------------

WALL = "클라이밍장 B구역은 오후 3시부터 이용할 수 없습니다."


@pytest.mark.parametrize(
    ("question", "answer", "want"),
    [
        (
            "B구역 몇 시부터 못 써요?",
            "오후 세 시부터요.",
            "YES",
        ),  # values alone: no polarity claimed
        ("B구역 몇 시부터 못 써요?", "오후 4시부터요.", "NO"),  # a wrong value is still wrong
        # it uses the negated word without the negation: the opposite
        ("B구역 몇 시부터 못 써요?", "오후 3시부터 이용할 수 있어요.", "NO"),
        ("", "B구역은 오후 3시부터 이용할 수 있어요.", "NO"),
    ],
)
def test_a_clause_of_values_claims_no_polarity(question, answer, want):
    assert verdict(WALL, answer, question) == want


def test_a_bare_value_answering_a_correction_may_be_the_one_set_aside():
    expected = "온천 정기 휴장일은 화요일이 아니라 수요일입니다."
    assert verdict(expected, "수요일이요.", "휴장일 무슨 요일이에요?") == "YES"
    assert verdict(expected, "화요일이요.", "휴장일 무슨 요일이에요?") == "NO"


def test_a_negation_the_question_carries():
    expected = "보청기 매장은 일요일에 문을 열지 않습니다."
    question = "매장 무슨 요일에 문 안 열어요?"
    assert verdict(expected, "일요일이요.", question) == "YES"
    assert verdict(expected, "일요일에 열어요.", question) == "NO"  # says 열다 without the negation


def test_a_negation_says_what_a_cancellation_says():
    expected = "김치 공장 견학은 취소되었다."
    assert verdict(expected, "김치 공장 견학은 안 하기로 했어요.") != "NO"
    assert verdict(expected, "김치 공장 견학은 취소 안 됐어요.") == "NO"  # both: the opposite
    assert verdict(expected, "김치 공장 견학은 예정대로 해요.") == "NO"
    # and the reverse: a cancellation for a negation (no NO; 취소 itself is still unverified)
    assert verdict("김치 공장 견학은 하지 않는다.", "김치 공장 견학은 취소됐어요.") != "NO"
    assert verdict("김치 공장 견학은 한다.", "김치 공장 견학은 취소됐어요.") == "NO"


# ---- predicates: compound verbs, everyday classes ---------------------------------------------


def test_a_verb_cut_in_two_is_read_whole():
    expected = "장난감 도서관 신규 장난감 입고일은 매주 월요일이다."
    assert verdict(expected, "신규 장난감은 매주 월요일에 들어와요.") == "YES"
    assert verdict(expected, "신규 장난감은 매주 월요일에 나가요.") != "YES"  # another act


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("온천 입장료가 2,000원 올라요.", "YES"),
        # the other direction: the other pole of one scale, a wrong value since lexical-19
        ("온천 입장료가 2,000원 내려가요.", "NO"),
        ("온천 입장료가 2,000원 바뀌어요.", "PARTIAL"),  # which way is not said
    ],
)
def test_rise_and_fall_are_classes_apart(answer, want):
    assert verdict("온천 입장료가 2,000원 인상된다.", answer) == want


def test_more_everyday_acts():
    expected = "장난감은 대여 후 2주 이내에 반납해야 한다."
    assert (
        verdict(expected, "장난감은 대여 후 2주 이내에 돌려줘야 해요.") == "YES"
    )  # 돌리 + 어 + 주
    assert verdict("김치 공장 견학 인원은 30명이 모집됐다.", "견학에 30명 모였어요.") == "YES"
    assert (
        verdict(
            "클라이밍장 강습은 매주 화요일에 쉰다.", "클라이밍장 강습은 매주 화요일에 휴무예요."
        )
        == "YES"
    )


# ---- the owner named before the topic ---------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("노천탕은 밤 10시까지 해요.", "YES"),  # names no owner: not penalised
        ("달빛온천 노천탕은 밤 10시까지 해요.", "NO"),  # names another
    ],
)
def test_an_owner_before_the_topic_need_not_be_repeated(answer, want):
    assert verdict("해오름온천 노천탕은 밤 10시까지 운영한다.", answer) == want


def test_a_part_of_the_owner_in_another_role_is_no_omission():
    expected = "해운대역에서 해오름온천 방면 셔틀 막차는 밤 9시다."
    assert verdict(expected, "온천에서 역 가는 셔틀 막차가 밤 9시예요.") != "YES"


def test_another_owner_of_the_same_slot_is_no_other_slot():
    expected = "클라이밍장 평일 이용료는 2만 원이다."
    question = "클라이밍장 평일 이용료 얼마예요?"
    assert verdict(expected, "평일은 2만 원이에요.", question) == "YES"
    # its own clause with its own value: a claim nothing supports (PARTIAL), not a list member
    assert verdict(expected, "평일은 2만 원이고, 주말은 2만 5천 원이에요.", question) == "PARTIAL"
    assert verdict(expected, "평일과 주말 이용료는 2만 원이에요.") == "NO"  # a member of one list


# ---- lexical-14: the question's wrong premise (after the ninth set's grading) ------------------


def test_an_owner_the_question_asks_of_wrongly_is_no_word_the_answer_may_take():
    """Asked of another owner of the same shape (후문 for 정문), an answer that takes the
    question's owner is about something else: the question's words do not vouch for it."""
    expected = "김치 공장 정문 주차장은 밤 10시에 닫는다."
    question = "후문 주차장도 밤 10시에 닫아요?"
    assert verdict(expected, "네, 후문 주차장은 밤 10시에 닫아요.", question) == "NO"
    assert verdict(expected, "정문 주차장은 밤 10시에 닫아요.", question) == "YES"
    assert verdict(expected, "아뇨, 정문 주차장이 밤 10시에 닫아요.", question) != "NO"
    # two nouns of one shape that modify no common head are two words, not a premise
    expected = "재발 방지책으로 만료 30일 전 알림 설정을 하기로 했다."
    answer = "만료 30일 전 알림 설정을 하기로 확정했어요."
    assert verdict(expected, answer, "확정된 재발 방지책은 뭐예요?") != "NO"


# ---- lexical-15: the asked matter said of another owner (after the tenth set's grading) --------

READING_ROOM = "제1열람실 이용 시간 09:00~21:00."
ASKED = "제1열람실 몇 시까지 열어요?"


def test_the_asked_matter_said_of_another_owner_is_a_claim_nothing_supports():
    """A clause beside the right one that says the same matter of an owner the expected statement
    does not name (its topic's head is an expected noun, or what it says repeats one) is no other
    slot the question let the answer add: the claim is unverified (PARTIAL), with a question or
    without."""
    right = "제1열람실 이용 시간은 오전 9시부터 밤 9시까지예요."
    assert verdict(READING_ROOM, right, ASKED) == "YES"
    lounge = "제1열람실 이용 시간은 오전 9시부터 밤 9시까지고, 휴게실은 24시간 이용 돼요."
    assert verdict(READING_ROOM, lounge, ASKED) == "PARTIAL"  # lexical-14: YES
    assert verdict(READING_ROOM, lounge) == "PARTIAL"
    laptops = "제1열람실은 오전 9시부터 밤 9시까지고, 노트북 열람실은 밤 11시까지예요."
    assert verdict(READING_ROOM, laptops, ASKED) == "PARTIAL"  # lexical-14: YES
    # another slot altogether stays what the answer knows besides (the older sets' convention)
    lockers = "제1열람실은 오전 9시부터 밤 9시까지예요. 사물함 대여료는 월 5천 원이에요."
    assert verdict(READING_ROOM, lockers, ASKED) == "YES"
    # the owner named again in other words is the same owner
    assert (
        verdict(READING_ROOM, "1열람실 이용 시간은 아침 9시부터 저녁 9시까지예요.", ASKED) == "YES"
    )


# ---- lexical-16: a range shares its unit ------------------------------------------------------

CLUBHOUSE = "마리나 클럽하우스 하계 운영 7~8월, 09:00~20:00."


def test_a_range_written_with_one_unit_is_read_with_it_at_both_ends():
    """ "7~8월" runs from 7월 to 8월 and "9~11시" from 9시 to 11시: an answer giving both ends in
    full states the range, not two values for one slot (lexical-15: NO [multi-value])."""
    question = "클럽하우스 여름엔 언제 열어요?"
    right = "7월부터 8월까지, 아침 9시부터 저녁 8시까지 열어요."
    assert verdict(CLUBHOUSE, right, question) == "YES"
    # either end wrong is a wrong value, for the right reason now
    for wrong in ("6월부터 8월까지, 아침 9시부터 저녁 8시까지 열어요.", "7월부터 9월까지 열어요."):
        assert verdict(CLUBHOUSE, wrong, question) == "NO"
    assert verdict("선착장 급유 시간 9~11시.", "급유는 9시부터 11시까지예요.") == "YES"
    assert verdict("선착장 급유 시간 9~11시.", "급유는 10시부터 11시까지예요.") == "NO"
    # a counter was shared before (3~5명); a bare number not joined by ~ stays a number
    assert verdict("정비 인원 3~5명.", "정비는 세 명에서 다섯 명이 해요.") != "NO"


def test_a_rate_s_denominator_is_no_count_of_the_slot():
    """ "한 대에 사만 원" gives the price of one: beside "세 대" it is no second count offered for
    the slot (lexical-15: NO [multi-value]); it says what "대당" and "1대" say."""
    rental = "카약 3대 대여, 대당 4만 원."
    assert verdict(rental, "카약 세 대 빌리고 한 대에 사만 원이에요.") == "YES"
    assert verdict(rental, "카약 세 대 빌리고 한 대에 오만 원이에요.") == "NO"  # the price wrong
    assert verdict(rental, "카약 한 대 빌리고 한 대에 사만 원이에요.") == "NO"  # the count wrong
    assert verdict("카약 1대 대여료는 4만 원.", "카약 한 대에 4만 원이에요.") == "YES"
    # 반년 is six months with a particle after it too
    assert verdict("보트 보관 최대 6개월.", "보트 보관은 최대 반년까지예요.") == "YES"
    assert verdict("보트 보관 최대 6개월.", "보트 보관은 최대 일 년까지예요.") == "NO"


# ---- lexical-17: a date's slash, a halt said by a verb -------------------------------------------


def test_a_date_with_a_slash_is_one_clause_and_a_halt_may_be_said_by_a_verb():
    """ "11/14" is no clause break (it cut the date in two), and 멈추다 says what 중단 says."""
    expected = "보일러 점검 11/14 오전, 온수 중단."
    assert verdict(expected, "11월 14일 오전에 보일러 점검이 있고 온수가 멈춰요.") == "YES"
    assert verdict(expected, "11월 14일 오전에 보일러 점검이 있고 온수는 그대로 나와요.") == "NO"


def test_a_day_said_without_its_month_reads_the_date_the_slash_no_longer_splits():
    """ "5/18" stays one date in one clause, so "18일" of an answer is read as that date."""
    regatta = "요트 대회 결선 5/18 오전 10시."
    assert verdict(regatta, "결선은 18일 오전 10시예요.", "결선 며칠이에요?") == "YES"
    assert verdict(regatta, "결선은 17일 오전 10시예요.", "결선 며칠이에요?") == "NO"


# ---- lexical-18: a value paired across clauses ----------------------------------------------------


def test_a_value_taken_from_another_clause_in_place_of_its_own_is_a_wrong_value():
    """The answer's values are all the expected statement's, but the owner comes from the other
    clause, where the clause of the asked date has an owner of that kind the answer leaves out."""
    seedlings = "3년생 묘목 4월 출하. 2년생 묘목 출하 미정."
    asked = "3년생 묘목 언제 출하해요?"
    assert verdict(seedlings, "2년생 묘목이 4월에 나가요.", asked) == "NO"
    greenhouses = "1동 온실 개방 3/8. 2동 온실 개방 일정 미정."
    assert verdict(greenhouses, "2동 온실이 3월 8일에 열려요.", "1동 온실 언제 열어요?") == "NO"
    # the asked owner said, or none: no swap (PARTIAL for the other clause's owner, as before)
    assert verdict(seedlings, "3년생 묘목은 4월에 출하돼요.", asked) != "NO"
    assert verdict(greenhouses, "3월 8일에 열려요.", "1동 온실 언제 열어요?") != "NO"


def test_clauses_merged_with_no_stand_in_are_no_swap():
    """Two expected clauses said in one answer clause, no value of either replaced."""
    sale = "묘목 판매 4/5 09:00, 2번 하우스 앞."
    assert verdict(sale, "2번 하우스 앞에서 4월 5일 오전 9시에 판매해요.") == "YES"
    assert verdict(sale, "4월 5일 오전 9시, 2번 하우스 앞이에요.") == "YES"
