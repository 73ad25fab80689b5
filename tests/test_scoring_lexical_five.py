"""lexical-5: each rule new in this version with the case that would fool a judge without it, and
the case that would fool the rule itself, in words the rule was not written from (other nouns,
names and verbs than the rule's docstring and the fresh probes use). The fresh probes that led to
the rules are graded in tests/test_judge_fresh_probes.py."""

from __future__ import annotations

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine import normalise  # noqa: E402
from seorap.engine.scoring import lexical  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

J = LexicalJudge()


def grade(expected, answer, question=""):
    return J.grade_answer(question, expected, answer)


def label(expected, answer, question=""):
    return grade(expected, answer, question).label


def test_rules_version():
    assert lexical.RULES_VERSION == "lexical-54" and J.rules == "lexical-54"


# ---- wrong subject ---------------------------------------------------------------------------------


def test_the_value_said_of_another_person_is_no():
    v = grade("오 주임의 복귀일은 9월 14일이다.", "윤 주임 복귀가 9월 14일이에요.")
    assert v.label == "NO" and "[wrong-subject]" in v.rationale


def test_the_value_said_of_another_described_thing_is_no():
    v = grade("태블릿 판매 개시는 11월이다.", "노트북 모델 판매 개시가 11월이에요.")
    assert v.label == "NO" and "[wrong-subject]" in v.rationale


def test_a_subject_reworded_or_left_out_is_no_wrong_subject():
    # a derived form of a subject word, or the subject left to the question: each still states
    # the value about the same thing
    assert (
        label("장학금 신청 접수 마감은 10월 2일이다.", "장학금 신청서는 10월 2일까지 받아요.")
        == "YES"
    )
    # a subject word reworded into one the judge cannot tie to the expected one is unverified
    # (since lexical-7 a subject's words are accounted for like every other word): not wrong,
    # not credited either — the judge fails closed
    v = grade("Premium 구독료는 월 9,900원이다.", "Premium 멤버십은 매달 9,900원이에요.")
    assert v.label == "PARTIAL" and "멤버십" in v.rationale
    assert (
        label("오 주임의 복귀일은 9월 14일이다.", "9월 14일이에요.", "오 주임 언제 복귀해요?")
        == "YES"
    )


# ---- lists -----------------------------------------------------------------------------------------


def test_a_listed_value_with_a_member_left_out_is_not_yes():
    assert label("점심 메뉴는 김밥과 라면이다.", "점심 메뉴는 김밥이에요.") == "PARTIAL"
    # the same members in another order and with another connective
    assert label("점심 메뉴는 김밥과 라면이다.", "점심 메뉴는 라면하고 김밥이에요.") == "YES"


def test_a_place_listed_beside_the_expected_one_is_not_yes():
    assert (
        label("창립 기념 행사는 부산에서 연다.", "창립 기념 행사는 부산이랑 대구에서 열려요.")
        != "YES"
    )
    assert label("창립 기념 행사는 부산에서 연다.", "창립 기념 행사는 부산에서 열려요.") == "YES"


def test_a_noun_joined_by_the_copula_is_a_list_member():
    assert label("준비물은 노트북이다.", "준비물은 노트북이고 충전기예요.") != "YES"
    # -이고 joining two clauses, each with its own topic, lists nothing: asked about the product,
    # the second clause is what else the answer knows; without a question it is a claim nothing
    # supports (lexical-9), still no list
    e, a = "가입 상품은 실속형이다.", "가입 상품은 실속형이고, 월 납입액은 3만 원이에요."
    assert label(e, a, "가입 상품이 뭐예요?") == "YES"
    assert label(e, a) == "PARTIAL"


# ---- contrast: 아니라 and words set aside ------------------------------------------------------------


def test_a_replaced_value_before_anira_is_no_negation_of_the_new_one():
    assert label("점검 요일은 목요일이다.", "점검은 화요일이 아니라 목요일이에요.") == "YES"
    assert label("점검 요일은 목요일이다.", "점검은 목요일이 아니라 화요일이에요.") == "NO"


def test_a_word_value_set_aside_is_no():
    assert label("행사 장소는 강당이다.", "행사 장소는 강당이 아니라 체육관이에요.") == "NO"
    v = grade("사은품은 우산이다.", "사은품은 우산 대신 손수건으로 바뀌었어요.")
    assert v.label == "NO" and "[contrast]" in v.rationale
    # the replacement is the expected value
    assert label("사은품은 손수건이다.", "사은품은 우산 대신 손수건으로 바뀌었어요.") == "YES"


# ---- negation and conditions that are neutral --------------------------------------------------------


def test_a_negating_adverb_agreeing_with_the_expected_negation_is_neutral():
    assert label("주말에는 배송하지 않는다.", "주말엔 배송 안 해요.") == "YES"
    assert label("주말에도 배송한다.", "주말엔 배송 안 해요.") == "NO"


def test_need_only_and_time_passing_are_no_condition():
    assert label("등록은 금요일까지다.", "금요일까지 등록하면 돼요.") == "YES"
    assert label("세션 만료 시간은 30분이다.", "세션은 30분 넘으면 만료돼요.") == "YES"
    # a condition that may not be met leaves the value unverified
    v = grade("배포는 금요일이다.", "승인 나면 금요일에 배포해요.")
    assert v.label != "YES"
    assert label("세션 만료 시간은 30분이다.", "세션은 아마 30분 넘으면 만료돼요.") != "YES"
    # time passing followed by something the expected statement does not say is a condition
    assert label("동기화는 15분마다 돈다.", "동기화는 15분 넘으면 오류로 끊겨요.") != "YES"


