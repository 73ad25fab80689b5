"""lexical-7: what the rules changed after the third sealed probe set was graded, each with the case
that would fool it, written here in words none of the probe sets uses (a company dinner, a
warehouse lease, a course length …).

- a subject's words are accounted for like every other word (no exemption for the words before
  은/는), and a word the judge does not know put where an expected (or the question's) word stands,
  before the same word, is NO [substituted];
- a hedge over every expected value is PARTIAL (said, not committed to); one that offers another
  value (또는, 혹은, 아니면, -거나, (이)나 before a number or a latin name) or that leaves a value
  out stays NO; an approximation the expected statement makes itself hedges nothing;
- 반 after a duration is a half (3년 반 = 42개월), 반년 = 6개월; mass and length convert (2톤 =
  2,000kg, 1.2km = 1,200m);
- a clause with a topic naming a slot of its own is no list member (…출시이고, 사전 예약은 …), a
  prefix stays on its noun (재방송 is no 방송);
- the stored (claim, text) verdict is the judge's claim verdict, glossary and abbreviations
  included."""

from __future__ import annotations

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.scoring import glossary, holding, lexical  # noqa: E402
from seorap.engine.scoring.holding import BEFORE, Held  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

J = LexicalJudge()


def grade(expected: str, answer: str, question: str = ""):
    return J.grade_answer(question, expected, answer)


def test_rules_version():
    assert lexical.RULES_VERSION == "lexical-54" == J.rules


# ---- a word in another's place --------------------------------------------------------------------

DINNER = "영업본부 회식 장소는 한우촌이다."


@pytest.mark.parametrize(
    "answer, question, expected",
    [
        ("기획본부 회식 장소는 한우촌입니다.", "", DINNER),
        ("기획본부의 회식 장소는 한우촌입니다.", "", DINNER),  # 의 between: the same phrase
        ("기획본부 회식 장소는 한우촌이에요.", "영업본부 회식 장소는 어디예요?", "한우촌"),
        ("냉동창고 입고 물량은 주 40톤입니다.", "", "냉동창고 출고 물량은 주 40톤이다."),
    ],
)
def test_another_owner_in_the_same_place_is_no(answer, question, expected):
    v = grade(expected, answer, question)
    assert v.label == "NO", v.rationale


def test_the_swap_names_where_the_word_was():
    v = grade("한우촌", "기획본부 회식 장소는 한우촌이에요.", "영업본부 회식 장소는 어디예요?")
    assert "[substituted]" in v.rationale and "the question has «영업본부»" in v.rationale
    v = grade(DINNER, "기획본부 회식 장소는 한우촌입니다.")
    assert "the expected statement has «영업본부»" in v.rationale


def test_a_swap_the_position_rule_cannot_see_is_still_not_credited():
    # 쪽 between the owner and the rest: no substitution read, but the owner is unaccounted for
    for question, expected in (("", DINNER), ("영업본부 회식 장소는 어디예요?", "한우촌")):
        v = grade(expected, "기획본부 쪽 회식 장소는 한우촌입니다.", question)
        assert v.label == "PARTIAL" and "기획" in v.rationale, v.rationale


def test_no_owner_named_and_neutral_words_are_no_swap():
    assert grade(DINNER, "이번 회식 장소는 한우촌입니다.").label != "NO"
    assert (
        grade("한우촌", "회식 장소는 한우촌이에요.", "영업본부 회식 장소는 어디예요?").label
        == "YES"
    )


def test_a_subject_worded_otherwise_is_not_credited():
    # the exemption lexical-6 gave a subject that shares one word with E is gone: the other words
    # of the subject must be accounted for too
    v = grade(
        "한우촌", "영업본부 연말 모임 때 가는 곳은 한우촌이에요.", "영업본부 회식 장소는 어디예요?"
    )
    assert v.label == "PARTIAL" and "연말, 모임" in v.rationale
    # in the question's word's place a paraphrase reads as another thing: NO, where a person who
    # knows the 송년 행사 is the 회식 would say YES (the judge fails closed)
    v = grade("한우촌", "영업본부 송년 행사 장소는 한우촌이에요.", "영업본부 회식 장소는 어디예요?")
    assert v.label == "NO" and "«행사» where the question has «회식»" in v.rationale


# ---- hedges ---------------------------------------------------------------------------------------


