"""lexical-4: the judge fails closed. One case per class of the judge issue, each the case that would
fool a judge without the rule, written in words the rules were not written from (other nouns,
verbs and endings than the rule lists and the fresh probes use)."""

from __future__ import annotations

import datetime as dt

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.scoring import lexical  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

J = LexicalJudge()
D = dt.date


def grade(expected, answer, question="", expected_date=None, answer_date=None):
    return J.grade_answer(
        question, expected, answer, expected_date=expected_date, answer_date=answer_date
    )


CASES = [
    # contrast and replacement: the phrase before the word is set aside
    (
        "contrast",
        "사무실 임대 계약은 김포 물류센터로 한다.",
        "김포 물류센터 대신 평택 센터와 계약합니다.",
        {"NO"},
    ),
    (
        "contrast",
        "사내 위키는 Confluence를 쓴다.",
        "위키는 Confluence 말고 Notion으로 옮겼어요.",
        {"NO"},
    ),
    (
        "contrast",
        "서버 증설은 Kubernetes로 한다.",
        "Kubernetes는 옛날 얘기고 요즘은 Nomad로 해요.",
        {"NO"},
    ),
    # negation by a postposition or an adverb
    (
        "negation",
        "점심 회식은 한식당에서 한다.",
        "점심 회식은 한식당이 아니라 중식당이에요.",
        {"NO"},
    ),
    (
        "negation",
        "출장 경비는 법인카드로 결제한다.",
        "출장 경비는 법인카드 없이 개인 카드로 결제합니다.",
        {"NO"},
    ),
    # hedges as classes: approximation, likelihood, hearsay, a guess construction (since
    # lexical-7 PARTIAL over the right value: it is said, not committed to)
    (
        "hedge",
        "고객 설문 마감은 11월 3일이다.",
        "고객 설문 마감은 11월 3일쯤이라네요.",
        {"PARTIAL"},
    ),
    (
        "hedge",
        "고객 설문 마감은 11월 3일이다.",
        "고객 설문 마감은 대략 11월 3일일 가능성이 높아요.",
        {"PARTIAL"},
    ),
    (
        "hedge",
        "연말 파티는 12월 19일에 한다.",
        "연말 파티는 12월 19일에 할 것 같아요.",
        {"PARTIAL"},
    ),
    ("hedge", "연말 파티는 12월 19일에 한다.", "연말 파티는 12월 18일에 할 것 같아요.", {"NO"}),
    # retraction in other words
    (
        "retraction",
        "연말 파티는 12월 19일에 한다.",
        "연말 파티는 12월 19일로 잡았다가 없던 일이 됐어요.",
        {"NO"},
    ),
    (
        "retraction",
        "연말 파티는 12월 19일에 한다.",
        "12월 19일 연말 파티는 결국 포기했습니다.",
        {"NO"},
    ),
    # a list by any connective: one member too many
    (
        "list",
        "신규 채널은 유튜브와 인스타그램이다.",
        "신규 채널은 유튜브, 인스타그램 그리고 틱톡도 합니다.",
        {"NO"},
    ),
    # one value of a slot against another of the same kind (common nouns): NO, not PARTIAL
    ("opposite-slot", "사내 교육은 대면으로 진행한다.", "사내 교육은 원격으로 진행합니다.", {"NO"}),
    ("opposite-slot", "분기 회고는 매달 한다.", "분기 회고는 매년 해요.", {"NO"}),
    (
        "opposite-slot",
        "야근 식대는 회사가 부담한다.",
        "야근 식대는 유료로 바뀌었고 직원 부담입니다.",
        {"NO", "PARTIAL"},
    ),
    # the subject: teams and people are values of the slot "who"
    ("wrong-subject", "배포 승인은 품질팀이 한다.", "배포 승인은 운영팀이 합니다.", {"NO"}),
    ("wrong-subject", "발표자는 한지민 과장이다.", "발표자는 한지수 과장입니다.", {"NO"}),
    # one-syllable noun inside a compound: the team's full name
    (
        "compound-noun",
        "배포 승인은 품질팀이 한다.",
        "배포 승인은 품질관리팀에서 맡습니다.",
        {"YES"},
    ),
    # dates, units, money (the normaliser)
    ("date-format", "계약 만료일은 2027년 1월 9일이다.", "계약은 2027. 1. 9.에 만료돼요.", {"YES"}),
    ("date-format", "계약 만료일은 2027년 1월 9일이다.", "계약 만료: 27/01/09", {"YES"}),
    ("date-format", "계약 만료일은 2027년 1월 9일이다.", "계약은 2027. 1. 19.에 만료돼요.", {"NO"}),
    ("unit", "업로드 한도는 2GB다.", "업로드 한도는 2,000MB입니다.", {"YES"}),
    ("unit", "캐시 만료는 90초다.", "캐시 만료는 1분 30초예요.", {"YES"}),
    ("unit", "캐시 만료는 90초다.", "캐시 만료는 1분 20초예요.", {"NO"}),
    ("unit", "연구비는 2억 5천만 원이다.", "연구비는 2.5억 원입니다.", {"YES"}),
    ("unit", "연구비는 2억 5천만 원이다.", "연구비는 25,000,000원입니다.", {"NO"}),
    ("unit", "연구비는 2억 5천만 원이다.", "연구비는 250만 달러입니다.", {"NO"}),
    ("unit", "보증 기간은 24개월이다.", "보증 기간은 2년이에요.", {"YES"}),
    ("unit", "보증 기간은 24개월이다.", "보증 기간은 3년이에요.", {"NO"}),
    # a clause joined by -고 left out: missing (PARTIAL), not a conflict
    (
        "missing-clause",
        "마케팅 예산을 늘리고 광고 대행사는 바꾼다.",
        "마케팅 예산은 늘립니다.",
        {"PARTIAL"},
    ),
    # a predicate in other words while every value is there
    ("predicate", "보안 점검은 한빛보안이 맡는다.", "보안 점검 담당은 한빛보안이에요.", {"YES"}),
]