def test_a_member_left_out_by_wording_is_a_retraction():
    # the clause of 나유진 is not the one stating E best: its marker leaves the value unverified
    v = grade("발표자는 구하람과 나유진이다.", "발표자는 구하람이고 나유진은 빠졌어요.")
    assert v.label == "PARTIAL" and "retraction next to a value" in v.rationale
    assert label("참석자는 민도현과 서아린이다.", "참석자는 민도현이고 서아린은 빠졌어요.") != "YES"
    assert label("발표자는 구하람이다.", "발표자는 구하람이에요.") == "YES"


# ---- words around a value ----------------------------------------------------------------------------


def test_a_party_noun_matches_its_stem():
    assert label("채점자는 오 선생님이다.", "채점은 오 선생님이 하세요.") == "YES"
    # another one-syllable surname: not credited (PARTIAL: the judge reads no person value in it)
    assert label("채점자는 오 선생님이다.", "채점은 우 선생님이 하세요.") != "YES"


def test_a_team_written_with_a_space_is_the_team():
    assert label("세무 신고는 회계팀이 맡는다.", "세무 신고는 회계 팀에서 맡아요.") == "YES"
    assert label("세무 신고는 회계팀이 맡는다.", "세무 신고는 인사 팀에서 맡아요.") == "NO"


def test_a_value_naming_the_subject_anchors_the_clause():
    assert label("3호관 개방 시간은 오전 9시다.", "3호관은 오전 9시에 문 열어요.") == "YES"
    assert label("3호관 개방 시간은 오전 9시다.", "4호관은 오전 9시에 문 열어요.") == "NO"


def test_a_word_naming_the_kind_of_place_is_not_required():
    assert label("졸업식 장소는 대강당이다.", "졸업식은 대강당에서 해요.") == "YES"
    assert label("졸업식 장소는 대강당이다.", "졸업식은 소강당에서 해요.") != "YES"


def test_a_school_and_a_company_in_their_short_forms():
    assert label("자문 기관은 부경대학교다.", "자문 기관은 부경대예요.") == "YES"
    assert label("자문 기관은 부경대학교다.", "자문 기관은 부산외대예요.") == "NO"
    assert label("납품 업체는 주식회사 다온이다.", "납품 업체는 ㈜다온이에요.") == "YES"


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("부경대학교", "부경대"),
        ("부경대", "부경대"),
        ("한빛고등학교", "한빛고"),
        ("새솔중학교", "새솔중"),
        ("가람초등학교", "가람초"),
        ("주식회사 다온", "다온"),
        ("다온(주)", "다온"),
        ("㈜다온", "다온"),
        ("서울시립대", "서울시립대"),
        ("대학교", "대학교"),
        ("Aurora", "aurora"),
    ],
)
def test_name_key(name, key):
    assert normalise.name_key(name) == key


def test_holds_does_not_count_a_word_value_set_aside():
    # the stale-fact count reads the same contrast rule
    assert not lexical.holds("사은품은 우산", "사은품은 우산 대신 손수건")
    assert lexical.holds("사은품은 손수건", "사은품은 우산 대신 손수건")


def test_a_name_said_as_the_modifier_of_another_thing_is_unverified():
    v = grade("자문 기관은 부경대학교다.", "자문 기관은 부경대학교 병원이에요.")
    assert v.label == "PARTIAL" and "«부경대학교 병원»" in v.rationale
    # a name in the answer's subject, or a team followed by its role, is not read so
    assert label("Premium 구독료는 월 9,900원이다.", "Premium 요금은 매달 9,900원이에요.") == "YES"
    assert label("야간 점검은 설비팀이 한다.", "야간 점검은 설비팀 담당이에요.") == "YES"


def test_a_bound_is_not_the_value():
    # a lower or upper bound the expected statement does not make
    assert label("예산은 2억 원이다.", "예산은 2억 원 이상이에요.") != "YES"
    assert label("예산은 2억 원이다.", "예산은 최소 2억 원이에요.") != "YES"
    assert label("배송은 3일 걸린다.", "배송은 최대 3일 걸려요.") != "YES"
    assert label("디스크는 2TB다.", "디스크는 2TB까지 늘릴 수 있어요.") != "YES"
    # the expected value is itself a limit, or makes the same bound
    assert label("대기 시간 목표는 2초다.", "대기 시간은 2초 이내가 목표예요.") == "YES"
    assert label("참가 인원은 10명 이상이다.", "참가 인원은 10명 이상이에요.") == "YES"


def test_a_value_that_starts_a_from_phrase_is_former():
    # A … 에서 B … 로 옮기다: A is the former value even with a word between A and 에서
    assert label("창고는 인천 센터에 있다.", "창고는 인천 센터에서 평택 센터로 옮겼어요.") == "NO"
    assert label("창고는 평택 센터에 있다.", "창고는 인천 센터에서 평택 센터로 옮겼어요.") == "YES"
    # a subject before 에서 is no former value (DB는 … 에서 …로)
    assert (
        label("결제 DB는 MariaDB로 바뀌었다.", "결제 DB는 Oracle 19에서 MariaDB로 옮겼어요.")
        == "YES"
    )