def test_a_hedge_over_the_right_value_is_partial_and_an_offered_other_value_no():
    v = grade(DINNER, "영업본부 회식은 아마 한우촌에서 할 거예요.")
    assert v.label == "PARTIAL" and "[hedge]" in v.rationale
    assert grade("교육장은 2층이다.", "교육장은 2층이나 3층입니다.").label == "NO"
    assert grade("교육장은 2층이다.", "교육장은 2층 아니면 3층입니다.").label == "NO"
    assert grade("교육장은 2층이다.", "교육장은 아마 3층일 거예요.").label == "NO"  # wrong value
    # (이)나 before a Hangul name is not read as an offer: the other name is unverified, PARTIAL
    v = grade(DINNER, "영업본부 회식 장소는 한우촌이나 일미정일 거예요.")
    assert v.label == "PARTIAL"


def test_an_approximation_the_expected_statement_makes_hedges_nothing():
    assert grade("하루 폐기물은 약 2톤이다.", "하루 폐기물은 2,000kg 정도예요.").label == "YES"
    assert grade("하루 폐기물은 2톤이다.", "하루 폐기물은 2,000kg 정도예요.").label == "PARTIAL"


# ---- values ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expected, answer, label",
    [
        ("물류센터 임대 기간은 3년 반이다.", "물류센터 임대 기간은 42개월입니다.", "YES"),
        ("물류센터 임대 기간은 3년 반이다.", "물류센터 임대 기간은 36개월입니다.", "NO"),
        ("정비 시간은 1시간 반이다.", "정비 시간은 90분입니다.", "YES"),
        ("시범 운영 기간은 반년이다.", "시범 운영 기간은 6개월이에요.", "YES"),
        ("시범 운영 기간은 반년이다.", "시범 운영 기간은 5개월이에요.", "NO"),
        ("하루 폐기물은 2톤이다.", "하루 폐기물은 2,000kg이에요.", "YES"),
        ("하루 폐기물은 2톤이다.", "하루 폐기물은 200kg이에요.", "NO"),
        ("코스 길이는 1.2km다.", "코스 길이는 1,200m입니다.", "YES"),
        ("코스 길이는 1.2km다.", "코스 길이는 1,500m입니다.", "NO"),
    ],
)
def test_halves_and_units(expected, answer, label):
    assert grade(expected, answer).label == label


def test_a_word_starting_with_ban_is_no_half():
    assert lexical.values("3년 반기 실적")[0].key == ("3",)


# ---- several slots ----------------------------------------------------------------------------------


def test_a_clause_naming_its_own_slot_is_no_second_value():
    q = "개관일이 언제예요?"
    e = "개관일은 3월 2일이다."
    assert grade(e, "3월 2일 개관이고, 사전 관람은 2월 27일부터입니다.", q).label == "YES"
    # the same slot named again (개관 날짜) with another date is a second value
    assert grade(e, "3월 2일 개관이고, 개관 날짜는 3월 9일입니다.", q).label == "NO"
    # a prefix makes another slot: 재개관 is no 개관
    assert grade(e, "3월 2일에 개관하고 재개관은 4월 1일입니다.", q).label != "NO"


# ---- the stored verdict reads names as the judge does ---------------------------------------------


@pytest.fixture
def aliases(tmp_path):
    (tmp_path / "glossary.tsv").write_text("Aurora\t오로라\n", encoding="utf-8")
    return glossary.load(tmp_path)


CLAIM = "DB 이전 대상은 Aurora"
FACT = "DB 이전 대상은 오로라로 결정"


def test_the_stored_verdict_is_the_judges_claim_verdict_with_its_glossary(aliases):
    judge = LexicalJudge(glossary=aliases)
    assert judge.grade_claim(CLAIM, [FACT]).label == "YES"
    assert not lexical.holds(CLAIM, FACT)  # the value rules alone: 오로라 is no Aurora
    with holding.recording(aliases=aliases) as pairs:
        assert holding.verdict(CLAIM, FACT)
    assert pairs == {(CLAIM, FACT): True}
    with holding.recording() as pairs:  # a corpus without the entry
        assert not holding.verdict(CLAIM, FACT)
    # a view computing on read uses the run's corpus glossary, read once
    reads = []
    held = Held({}, BEFORE, aliases=lambda: reads.append(1) or aliases)
    assert held(CLAIM, FACT) and held(CLAIM, "DB 이전 대상은 오로라") and reads == [1]


def test_an_abbreviation_the_judge_reads_is_held_too():
    claim, fact = "검진 기관은 부산대학교병원", "검진 기관은 부산대병원"
    assert LexicalJudge().grade_claim(claim, [fact]).label == "YES"
    with holding.recording():
        assert holding.verdict(claim, fact)
