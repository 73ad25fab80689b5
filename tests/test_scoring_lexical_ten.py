"""lexical-10: reported speech is where a value came from, not doubt about it (…한대요 states the
value; a word of doubt still hedges it); units spelt out in Hangul (미터, 킬로그램, 센티) and 할
(tenths: 3할 = 30 %) read as the units they name; 정오 and 자정 are clock times, and 밤 12시 is
midnight. Written in settings no probe set uses (a planetarium, a pottery studio, a cable car,
a seed bank), each rule with the cases that would fool it: a wrong value reported, doubt and
report together, a unit of another kind, 킬로 said without its kind, a word that starts like a
unit (프로그램, 할인)."""

from __future__ import annotations

import pytest

from seorap.engine.scoring import lexical
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.scoring.lexical.analysis import analyse

J = LexicalJudge()


def test_the_rules_are_named_lexical_12():
    assert lexical.RULES_VERSION == "lexical-54" == J.rules  # lexical-10's rules, and more


# ---- reported speech ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "천체 관측회는 토요일 저녁 8시에 한대요.",
        "토요일 저녁 8시에 관측회 한다고 하네요.",
        "관측회요? 토요일 저녁 8시래요.",
    ],
)
def test_a_value_reported_as_said_is_stated(answer):
    expected = "천체 관측회는 토요일 저녁 8시에 한다."
    assert J.grade_answer("", expected, answer).label == "YES"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("천체 관측회는 일요일 저녁 8시에 한대요.", "NO"),  # a wrong day, reported: still wrong
        ("천체 관측회는 토요일 저녁 8시쯤 한대요.", "PARTIAL"),  # doubt said by a word of its own
        ("천체 관측회는 아마 토요일 저녁 8시에 한대요.", "PARTIAL"),
        ("천체 관측회는 토요일 저녁 8시에 할 것 같대요.", "PARTIAL"),
        ("토요일 저녁 8시에 한다고 했었는데 취소됐대요.", "NO"),  # reported, then retracted
        ("천체 관측회는 토요일 저녁 8시에 한다고 들었어요.", "PARTIAL"),  # heard, not checked
    ],
)
def test_a_report_does_not_hide_a_wrong_value_or_doubt(answer, verdict):
    expected = "천체 관측회는 토요일 저녁 8시에 한다."
    assert J.grade_answer("", expected, answer).label == verdict


# ---- units spelt out, and tenths ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("케이블카 선로 길이는 1.8km다.", "케이블카 선로 길이는 1,800미터예요.", "YES"),
        ("케이블카 선로 길이는 1.8km다.", "케이블카 선로 길이는 1,700미터예요.", "NO"),
        ("케이블카 선로 길이는 1.8km다.", "케이블카 선로 길이는 1.8킬로미터예요.", "YES"),
        ("가마 한 번에 넣는 흙은 12kg이다.", "가마 한 번에 넣는 흙은 12,000그램이에요.", "YES"),
        ("가마 한 번에 넣는 흙은 12kg이다.", "가마 한 번에 넣는 흙은 12킬로그램이에요.", "YES"),
        ("화분 높이는 35cm다.", "화분 높이는 35센티예요.", "YES"),
        ("화분 높이는 35cm다.", "화분 높이는 350밀리미터예요.", "YES"),
        ("화분 높이는 35cm다.", "화분 높이는 35미터예요.", "NO"),
        ("종자 발아율은 70%다.", "종자 발아율은 7할이에요.", "YES"),
        ("종자 발아율은 70%다.", "종자 발아율은 6할이에요.", "NO"),
    ],
)
def test_units_spelt_out_read_as_the_units_they_name(expected, answer, verdict):
    assert J.grade_answer("", expected, answer).label == verdict


def test_kilo_alone_is_read_only_by_the_expected_units():
    """킬로 is said for kilograms and kilometres: since lexical-19 the expected statement's units
    say which (tests/test_scoring_lexical_nineteen.py); with both, it stays unread."""
    assert J.grade_answer("", "흙 한 포대는 20kg이다.", "흙 한 포대는 20킬로예요.").label == "YES"
    assert J.grade_answer("", "선로는 20km다.", "선로는 20킬로예요.").label == "YES"
    both = "흙 한 포대는 20kg, 운반 거리는 20km다."
    assert J.grade_answer("", both, "흙 한 포대는 20킬로예요.").label != "YES"


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("3 할인 쿠폰을 드려요.", "%"),  # 할인 (a discount) is no tenth
        ("체험 3 프로그램을 열어요.", "%"),  # 프로그램 starts with 프로 (per cent, spoken)
        ("수강생은 3할 정도예요.", None),
    ],
)
def test_a_word_that_starts_like_a_unit_is_no_unit(text, absent):
    types = [v.type for v in analyse(text).values]
    if absent:
        assert absent not in types
    else:
        assert "%" in types


# ---- noon, midnight ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("전시실은 정오에 열어요.", "YES"),
        ("전시실은 자정에 열어요.", "NO"),
        ("전시실은 밤 12시에 열어요.", "NO"),  # midnight, not noon
        ("전시실은 낮 12시에 열어요.", "YES"),
    ],
)
def test_noon_and_midnight_are_clock_times(answer, verdict):
    expected = "전시실은 오후 12시에 연다."
    assert J.grade_answer("", expected, answer).label == verdict


@pytest.mark.parametrize("answer", ["자정까지 해요.", "밤 12시까지 해요.", "24시까지 해요."])
def test_midnight_is_said_three_ways(answer):
    expected = "야간 관측은 0시까지 한다."
    assert J.grade_answer("야간 관측 몇 시까지 해요?", expected, answer).label == "YES"


# ---- register pairs and openers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("도슨트가 관람객께 사진 촬영 동의를 여쭸습니다.", "YES"),  # humble form of 묻다
        ("도슨트가 관람객께 사진 촬영 동의를 여쭈었어요.", "YES"),
        # 물어보다 is 묻다 with the auxiliary 보다 (try), which stays unverified: "tried to ask"
        ("도슨트가 관람객한테 사진 촬영 동의를 물어봤음.", "PARTIAL"),
        ("도슨트가 관람객께 사진 촬영 동의를 알려 드렸습니다.", "PARTIAL"),  # told, not asked
    ],
)
def test_a_verb_and_its_humble_form_say_the_same_act(answer, verdict):
    expected = "도슨트가 관람객에게 사진 촬영 동의를 물었다."
    assert J.grade_answer("", expected, answer).label == verdict


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("찾아보니 종자 반출 심사는 목요일 오후 3시예요.", "YES"),
        ("알아보니 종자 반출 심사는 목요일 오후 3시예요.", "YES"),
        ("찾아보니 종자 반출 심사는 목요일 오후 4시예요.", "NO"),
    ],
)
def test_saying_where_the_answer_was_looked_up_changes_nothing(answer, verdict):
    expected = "종자 반출 심사는 목요일 오후 3시다."
    assert J.grade_answer("", expected, answer).label == verdict
