"""lexical-43 (written after the thirty-fifth sealed set was read): numbers said in words before
counters no list names, 키로 and 밀리 with a number, 주년, a unit said as a rate's denominator
without a number, a head that names both poles, a permission against a forbidding word, a name
beside the owner a question picks, 한 before a counter and an amount, 님 forms of kin words,
initialisms said as words, one-syllable nouns after a known noun, a role with 님 after a name.
Written in settings no probe set uses (a grain warehouse, a poultry farm, a flower nursery, a
traditional sweets workshop), each with the cases that would fool it."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical import asked
from seorap.engine.scoring.lexical.analysis import analyse
from seorap.engine.scoring.lexical.value import spelled_in

RULES = {
    # 예순두 근, 마흔다섯 판; 세 포씩 (한, 두, 세, 네 only before 씩).
    "a_native_numeral_counts_with_any_one_syllable_counter": [
        ("몇 판 나갔어요?", "양계장 출하: 달걀 45판.", "마흔다섯 판이요.", "YES"),
        ("몇 판 나갔어요?", "양계장 출하: 달걀 45판.", "마흔여섯 판이요.", "NO"),
        ("", "한 사람당 쌀 3포씩 운반.", "한 사람당 쌀 세 포씩 운반해요.", "YES"),
        ("", "한 사람당 쌀 3포씩 운반.", "한 사람당 쌀 네 포씩 운반해요.", "NO"),
    ],
    # 1키로 = 1kg (an alias no number was read with); 15주년 = 15년, not 15주 (weeks).
    "kiro_with_a_number_and_an_anniversary_read_as_their_units": [
        ("", "곡물 창고 출고: 찹쌀 1kg 소포장 40개.", "찹쌀 1키로짜리 마흔 개 나갔어요.", "YES"),
        ("", "곡물 창고 출고: 찹쌀 1kg 소포장 40개.", "찹쌀 2키로짜리 마흔 개 나갔어요.", "NO"),
        ("", "한과 공방 창업 15주년 기념 할인.", "창업 15년 기념으로 할인해요.", "YES"),
        ("", "한과 공방 창업 15주년 기념 할인.", "창업 16주년 기념으로 할인해요.", "NO"),
        ("", "한과 공방 창업 15주년 기념 할인.", "창업 15주 기념으로 할인해요.", "not YES"),
    ],
    # kg당 = 킬로당 = 키로에 …; 그램당 is another rate.
    "a_unit_said_without_a_number_is_a_rates_denominator": [
        ("", "찹쌀 매입가 kg당 1,200원.", "찹쌀 매입가는 킬로당 1,200원이에요.", "YES"),
        ("", "찹쌀 매입가 kg당 1,200원.", "찹쌀 매입가는 키로에 1,200원이에요.", "YES"),
        ("", "찹쌀 매입가 kg당 1,200원.", "찹쌀 매입가는 키로에 1,500원이에요.", "NO"),
        ("", "찹쌀 매입가 kg당 1,200원.", "찹쌀 매입가는 그램당 1,200원이에요.", "NO"),
    ],
    # 밀리/미리: mm or mL, as the statement has it.
    "milli_is_read_by_the_statements_dimension": [
        ("", "화원 화분 배수 구멍 지름 12mm.", "배수 구멍 지름은 십이 밀리예요.", "YES"),
        ("", "화원 화분 배수 구멍 지름 12mm.", "배수 구멍 지름은 15미리예요.", "NO"),
        (
            "",
            "화원 액비 희석: 물 1L에 원액 20mL.",
            "액비 희석은 물 1리터에 원액 이십 미리예요.",
            "YES",
        ),
        ("", "화원 액비 희석: 물 1L에 원액 20mL.", "액비 희석은 물 1리터에 원액 30미리예요.", "NO"),
    ],
    # 입출고: the clause's own pole counts.
    "a_head_naming_both_poles_labels_what_follows": [
        (
            "볍씨는 어떻게 됐어요?",
            "창고 입출고: 현미 30kg 입고, 볍씨 20kg 출고.",
            "볍씨 20키로 새로 들어왔어요.",
            "NO",
        ),
        (
            "볍씨는 어떻게 됐어요?",
            "창고 입출고: 현미 30kg 입고, 볍씨 20kg 출고.",
            "볍씨 20키로 나갔어요.",
            "not NO",
        ),
    ],
    # 금지 answered -어도 돼요 about the same thing.
    "a_permission_answers_a_forbidding_word": [
        ("", "화원 온실 내 반려견 동반 출입 금지.", "온실에 반려견 데리고 들어오셔도 돼요.", "NO"),
        (
            "",
            "화원 온실 내 반려견 동반 출입 금지.",
            "온실엔 반려견 데리고 들어오시면 안 돼요.",
            "not NO",
        ),
    ],
    # 305호 박서준 님: 305호 asked, the name is the same owner.
    "a_name_beside_the_owner_the_question_picks_need_not_be_said": [
        (
            "305호는 뭐 받아 갔어요?",
            "곡물 창고 출고: 101호 김하윤 님 현미 10kg, 305호 박서준 님 찹쌀 5kg.",
            "찹쌀 5키로 받아 가셨어요.",
            "YES",
        ),
        (
            "305호는 뭐 받아 갔어요?",
            "곡물 창고 출고: 101호 김하윤 님 현미 10kg, 305호 박서준 님 찹쌀 5kg.",
            "현미 10키로 받아 가셨어요.",
            "not YES",
        ),
    ],
    # 한 상자에 유과 열두 개 = 1상자 유과 12개.
    "han_before_a_counter_and_an_amount_is_one_of_it": [
        ("", "한과 선물 세트 1상자 유과 12개.", "선물 세트 한 상자에 유과 열두 개예요.", "YES"),
        ("", "한과 선물 세트 1상자 유과 12개.", "선물 세트 한 상자에 유과 열 개예요.", "NO"),
    ],
    # 할머님 = 할머니; 할아버님 is another.
    "a_kin_word_said_with_nim_is_the_same_person": [
        (
            "",
            "화원 단골 김 할머니 댁 화분 배달 완료.",
            "화원 단골 김 할머님 댁 화분 배달 완료했어요.",
            "YES",
        ),
        (
            "",
            "화원 단골 김 할머니 댁 화분 배달 완료.",
            "화원 단골 김 할아버님 댁 화분 배달 완료했어요.",
            "NO",
        ),
    ],
    # HACCP = 해썹; AI = 에이아이 in running text.
    "an_initialism_said_as_a_word_or_letter_by_letter": [
        ("", "한과 공방 HACCP 인증 취득.", "한과 공방 해썹 인증 취득했어요.", "YES"),
        ("", "한과 공방 HACCP 인증 취득.", "한과 공방 GMP 인증 취득했어요.", "NO"),
        ("", "양계장 AI 방역 점검 완료.", "에이아이 방역 점검 끝났어요.", "YES"),
    ],
    # 사료값 for 사료 …; 가능성 is no 가능.
    "a_one_syllable_noun_after_a_known_one": [
        ("", "화원 배송 가능.", "배송 가능성 있어요.", "not YES"),
        ("", "양계장 사료 20kg 한 포 3만 원.", "사료값은 20키로 한 포에 3만 원이에요.", "YES"),
    ],
    # 한 포대 (now a value) still names the slot: 10킬로 포대 competes with 20kg.
    "a_counter_value_names_the_slot_as_its_noun_did": [
        (
            "쌀 한 포대 얼마예요?",
            "곡물 창고 쌀 20kg 한 포대 5만 2천 원.",
            "5만 2천 원인데, 10킬로 포대 기준이에요.",
            "NO",
        ),
        (
            "쌀 한 포대 얼마예요?",
            "곡물 창고 쌀 20kg 한 포대 5만 2천 원.",
            "20킬로 한 포대에 5만 2천 원이에요.",
            "YES",
        ),
    ],
    # 최윤서 수의사님: the person is 최윤서.
    "a_role_with_nim_after_a_name_is_no_name": [
        (
            "",
            "양계장 방역 담당 최윤서 수의사님 내일 방문.",
            "박지안 수의사님이 내일 방문하세요.",
            "NO",
        ),
    ],
}
"""Each rule of lexical-43 with the cases that would fool it: (question, expected, answer, verdict)."""


@pytest.mark.parametrize(
    ("question", "expected", "answer", "verdict"),
    [
        pytest.param(*case, id=f"{rule}-{i}")
        for rule, cases in RULES.items()
        for i, case in enumerate(cases)
    ],
)
def test_each_rule_and_what_would_fool_it(question, expected, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("예순두 근 나왔어요.", [("수", ("62",))]),
        ("화살 여섯 발, 팔 보호대", [("발", ("6",))]),  # 발 a counter since lexical-50
        ("세 발씩 쏩니다.", [("발", ("3",))]),
        ("네 말이 맞아.", []),  # 네: "your", no number
        ("한 집에 살아요.", []),  # 한 before a noun with no amount after it: "a"
        ("포장은 한 조에 여섯 명이에요.", [("명", ("6",))]),  # no 1조 (a trillion)
        ("액비는 미리 타 두세요.", []),  # 미리 without a number: "in advance"
        ("개업 35주년.", [("년", ("35",))]),
        ("평당 3천만 원", [("per", ("평",)), ("원", ("30000000",))]),
        ("최은정 조리사님 손목 부상", [("person", ("최은정",))]),
    ],
)
def test_values_read(text, values):
    assert [(v.type, v.key) for v in analyse(text).values] == values


def test_how_many_kilo_or_milli_asks_the_dimensions_they_may_say():
    assert asked.kinds(analyse("웻슈트 몇 미리짜리예요?")) == {"length", "volume"}
    assert asked.kinds(analyse("몇 킬로 나가요?")) == {"mass", "length"}
    assert asked.kinds(analyse("지금 몇 밀리초인가요?")) == set()  # 밀리초 is a word of its own
    assert [(v.type, v.key) for v in analyse("응답 170밀리초").values] == [("ms", ("170",))]


def test_a_latin_name_is_found_said_letter_by_letter_in_running_text():
    assert spelled_in("AD", "에이디는안들어가도돼요")
    assert spelled_in("HACCP", "해썹인증받았어요")
    assert not spelled_in("AD", "아이디는안들어가도돼요")


def test_every_unit_written_two_ways_is_read_after_a_number():
    """The class of 키로: an alias the value reader did not know left "1키로" a bare number."""
    from seorap.engine.scoring.lexical.value import UNIT_ALIASES

    for alias, unit in UNIT_ALIASES.items():
        values = analyse(f"무게 3{alias} 확인").values
        if alias.endswith("/h"):  # km/h: a speed since lexical-52 (lexical/speeds.py)
            assert [v.type for v in values] == ["speed"], alias
            continue
        assert [(v.type, v.key) for v in values] == [(unit, ("3",))], alias