@pytest.mark.parametrize(("cls", "expected", "answer", "allowed"), CASES)
def test_class_case(cls, expected, answer, allowed):
    v = grade(expected, answer)
    assert v.label in allowed, f"{cls}: {v.rationale}"
    assert v.rationale.startswith(v.label)


@pytest.mark.parametrize(
    ("answer", "answer_date", "label"),
    [
        ("워크숍은 4월 16일이에요.", D(2026, 4, 8), "YES"),  # 다음 주 목요일 from Wed 8 April
        ("워크숍은 4월 9일이에요.", D(2026, 4, 8), "NO"),  # this week's Thursday
    ],
)
def test_relative_date_in_the_expected_statement(answer, answer_date, label):
    v = grade(
        "워크숍은 다음 주 목요일이다.", answer, expected_date=D(2026, 4, 8), answer_date=answer_date
    )
    assert v.label == label, v.rationale


def test_relative_date_in_the_answer_needs_its_reference():
    e = "워크숍은 4월 10일이다."
    assert grade(e, "워크숍은 모레예요.", answer_date=D(2026, 4, 8)).label == "YES"
    assert grade(e, "워크숍은 모레예요.", answer_date=D(2026, 4, 9)).label == "NO"
    # unresolvable (no reference date) or a period, not a day: PARTIAL, never YES
    assert grade(e, "워크숍은 모레예요.").label == "PARTIAL"
    assert grade(e, "워크숍은 다음 주 초예요.", answer_date=D(2026, 4, 1)).label == "PARTIAL"


def test_unknown_words_next_to_a_value_are_unverified():
    # an adverb and an ending the judge has no class for: PARTIAL with the words named
    v = grade("회의실 예약은 3층 대회의실이다.", "회의실 예약은 웬만하면 3층 대회의실이겠죠.")
    assert v.label != "YES"
    v = grade("배포 창은 화요일 22시다.", "배포 창은 되도록 화요일 22시예요.")
    assert v.label == "PARTIAL" and "unverified" in v.rationale and "되도록" in v.rationale


def test_a_retraction_in_a_clause_of_its_own_is_not_ignored():
    v = grade(
        "사내 해커톤은 5월 2일에 연다.", "5월 2일 해커톤 하려던 거, 예산 문제로 결국 접었어요."
    )
    assert v.label != "YES"


def test_holds_does_not_count_a_value_set_aside():
    # the stale-fact count: a fact that replaces the stale value does not state it
    assert not lexical.holds("메신저는 Slack", "메신저는 Slack 대신 Teams")
    assert lexical.holds("메신저는 Teams", "메신저는 Slack 대신 Teams")


def test_rules_version_is_recorded():
    assert lexical.RULES_VERSION == "lexical-54" and J.rules == "lexical-54"


def test_a_hedge_class_in_a_clause_about_something_else_hedges_nothing():
    # answers to a question: a clause about another slot is what else the answer knows of the
    # asked matter (without a question it is a claim nothing supports: PARTIAL [unverified], since
    # lexical-9 — never a hedge)
    e = "데이터 복제는 AWS DMS로 진행한다."
    a = "데이터 복제는 AWS DMS로 진행합니다. / 운영 DB 용량은 약 3TB입니다."
    q = "데이터 복제는 무엇으로 해요?"
    assert grade(e, a, q).label == "YES"
    assert "[unverified]" in grade(e, a).rationale
    assert grade(e, "데이터 복제는 대략 AWS DMS로 진행합니다.", q).label == "PARTIAL"  # hedged
    # a merged fact: the approximation is about the cost, in a clause of its own
    e = "알림 채널은 앱 푸시와 카카오 알림톡이다."
    a = "알림 채널은 앱 푸시와 카카오 알림톡, 알림톡 발송 비용은 월 약 320만 원."
    assert grade(e, a, "알림 채널이 뭐예요?").label == "YES"
