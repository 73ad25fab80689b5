"""lexical-39 (written after the thirty-first sealed set was read): a head naming where a text was
written (…단톡:, …일지:, …기록:) carries no value; clauses that each name their own owner and slot
share no topic; 몇 도 asks for degrees; a -면 that restates the statement's own condition, says
what an amount takes or denies what it denies; clock times with seconds; subscript digits; a
bound before a value (최소 5분) is no subject; goods and people in and out said in everyday verbs,
value by value; 입고 after a noun is the noun; a destination's 행; a date said as the plan it was
(…예정이던) and a change target with its weekday in brackets; "확실하진 않아요" hedges, it denies
nothing; meaning classes (입장 = 들어가다, 채혈 = 뽑다, 건조 = 말리다, 티켓 = 표, 봉 = 봉지).
Written in settings no probe set uses (a traditional archery range, a shooting range, a tennis
court, a fishing spot), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import J, check

from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.text import morphemes


def test_a_head_naming_where_the_text_was_written_is_no_value():
    expected = "국궁장 단톡: 토요일 오전 10시 활터 집결"
    check(expected, "토요일 오전 10시에 활터로 모여요.", "YES")
    check(expected, "일요일 오전 10시에 활터로 모여요.", "NO")


def test_a_head_with_a_number_is_no_source_and_stays_asked():
    # "2번 사로" says which lane: not where the note was written
    check(
        "2번 사로 공지: 토요일 오전 10시 사대 정비", "토요일 오전 10시에 사대 정비해요.", "not YES"
    )


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("저녁 8시까지 들어가시면 돼요.", "YES"),
        ("밤 9시까지 들어가시면 돼요.", "NO"),  # the court's tidying time: another clause's
    ],
)
def test_clauses_that_each_name_their_owner_share_no_topic(answer, verdict):
    expected = "테니스장 안내: 입장 마감 20:00, 코트 정리 21:00, 이용료 8,000원"
    check(expected, answer, verdict, "입장 몇 시까지 돼요?")


def test_a_clause_that_speaks_of_the_first_ones_slot_again_stays_asked():
    # the retraction shares 종료 with the first clause: it is no other owner's clause
    expected = (
        "낚시터 야간 운영 종료를 밤 10시에서 밤 12시로 연장한다고 했으나, 관리 인력 부족으로 "
        "취소되어 밤 10시 종료 유지."
    )
    check(expected, "밤 12시까지로 연장됐어요.", "not YES", "낚시터 몇 시까지 해요?")


def test_a_bare_list_after_the_first_clause_keeps_its_topic():
    # "뷔페 오픈 11:30, 마감 14:30": 마감 is 뷔페's; a question naming 뷔페 picks no clause
    check("뷔페 오픈 11:30, 마감 14:30", "11시 반이에요.", "not YES", "뷔페 몇 시에 닫아요?")


def test_myeot_do_asks_for_degrees():
    expected = "관측 기록: 일 최고기온 31.4℃ (14:20 관측), 일 강수량 0.0mm"
    check(expected, "31.4도, 오후 2시 20분에 찍혔어요.", "YES", "최고 기온 몇 도였어?")
    check(expected, "29.8도였어요.", "NO", "최고 기온 몇 도였어?")


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("사격장 공지: 사대 안 음식물 반입 금지", "사대 안에 음식물 반입하시면 안 돼요.", "YES"),
        (
            "사격장 공지: 사대 안 음식물 반입 가능",
            "사대 안에 음식물 반입하시면 안 돼요.",
            "not YES",
        ),
        # a condition the statement does not state stays unverified
        ("사격장 공지: 야외 사로 운영", "허가 나오면 야외 사로 운영해요.", "PARTIAL"),
        (
            "사격장 요금: 기본 1만 원, 초과 시 30분당 5천 원",
            "30분 넘으면 5천 원씩 더 내요.",
            "not NO",
        ),
    ],
)
def test_a_condition_said_with_myeon(expected, answer, verdict):
    check(expected, answer, verdict)


def test_a_myeon_after_an_amount_says_what_it_takes():
    from seorap.engine.scoring.lexical.constructions import conditions

    exp = morphemes("국궁장 안내: 활 시위 교체는 30분 소요")
    said = morphemes("30분이면 끝나요.")
    at = next(i for i, m in enumerate(said) if m.form == "면")
    assert at in conditions(exp, said)
    plain = morphemes("승인되면 끝나요.")
    assert not conditions(exp, plain)  # no amount before it, no condition in the statement


@pytest.mark.parametrize(
    ("expected", "verdict"),
    [("중계 큐시트: 시상식 시작 15:44:00", "YES"), ("중계 큐시트: 시상식 시작 15:44:30", "NO")],
)
def test_a_clock_time_with_seconds(expected, verdict):
    check(expected, "시상식은 15시 44분에 시작해요.", verdict)


def test_subscript_digits_are_digits():
    check("낚시터 수질 기록: CO₂ 농도 450ppm", "CO2 농도 450ppm이에요.", "YES")
    check("낚시터 수질 기록: CO₂ 농도 450ppm", "CO2 농도 540ppm이에요.", "NO")


def test_a_bound_before_a_value_is_no_subject():
    expected = "국궁장 안내: 활 시위 교체 후 5분 이상 빈 활로 당겨 볼 것"
    got = J.grade_answer("", expected, "시위 교체하고 최소 5분은 빈 활로 당겨 보세요.")
    assert "wrong-subject" not in got.rationale
    check(expected, "시위 교체하고 최소 3분은 빈 활로 당겨 보세요.", "NO")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("떡밥 30봉 들어오고 12봉 나갔어요.", "YES"),
        ("떡밥 12봉 들어오고 30봉 나갔어요.", "NO"),  # the two counts swapped
    ],
)
def test_goods_in_and_out_said_in_everyday_verbs(answer, verdict):
    check("낚시 용품점 재고 메모: 떡밥 입고 30봉, 출고 12봉", answer, verdict)


@pytest.mark.parametrize(
    ("text", "noun"),
    [
        ("떡밥 입고 30봉", True),
        ("금요일 입고 예정", True),
        ("구명조끼를 입고 타세요", False),  # the object particle: the verb
        ("구명조끼 입고 타세요", False),  # a verb after it: the verb
    ],
)
def test_ipgo_after_a_noun_is_the_noun(text, noun):
    assert any(m.form == "입고" and m.tag == "NNG" for m in morphemes(text)) is noun


def test_a_destinations_haeng_is_the_place():
    expected = "운항 공지: 가파도행 1호 08:20 출항, 마라도행 2호 10:40 출항."
    question = "마라도 가는 배 몇 시에 떠요?"
    check(expected, "마라도 배는 오전 10시 40분에 떠요.", "YES", question)
    check(expected, "마라도 배는 아침 8시 20분에 떠요.", "NO", question)  # 가파도's
    # a name ending in 행 that is no place bound for (국민은행) keeps its 행
    assert "국민은" not in [v.text for v in analyse("국민은행 3번 창구 안내").values]


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (
            "국궁장 공지: 9월 4일(토) 예정이던 승단 대회는 9월 11일(토)로 연기",
            "9월 4일 토요일이요.",
            "NO",
        ),
        (
            "국궁장 공지: 9월 4일(토) 예정이던 승단 대회는 9월 11일(토)로 연기",
            "9월 11일 토요일이요.",
            "YES",
        ),
        ("국궁장 공지: 승단 대회 9월 4일(토)에서 9월 11일(토)로 연기", "9월 4일 토요일이요.", "NO"),
    ],
)
def test_a_date_said_as_the_plan_it_was(expected, answer, verdict):
    check(expected, answer, verdict, "대회 언제 해요?")


def test_not_being_sure_hedges_and_denies_nothing():
    expected = "국궁장 메모: 승단 심사비 3만 원"
    check(expected, "3만 원일 거예요, 확실하진 않아요.", "PARTIAL")
    check(expected, "5만 원일 거예요, 확실하진 않아요.", "NO")
    check(expected, "3만 원 아니에요.", "NO")  # a denial stays a denial


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("테니스장 안내: 입장권은 현장 판매 없음", "표는 현장에서 안 팔아요.", "YES"),
        # the synonym vouches for a word, not for touching the clause: the opposite is no YES
        ("테니스장 안내: 입장권은 현장 판매 없음", "표는 현장에서도 팔아요.", "not YES"),
        ("낚시 용품점: 건조 미끼 1봉 3,000원", "말린 미끼 1봉지에 3천 원이에요.", "YES"),
        ("낚시 용품점: 건조 미끼 1봉 3,000원", "말린 미끼 1봉지에 5천 원이에요.", "NO"),
    ],
)
def test_meaning_classes_of_lexical_39(expected, answer, verdict):
    check(expected, answer, verdict)
