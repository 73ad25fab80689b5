"""lexical-49 (written after the forty-first sealed set was read): clauses that qualify the asked
value (an exception after 단, a condition the question's value meets), nouns that deny by
themselves read whole, two-syllable clips (국대 = 국가대표), 단 a counter, 부족 and 말다 read as
the denials they are. Written in a setting no probe set uses (a river cruise dock), with the cases
that would fool each rule."""

from __future__ import annotations

import pytest
from judge_support import check

from seorap.engine.scoring.lexical.abbrev import clipped
from seorap.engine.scoring.lexical.text import morphemes

FARE = "유람선 승선권 성인 2만 원, 단 야간 운항은 2만 5천 원."
LUGGAGE = "수하물 기본 요금 5천 원, 20kg 넘는 짐은 1만 원 추가."


@pytest.mark.parametrize(
    ("question", "expected", "answer", "verdict"),
    [
        # an exception after 단 of the asked kind is asked with the base value
        ("유람선 타려면 얼마예요?", FARE, "2만 원이에요.", "PARTIAL"),
        ("유람선 타려면 얼마예요?", FARE, "2만 원이고, 야간은 2만 5천 원이에요.", "YES"),
        # a condition the question's value meets: the surcharge applies
        ("25kg짜리 캐리어 실으면 얼마 내요?", LUGGAGE, "기본 5천 원이에요.", "not YES"),
        ("25kg짜리 캐리어 실으면 얼마 내요?", LUGGAGE, "5천 원에 만 원 더 내셔야 해요.", "not NO"),
        # a question value the condition does not meet: the clause is another case's
        ("10kg 가방 하나 실으면 얼마예요?", LUGGAGE, "5천 원이요.", "not NO"),
        # the bound itself: 이상 holds it, 넘는 does not
        (
            "20kg 실으면 얼마예요?",
            "수하물 기본 요금 5천 원, 20kg 이상은 1만 원 추가.",
            "5천 원이요.",
            "not YES",
        ),
    ],
)
def test_a_clause_that_qualifies_the_asked_value_is_asked(question, expected, answer, verdict):
    check(expected, answer, verdict, question)


@pytest.mark.parametrize(
    ("text", "word", "tag"),
    [
        ("선착장 매표소 8월 3일(화) 휴장.", "휴장", "NNG"),
        ("야간 운항 미실시.", "미", "XPN"),
        ("구명조끼 미사용 시 승선 불가.", "미", "XPN"),
    ],
)
def test_a_denying_noun_the_analyser_cuts_is_read_whole(text, word, tag):
    assert (word, tag) in [(m.form, m.tag) for m in morphemes(text)]


@pytest.mark.parametrize(
    ("text", "word", "tag"),
    [
        ("미 대사관 직원 단체 승선.", "미", "NNP"),  # written apart: no prefix
        ("비 오면 운항 중단.", "비", "NNG"),
        ("미사 끝나고 단체 승선.", "미사", "NNG"),  # mass, no 미 + 사
    ],
)
def test_no_prefix_read_where_there_is_none(text, word, tag):
    assert (word, tag) in [(m.form, m.tag) for m in morphemes(text)]


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("선착장 매표소 8월 3일(화) 휴장.", "8월 3일 화요일엔 매표소 문 안 열어요.", "not NO"),
        ("선착장 매표소 8월 3일(화) 휴장.", "8월 3일에도 매표소 열어요.", "NO"),
        ("매점 생수 재고 부족.", "매점에 생수 얼마 안 남았어요.", "not NO"),
        ("매점 생수 재고 부족.", "생수는 넉넉해요.", "not YES"),
        ("매점 이용 자제 부탁드립니다.", "매점은 이용하지 마세요.", "not NO"),
        ("매점 이용 자제 부탁드립니다.", "매점 이용하셔도 돼요.", "not YES"),
    ],
)
def test_denials_said_with_a_word_or_with_말다(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.xfail(
    strict=True,
    reason="a question naming the bound itself picks its clause: 20kg 넘는 read as 20kg",
)
def test_the_bound_itself_of_an_exclusive_condition():
    check(LUGGAGE, "5천 원이요.", "YES", "20kg 실으면 얼마예요?")


@pytest.mark.xfail(strict=True, reason="흡연 and 피우다 share no meaning class: 자제 denies 흡연")
def test_a_denial_of_a_noun_said_with_another_verb():
    check("선상 흡연 자제 부탁드립니다.", "배 위에서는 담배 피우지 마세요.", "not NO")


@pytest.mark.parametrize(
    ("short", "long", "clip"),
    [
        ("남친", "남자친구", True),
        ("카톡", "카카오톡", True),
        ("현영", "현금영수증", True),
        ("남자", "남자친구", False),  # a part of the word, no clip
        ("선장", "유람선장", False),  # not the first syllable
        ("유선", "유람선", False),  # three syllables: too short to clip
    ],
)
def test_two_syllable_clips(short, long, clip):
    assert clipped(short, long) is clip


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("단체 예약 문의는 카카오톡 채널로.", "단체 예약은 카톡 채널로 물어보시면 돼요.", "not NO"),
        ("단체 예약 문의는 카카오톡 채널로.", "단체 예약은 카톡 말고 전화로만 받아요.", "NO"),
        # the short word in the statement and the long in the answer: no clip read that way
        ("매표소 안내는 카톡으로.", "카카오 말고 문자로 안내해요.", "not YES"),
    ],
)
def test_a_clip_is_read_as_its_word(expected, answer, verdict):
    check(expected, answer, verdict)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("선착장 인근 공영주차장 이용.", "선착장 근처 공영주차장에 대세요.", "not NO"),
        ("초심자는 노 젓기 체험 불가.", "처음 해 보는 초보자는 노 젓기 못 해요.", "not NO"),
        # a word of one meaning class does not align the clauses the polarity rules compare
        # (초심자 with 초심자 reads NO): the wrong answer is not credited, but not read NO either
        ("초심자는 노 젓기 체험 불가.", "초보자도 노 젓기 할 수 있어요.", "not YES"),
        # 단 a counter: forty bunches said in words; a count of one before 에 is a rate
        (
            "선상 꽃 장식용 안개꽃 12단, 단당 7천 원.",
            "안개꽃 열두 단에 한 단에 칠천 원이에요.",
            "YES",
        ),
        ("선상 꽃 장식용 안개꽃 12단, 단당 7천 원.", "안개꽃 열 단이에요, 한 단에 칠천 원.", "NO"),
    ],
)
def test_words_of_one_meaning_and_the_counter_단(expected, answer, verdict):
    check(expected, answer, verdict)
